import { ProjectionSpec } from '@ddm/platform';

const SUBJECTS = ['evt.auth.user.created', 'evt.auth.user.updated', 'evt.auth.user.deleted'] as const;

/**
 * matrix.user_projection: the members of each tenant as the auth area tells them (a row per
 * tenant), for ownerDetails and the users a matrix names or is shared with, the new owner a bulk
 * reassignment checks, and the groups (own and through positions) a matrix may be shared with.
 */
export const USERS: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'matrix-auth-users',
  subjects: SUBJECTS,
  table: 'matrix.user_projection',
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
      positions: JSON.stringify((user.positions ?? []).map((p) => ({ id: p.id, positionName: p.positionName }))),
      position_ids: (user.positions ?? []).map((p) => p.id),
      group_ids: user.groupIds ?? [],
    },
  }),
};
