/**
 * The SQL of the users area: the user (§2.4) in one tenant, the users list, the §2.3 summary its
 * events carry, and the reads its rules need. Every subquery is correlated to one membership row
 * and served by an index, so a page costs what its rows need. Timestamps leave the database as
 * ISO 8601 (isoSql); audit columns hold user ids, answered as those users' names.
 */
import { anyOf, containsPattern, isoSql as iso, ListSpec, Queryable, raw, searchedRows, sortBy, Sql, sql } from '@ddm/platform';
import type { ListUsersQuery } from './dto/list-users.query';
import type { UserSort } from './user.rules';
import { USERS_SEARCH } from '../core/text-search';

/** The user's live position links in the tenant, with the projected position names. */
function positionsOf(tenant: string, user: string): string {
  return `(SELECT json_agg(json_build_object(
             'id', up.id, 'userId', up.user_id, 'tenantId', up.tenant_id, 'positionsId', up.position_id,
             'autoProvisioned', up.auto_provisioned, 'instanceId', up.instance_id, 'isEditable', up.is_editable,
             'isDeleted', up.is_deleted, 'deletedOn', ${iso('up.deleted_on')}, 'createdOn', ${iso('up.created_on')}, 'updatedOn', ${iso('up.updated_on')},
             'positionName', p.position_name, 'isSCIMProvisioned', p.is_scim_provisioned, 'externalId', p.external_id)
             ORDER BY p.position_name, p.id)
       FROM auth.user_positions up JOIN auth.position_projection p ON p.id = up.position_id AND NOT p.is_deleted
      WHERE up.tenant_id = ${tenant} AND up.user_id = ${user} AND NOT up.is_deleted)`;
}

/** The user's live roles in the tenant (spec §2.4 `userRoles`). */
function rolesOf(tenant: string, user: string): string {
  return `(SELECT json_agg(json_build_object('id', ur.id, 'tenantId', ur.tenant_id, 'tenantRoleId', ur.tenant_role_id,
            'roleName', r.role_name, 'autoProvisioned', ur.auto_provisioned, 'instanceId', ur.instance_id,
            'createdOn', ${iso('ur.created_on')}, 'deletedOn', ${iso('ur.deleted_on')}, 'updatedOn', ${iso('ur.updated_on')}) ORDER BY r.role_name, r.id)
     FROM auth.user_roles ur JOIN auth.tenant_roles r ON r.id = ur.tenant_role_id AND NOT r.is_deleted
    WHERE ur.tenant_id = ${tenant} AND ur.user_id = ${user} AND ur.deleted_on IS NULL)`;
}

/** The user's live group links in the tenant (spec §2.4 `userGroups`), the primary organisation first, named by the projection. */
function groupsOf(tenant: string, user: string): string {
  return `(SELECT json_agg(json_build_object(
            'id', ug.id, 'tenantId', ug.tenant_id, 'userId', ug.user_id, 'groupId', ug.group_id,
            'groupTypeId', g.tenant_group_type_id, 'groupName', g.group_name, 'groupTypeName', g.tenant_group_type_name,
            'displayName', g.display_name, 'isPrimaryOrg', ug.is_primary_org, 'externalId', ug.external_id,
            'instanceId', ug.instance_id, 'primaryOrgSetOn', ${iso('ug.primary_org_set_on')}, 'autoProvisioned', ug.auto_provisioned,
            'isDeleted', ug.is_deleted, 'deletedOn', ${iso('ug.deleted_on')}, 'createdOn', ${iso('ug.created_on')}, 'updatedOn', ${iso('ug.updated_on')})
            ORDER BY ug.is_primary_org DESC, g.group_name, g.id)
     FROM auth.user_groups ug JOIN auth.group_projection g ON g.id = ug.group_id AND NOT g.is_deleted
    WHERE ug.tenant_id = ${tenant} AND ug.user_id = ${user} AND NOT ug.is_deleted)`;
}

/**
 * One kind of the caller's own memberships in a tenant (GET /auth/v1/user/roles|positions|groups):
 * $1 = tenant id, $2 = user id; `items` is the array (empty when none).
 */
