import { GroupSubject, ProjectionSpec, groupProjection } from '@ddm/platform';

/** actions.group_projection: the settings area's groups, for a user summary's primary organisation (its names, legalName and baseCurrency as they are now). */
export const GROUPS: ProjectionSpec<GroupSubject> = groupProjection({
  name: 'actions-settings-groups',
  table: 'actions.group_projection',
  columns: ['group_name', 'display_name', 'tenant_group_type_id', 'tenant_group_type_name', 'legal_name', 'base_currency', 'is_deleted'],
});
