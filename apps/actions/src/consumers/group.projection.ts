import { ProjectionSpec } from '@ddm/platform';

const SUBJECTS = ['evt.settings.group.created', 'evt.settings.group.updated', 'evt.settings.group.deleted'] as const;

/** actions.group_projection: the settings area's groups, for a user summary's primary organisation (its names, legalName and baseCurrency as they are now). */
export const GROUPS: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'actions-settings-groups',
  subjects: SUBJECTS,
  table: 'actions.group_projection',
  key: 'id',
  row: ({ payload: { tenantId, group } }) => ({
    id: group.id,
    tenantId,
    values: {
      group_name: group.groupName,
      display_name: group.displayName,
      tenant_group_type_id: group.tenantGroupTypeId,
      tenant_group_type_name: group.tenantGroupTypeName,
      legal_name: group.legalName ?? null,
      base_currency: group.baseCurrency ?? null,
      is_deleted: group.isDeleted,
    },
  }),
};
