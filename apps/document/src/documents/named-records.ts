/**
 * The records a document names (outgoing: its owner, type, file, sharing groups and users, the
 * people and positions of its oversight) checked against this service's projections and files.
 * Not to be confused with a *-refs.ts, which is what a resource publishes to the others.
 */
import { FieldError, badRequest, notFound } from '@ddm/contracts';
import { Queryable, sql } from '@ddm/platform';

/** The key a person named for a step must hold. */
const NAMED_KEYS: Readonly<Record<string, string>> = { reviewerUserId: 'review:documents', approverUserId: 'approve:documents' };

/** The records a document names, as a change sends them (each with the request field that carried it). */
export interface NamedRecords {
  ownerId?: string;
  documentTypeId?: string | null;
  fileId?: string | null;
  groupIds?: readonly string[];
  userIds?: readonly string[];
  /** responsibleUserId, reviewerUserId, approverUserId -> id */
  people?: Readonly<Record<string, string | null | undefined>>;
  /** responsiblePositionId, reviewerPositionId, approverPositionId -> id */
  positions?: Readonly<Record<string, string | null | undefined>>;
}

/** Group id -> its type, for each live group of the tenant named. */
export type KnownGroups = Map<string, string | null>;

/**
 * Checks in one statement that every record named is the tenant's and live, in this service's
 * projections (members, groups, positions, document types) and files (a complete upload of the
 * tenant): a 404 naming each one that is not, with the field that carried it.
 */
export async function requireNamedRecords(q: Queryable, tenantId: string, sent: NamedRecords): Promise<KnownGroups> {
  const lower = (id: string | null | undefined) => id?.toLowerCase() ?? null;
  const people = Object.entries(sent.people ?? {}).filter((e): e is [string, string] => !!e[1]).map(([f, id]) => [f, id.toLowerCase()] as const);
  const positions = Object.entries(sent.positions ?? {}).filter((e): e is [string, string] => !!e[1]).map(([f, id]) => [f, id.toLowerCase()] as const);
  const groupIds = (sent.groupIds ?? []).map((id) => id.toLowerCase());
  const userIds = [...(sent.userIds ?? []).map((id) => id.toLowerCase()), ...people.map(([, id]) => id), ...(sent.ownerId ? [sent.ownerId.toLowerCase()] : [])];
  const rows = await q.query<{ kind: string; id: string; extra: string | null }>(sql`
    SELECT 'user' AS kind, id, array_to_string(keys, ',') AS extra FROM document.user_projection WHERE tenant_id = ${tenantId} AND id = ANY(${[...new Set(userIds)]}::uuid[]) AND status <> 'DELETED'
    UNION ALL
    SELECT 'group', id, tenant_group_type_id::text FROM document.group_projection WHERE tenant_id = ${tenantId} AND id = ANY(${[...new Set(groupIds)]}::uuid[]) AND NOT is_deleted
    UNION ALL
    SELECT 'position', id, NULL FROM document.position_projection WHERE tenant_id = ${tenantId} AND id = ANY(${positions.map(([, id]) => id)}::uuid[]) AND NOT is_deleted
    UNION ALL
    SELECT 'type', id, NULL FROM document.document_type_projection WHERE tenant_id = ${tenantId} AND id = ${lower(sent.documentTypeId)}::uuid AND NOT is_deleted
    UNION ALL
    SELECT 'file', id, NULL FROM document.files WHERE tenant_id = ${tenantId} AND id = ${lower(sent.fileId)}::uuid AND complete`);
  const found = (kind: string) => new Map(rows.filter((r) => r.kind === kind).map((r) => [r.id, r.extra]));
  const users = found('user');
  const groups = found('group');
  const knownPositions = found('position');
  const errors: FieldError[] = [];
  if (sent.ownerId && !users.has(sent.ownerId.toLowerCase())) errors.push({ field: 'documentOwnerId', message: `User ${sent.ownerId} is not a member of the tenant` });
  if (sent.documentTypeId && !found('type').has(sent.documentTypeId.toLowerCase())) errors.push({ field: 'documentTypeId', message: `Document type ${sent.documentTypeId} not found` });
  if (sent.fileId && !found('file').has(sent.fileId.toLowerCase())) errors.push({ field: 'fileId', message: `File ${sent.fileId} not found` });
  (sent.groupIds ?? []).forEach((id, i) => {
    if (!groups.has(id.toLowerCase())) errors.push({ field: `documentSharingGroups.${i}.groupId`, message: `Group ${id} not found` });
  });
  (sent.userIds ?? []).forEach((id, i) => {
    if (!users.has(id.toLowerCase())) errors.push({ field: `documentSharingUsers.${i}.userId`, message: `User ${id} is not a member of the tenant` });
  });
  for (const [field, id] of people) if (!users.has(id)) errors.push({ field, message: `User ${id} is not a member of the tenant` });
  if (!errors.length) {
    // A named reviewer or approver must hold the key of the step (checked where the auth area tells the user's keys).
    const problems: FieldError[] = [];
    for (const [field, id] of people) {
      const key = NAMED_KEYS[field];
      const keys = users.get(id);
      if (key && keys !== null && keys !== undefined && !keys.split(',').includes(key)) problems.push({ field, message: `User ${id} does not hold "${key}"` });
    }
    if (problems.length) throw badRequest(`Invalid input: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`, problems);
  }
  for (const [field, id] of positions) if (!knownPositions.has(id)) errors.push({ field, message: `Position ${id} not found` });
  if (errors.length) throw notFound(errors.length === 1 ? errors[0].message : `Records not found: ${errors.map((e) => e.message).join('; ')}`, errors);
  return groups;
}
