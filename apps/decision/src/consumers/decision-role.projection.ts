import { ProjectionSpec } from '@ddm/platform';

const SUBJECTS = ['evt.settings.decision-role.created', 'evt.settings.decision-role.updated', 'evt.settings.decision-role.deleted'] as const;

/** decision.decision_role_projection: the settings area's decision roles, which delegations take (roles of a delegation). */
export const DECISION_ROLES: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'decision-settings-decision-roles',
  subjects: SUBJECTS,
  table: 'decision.decision_role_projection',
  key: 'id',
  row: ({ payload: { tenantId, decisionRole: r } }) => ({
    id: r.id,
    tenantId,
    values: { role_name: r.roleName, status: r.status, is_deleted: r.isDeleted },
  }),
};
