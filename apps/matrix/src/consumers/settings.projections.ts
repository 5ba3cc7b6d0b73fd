import { ProjectionSpec, groupProjection } from '@ddm/platform';

const POSITION_SUBJECTS = ['evt.settings.position.created', 'evt.settings.position.updated', 'evt.settings.position.deleted'] as const;
const SECTION_SUBJECTS = ['evt.settings.decision-section.created', 'evt.settings.decision-section.updated', 'evt.settings.decision-section.deleted'] as const;
const CATEGORY_SUBJECTS = ['evt.settings.decision-category.created', 'evt.settings.decision-category.updated', 'evt.settings.decision-category.deleted'] as const;
const AUTHORITY_TYPE_SUBJECTS = ['evt.settings.authority-type.created', 'evt.settings.authority-type.updated', 'evt.settings.authority-type.deleted'] as const;
const DECISION_ROLE_SUBJECTS = ['evt.settings.decision-role.created', 'evt.settings.decision-role.updated', 'evt.settings.decision-role.deleted'] as const;

/** matrix.group_projection: the settings area's groups (a matrix's groups and sharing groups, grid columns, who is a member). */
export const GROUPS = groupProjection({
  name: 'matrix-settings-groups',
  table: 'matrix.group_projection',
  columns: ['group_code', 'group_name', 'tenant_group_type_id', 'status', 'is_deleted', 'parent_group_ids'],
  // This table names the group type's name group_type_name.
  extra: (group) => ({ group_type_name: group.tenantGroupTypeName }),
});

/** matrix.position_projection: the settings area's positions (a matrix's positions, grid columns, group membership through a position). */
export const POSITIONS: ProjectionSpec<(typeof POSITION_SUBJECTS)[number]> = {
  name: 'matrix-settings-positions',
  subjects: POSITION_SUBJECTS,
  table: 'matrix.position_projection',
  key: 'id',
  row: ({ payload: { tenantId, position } }) => ({
    id: position.id,
    tenantId,
    values: {
      position_name: position.positionName,
      status: position.status,
      is_deleted: position.isDeleted,
      is_scim: position.isSCIMProvisioned,
      group_ids: position.groupIds ?? [],
    },
  }),
};

/** matrix.section_projection: section names of the matrix and of the grid's rows. */
export const SECTIONS: ProjectionSpec<(typeof SECTION_SUBJECTS)[number]> = {
  name: 'matrix-settings-sections',
  subjects: SECTION_SUBJECTS,
  table: 'matrix.section_projection',
  key: 'id',
  row: ({ payload: { tenantId, decisionSection: s } }) => ({ id: s.id, tenantId, values: { section_name: s.sectionName, is_deleted: s.isDeleted } }),
};

/** matrix.category_projection: category names of the matrix and of the grid's rows. */
export const CATEGORIES: ProjectionSpec<(typeof CATEGORY_SUBJECTS)[number]> = {
  name: 'matrix-settings-categories',
  subjects: CATEGORY_SUBJECTS,
  table: 'matrix.category_projection',
  key: 'id',
  row: ({ payload: { tenantId, decisionCategory: c } }) => ({
    id: c.id,
    tenantId,
    values: { category_name: c.categoryName, section_id: c.sectionId, is_deleted: c.isDeleted },
  }),
};

/** matrix.authority_type_projection: the names the grid shows for each authority (Approval, Signatory, ...). */
export const AUTHORITY_TYPES: ProjectionSpec<(typeof AUTHORITY_TYPE_SUBJECTS)[number]> = {
  name: 'matrix-settings-authority-types',
  subjects: AUTHORITY_TYPE_SUBJECTS,
  table: 'matrix.authority_type_projection',
  key: 'id',
  row: ({ payload: { tenantId, authorityType: t } }) => ({
    id: t.id,
    tenantId,
    values: { authority_type: t.authorityType, authority_type_order: t.authorityTypeOrder, is_deleted: t.isDeleted },
  }),
};

/** matrix.decision_role_projection: the tenant's decision roles, which a role matrix names (matrixDelegation.roleIds, matrixAuthorityRoles). */
export const DECISION_ROLES: ProjectionSpec<(typeof DECISION_ROLE_SUBJECTS)[number]> = {
  name: 'matrix-settings-decision-roles',
  subjects: DECISION_ROLE_SUBJECTS,
  table: 'matrix.decision_role_projection',
  key: 'id',
  row: ({ payload: { tenantId, decisionRole: r } }) => ({
    id: r.id,
    tenantId,
    values: { role_name: r.roleName, status: r.status, is_deleted: r.isDeleted },
  }),
  // Added after the settings area's first roles: those whose events aged out come from its snapshot.
  backfill: { source: 'settings.decision-roles', subject: 'evt.settings.decision-role.updated' },
};
