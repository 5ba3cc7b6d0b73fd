import { groupProjection } from '@ddm/platform';

/** document.group_projection: the settings area's groups, for the sharing groups a document takes and the hierarchy its audience follows. */
export const GROUPS = groupProjection({
  name: 'document-settings-groups',
  table: 'document.group_projection',
  columns: ['group_name', 'display_name', 'tenant_group_type_id', 'status', 'is_deleted', 'parent_group_ids'],
});
