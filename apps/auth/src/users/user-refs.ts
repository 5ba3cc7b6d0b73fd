import { Injectable } from '@nestjs/common';
import { EventSubject, UserSummary, notFound } from '@ddm/contracts';
import { Queryable, Tx } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { GroupAssignment, KnownRefs, Refs } from '../core/user-fields.rules';
import { UserRow, UserView, toUserView } from './dto/user.response';
import { USER_BY_ID_SQL, USER_SUMMARY_SQL } from './user.sql';

/** A user as seen in a tenant (spec §2.4): what users answer, and invitations answer for the user they invited. */
export { UserView };

type UserSubject = Extract<EventSubject, `evt.auth.user.${string}`>;

export interface UserLinks {
  userId: string;
  /** undefined: leave as they are; an array: exactly these from now on. */
  roleIds?: string[];
  positionIds?: string[];
  groups?: GroupAssignment[];
}

const unique = (ids: readonly string[]) => [...new Set(ids)];

/**
 * What other resources (invitations, tenants, callers) and the users' own service ask of users:
 * a user as seen in a tenant, which ids a change names are known to the tenant, the users' roles,
 * positions and groups, and the users' events after a change that touched them.
 */
@Injectable()
export class UserRefs {
  /** A user as seen in a tenant; 404 when the user is not (or no longer) a member of it. */
  async view(q: Queryable, tenantId: string, userId: string): Promise<UserView> {
    const [row] = await q.query<UserRow>(USER_BY_ID_SQL, [userId, tenantId]);
    if (!row) throw notFound(`User ${userId} not found`);
    return toUserView(row);
  }

  /** Which of the named roles, positions (projection), groups (projection) and managers the tenant knows (one statement). */
  async known(q: Queryable, tenantId: string, refs: Refs): Promise<KnownRefs> {
    const rows = await q.query<{ kind: string; id: string; keys: string[] | null }>(
      `SELECT 'role' AS kind, r.id, coalesce(array_agg(rm.relationship_key_name) FILTER (WHERE rm.is_enabled), '{}') AS keys
         FROM auth.tenant_roles r LEFT JOIN auth.role_mappings rm ON rm.role_id = r.id
        WHERE r.tenant_id = $1 AND r.id = ANY($2::uuid[]) AND NOT r.is_deleted GROUP BY r.id
       UNION ALL
       SELECT 'position', p.id, NULL FROM auth.position_projection p WHERE p.tenant_id = $1 AND p.id = ANY($3::uuid[]) AND NOT p.is_deleted
       UNION ALL
       SELECT 'group', g.id, NULL FROM auth.group_projection g WHERE g.tenant_id = $1 AND g.id = ANY($4::uuid[]) AND NOT g.is_deleted
       UNION ALL
       SELECT 'member', tu.user_id, NULL FROM auth.tenant_users tu WHERE tu.tenant_id = $1 AND tu.user_id = ANY($5::uuid[]) AND NOT tu.is_deleted`,
      [tenantId, unique(refs.roleIds), unique(refs.positionIds), unique(refs.groupIds), unique(refs.managerIds)],
    );
    const known: KnownRefs = { roles: new Map(), positions: new Set(), groups: new Set(), members: new Set() };
    for (const r of rows) {
      if (r.kind === 'role') known.roles.set(r.id, r.keys ?? []);
      else if (r.kind === 'position') known.positions.add(r.id);
      else if (r.kind === 'group') known.groups.add(r.id);
      else known.members.add(r.id);
    }
    return known;
  }

