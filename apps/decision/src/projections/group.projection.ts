import { EventPayload } from '@ddm/contracts';
import { ProjectionSpec, Queryable, Tx, applyVersionedProjection } from '@ddm/platform';
import { ValidityChange, revalidateChanges } from '../delegations/invalidation';
import { recordGroup } from './history';

const SUBJECTS = ['evt.settings.group.created', 'evt.settings.group.updated', 'evt.settings.group.deleted'] as const;
const TABLE = 'decision.group_projection';

/** The columns of a group's row in decision.group_projection: what an event of the group sets. */
export type GroupColumns = {
  group_name: string;
  display_name: string | null;
  tenant_group_type_id: string | null;
  is_deleted: boolean;
  status: string;
  parent_group_ids: string[];
};

/** decision.group_projection: the settings area's groups, for the names on decisionGroups, the references a decision takes and the hierarchy delegations' groups are checked against. */
export const GROUPS: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'decision-settings-groups',
  subjects: SUBJECTS,
  table: TABLE,
  key: 'id',
  row: ({ payload: { tenantId, group } }) => ({ id: group.id, tenantId, values: groupColumns(group) }),
  afterChange: async (tx, { payload: { tenantId, group } }) => {
    await groupChanged(tx, tenantId, group.id, groupColumns(group));
  },
};

function groupColumns(group: EventPayload<(typeof SUBJECTS)[number]>['group']): GroupColumns {
  return {
    group_name: group.groupName,
    display_name: group.displayName,
    tenant_group_type_id: group.tenantGroupTypeId,
    is_deleted: group.isDeleted,
    status: group.status,
    parent_group_ids: group.parentGroupIds ?? [],
  };
}

/**
 * What follows a change of a group's row: its place in the hierarchy history, then the delegations
 * naming it checked again (a person, position or group that changed may break them). Answers the
 * delegations whose validity changed.
 */
async function groupChanged(tx: Tx, tenantId: string, groupId: string, group: GroupColumns): Promise<ValidityChange[]> {
  await recordGroup(tx, tenantId, groupId, group.parent_group_ids, !group.is_deleted && group.status === 'ACTIVE');
  return revalidateChanges(tx, tenantId, { groupIds: [groupId] });
}

/** A group's row as it stands (null: the tenant has no such group). */
export async function projectedGroup(q: Queryable, tenantId: string, groupId: string): Promise<GroupColumns | null> {
  const [row] = await q.query<GroupColumns>(
    `SELECT group_name, display_name, tenant_group_type_id, is_deleted, status, parent_group_ids FROM ${TABLE} WHERE tenant_id = $1 AND id = $2`,
    [tenantId, groupId],
  );
  return row ?? null;
}

/** The live groups of the tenant whose parents include any of the groups (when one is deleted, settings republishes its children without it), by id. */
export async function projectedChildren(q: Queryable, tenantId: string, groupIds: readonly string[]): Promise<string[]> {
  const rows = await q.query<{ id: string }>(`SELECT id FROM ${TABLE} WHERE tenant_id = $1 AND parent_group_ids && $2::uuid[] AND NOT is_deleted ORDER BY id`, [tenantId, groupIds]);
  return rows.map((r) => r.id);
}

/**
 * Applies a state of a group exactly as an event carrying it would be applied (the row, then what
 * follows a change), for the reorg what-if. Answers the delegations whose validity changed.
 */
export async function applyGroupState(tx: Tx, tenantId: string, groupId: string, group: GroupColumns): Promise<ValidityChange[]> {
  const changed = await applyVersionedProjection(tx, { table: TABLE, key: GROUPS.key, id: groupId, tenantId, values: group });
  return changed ? groupChanged(tx, tenantId, groupId, group) : [];
}
