/**
 * Who a delegation or a role names (recipients, role designees), with no I/O: each names what its
 * type needs (a person, a position, or both; 400 naming the field). That each exists in the tenant
 * (404 naming it) is read with them (requireRecipients, core/delegation.sql.ts).
 */
import { FieldError, badRequest } from '@ddm/contracts';

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
