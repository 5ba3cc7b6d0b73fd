import { ProjectionSpec } from '@ddm/platform';

const SUBJECTS = ['evt.auth.tenant.settings-updated'] as const;

/** actions.tenant_settings_projection: whether the tenant's delegations wait for an approval (which stage a pending delegation is at). */
export const TENANT_SETTINGS: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'actions-auth-tenant-settings',
  subjects: SUBJECTS,
  table: 'actions.tenant_settings_projection',
  key: 'id',
  row: ({ payload: s }) => ({
    id: s.tenantId,
    tenantId: s.tenantId,
    version: s.version,
    values: { acceptance_required: s.delegationAcceptanceRequired, approval_required: s.delegationApprovalRequired },
  }),
};