export const MY_LINKS_SQL = {
  roles: `SELECT coalesce(${rolesOf('$1', '$2')}, '[]') AS items`,
  positions: `SELECT coalesce(${positionsOf('$1', '$2')}, '[]') AS items`,
  groups: `SELECT coalesce(${groupsOf('$1', '$2')}, '[]') AS items`,
} as const;

/** The name an audit column's user id is answered as: the name the caller signs with (else the email). */
const nameOf = (userId: string) => `(SELECT coalesce(a.name, a.email) FROM auth.users a WHERE a.id = ${userId})`;

/** Columns of the user: the person (u), the membership (tu), roles, positions, groups, manager, delegation counts. */
const USER_COLUMNS = `
  u.id, u.idp_user_id, u.login_id, u.email, u.first_name, u.last_name, u.name, u.display_name, u.mobile_phone,
  u.profile_image_url, u.currency_name, u.currency_code, u.is_saml, u.account_type, u.user_type, u.actor_type,
  u.ai_agent_type, u.display_language, u.date_format, u.column_view_settings, u.dashboard_data, u.search_data,
  u.is_expire_password, u.active_tenant_id, ${iso('u.last_login_date')} AS last_login_date,
  ${iso('tu.created_on')} AS created_on, ${nameOf('tu.created_by')} AS created_by,
  ${iso('greatest(u.updated_on, tu.updated_on)')} AS updated_on,
  ${nameOf('CASE WHEN tu.updated_on >= u.updated_on THEN coalesce(tu.updated_by, u.updated_by) ELSE coalesce(u.updated_by, tu.updated_by) END')} AS updated_by,
  tu.user_display_id AS m_display_id, tu.status AS m_status, tu.employee_id, tu.employee_number,
  tu.employee_type, tu.employment_type, tu.source_id, tu.external_id, tu.instance_id, tu.system_integration_id,
  ${iso('tu.start_date')} AS start_date, ${iso('tu.termination_date')} AS termination_date, tu.custom_attributes, tu.auto_provisioned, tu.manager_sync,
  tu.is_deleted AS m_is_deleted, ${iso('tu.deleted_on')} AS m_deleted_on,
  (SELECT json_build_object(
            'id', mu.id, 'userId', mtu.user_display_id, 'idpUserId', mu.idp_user_id, 'name', mu.name, 'email', mu.email,
            'firstName', mu.first_name, 'lastName', mu.last_name, 'displayName', mu.display_name,
            'mobilePhone', mu.mobile_phone, 'profileImageUrl', mu.profile_image_url,
            'createdOn', ${iso('mtu.created_on')}, 'updatedOn', ${iso('greatest(mu.updated_on, mtu.updated_on)')},
            'userPositions', ${positionsOf('mtu.tenant_id', 'mu.id')},
            'primaryOrganization', (SELECT json_build_object('groupName', g.group_name, 'displayName', g.display_name,
                                            'tenantGroupTypeId', g.tenant_group_type_id, 'tenantGroupTypeName', g.tenant_group_type_name)
                                      FROM auth.user_groups ug JOIN auth.group_projection g ON g.id = ug.group_id AND NOT g.is_deleted
                                     WHERE ug.tenant_id = mtu.tenant_id AND ug.user_id = mu.id AND ug.is_primary_org AND NOT ug.is_deleted),
            'managerName', mm.name, 'managerProfileImageUrl', mm.profile_image_url)
     FROM auth.tenant_users mtu
     JOIN auth.users mu ON mu.id = mtu.user_id
     LEFT JOIN auth.tenant_users mmtu ON mmtu.tenant_id = mtu.tenant_id AND mmtu.user_id = mtu.manager_id AND NOT mmtu.is_deleted
     LEFT JOIN auth.users mm ON mm.id = mmtu.user_id
    WHERE mtu.tenant_id = tu.tenant_id AND mtu.user_id = tu.manager_id AND NOT mtu.is_deleted) AS mgr,
  ${rolesOf('tu.tenant_id', 'u.id')} AS roles,
  ${positionsOf('tu.tenant_id', 'u.id')} AS positions,
  ${groupsOf('tu.tenant_id', 'u.id')} AS groups,
  (SELECT count(*)::int FROM auth.delegation_projection d
    WHERE d.tenant_id = tu.tenant_id AND d.recipient_user_id = u.id AND d.revoked_on IS NULL) AS delegations_received,
  (SELECT count(*)::int FROM auth.delegation_projection d
    WHERE d.tenant_id = tu.tenant_id AND d.issuer_user_id = u.id AND d.revoked_on IS NULL) AS delegations_issued`;

