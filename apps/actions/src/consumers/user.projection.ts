import { ProjectionSpec } from '@ddm/platform';

const SUBJECTS = ['evt.auth.user.created', 'evt.auth.user.updated', 'evt.auth.user.deleted'] as const;

/**
 * actions.user_projection: the members of each tenant (a row per tenant and user) with what the
 * §2.3 user summary shows of them (positions, primary organisation, manager): owners and
 * assignees are checked against it and embedded from it.
 */
export const USERS: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'actions-auth-users',
  subjects: SUBJECTS,
  table: 'actions.user_projection',
  key: 'id',
  perTenant: true,
  row: ({ payload: { tenantId, user } }) => ({
    id: user.id,
    tenantId,
    values: {
      email: user.email,
      name: user.name,
      display_name: user.displayName,
      profile_image_url: user.profileImageUrl,
      mobile_phone: user.mobilePhone,
      status: user.status,
      positions: JSON.stringify((user.positions ?? []).map((p) => ({ id: p.id, positionName: p.positionName, autoProvisioned: p.autoProvisioned }))),
      primary_organization_id: user.primaryOrganizationId ?? user.primaryOrganization?.id ?? null,
      primary_organization: user.primaryOrganization ? JSON.stringify(user.primaryOrganization) : null,
      manager: user.manager ? JSON.stringify(user.manager) : null,
    },
  }),
};