  /**
   * Sets the roles, positions and groups of users in a tenant, set-based (a few statements for any
   * number of users). Links that go are soft-deleted; a link that comes back is revived.
   */
  async replaceLinks(q: Queryable, tenantId: string, links: readonly UserLinks[]): Promise<void> {
    const roleUsers = links.filter((l) => l.roleIds !== undefined);
    if (roleUsers.length) {
      const pairs = roleUsers.flatMap((l) => (l.roleIds ?? []).map((r) => [l.userId, r] as const));
      await q.query(
        `UPDATE auth.user_roles SET deleted_on = now(), updated_on = now()
          WHERE tenant_id = $1 AND user_id = ANY($2::uuid[]) AND deleted_on IS NULL
            AND (user_id, tenant_role_id) NOT IN (SELECT * FROM unnest($3::uuid[], $4::uuid[]))`,
        [tenantId, roleUsers.map((l) => l.userId), pairs.map((p) => p[0]), pairs.map((p) => p[1])],
      );
      if (pairs.length)
        await q.query(
          `INSERT INTO auth.user_roles (id, tenant_id, user_id, tenant_role_id)
           SELECT x.id, $1, x.user_id, x.role_id FROM unnest($2::uuid[], $3::uuid[], $4::uuid[]) AS x(id, user_id, role_id)
           ON CONFLICT (tenant_id, user_id, tenant_role_id) DO UPDATE SET deleted_on = NULL, updated_on = now()
           WHERE user_roles.deleted_on IS NOT NULL`,
          [tenantId, pairs.map(() => uuidv7()), pairs.map((p) => p[0]), pairs.map((p) => p[1])],
        );
    }

    const positionUsers = links.filter((l) => l.positionIds !== undefined);
    if (positionUsers.length) {
      const pairs = positionUsers.flatMap((l) => (l.positionIds ?? []).map((p) => [l.userId, p] as const));
      await q.query(
        `UPDATE auth.user_positions SET is_deleted = true, deleted_on = now(), updated_on = now()
          WHERE tenant_id = $1 AND user_id = ANY($2::uuid[]) AND NOT is_deleted
            AND (user_id, position_id) NOT IN (SELECT * FROM unnest($3::uuid[], $4::uuid[]))`,
        [tenantId, positionUsers.map((l) => l.userId), pairs.map((p) => p[0]), pairs.map((p) => p[1])],
      );
      if (pairs.length)
        await q.query(
          `INSERT INTO auth.user_positions (id, tenant_id, user_id, position_id)
           SELECT x.id, $1, x.user_id, x.position_id FROM unnest($2::uuid[], $3::uuid[], $4::uuid[]) AS x(id, user_id, position_id)
           ON CONFLICT (tenant_id, user_id, position_id) DO UPDATE SET is_deleted = false, deleted_on = NULL, updated_on = now()
           WHERE user_positions.is_deleted`,
          [tenantId, pairs.map(() => uuidv7()), pairs.map((p) => p[0]), pairs.map((p) => p[1])],
        );
    }

    const groupUsers = links.filter((l) => l.groups !== undefined);
    if (groupUsers.length) {
      const rows = groupUsers.flatMap((l) => (l.groups ?? []).map((g) => ({ userId: l.userId, groupId: g.groupId, primary: g.isPrimaryOrg === true })));
      const users = groupUsers.map((l) => l.userId);
      const primaries = rows.filter((r) => r.primary);
      // Clear the primary flags that go first: the unique index allows one primary at any moment.
      await q.query(
        `UPDATE auth.user_groups SET is_primary_org = false, primary_org_set_on = NULL, updated_on = now()
          WHERE tenant_id = $1 AND user_id = ANY($2::uuid[]) AND is_primary_org
            AND (user_id, group_id) NOT IN (SELECT * FROM unnest($3::uuid[], $4::uuid[]))`,
        [tenantId, users, primaries.map((r) => r.userId), primaries.map((r) => r.groupId)],
      );
      await q.query(
        `UPDATE auth.user_groups SET is_deleted = true, deleted_on = now(), is_primary_org = false, primary_org_set_on = NULL, updated_on = now()
          WHERE tenant_id = $1 AND user_id = ANY($2::uuid[]) AND NOT is_deleted
            AND (user_id, group_id) NOT IN (SELECT * FROM unnest($3::uuid[], $4::uuid[]))`,
        [tenantId, users, rows.map((r) => r.userId), rows.map((r) => r.groupId)],
      );
      if (rows.length)
        await q.query(
          `INSERT INTO auth.user_groups (id, tenant_id, user_id, group_id, is_primary_org, primary_org_set_on)
           SELECT x.id, $1, x.user_id, x.group_id, x.is_primary, CASE WHEN x.is_primary THEN now() END
             FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::boolean[]) AS x(id, user_id, group_id, is_primary)
           ON CONFLICT (tenant_id, user_id, group_id) DO UPDATE
              SET is_deleted = false, deleted_on = NULL, is_primary_org = EXCLUDED.is_primary_org,
                  primary_org_set_on = CASE WHEN NOT EXCLUDED.is_primary_org THEN NULL
                                            WHEN user_groups.is_primary_org AND NOT user_groups.is_deleted THEN user_groups.primary_org_set_on
                                            ELSE now() END,
                  updated_on = now()
            WHERE user_groups.is_deleted OR user_groups.is_primary_org <> EXCLUDED.is_primary_org`,
          [tenantId, rows.map(() => uuidv7()), rows.map((r) => r.userId), rows.map((r) => r.groupId), rows.map((r) => r.primary)],
        );
    }
  }

  /**
   * Queues `subject` for each user, carrying the §2.3 summary as it is after the transaction's
   * changes (read inside the same transaction), in one outbox statement.
   */
  async publish(tx: Tx, subject: UserSubject, tenantId: string, userIds: readonly string[]): Promise<void> {
    if (!userIds.length) return;
    const rows = await tx.query<Omit<UserSummary, 'primaryOrganizationId'>>(USER_SUMMARY_SQL, [tenantId, userIds]);
    await tx.publishMany(
      subject,
      rows.map((user) => ({ tenantId, user: { ...user, primaryOrganizationId: user.primaryOrganization?.id ?? null } })),
    );
  }
}
