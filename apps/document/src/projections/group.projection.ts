import { ProjectionSpec } from '@ddm/platform';

const SUBJECTS = ['evt.settings.group.created', 'evt.settings.group.updated', 'evt.settings.group.deleted'] as const;

/** document.group_projection: the settings area's groups, for the sharing groups a document takes and the hierarchy its audience follows. */
export const GROUPS: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'document-settings-groups',
  subjects: SUBJECTS,
  table: 'document.group_projection',
  key: 'id',
  row: ({ payload: { tenantId, group } }) => ({
    id: group.id,
    tenantId,
    values: {
      group_name: group.groupName,
      display_name: group.displayName,
      tenant_group_type_id: group.tenantGroupTypeId,
      status: group.status,
      is_deleted: group.isDeleted,
      parent_group_ids: group.parentGroupIds ?? [],
    },
  }),
};
