/**
 * The organisation as the decision area keeps it: its copies of auth's members and settings'
 * positions and groups (the projections the delegation rules read), with their history. Applying a
 * state of a member, position or group is the same whether an event brings it (consumers/) or the
 * reorg what-if proposes it: the row, its history, then the delegations naming it checked again.
 */
import { Queryable, Tx, applyVersionedProjection } from '@ddm/platform';
import { ValidityChange } from './delegation.types';
import { revalidateChanges } from './invalidation';
import { recordGroup, recordHoldings, recordManager } from './organisation-history';

export const USER_TABLE = 'decision.user_projection';
export const POSITION_TABLE = 'decision.position_projection';
export const GROUP_TABLE = 'decision.group_projection';

/** The columns of a member's row in decision.user_projection (a row per tenant and user). */
export const USER_COLUMNS = ['email', 'name', 'display_name', 'profile_image_url', 'status', 'manager_id', 'position_ids', 'group_ids', 'permission_keys'] as const;
export type UserColumns = {
  email: string;
  name: string | null;
  display_name: string | null;
  profile_image_url: string | null;
  status: string;
  manager_id: string | null;
  position_ids: string[];
  group_ids: string[];
  permission_keys: string[];
};

/** The columns of a position's row in decision.position_projection. */
export type PositionColumns = {
  position_name: string;
  status: string;
  is_deleted: boolean;
  group_ids: string[];
};

/** The columns of a group's row in decision.group_projection. */
export const GROUP_COLUMNS = ['group_name', 'display_name', 'tenant_group_type_id', 'is_deleted', 'status', 'parent_group_ids'] as const;
export type GroupColumns = {
  group_name: string;
  display_name: string | null;
  tenant_group_type_id: string | null;
  is_deleted: boolean;
  status: string;
  parent_group_ids: string[];
};

/**
 * What follows a change of a member's row, in its transaction: the history "as of an instant"
 * reads (positions held, only while the member is ACTIVE; the reporting line), then every delegation the change can reach through
 * the rules checked again (reachOfMembers: the person's, those of the positions they hold or left
 * and, when their manager changed or they left the tenant, those of everyone below them). Answers the delegations whose
 * validity changed.
 */
export async function userChanged(tx: Tx, tenantId: string, userId: string, user: Pick<UserColumns, 'status' | 'position_ids' | 'manager_id'>): Promise<ValidityChange[]> {
  const gone = user.status === 'DELETED';
  // Only an active member holds a position: while deactivated (or invited, or removed) they hold none, so a POSITION_ONLY delegation gives them nothing.
  const left = await recordHoldings(tx, tenantId, userId, user.status === 'ACTIVE' ? user.position_ids : []);
  const moved = await recordManager(tx, tenantId, userId, gone ? null : user.manager_id);
  // Below them the line changes when their manager did, or when they leave the tenant (no one's manager any more).
  const reach = await reachOfMembers(tx, tenantId, { userIds: [userId], below: moved || gone ? [userId] : [] });
  return revalidateChanges(tx, tenantId, { userIds: reach.userIds, positionIds: [...new Set([...reach.positionIds, ...left])] });
}

/**
 * The people and positions whose delegations a change of members can make valid or invalid: the
 * members (`userIds`); everyone below each of `below` in the reporting line (a Down-Line recipient is
 * reached through every manager above them), counting both the lines as they stand and `moves`,
 * manager changes proposed but not applied (the what-if reads its reach before it applies them);
 * and the positions each of those holds (a POSITION_ONLY recipient is reached through its holders).
 * One recursive statement, an index probe per step (user_projection_by_manager).
 */
export async function reachOfMembers(
  q: Queryable,
  tenantId: string,
  ask: { userIds: readonly string[]; below: readonly string[]; moves?: readonly { userId: string; managerId: string | null }[] },
): Promise<{ userIds: string[]; positionIds: string[] }> {
  const moves = (ask.moves ?? []).filter((m) => m.managerId !== null);
  const rows = await q.query<{ id: string; position_ids: string[] | null }>(
    `WITH RECURSIVE line AS (
       SELECT unnest($2::uuid[]) AS id
       UNION
       SELECT r.id FROM line l CROSS JOIN LATERAL (
         SELECT u.id FROM ${USER_TABLE} u WHERE u.tenant_id = $1 AND u.manager_id = l.id
         UNION ALL
         SELECT m.user_id FROM unnest($3::uuid[], $4::uuid[]) AS m(user_id, manager_id) WHERE m.manager_id = l.id) r),
     people AS (SELECT id FROM line UNION SELECT unnest($5::uuid[]))
     SELECT p.id, u.position_ids FROM people p LEFT JOIN ${USER_TABLE} u ON u.tenant_id = $1 AND u.id = p.id`,
    [tenantId, ask.below, moves.map((m) => m.userId), moves.map((m) => m.managerId), ask.userIds],
  );
  return { userIds: rows.map((r) => r.id), positionIds: [...new Set(rows.flatMap((r) => r.position_ids ?? []))] };
}

/** What follows a change of a position's row: the delegations naming it checked again. */
export function positionChanged(tx: Tx, tenantId: string, positionId: string): Promise<ValidityChange[]> {
  return revalidateChanges(tx, tenantId, { positionIds: [positionId] });
}

/**
 * What follows a change of a group's row: its place in the hierarchy history, then the delegations
 * naming it or a group below it checked again (a group moved or closed moves or cuts off everything
 * below it: a delegation scoped to a descendant may no longer sit within its parent's groups). When
 * it opens or closes, also those of its members (their own group, or a position of it): a Functional
 * line runs through live groups only, so a closed group no longer joins its members.
 */
