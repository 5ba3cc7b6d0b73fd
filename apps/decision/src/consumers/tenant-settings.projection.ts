import { ProjectionSpec } from '@ddm/platform';

const SUBJECTS = ['evt.auth.tenant.settings-updated'] as const;

/** decision.tenant_settings_projection: each tenant's delegation settings (whether issuing waits for an approval, an acceptance), one row per tenant. */
export const TENANT_SETTINGS: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'decision-auth-tenant-settings',
  subjects: SUBJECTS,
  table: 'decision.tenant_settings_projection',
  key: 'id',
  row: ({ payload: s }) => ({
    id: s.tenantId,
    tenantId: s.tenantId,
    version: s.version,
    values: { acceptance_required: s.delegationAcceptanceRequired, approval_required: s.delegationApprovalRequired, base_currency: s.baseCurrency },
  }),
};
