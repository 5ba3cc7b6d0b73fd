import { EventPayload } from '@ddm/contracts';
import { ProjectionSpec, Queryable, Tx, applyVersionedProjection } from '@ddm/platform';
import { ValidityChange, revalidateChanges } from '../delegations/invalidation';
import { recordHoldings, recordManager } from './history';

const SUBJECTS = ['evt.auth.user.created', 'evt.auth.user.updated', 'evt.auth.user.deleted'] as const;
const TABLE = 'decision.user_projection';

/** The columns of a member's row in decision.user_projection: what an event of the member sets. */
export type UserColumns = {
  email: string;
  name: string | null;
  display_name: string | null;
  profile_image_url: string | null;
  status: string;
  manager_id: string | null;
  position_ids: string[];
  group_ids: string[];
  permission_keys: string[];
};

/**
 * decision.user_projection: the members of each tenant as the auth area tells them (a user has a
 * row per tenant), for the names of owners, creators and editors and the owner a decision takes,
 * and for the delegation rules: each person's manager, positions and own groups.
 */
export const USERS: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'decision-auth-users',
  subjects: SUBJECTS,
  table: TABLE,
  key: 'id',
  perTenant: true,
  row: ({ payload: { tenantId, user } }) => ({ id: user.id, tenantId, values: userColumns(user) }),
  afterChange: async (tx, { payload: { tenantId, user } }) => {
    await userChanged(tx, tenantId, user.id, userColumns(user));
  },
};

function userColumns(user: EventPayload<(typeof SUBJECTS)[number]>['user']): UserColumns {
  return {
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
  };
}

/**
 * What follows a change of a member's row, in its transaction: the history "as of an instant"
 * reads (positions held, the reporting line), then the delegations naming the person checked again
 * (a person, position or group that changed may break delegations that name it). Answers the
 * delegations whose validity changed.
 */
async function userChanged(tx: Tx, tenantId: string, userId: string, user: UserColumns): Promise<ValidityChange[]> {
  const gone = user.status === 'DELETED';
  await recordHoldings(tx, tenantId, userId, gone ? [] : user.position_ids);
  await recordManager(tx, tenantId, userId, gone ? null : user.manager_id);
  return revalidateChanges(tx, tenantId, { userIds: [userId] });
}

/** A member's row as it stands (null: the tenant has no such member). */
export async function projectedUser(q: Queryable, tenantId: string, userId: string): Promise<UserColumns | null> {
  const [row] = await q.query<UserColumns>(
    `SELECT email, name, display_name, profile_image_url, status, manager_id, position_ids, group_ids, permission_keys FROM ${TABLE} WHERE tenant_id = $1 AND id = $2`,
    [tenantId, userId],
  );
  return row ?? null;
}

/**
 * Applies a state of a member exactly as an event carrying it would be applied (the row, then what
 * follows a change): the reorg what-if applies a proposed state with it, in a transaction it rolls
 * back. Answers the delegations whose validity changed.
 */
export async function applyUserState(tx: Tx, tenantId: string, userId: string, user: UserColumns): Promise<ValidityChange[]> {
  const changed = await applyVersionedProjection(tx, { table: TABLE, key: USERS.key, perTenant: USERS.perTenant, id: userId, tenantId, values: user });
  return changed ? userChanged(tx, tenantId, userId, user) : [];
}