export async function groupChanged(tx: Tx, tenantId: string, groupId: string, group: Pick<GroupColumns, 'parent_group_ids' | 'is_deleted' | 'status'>): Promise<ValidityChange[]> {
  const liveness = await recordGroup(tx, tenantId, groupId, group.parent_group_ids, !group.is_deleted && group.status === 'ACTIVE');
  const groupIds = await withDescendants(tx, tenantId, [groupId]);
  if (!liveness) return revalidateChanges(tx, tenantId, { groupIds });
  const members = await membersOfGroup(tx, tenantId, groupId);
  return revalidateChanges(tx, tenantId, { groupIds, ...members });
}

/** The people in a group (as their own group, or through a position of it) and the positions of it and those they hold. */
export async function membersOfGroup(q: Queryable, tenantId: string, groupId: string): Promise<{ userIds: string[]; positionIds: string[] }> {
  const rows = await q.query<{ id: string; position_ids: string[] }>(
    `WITH positions AS (SELECT id FROM ${POSITION_TABLE} WHERE tenant_id = $1 AND group_ids @> ARRAY[$2::uuid])
     SELECT u.id, u.position_ids FROM ${USER_TABLE} u
      WHERE u.tenant_id = $1 AND (u.group_ids @> ARRAY[$2::uuid] OR u.position_ids && ARRAY(SELECT id FROM positions))
     UNION ALL
     SELECT NULL, ARRAY[id] FROM positions`,
    [tenantId, groupId],
  );
  return { userIds: rows.filter((r) => r.id !== null).map((r) => r.id), positionIds: [...new Set(rows.flatMap((r) => r.position_ids ?? []))] };
}

/** The groups and every group below them in the hierarchy as the projection has it (cycle-safe), by id. */
export async function withDescendants(q: Queryable, tenantId: string, groupIds: readonly string[]): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `WITH RECURSIVE below AS (
       SELECT unnest($2::uuid[]) AS id
       UNION
       SELECT g.id FROM ${GROUP_TABLE} g JOIN below b ON g.parent_group_ids @> ARRAY[b.id] WHERE g.tenant_id = $1)
     SELECT id FROM below ORDER BY id`,
    [tenantId, groupIds],
  );
  return rows.map((r) => r.id);
}

/** A member's row as it stands (null: the tenant has no such member). */
export async function projectedUser(q: Queryable, tenantId: string, userId: string): Promise<UserColumns | null> {
  const [row] = await q.query<UserColumns>(`SELECT ${USER_COLUMNS.join(', ')} FROM ${USER_TABLE} WHERE tenant_id = $1 AND id = $2`, [tenantId, userId]);
  return row ?? null;
}

/** A position's row as it stands (null: the tenant has no such position). */
export async function projectedPosition(q: Queryable, tenantId: string, positionId: string): Promise<PositionColumns | null> {
  const [row] = await q.query<PositionColumns>(`SELECT position_name, status, is_deleted, group_ids FROM ${POSITION_TABLE} WHERE tenant_id = $1 AND id = $2`, [tenantId, positionId]);
  return row ?? null;
}

/** A group's row as it stands (null: the tenant has no such group). */
export async function projectedGroup(q: Queryable, tenantId: string, groupId: string): Promise<GroupColumns | null> {
  const [row] = await q.query<GroupColumns>(`SELECT ${GROUP_COLUMNS.join(', ')} FROM ${GROUP_TABLE} WHERE tenant_id = $1 AND id = $2`, [tenantId, groupId]);
  return row ?? null;
}

/** The live groups of the tenant whose parents include any of the groups (when one is deleted, settings republishes its children without it), by id. */
export async function projectedChildren(q: Queryable, tenantId: string, groupIds: readonly string[]): Promise<string[]> {
  const rows = await q.query<{ id: string }>(`SELECT id FROM ${GROUP_TABLE} WHERE tenant_id = $1 AND parent_group_ids && $2::uuid[] AND NOT is_deleted ORDER BY id`, [tenantId, groupIds]);
  return rows.map((r) => r.id);
}

/**
 * Applies a state of a member exactly as an event carrying it would be applied (the row, then what
 * follows a change): the reorg what-if applies a proposed state with it, in a transaction it rolls
 * back. Answers the delegations whose validity changed.
 */
export async function applyUserState(tx: Tx, tenantId: string, userId: string, user: UserColumns): Promise<ValidityChange[]> {
  const changed = await applyVersionedProjection(tx, { table: USER_TABLE, key: 'id', perTenant: true, id: userId, tenantId, values: user });
  return changed ? userChanged(tx, tenantId, userId, user) : [];
}

/** applyUserState for a position. */
export async function applyPositionState(tx: Tx, tenantId: string, positionId: string, position: PositionColumns): Promise<ValidityChange[]> {
  const changed = await applyVersionedProjection(tx, { table: POSITION_TABLE, key: 'id', id: positionId, tenantId, values: position });
  return changed ? positionChanged(tx, tenantId, positionId) : [];
}

/** applyUserState for a group. */
export async function applyGroupState(tx: Tx, tenantId: string, groupId: string, group: GroupColumns): Promise<ValidityChange[]> {
  const changed = await applyVersionedProjection(tx, { table: GROUP_TABLE, key: 'id', id: groupId, tenantId, values: group });
  return changed ? groupChanged(tx, tenantId, groupId, group) : [];
}
