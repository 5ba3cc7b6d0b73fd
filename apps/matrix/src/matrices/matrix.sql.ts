import { containsPattern, dateRangeConditions, isoSql, join, ListSpec, matchingIds, raw, searchedRows, sortBy, Sql, sql } from '@ddm/platform';
import { Audience, MATRIX_DECISIONS_WHERE, visibleTo } from '../core/matrix.sql';
import { CountRange, MatrixRefKind, countRange } from './matrix.rules';
import type { MatrixFiltersDto, MatrixSearchDto, MatrixSort } from './dto/search.dto';
import { MATRICES_SEARCH } from '../core/text-search';

const USER_DETAILS = (u: string) => `json_build_object('id', ${u}.id, 'email', ${u}.email, 'name', ${u}.name,
  'firstName', split_part(coalesce(${u}.name, ''), ' ', 1), 'lastName', nullif(substr(coalesce(${u}.name, ''), length(split_part(coalesce(${u}.name, ''), ' ', 1)) + 2), ''),
  'mobilePhone', ${u}.mobile_phone, 'isActive', ${u}.status = 'ACTIVE', 'profileImageUrl', ${u}.profile_image_url, 'positions', ${u}.positions)`;

const GROUP_DETAILS = (g: string) => `json_build_object('id', ${g}.id, 'groupName', ${g}.group_name, 'tenantId', ${g}.tenant_id, 'groupTypeName', ${g}.group_type_name,
  'groupTypeId', ${g}.tenant_group_type_id, 'status', ${g}.status, 'parentGroupIds', ${g}.parent_group_ids, 'isSynced', false)`;

/** Columns of a matrix as answered (spec §2.12), for the caller `userId`: counts and every embedded list, as subqueries of one statement. */
export function matrixColumns(userId: string): Sql {
  return sql`m.id, m.tenant_id, m.matrix_display_id, m.matrix_name, m.matrix_description, m.role_matrix, m.authority_matrix, m.status_name, m.owner_id,
  m.copied_from, m.current_tab, ${raw(isoSql('m.created_on'))} AS created_on, ${raw(isoSql('m.updated_on'))} AS updated_on,
  m.sharing_id, m.sharing_type, m.sharing_option, m.sharing_link, m.viewer_adjustable_filters, m.authority_roles, m.delegation_filter, m.formatting,
  m.ext_enabled, m.ext_expiration_enabled, ${raw(isoSql('m.ext_expiration_date'))} AS ext_expiration_date, m.ext_password_required, m.ext_token,
  EXISTS (SELECT 1 FROM matrix.favorites f WHERE f.matrix_id = m.id AND f.user_id = ${userId}) AS is_favorite,
  EXISTS (SELECT 1 FROM matrix.user_views v WHERE v.matrix_id = m.id AND v.user_id = ${userId}) AS has_view,
  (SELECT json_build_object('decisions', count(*), 'delegations', coalesce(sum(n.delegations), 0),
          'suspended', coalesce(sum(n.suspended), 0), 'pending', coalesce(sum(n.pending), 0))
     FROM matrix.decision_projection d LEFT JOIN matrix.decision_delegation_counts n ON n.decision_id = d.id
    WHERE ${raw(MATRIX_DECISIONS_WHERE)}) AS counts,
  (SELECT ${raw(USER_DETAILS('u'))} FROM matrix.user_projection u WHERE u.tenant_id = m.tenant_id AND u.id = m.owner_id) AS owner,
  (SELECT coalesce(json_agg(json_build_object('sectionId', x.id, 'name', s.section_name) ORDER BY x.n), '[]')
     FROM unnest(m.section_ids) WITH ORDINALITY x(id, n) LEFT JOIN matrix.section_projection s ON s.id = x.id AND s.tenant_id = m.tenant_id) AS sections,
  (SELECT coalesce(json_agg(json_build_object('categoryId', x.id, 'name', c.category_name) ORDER BY x.n), '[]')
     FROM unnest(m.category_ids) WITH ORDINALITY x(id, n) LEFT JOIN matrix.category_projection c ON c.id = x.id AND c.tenant_id = m.tenant_id) AS categories,
  (SELECT coalesce(json_agg(json_build_object('id', x.id, 'userId', x.id, 'userDetails', CASE WHEN u.id IS NULL THEN NULL ELSE ${raw(USER_DETAILS('u'))} END) ORDER BY x.n), '[]')
     FROM unnest(m.shared_user_ids) WITH ORDINALITY x(id, n) LEFT JOIN matrix.user_projection u ON u.tenant_id = m.tenant_id AND u.id = x.id) AS shared_users,
  (SELECT coalesce(json_agg(json_build_object('id', x.id, 'groupId', x.id, 'groupDetails', CASE WHEN g.id IS NULL THEN NULL ELSE ${raw(GROUP_DETAILS('g'))} END) ORDER BY x.n), '[]')
     FROM unnest(m.shared_group_ids) WITH ORDINALITY x(id, n) LEFT JOIN matrix.group_projection g ON g.id = x.id AND g.tenant_id = m.tenant_id) AS shared_groups,
  (SELECT coalesce(json_agg(json_build_object('id', x.id, 'tenantGroupsMappingId', x.id, 'groupDetails', CASE WHEN g.id IS NULL THEN NULL ELSE ${raw(GROUP_DETAILS('g'))} END) ORDER BY x.n), '[]')
     FROM unnest(m.group_ids) WITH ORDINALITY x(id, n) LEFT JOIN matrix.group_projection g ON g.id = x.id AND g.tenant_id = m.tenant_id) AS groups,
  (SELECT coalesce(json_agg(json_build_object('id', x.id, 'positionId', x.id, 'positionDetails', CASE WHEN p.id IS NULL THEN NULL ELSE json_build_object(
            'id', p.id, 'tenantId', p.tenant_id, 'positionName', p.position_name, 'isScimProvisioned', p.is_scim, 'status', p.status, 'groupIds', p.group_ids) END) ORDER BY x.n), '[]')
     FROM unnest(m.position_ids) WITH ORDINALITY x(id, n) LEFT JOIN matrix.position_projection p ON p.id = x.id AND p.tenant_id = m.tenant_id) AS positions,
  (SELECT coalesce(json_agg(json_build_object('id', x.id, 'userId', x.id, 'userDetails', CASE WHEN u.id IS NULL THEN NULL ELSE ${raw(USER_DETAILS('u'))} END) ORDER BY x.n), '[]')
     FROM unnest(m.user_ids) WITH ORDINALITY x(id, n) LEFT JOIN matrix.user_projection u ON u.tenant_id = m.tenant_id AND u.id = x.id) AS users,
  (SELECT coalesce(json_agg(json_build_object('id', x.id, 'decisionId', x.id, 'isDisabled', x.id = ANY(m.disabled_decision_ids),
            'disabledOn', CASE WHEN x.id = ANY(m.disabled_decision_ids) THEN ${raw(isoSql('m.updated_on'))} END) ORDER BY x.n), '[]')
     FROM unnest(m.decision_ids) WITH ORDINALITY x(id, n)) AS decisions`;
}

