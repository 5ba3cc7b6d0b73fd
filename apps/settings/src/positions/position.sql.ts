/**
 * The SQL of the positions' reads, as pure exports: the service runs it, and the benchmark
 * (tools/bench/settings.ts) runs the very same statements from a bare pg handler.
 * Each read is ONE statement: the columns, the groups (json_agg) and the delegation counts come
 * from correlated, indexed subqueries; timestamps are formatted as ISO 8601 UTC by Postgres.
 */
import { anyOf, containsPattern, dateRangeConditions, isoSql, join, ListSpec, listSql, pageRows, raw, searchedRows, sortBy, Sql, sql } from '@ddm/platform';
import type { ListPositionsQuery } from './dto/list-positions.query';
import { PositionListRow, PositionView, selectFields, toPositionView } from './dto/position.response';
import { POSITION_FIELDS, PositionSort, chosenFields, scimFilter, statusFilter } from './position.rules';
import { POSITIONS_SEARCH } from '../core/text-search';

export type { ListPositionsQuery } from './dto/list-positions.query';
// The bench maps rows as the service does.
export { toPositionView } from './dto/position.response';
export type { PositionGroupView, PositionListRow, PositionRow, PositionView } from './dto/position.response';

const iso = isoSql;

/**
 * A position's columns as answered. `p` is settings.positions. Counts: active (not revoked)
 * delegations of the same tenant naming the position as recipient / issuer. Groups: the
 * position's groups that are not deleted, each with its type and its first parent that is not
 * deleted (by link creation).
 */
export const POSITION_COLUMNS = `
  p.id, p.tenant_id, p.position_display_id, p.position_name, p.is_scim_provisioned, p.status, p.is_deleted,
  ${iso('p.created_on')} AS created_on, ${iso('p.updated_on')} AS updated_on, p.external_id, p.instance_id,
  (SELECT count(*)::int FROM settings.delegation_projection d
    WHERE d.recipient_position_id = p.id AND d.revoked_on IS NULL AND d.tenant_id = p.tenant_id) AS delegations_received,
  (SELECT count(*)::int FROM settings.delegation_projection d
    WHERE d.issuer_position_id = p.id AND d.revoked_on IS NULL AND d.tenant_id = p.tenant_id) AS delegations_issued,
  (SELECT coalesce(json_agg(json_build_object(
            'groupName', g.group_name, 'displayName', g.display_name, 'groupTypeName', t.group_type_name, 'groupId', g.id,
            'groupTypeId', t.id, 'parentId', par.id, 'parentName', par.group_name,
            'createdAt', ${iso('pg.created_at')}, 'updatedAt', ${iso('pg.updated_at')})
          ORDER BY pg.created_at, g.group_name, g.id), '[]'::json)
     FROM settings.position_groups pg
     JOIN settings.groups g ON g.id = pg.group_id AND g.tenant_id = p.tenant_id AND NOT g.is_deleted
     LEFT JOIN settings.group_types t ON t.id = g.tenant_group_type_id
     LEFT JOIN LATERAL (
       SELECT pa.id, pa.group_name FROM settings.group_parents gp
         JOIN settings.groups pa ON pa.id = gp.parent_id AND NOT pa.is_deleted
        WHERE gp.group_id = g.id
        ORDER BY gp.created_at, gp.id LIMIT 1) par ON true
    WHERE pg.position_id = p.id) AS groups`;

/** Get by id: $1 = position id, $2 = tenant id. No row: unknown, deleted or another tenant's. */
export const POSITION_BY_ID_SQL = `SELECT ${POSITION_COLUMNS} FROM settings.positions p WHERE p.id = $1 AND p.tenant_id = $2 AND NOT p.is_deleted`;

/** Several positions, deleted ones included (what a bulk delete answers): $1 = ids (uuid[]), $2 = tenant id. */
export const POSITIONS_BY_IDS_SQL = `SELECT ${POSITION_COLUMNS} FROM settings.positions p WHERE p.id = ANY($1::uuid[]) AND p.tenant_id = $2
  ORDER BY p.position_display_id::bigint, p.id`;