/** A user as a member of a tenant: $1 = user id, $2 = tenant id. No row: unknown, deleted or another tenant's. */
export const USER_BY_ID_SQL = `SELECT ${USER_COLUMNS}
  FROM auth.tenant_users tu JOIN auth.users u ON u.id = tu.user_id
 WHERE tu.user_id = $1 AND tu.tenant_id = $2 AND NOT tu.is_deleted`;

/**
 * ORDER BY keys of each sort, on the membership's own copies of the person's name, email and last
 * sign-in (kept by triggers), each served by a (tenant_id, key, user_id) index.
 */
const SORT_KEYS: Record<UserSort, string[]> = {
  name: ['tu.sort_name'],
  email: ['tu.sort_email'],
  createdOn: ['tu.created_on'],
  lastLoginDate: ['tu.last_login_date'],
};

/** Users who never signed in come last going down too: NULL read as -infinity (index tenant_users_login_sort_desc). */
const SORT_KEYS_DESC: Record<UserSort, string[]> = { ...SORT_KEYS, lastLoginDate: [`coalesce(tu.last_login_date, '-infinity'::timestamptz)`] };

/** The membership holds a live link to one of `ids` in `table` (an indexed EXISTS). */
function linkedTo(table: string, column: string, live: string, ids: readonly string[] | undefined): Sql[] {
  if (!ids?.length) return [];
  return [sql`EXISTS (SELECT 1 FROM ${raw(table)} l WHERE l.tenant_id = tu.tenant_id AND l.user_id = tu.user_id AND ${raw(live)} AND ${raw(`l.${column}`)} = ANY(${ids}::uuid[]))`];
}

/**
 * The tenant's users matching the query. Filters, search and sort use the tenant's own membership
 * rows only (sort indexes, the trigram index of search_text, EXISTS on the indexed link tables);
 * the page's rows then get the §2.4 columns.
 */
export function userList(tenantId: string, q: ListUsersQuery): ListSpec {
  const rows = searchedRows(USERS_SEARCH, q.search ? containsPattern(q.search) : undefined);
  return {
    with: rows.with,
    from: sql`${rows.table} tu`,
    where: [
      sql`tu.tenant_id = ${tenantId}`,
      sql`NOT tu.is_deleted`,
      ...anyOf('tu.status', q.status, 'text'),
      ...linkedTo('auth.user_roles', 'tenant_role_id', 'l.deleted_on IS NULL', q.roleIds),
      ...linkedTo('auth.user_positions', 'position_id', 'NOT l.is_deleted', q.positionIds),
      ...linkedTo('auth.user_groups', 'group_id', 'NOT l.is_deleted', q.groupIds),
    ],
    id: 'tu.user_id',
    sort: sortBy(q.sortOrder === 'desc' ? SORT_KEYS_DESC : SORT_KEYS, q.sortBy, q.sortOrder),
    view: {
      columns: raw(USER_COLUMNS),
      from: sql`auth.tenant_users tu ON tu.tenant_id = ${tenantId} AND tu.user_id = page.id JOIN auth.users u ON u.id = tu.user_id`,
    },
    page: q.page,
    limit: q.limit,
  };
}