/** The count of decisions (or live delegations) of m, for the count-range filters. */
const DECISION_COUNT = `(SELECT count(*) FROM matrix.decision_projection d WHERE ${MATRIX_DECISIONS_WHERE})`;
const DELEGATION_COUNT = `(SELECT coalesce(sum(n.delegations), 0) FROM matrix.decision_projection d JOIN matrix.decision_delegation_counts n
    ON n.decision_id = d.id WHERE ${MATRIX_DECISIONS_WHERE})`;

function inRange(expression: string, range: CountRange | null): Sql[] {
  if (!range) return [];
  const out: Sql[] = [];
  if (range.min !== null) out.push(sql`${raw(expression)} >= ${range.min}::bigint`);
  if (range.max !== null) out.push(sql`${raw(expression)} <= ${range.max}::bigint`);
  return out;
}

const overlaps = (column: string, ids: readonly string[] | null | undefined): Sql[] => (ids?.length ? [sql`${raw(column)} && ${ids}::uuid[]`] : []);

/**
 * The conditions of the search's filters (also the status counts', which leave out the status ones:
 * `withStatus` false); the text search's too unless `searched` (the list reads the matched rows).
 */
export function filterConditions(a: Audience, q: MatrixFiltersDto, withStatus = true, searched = false): Sql[] {
  const status = q.matrixStatusName ?? (q.countStatusName && q.countStatusName !== 'all' ? q.countStatusName : null);
  return [
    sql`m.tenant_id = ${a.tenantId}`,
    sql`NOT m.is_deleted`,
    ...visibleTo(a),
    ...(q.search && !searched ? [matchingIds('m.id', MATRICES_SEARCH, containsPattern(q.search.toLowerCase()))] : []),
    ...(withStatus && status ? [sql`m.status_name = ${status}`] : []),
    ...(q.startDate ? [sql`m.created_on >= ${q.startDate}::timestamptz`] : []),
    ...(q.endDate ? [sql`m.created_on < ${q.endDate}::timestamptz + interval '1 millisecond'`] : []),
    ...dateRangeConditions(q, { created: 'm.created_on', updated: 'm.updated_on' }),
    ...(q.matrixSharingType ? [sql`m.sharing_type = ${q.matrixSharingType}`] : []),
    ...(q.ownerIds?.length ? [sql`m.owner_id = ANY(${q.ownerIds}::uuid[])`] : []),
    ...(q.selectedMatrixIds?.length ? [sql`m.id = ANY(${q.selectedMatrixIds}::uuid[])`] : []),
    ...overlaps('m.group_ids', q.groupIds),
    ...overlaps('m.position_ids', q.positionIds),
    ...overlaps('m.user_ids', q.userIds),
    ...overlaps('m.section_ids', q.sectionIds),
    ...overlaps('m.category_ids', q.categoryIds),
    ...(q.isFavorite === undefined
      ? []
      : [sql`${raw(q.isFavorite ? '' : 'NOT ')}EXISTS (SELECT 1 FROM matrix.favorites f WHERE f.matrix_id = m.id AND f.user_id = ${a.userId})`]),
    ...inRange(DECISION_COUNT, countRange(q.decisionsCount)),
    ...inRange(DELEGATION_COUNT, countRange(q.delegationsCount)),
  ];
}

