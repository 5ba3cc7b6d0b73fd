import { userProjection } from '@ddm/platform';

/**
 * matrix.user_projection: the members of each tenant as the auth area tells them (a row per
 * tenant), for ownerDetails and the users a matrix names or is shared with, the new owner a bulk
 * reassignment checks, and the groups (own and through positions) a matrix may be shared with.
 */
export const USERS = userProjection({
  name: 'matrix-auth-users',
  table: 'matrix.user_projection',
  columns: ['email', 'name', 'display_name', 'profile_image_url', 'mobile_phone', 'status', 'position_ids', 'group_ids'],
  // The positions as a matrix's user details show them: id and name (no autoProvisioned).
  extra: (user) => ({ positions: JSON.stringify((user.positions ?? []).map((p) => ({ id: p.id, positionName: p.positionName }))) }),
});