/** The §2.3 summary of users of a tenant, as `evt.auth.user.*` carry it (deleted memberships answer status DELETED): $1 = tenant, $2 = user ids. */
export const USER_SUMMARY_SQL = `
  SELECT u.id, u.email, u.name, u.display_name AS "displayName", u.profile_image_url AS "profileImageUrl",
         u.mobile_phone AS "mobilePhone", CASE WHEN tu.is_deleted THEN 'DELETED' ELSE tu.status END AS status,
         coalesce((SELECT json_agg(json_build_object('id', p.id, 'positionName', p.position_name, 'autoProvisioned', up.auto_provisioned)
                                   ORDER BY p.position_name, p.id)
                     FROM auth.user_positions up JOIN auth.position_projection p ON p.id = up.position_id AND NOT p.is_deleted
                    WHERE up.tenant_id = tu.tenant_id AND up.user_id = u.id AND NOT up.is_deleted), '[]') AS positions,
         (SELECT json_build_object('id', g.id, 'groupName', g.group_name, 'displayName', g.display_name,
                   'tenantGroupTypeId', g.tenant_group_type_id, 'tenantGroupTypeName', g.tenant_group_type_name,
                   'legalName', g.legal_name, 'baseCurrency', g.base_currency)
            FROM auth.user_groups ug JOIN auth.group_projection g ON g.id = ug.group_id AND NOT g.is_deleted
           WHERE ug.tenant_id = tu.tenant_id AND ug.user_id = u.id AND ug.is_primary_org AND NOT ug.is_deleted) AS "primaryOrganization",
         coalesce((SELECT array_agg(ug.group_id ORDER BY ug.group_id) FROM auth.user_groups ug
                    WHERE ug.tenant_id = tu.tenant_id AND ug.user_id = u.id AND NOT ug.is_deleted), '{}') AS "groupIds",
         coalesce((SELECT array_agg(DISTINCT m.relationship_key_name ORDER BY m.relationship_key_name)
                     FROM auth.user_roles ur
                     JOIN auth.tenant_roles r ON r.id = ur.tenant_role_id AND NOT r.is_deleted AND NOT r.is_deactivated AND r.status = 'ACTIVE'
                     JOIN auth.role_mappings m ON m.role_id = r.id AND m.is_enabled
                    WHERE ur.tenant_id = tu.tenant_id AND ur.user_id = u.id AND ur.deleted_on IS NULL), '{}') AS "permissionKeys",
         (SELECT json_build_object('id', mu.id, 'name', mu.name, 'displayName', mu.display_name, 'profileImageUrl', mu.profile_image_url)
            FROM auth.users mu WHERE mu.id = tu.manager_id) AS manager
    FROM auth.tenant_users tu JOIN auth.users u ON u.id = tu.user_id
   WHERE tu.tenant_id = $1 AND tu.user_id = ANY($2::uuid[])
   ORDER BY u.id`;

/** Active members of the tenant holding its System Admin role. */
export async function activeSystemAdmins(q: Queryable, tenantId: string): Promise<number> {
  const [{ n }] = await q.query<{ n: number }>(
    `SELECT count(DISTINCT tu.user_id)::int AS n
       FROM auth.tenant_users tu
       JOIN auth.user_roles ur ON ur.tenant_id = tu.tenant_id AND ur.user_id = tu.user_id AND ur.deleted_on IS NULL
       JOIN auth.tenant_roles r ON r.id = ur.tenant_role_id AND r.system_key = 'SYSTEM_ADMIN' AND NOT r.is_deleted
      WHERE tu.tenant_id = $1 AND tu.status = 'ACTIVE' AND NOT tu.is_deleted`,
    [tenantId],
  );
  return n;
}

/** The managers above `managerId` (its manager, theirs, ...), at most 100 levels. */
export async function managerChain(q: Queryable, tenantId: string, managerId: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `WITH RECURSIVE chain(id, depth) AS (
       SELECT tu.manager_id, 1 FROM auth.tenant_users tu WHERE tu.tenant_id = $1 AND tu.user_id = $2
       UNION ALL
       SELECT tu.manager_id, c.depth + 1 FROM chain c JOIN auth.tenant_users tu ON tu.tenant_id = $1 AND tu.user_id = c.id
        WHERE c.depth < 100)
     SELECT id FROM chain WHERE id IS NOT NULL`,
    [tenantId, managerId],
  );
  return rows.map((r) => r.id);
}
