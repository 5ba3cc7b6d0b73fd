import { ProjectionSpec } from '@ddm/platform';
import { revalidate } from '../delegations/invalidation';
import { recordGroup } from './history';

const SUBJECTS = ['evt.settings.group.created', 'evt.settings.group.updated', 'evt.settings.group.deleted'] as const;

/** decision.group_projection: the settings area's groups, for the names on decisionGroups, the references a decision takes and the hierarchy delegations' groups are checked against. */
export const GROUPS: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'decision-settings-groups',
  subjects: SUBJECTS,
  table: 'decision.group_projection',
  key: 'id',
  row: ({ payload: { tenantId, group } }) => ({
    id: group.id,
    tenantId,
    values: {
      group_name: group.groupName,
      display_name: group.displayName,
      tenant_group_type_id: group.tenantGroupTypeId,
      is_deleted: group.isDeleted,
      status: group.status,
      parent_group_ids: group.parentGroupIds ?? [],
    },
  }),
  // A person, position or group that changed may break delegations that name it: they are checked again.
  afterChange: async (tx, { payload: { tenantId, group } }) => {
    await recordGroup(tx, tenantId, group.id, group.parentGroupIds ?? [], !group.isDeleted && group.status === 'ACTIVE');
    await revalidate(tx, tenantId, { groupIds: [group.id] });
  },
};
