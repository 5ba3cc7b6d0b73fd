import { ProjectionSpec } from '@ddm/platform';
import { revalidate } from '../delegations/invalidation';
import { recordHoldings, recordManager } from './history';

const SUBJECTS = ['evt.auth.user.created', 'evt.auth.user.updated', 'evt.auth.user.deleted'] as const;

/**
 * decision.user_projection: the members of each tenant as the auth area tells them (a user has a
 * row per tenant), for the names of owners, creators and editors and the owner a decision takes,
 * and for the delegation rules: each person's manager, positions and own groups.
 */
export const USERS: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'decision-auth-users',
  subjects: SUBJECTS,
  table: 'decision.user_projection',
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
      // What the delegation rules read: the reporting line, the positions held, the person's own groups.
      manager_id: user.manager?.id ?? null,
      position_ids: (user.positions ?? []).map((p) => p.id),
      group_ids: user.groupIds ?? [],
      // Whom a delegation awaiting approval names (holders of approve:delegations).
      permission_keys: user.permissionKeys ?? [],
    },
  }),
  // A person, position or group that changed may break delegations that name it: they are checked again.
  afterChange: async (tx, { payload: { tenantId, user } }) => {
    // The history "as of an instant" reads: positions held and the reporting line.
    const gone = user.status === 'DELETED';
    await recordHoldings(tx, tenantId, user.id, gone ? [] : (user.positions ?? []).map((p) => p.id));
    await recordManager(tx, tenantId, user.id, gone ? null : (user.manager?.id ?? null));
    await revalidate(tx, tenantId, { userIds: [user.id] });
  },
};
