import { ProjectionSpec } from '@ddm/platform';

const SUBJECTS = ['evt.auth.user.created', 'evt.auth.user.updated', 'evt.auth.user.deleted'] as const;

/**
 * document.user_projection: the members of each tenant as the auth area tells them (a row per
 * tenant), for the names documents show, who a document is shared with, and the audience of a
 * restricted document (a person's own groups) and of a named position (its holders).
 */
export const USERS: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'document-auth-users',
  subjects: SUBJECTS,
  table: 'document.user_projection',
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
      status: user.status,
      position_ids: (user.positions ?? []).map((p) => p.id),
      group_ids: user.groupIds ?? [],
      keys: user.permissionKeys ?? null,
    },
  }),
};
