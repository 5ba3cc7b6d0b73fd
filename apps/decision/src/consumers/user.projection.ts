import { userProjection } from '@ddm/platform';
import { USER_COLUMNS, USER_TABLE, userChanged } from '../core/organisation';

/**
 * decision.user_projection: the members of each tenant as the auth area tells them (a user has a
 * row per tenant), for the names of owners, creators and editors and the owner a decision takes,
 * and for the delegation rules: each person's manager, positions and own groups (and whom a
 * delegation awaiting approval names: the holders of approve:delegations). A change is followed by
 * the history and the delegations naming the person checked again (core/organisation.ts).
 */
export const USERS = userProjection({
  name: 'decision-auth-users',
  table: USER_TABLE,
  columns: USER_COLUMNS,
  afterChange: async (tx, { payload: { tenantId, user } }) => {
    await userChanged(tx, tenantId, user.id, { status: user.status, position_ids: (user.positions ?? []).map((p) => p.id), manager_id: user.manager?.id ?? null });
  },
});
