import { userProjection } from '@ddm/platform';

/**
 * document.user_projection: the members of each tenant as the auth area tells them (a row per
 * tenant), for the names documents show, who a document is shared with, and the audience of a
 * restricted document (a person's own groups) and of a named position (its holders).
 */
export const USERS = userProjection({
  name: 'document-auth-users',
  table: 'document.user_projection',
  columns: ['email', 'name', 'display_name', 'profile_image_url', 'status', 'position_ids', 'group_ids'],
  // The person's keys, null while auth has not told them (a named reviewer or approver is then not checked).
  extra: (user) => ({ keys: user.permissionKeys ?? null }),
});