/** Sort keys of each `sortBy`, matching the list indexes (tenant_id, ..., id) WHERE NOT is_deleted. */
const SORT_KEYS: Record<PositionSort, string[]> = {
  positionName: ['lower(p.position_name)'],
  positionId: ['(p.position_display_id::bigint)'],
  status: ['p.status', 'lower(p.position_name)'],
  createdOn: ['p.created_on'],
  updatedOn: ['p.updated_on'],
};

/** A comma list given as an array or as a string (the bench may pass raw query values). */
function asList(v: unknown): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  const items = Array.isArray(v) ? v : String(v).split(',');
  const out = items.map((x) => String(x).trim()).filter((x) => x !== '');
  return out.length ? out : undefined;
}

/** The conditions of the positions matching every filter. */
function matching(tenantId: string, q: Partial<ListPositionsQuery>): Sql[] {
  const where = [sql`p.tenant_id = ${tenantId}`, sql`NOT p.is_deleted`];
  const scim = scimFilter(asList(q.sourceType));
  if (scim !== null) where.push(sql`p.is_scim_provisioned = ${scim}`);
  // One status: an equality, so (tenant_id, status, lower(name), id) serves filter and sort; both statuses: no filter.
  const status = statusFilter(asList(q.status));
  if (status) where.push(sql`p.status = ${status}`);
  const groupIds = asList(q.groupIds);
  if (groupIds)
    where.push(sql`EXISTS (SELECT 1 FROM settings.position_groups pg
                  JOIN settings.groups g ON g.id = pg.group_id AND g.tenant_id = ${tenantId} AND NOT g.is_deleted
                 WHERE pg.position_id = p.id AND pg.group_id = ANY(${groupIds}::uuid[]))`);
  where.push(...anyOf('p.id', asList(q.selectedPositionIds), 'uuid'));
  where.push(...dateRangeConditions(q, { created: 'p.created_on', updated: 'p.updated_on' }));
  // Delegation filters: the position received an active delegation that satisfies all of them.
  const d: Sql[] = [];
  if (q.delegationIssuerType) d.push(sql`d.issuer_type = ${q.delegationIssuerType}`);
  if (q.delegationIssuerUserId) d.push(sql`d.issuer_user_id = ${q.delegationIssuerUserId}::uuid`);
  if (q.delegationIssuerPositionId) d.push(sql`d.issuer_position_id = ${q.delegationIssuerPositionId}::uuid`);
  const pathways = asList(q.delegationPathway);
  if (pathways) d.push(sql`d.pathways && ${pathways}::text[]`);
  if (q.delegationRecipientType) d.push(sql`d.recipient_type = ${q.delegationRecipientType}`);
  if (d.length)
    where.push(sql`EXISTS (SELECT 1 FROM settings.delegation_projection d
                 WHERE d.recipient_position_id = p.id AND d.revoked_on IS NULL AND d.tenant_id = ${tenantId} AND ${join(d, ' AND ')})`);
  return where;
}

/**
 * The positions list: the page's ids in index order (pinned ones first), then the columns, groups
 * and counts of those rows only, and the total of matching positions (one statement, see ListSpec).
 */
export function positionList(tenantId: string, q: Partial<ListPositionsQuery>): ListSpec {
  const rows = searchedRows(POSITIONS_SEARCH, q.search ? containsPattern(q.search) : undefined);
  return {
    with: rows.with,
    from: sql`${rows.table} p`,
    where: matching(tenantId, q),
    id: 'p.id',
    sort: sortBy(SORT_KEYS, (q.sortBy as PositionSort) ?? 'createdOn', q.sortOrder),
    pinned: asList(q.pinnedPositionIds),
    view: { columns: raw(POSITION_COLUMNS), from: sql`settings.positions p ON p.id = page.id` },
    page: Number(q.page ?? 1),
    limit: Number(q.limit ?? 10),
  };
}

/** The list statement (the service and the bench run this very statement). */
export function positionListSql(tenantId: string, q: Partial<ListPositionsQuery>): Sql {
  return listSql(positionList(tenantId, q));
}

/** Maps the list statement's rows: the page's views (only the chosen fields) and the total. */
export function toPositionPage(rows: PositionListRow[], q: Pick<Partial<ListPositionsQuery>, 'select' | 'fields'>): { items: Partial<PositionView>[]; total: number } {
  const fields = chosenFields(q.select, q.fields);
  return pageRows(rows, (r) => selectFields(toPositionView(r), fields));
}

export { POSITION_FIELDS };
