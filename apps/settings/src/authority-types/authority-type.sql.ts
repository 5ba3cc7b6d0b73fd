/** The SQL of authority types: the columns every statement answers (alias `a`, also for INSERT/UPDATE ... RETURNING), and the list. */
import { ListSpec, anyOf, containsPattern, isoSql, raw, sortBy, sql } from '@ddm/platform';
import type { ListAuthorityTypesQuery } from './dto/list-authority-types.query';
import type { AuthorityTypeSort } from './authority-type.rules';

export const AUTHORITY_TYPE_COLUMNS = `a.id, a.tenant_id, a.authority_type, a.authority_type_icon, a.authority_type_order, a.status, a.is_default, a.is_deleted,
  ${isoSql('a.created_on')} AS created_at, ${isoSql('a.updated_on')} AS updated_at`;

/** The tenant's live type, locked for the change: $1 = id, $2 = tenant id. */
export const LOCK_AUTHORITY_TYPE_SQL = `SELECT authority_type, is_default FROM settings.authority_types WHERE id = $1 AND tenant_id = $2 AND NOT is_deleted FOR UPDATE`;

/** Takes the tenant's lock for orders ($1 = tenant id), so that two creates at once each get their own place after the last. */
export const LOCK_AUTHORITY_TYPE_ORDERS_SQL = `SELECT pg_advisory_xact_lock(hashtext('settings:authority-type-order:' || $1))`;

/** The highest order among the tenant's live types: $1 = tenant id. */
export const LAST_AUTHORITY_TYPE_ORDER_SQL = `SELECT max(authority_type_order) AS last FROM settings.authority_types WHERE tenant_id = $1 AND NOT is_deleted`;

/** Inserts the default types the tenant lacks (a default already there, or a clashing name, is skipped): $1 = tenant, then the defaults' arrays. */
export const INSERT_DEFAULT_AUTHORITY_TYPES_SQL = `INSERT INTO settings.authority_types AS a (id, tenant_id, authority_type, authority_type_order, system_key, is_default)
  SELECT x.id, $1, x.name, x.ord, x.key, true
    FROM unnest($2::uuid[], $3::text[], $4::int[], $5::text[]) WITH ORDINALITY AS x(id, name, ord, key, n)
   ORDER BY x.n
  ON CONFLICT DO NOTHING
  RETURNING ${AUTHORITY_TYPE_COLUMNS}`;

/** ORDER BY keys of each sort, matching the indexes (tenant_id, authority_type_order, id), (tenant_id, lower(authority_type), id), (tenant_id, created_on, id). */
const SORT_KEYS: Record<AuthorityTypeSort, string[]> = {
  authorityTypeOrder: ['a.authority_type_order'],
  authorityType: ['lower(a.authority_type)'],
  createdAt: ['a.created_on'],
};

/** The tenant's live types matching the query, a page of them in the chosen order. */
export function authorityTypeList(tenantId: string, q: ListAuthorityTypesQuery): ListSpec {
  return {
    from: sql`settings.authority_types a`,
    where: [
      sql`a.tenant_id = ${tenantId}`,
      sql`NOT a.is_deleted`,
      ...(q.search ? [sql`a.authority_type ILIKE ${containsPattern(q.search)}`] : []),
      ...anyOf('a.status', q.status, 'text'),
    ],
    id: 'a.id',
    sort: sortBy(SORT_KEYS, q.sortBy, q.sortOrder),
    view: { columns: raw(AUTHORITY_TYPE_COLUMNS), from: sql`settings.authority_types a ON a.id = page.id` },
    page: q.page,
    limit: q.limit,
  };
}
