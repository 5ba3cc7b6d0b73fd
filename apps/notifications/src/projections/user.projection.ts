import { ProjectionSpec } from '@ddm/platform';

const SUBJECTS = ['evt.auth.user.created', 'evt.auth.user.updated', 'evt.auth.user.deleted'] as const;

/**
 * notifications.user_projection: the members of each tenant as the auth area tells them (a row per
 * tenant), for whom a notification may go to (a member, never a person of another tenant), the
 * holders of a position now (POSITION_ONLY delegations) and the digest's address.
 */
export const USERS: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'notifications-auth-users',
  subjects: SUBJECTS,
  table: 'notifications.user_projection',
  key: 'id',
  perTenant: true,
  row: ({ payload: { tenantId, user } }) => ({
    id: user.id,
    tenantId,
    values: {
      email: user.email,
      name: user.name,
      display_name: user.displayName,
      status: user.status,
      position_ids: (user.positions ?? []).map((p) => p.id),
    },
  }),
};
