/** The SQL of tenant roles: the columns every read answers, and the list. */
import { ListSpec, containsPattern, isoSql as iso, raw, sortBy, sql } from '@ddm/platform';
import type { ListRolesQuery } from './dto/list-roles.query';
import type { RoleSort } from './role.rules';

/** Columns of a role as answered, with its users count and mappings (correlated, indexed subqueries). */
const ROLE_COLUMNS = `
  r.id, r.tenant_id, r.role_display_id, r.role_name, r.description, r.is_custom, r.can_deactivate, r.status,
  r.is_deleted, ${iso('r.deleted_on')} AS deleted_on, r.is_deactivated, ${iso('r.deactivated_on')} AS deactivated_on,
  ${iso('r.created_on')} AS created_on, ${iso('r.updated_on')} AS updated_on,
  (SELECT count(*)::int FROM auth.user_roles ur
     JOIN auth.tenant_users tu ON tu.tenant_id = ur.tenant_id AND tu.user_id = ur.user_id AND NOT tu.is_deleted
    WHERE ur.tenant_role_id = r.id AND ur.deleted_on IS NULL) AS users_count,
  (SELECT json_agg(json_build_object('relationshipKeyName', m.relationship_key_name, 'isEnabled', m.is_enabled, 'status', m.status)
          ORDER BY m.relationship_key_name)
     FROM auth.role_mappings m WHERE m.role_id = r.id) AS mappings`;

/** A role of a tenant: $1 = role id, $2 = tenant id. No row: unknown, deleted or another tenant's. */
export const ROLE_BY_ID_SQL = `SELECT ${ROLE_COLUMNS} FROM auth.tenant_roles r WHERE r.id = $1 AND r.tenant_id = $2 AND NOT r.is_deleted`;

/** ORDER BY keys of each sort, matching the indexes (tenant_id, lower(role_name)), (tenant_id, created_on, id), (tenant_id, updated_on, id). */
const SORT_KEYS: Record<RoleSort, string[]> = {
  roleName: ['lower(r.role_name)'],
  createdOn: ['r.created_on'],
  updatedOn: ['r.updated_on'],
};

/** The tenant's live roles matching the query, a page of them in the chosen order. */
export function roleList(tenantId: string, q: ListRolesQuery): ListSpec {
  const where = [sql`r.tenant_id = ${tenantId}`, sql`NOT r.is_deleted`];
  if (q.search) {
    const pattern = containsPattern(q.search);
    where.push(sql`(r.role_name ILIKE ${pattern} OR r.description ILIKE ${pattern})`);
  }
  if (q.status) where.push(sql`r.status = ${q.status}`);
  if (q.isCustom !== undefined) where.push(sql`r.is_custom = ${q.isCustom}`);
  if (q.isDeactivated !== undefined) where.push(sql`r.is_deactivated = ${q.isDeactivated}`);
  return {
    from: sql`auth.tenant_roles r`,
    where,
    id: 'r.id',
    sort: sortBy(SORT_KEYS, q.sortBy, q.sortOrder),
    view: { columns: raw(ROLE_COLUMNS), from: sql`auth.tenant_roles r ON r.id = page.id` },
    page: q.page,
    limit: q.limit,
  };
}