/** ORDER BY keys of each sort (the row id is appended by the list); each has its index (tenant, key, id). */
const SORT_KEYS: Record<MatrixSort, string[]> = {
  matrixName: ['lower(m.matrix_name)'],
  matrixId: ['length(m.matrix_display_id)', 'm.matrix_display_id'],
  createdOn: ['m.created_on'],
  updatedOn: ['m.updated_on'],
  matrixStatusName: ['m.status_name'],
};

/** The matrices the audience sees that match, a page of them in the chosen order (one statement). */
export function matrixSearch(a: Audience, q: MatrixSearchDto): ListSpec {
  const rows = searchedRows(MATRICES_SEARCH, q.search ? containsPattern(q.search.toLowerCase()) : undefined);
  return {
    with: rows.with,
    from: sql`${rows.table} m`,
    where: filterConditions(a, q, true, true),
    id: 'm.id',
    sort: sortBy(SORT_KEYS, q.sortBy, q.sortOrder),
    view: { columns: matrixColumns(a.userId), from: sql`matrix.matrices m ON m.id = page.id` },
    page: q.page,
    limit: q.limit,
  };
}

/** One live matrix the audience may see, as its view (no row: 404). */
export function matrixById(a: Audience, id: string): Sql {
  return sql`SELECT ${matrixColumns(a.userId)} FROM matrix.matrices m
    WHERE ${join([sql`m.id = ${id}`, ...filterConditions(a, {}, false)], ' AND ')}`;
}

/** One row when the audience sees the live matrix `id` (no row: 404). */
export function matrixSeen(a: Audience, id: string): Sql {
  return sql`SELECT 1 FROM matrix.matrices m WHERE ${join([sql`m.id = ${id}`, ...filterConditions(a, {}, false)], ' AND ')}`;
}

/** Counts by status of the matrices the audience sees that match the filters (the status filters left out). */
export function statusCounts(a: Audience, q: MatrixFiltersDto): Sql {
  return sql`SELECT count(*) FILTER (WHERE m.status_name = 'Active')::int AS "Active", count(*) FILTER (WHERE m.status_name = 'Draft')::int AS "Draft",
      count(*) FILTER (WHERE m.status_name = 'Archived')::int AS "Archived", count(*)::int AS "all"
    FROM matrix.matrices m WHERE ${join(filterConditions(a, q, false), ' AND ')}`;
}

/** Of the ids asked by kind, those naming a live record of the tenant (one statement, reading only the kinds asked; null when none is). */
export function liveRefs(tenantId: string, ids: Record<MatrixRefKind, readonly string[]>): Sql | null {
  const live = (kind: MatrixRefKind, table: string, alive: string) =>
    ids[kind].length ? [sql`SELECT ${kind}::text AS kind, id FROM ${raw(table)} WHERE tenant_id = ${tenantId} AND id = ANY(${ids[kind]}::uuid[]) AND ${raw(alive)}`] : [];
  const parts = [
    live('user', 'matrix.user_projection', `status <> 'DELETED'`),
    live('group', 'matrix.group_projection', 'NOT is_deleted'),
    live('position', 'matrix.position_projection', 'NOT is_deleted'),
    live('section', 'matrix.section_projection', 'NOT is_deleted'),
    live('category', 'matrix.category_projection', 'NOT is_deleted'),
    live('decision', 'matrix.decision_projection', 'NOT is_deleted'),
    live('authority_type', 'matrix.authority_type_projection', 'NOT is_deleted'),
    live('decision_role', 'matrix.decision_role_projection', 'NOT is_deleted'),
    live('matrix', 'matrix.matrices', 'NOT is_deleted'),
  ].flat();
  return parts.length ? join(parts, ' UNION ALL ') : null;
}

/** The stored columns of matrix m a change reads (StoredMatrix), the expiration as ISO 8601. */
export const STORED_COLUMNS = `m.matrix_name, m.matrix_description, m.role_matrix, m.authority_matrix, m.status_name, m.owner_id, m.copied_from, m.current_tab,
  m.sharing_type, m.sharing_option, m.sharing_link, m.viewer_adjustable_filters, m.shared_user_ids, m.shared_group_ids, m.section_ids, m.category_ids,
  m.group_ids, m.position_ids, m.user_ids, m.decision_ids, m.disabled_decision_ids, m.authority_roles, m.delegation_filter, m.formatting,
  m.ext_enabled, m.ext_expiration_enabled, ${isoSql('m.ext_expiration_date')} AS ext_expiration_date, m.ext_password_required`;
