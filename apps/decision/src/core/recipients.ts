/**
 * Who a delegation or a role names (recipients, role designees): each names what its type needs (a
 * person, a position, or both; 400 naming the field), and each exists in the tenant (404 naming it).
 */
import { AppError, ErrorCode, FieldError, badRequest } from '@ddm/contracts';
import { Queryable } from '@ddm/platform';
import { knownPeople } from './delegation.sql';

export interface Person {
  recipientUserId: string | null;
  recipientPositionId: string | null;
}
/** The field names of a person in a request (recipientUserId, designeeUserId, ...). */
export interface PersonNames {
  user: string;
  position: string;
}
export const RECIPIENT_NAMES: PersonNames = { user: 'recipientUserId', position: 'recipientPositionId' };

/** Each recipient names what its type needs: a person, a position, or both. */
export function refuseBadRecipients(type: string, recipients: readonly Person[], field = 'delegationRecipients', names: PersonNames = RECIPIENT_NAMES): void {
  const errors: FieldError[] = [];
  recipients.forEach((r, i) => {
    if (type !== 'POSITION_ONLY' && !r.recipientUserId) errors.push({ field: `${field}.${i}.${names.user}`, message: `is required for ${type}` });
    if (type !== 'SPECIFIC_PERSONNEL' && !r.recipientPositionId) errors.push({ field: `${field}.${i}.${names.position}`, message: `is required for ${type}` });
    if (type === 'POSITION_ONLY' && r.recipientUserId) errors.push({ field: `${field}.${i}.${names.user}`, message: 'must be empty for POSITION_ONLY' });
    if (type === 'SPECIFIC_PERSONNEL' && r.recipientPositionId) errors.push({ field: `${field}.${i}.${names.position}`, message: 'must be empty for SPECIFIC_PERSONNEL' });
  });
  const seen = new Set<string>();
  recipients.forEach((r, i) => {
    const key = `${r.recipientUserId}|${r.recipientPositionId}`;
    if (seen.has(key)) errors.push({ field: `${field}.${i}`, message: 'names the same recipient twice' });
    seen.add(key);
  });
  if (errors.length) throw badRequest(`Invalid recipients: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, errors);
}

/** Recipients are members and positions of the tenant (404 naming each unknown one). */
export async function requireRecipients(tx: Queryable, tenantId: string, recipients: readonly Person[], field = 'delegationRecipients', names: PersonNames = RECIPIENT_NAMES): Promise<void> {
  const userIds = [...new Set(recipients.flatMap((r) => (r.recipientUserId ? [r.recipientUserId] : [])))];
  const positionIds = [...new Set(recipients.flatMap((r) => (r.recipientPositionId ? [r.recipientPositionId] : [])))];
  const unknown = unknownRecipients(await knownPeople(tx, tenantId, userIds, positionIds), recipients, field, names);
  if (unknown) throw unknown;
}

/** The 404 naming each recipient the tenant does not have (`known`: the members and positions it has, as knownPeople answers), or null. */
export function unknownRecipients(known: readonly { kind: string; id: string }[], recipients: readonly Person[], field = 'delegationRecipients', names: PersonNames = RECIPIENT_NAMES): AppError | null {
  const has = new Set(known.map((f) => `${f.kind}:${f.id}`));
  const errors: FieldError[] = [];
  recipients.forEach((r, i) => {
    if (r.recipientUserId && !has.has(`user:${r.recipientUserId}`)) errors.push({ field: `${field}.${i}.${names.user}`, message: `User ${r.recipientUserId} is not a member of the tenant` });
    if (r.recipientPositionId && !has.has(`position:${r.recipientPositionId}`)) errors.push({ field: `${field}.${i}.${names.position}`, message: `Position ${r.recipientPositionId} not found` });
  });
  return errors.length ? new AppError(ErrorCode.NotFound, errors.map((e) => e.message).join('; '), errors) : null;
}
