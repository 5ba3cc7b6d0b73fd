import { userProjection } from '@ddm/platform';

/**
 * notifications.user_projection: the members of each tenant as the auth area tells them (a row per
 * tenant), for whom a notification may go to (a member, never a person of another tenant), the
 * holders of a position now (POSITION_ONLY delegations) and the digest's address.
 */
export const USERS = userProjection({
  name: 'notifications-auth-users',
  table: 'notifications.user_projection',
  columns: ['email', 'name', 'display_name', 'status', 'position_ids'],
});
