import { groupProjection } from '@ddm/platform';
import { GROUP_COLUMNS, GROUP_TABLE, groupChanged } from '../core/organisation';

/**
 * decision.group_projection: the settings area's groups, for the names on decisionGroups, the
 * references a decision takes and the hierarchy delegations' groups are checked against. A change
 * is followed by the hierarchy history and the delegations naming the group checked again.
 */
export const GROUPS = groupProjection({
  name: 'decision-settings-groups',
  table: GROUP_TABLE,
  columns: GROUP_COLUMNS,
  afterChange: async (tx, { payload: { tenantId, group } }) => {
    await groupChanged(tx, tenantId, group.id, { parent_group_ids: group.parentGroupIds ?? [], is_deleted: group.isDeleted, status: group.status });
  },
});
