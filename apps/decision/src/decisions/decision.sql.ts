/**
 * The SQL of decisions. A decision's view (spec §2.9, without what depends on the caller) is built
 * by Postgres as one JSON value in one statement: the get, the list's page, the answer of a change
 * and the snapshot a revision keeps are the same expression. The benchmark runs these very statements.
 */
import { anyOf, dateRangeConditions, escapeLike, isoSql, join, ListSpec, raw, searchedRows, sortBy, Sql, sql } from '@ddm/platform';
import { LIVE_SQL } from '../core/delegation.sql';
import { UNLIMITED } from '../core/decision-limits';
import type { StoredDecisionView } from './dto/decision.response';
import { DECISIONS_SEARCH } from '../core/text-search';

const user = (a: string) =>
  `CASE WHEN ${a}.id IS NULL THEN NULL ELSE jsonb_build_object('id', ${a}.id, 'email', ${a}.email, 'name', ${a}.name, 'displayName', ${a}.display_name, 'profileImageUrl', ${a}.profile_image_url) END`;

/** The tables behind a decision's view: d = the decision, s/c = its section and category, ou/cu/uu = owner, creator, last editor. */
const VIEW_JOINS = `
  LEFT JOIN decision.section_projection s ON s.id = d.section_id AND s.tenant_id = d.tenant_id
  LEFT JOIN decision.category_projection c ON c.id = d.category_id AND c.tenant_id = d.tenant_id
  LEFT JOIN decision.user_projection ou ON ou.tenant_id = d.tenant_id AND ou.id = d.owner_id
  LEFT JOIN decision.user_projection cu ON cu.tenant_id = d.tenant_id AND cu.id = d.created_by
  LEFT JOIN decision.user_projection uu ON uu.tenant_id = d.tenant_id AND uu.id = d.updated_by`;

/** The decision's view as one JSON value (two objects joined: json_build_object takes at most 100 arguments). */
export const DECISION_VIEW = `(jsonb_build_object(
    'id', d.id, 'tenantId', d.tenant_id, 'name', d.name, 'description', d.description, 'guidance', d.guidance,
    'sectionId', d.section_id, 'categoryId', d.category_id, 'status', d.status, 'createdBy', d.created_by, 'owner', d.owner_id,
    'createdAt', ${isoSql('d.created_on')}, 'updatedBy', d.updated_by, 'updatedAt', ${isoSql('d.updated_on')}, 'copiedFrom', d.copied_from,
    'conditionEnabled', d.condition_enabled, 'roleEnabled', d.role_enabled, 'delegable', d.delegable,
    'decisionDisplayId', d.decision_display_id, 'delegationPathway', to_jsonb(d.delegation_pathway), 'decisionId', d.id,
    'sectionName', s.section_name, 'categoryName', c.category_name,
    'createdByUsername', cu.name, 'ownerUsername', ou.name, 'updatedByUsername', uu.name,
    'delegations', (SELECT count(*)::int FROM decision.delegations lg WHERE lg.tenant_id = d.tenant_id AND lg.decision_id = d.id
                      AND lg.status IN ${LIVE_SQL}),
    'ownerUserProfileUrl', ou.profile_image_url, 'createdByUserProfileUrl', cu.profile_image_url, 'updatedByUserProfileUrl', uu.profile_image_url)
  || jsonb_build_object(
    'createdByDetails', ${user('cu')}, 'updatedByDetails', ${user('uu')}, 'ownerDetails', ${user('ou')},
    'isRequestActionCompleted', d.is_request_action_completed, 'isDeleted', d.is_deleted,
    'deletedOn', ${isoSql('d.deleted_on')}, 'deletedBy', d.deleted_by,
    'decisionGroups', (SELECT coalesce(jsonb_agg(jsonb_build_object(
          'id', dg.id, 'denormalizedDecisionId', dg.decision_id, 'groupId', dg.group_id,
          'tenantGroupTypeId', coalesce(g.tenant_group_type_id, dg.tenant_group_type_id), 'displayName', g.display_name, 'groupName', g.group_name)
        ORDER BY dg.position), '[]'::jsonb)
      FROM decision.decision_groups dg LEFT JOIN decision.group_projection g ON g.id = dg.group_id AND g.tenant_id = dg.tenant_id
     WHERE dg.decision_id = d.id),
    'decisionAuthorities', (SELECT coalesce(jsonb_agg(jsonb_build_object(
          'id', da.id, 'denormalizedDecisionId', da.decision_id, 'authorityTypeId', da.authority_type_id, 'authorityType', at.authority_type,
          'authorityTypeOrder', da.authority_type_order, 'authorityTypeIcon', at.authority_type_icon, 'authorityLimit', da.authority_limit,
          'authorityLimitValueType', da.value_type, 'authorityLimitOperator', da.operator, 'authorityLimitValue', da.value_text,
          'authorityLimitValueUnit', da.unit)
        ORDER BY da.position), '[]'::jsonb)
      FROM decision.decision_authorities da
      LEFT JOIN decision.authority_type_projection at ON at.id = da.authority_type_id AND at.tenant_id = da.tenant_id
     WHERE da.decision_id = d.id),
    'decisionDocuments', (SELECT coalesce(jsonb_agg(jsonb_build_object(
          'id', dd.id, 'denormalizedDecisionId', dd.decision_id, 'documentId', dd.document_id, 'isPinned', dd.is_pinned,
          'documentName', doc.document_name, 'documentUrl', doc.document_url, 'documentTypeName', doc.document_type_name, 'documentIcon', doc.document_icon,
          'documentDescription', doc.document_description, 'documentFileType', doc.document_file_type, 'documentDisplayId', doc.document_display_id,
          'documentStatus', doc.document_status, 'documentFileLink', CASE WHEN doc.document_file_type IS NOT NULL THEN doc.document_url END)
        ORDER BY dd.is_pinned DESC, dd.position), '[]'::jsonb)
      FROM decision.decision_documents dd LEFT JOIN decision.document_projection doc ON doc.id = dd.document_id AND doc.tenant_id = dd.tenant_id
     WHERE dd.decision_id = d.id)))`;

/** A decision's authorities as a create or PATCH sends them, in their order: $1 = decision, $2 = tenant (a live decision; none otherwise). */
export const DECISION_AUTHORITIES_SQL = `SELECT da.authority_type_id AS "authorityTypeId", da.authority_type_order AS "authorityTypeOrder", da.authority_limit AS "authorityLimit",
         da.value_type AS "authorityLimitValueType", da.operator AS "authorityLimitOperator", da.value_text AS "authorityLimitValue", da.unit AS "authorityLimitValueUnit"
    FROM decision.decision_authorities da JOIN decision.decisions d ON d.id = da.decision_id AND d.tenant_id = $2 AND NOT d.is_deleted
   WHERE da.decision_id = $1 ORDER BY da.position`;

/** Get by id: $1 = id, $2 = tenant. No row: unknown, deleted or another tenant's. */
/** A live decision of the tenant, by id (version and view). */
export function decisionById(id: string, tenantId: string): Sql {
  return sql`SELECT d.version, ${raw(DECISION_VIEW)} AS view FROM decision.decisions d ${raw(VIEW_JOINS)}
  WHERE d.id = ${id} AND d.tenant_id = ${tenantId} AND NOT d.is_deleted`;
}

/**
 * Stores a revision of each decision named, as it is now in the transaction, and answers the
 * decisions (version and view, in the order named: what the change publishes), in one statement
 * that builds each view once. `changed` lists the changed fields per decision id (for updates);
 * `change` is the same for all.
 */
export function reviseDecisions(tenantId: string, ids: readonly string[], change: string, by: string | null, changed: ReadonlyMap<string, string[]> = new Map()): Sql {
  const fields = ids.map((id) => `{${(changed.get(id) ?? []).map((f) => `"${f}"`).join(',')}}`);
  return sql`WITH v AS MATERIALIZED (
      SELECT x.n, d.id, d.tenant_id, d.updated_on, d.version, x.fields, ${raw(DECISION_VIEW)} AS view
        FROM unnest(${ids}::uuid[], ${fields}::text[]) WITH ORDINALITY AS x(id, fields, n)
        JOIN decision.decisions d ON d.id = x.id AND d.tenant_id = ${tenantId} ${raw(VIEW_JOINS)}),
    revised AS (
      INSERT INTO decision.decision_revisions (id, tenant_id, decision_id, revision_date, revised_by, change, changed_fields, snapshot)
      SELECT gen_random_uuid(), v.tenant_id, v.id, v.updated_on, ${by}::uuid, ${change}, v.fields::text[], v.view FROM v)
    SELECT v.version, v.view FROM v ORDER BY v.n`;
}

export type DecisionSort = 'name' | 'decisionDisplayId' | 'status' | 'sectionName' | 'categoryName' | 'createdAt' | 'updatedAt';
export const DECISION_SORTS: readonly DecisionSort[] = ['name', 'decisionDisplayId', 'status', 'sectionName', 'categoryName', 'createdAt', 'updatedAt'];

/** ORDER BY keys of each sort, matching the decisions' indexes (section and category names come from their projections). */
const SORT_KEYS: Record<DecisionSort, string[]> = {
  name: ['lower(d.name)'],
  decisionDisplayId: ['(d.decision_display_id::bigint)'],
  status: ['d.status', 'lower(d.name)'],
  sectionName: ['lower(s.section_name)', 'lower(d.name)'],
  categoryName: ['lower(c.category_name)', 'lower(d.name)'],
  createdAt: ['d.created_on'],
  updatedAt: ['d.updated_on'],
};

/** A limit filter: decisions with an authority of the value type whose limit lies in [minValue, maxValue]. */
export interface LimitValueFilter {
  authorityLimitValueType: string;
  minValue?: string | null;
  maxValue?: string | null;
}

/** Every filter of the list and of the global search, in one shape. */
export interface DecisionFilters {
  page: number;
  limit: number;
  search?: string;
  status?: string[];
  sectionIds?: string[];
  categoryIds?: string[];
  groupIds?: string[];
  ownerIds?: string[];
  delegable?: boolean;
  authorityTypeIds?: string[];
  authorityLimitValueTypes?: string[];
  authorityLimitValueFilters?: LimitValueFilter[];
  createdAtStart?: string;
  createdAtEnd?: string;
  updatedAtStart?: string;
  updatedAtEnd?: string;
  selectedDecisionIds?: string[];
  sortBy?: DecisionSort;
  sortOrder?: 'asc' | 'desc';
}

/** Numeric comparison, not text: an Unlimited limit is above every number; a max of Unlimited is no upper bound. */
function limitCondition(f: LimitValueFilter): Sql {
  const conditions = [sql`da.value_type = ${f.authorityLimitValueType}`];
  const min = f.minValue && f.minValue !== UNLIMITED ? f.minValue : null;
  const max = f.maxValue && f.maxValue !== UNLIMITED ? f.maxValue : null;
  if (f.minValue === UNLIMITED) conditions.push(sql`da.value_text = ${UNLIMITED}`);
  else if (min !== null || max !== null) {
    const ranged = [sql`da.value_number IS NOT NULL`];
    if (min !== null) ranged.push(sql`da.value_number >= ${min}::numeric`);
    if (max !== null) ranged.push(sql`da.value_number <= ${max}::numeric`);
    const unlimitedMatches = max === null ? sql` OR da.value_text = ${UNLIMITED}` : sql``;
    conditions.push(sql`((${join(ranged, ' AND ')})${unlimitedMatches})`);
  }
  return sql`EXISTS (SELECT 1 FROM decision.decision_authorities da WHERE da.decision_id = d.id AND ${join(conditions, ' AND ')})`;
}

function matching(tenantId: string, f: DecisionFilters): Sql[] {
  const where = [sql`d.tenant_id = ${tenantId}`, sql`NOT d.is_deleted`];
  // One status: an equality, so (tenant_id, status, lower(name), id) serves filter and sort.
  if (f.status?.length === 1) where.push(sql`d.status = ${f.status[0]}`);
  else where.push(...anyOf('d.status', f.status, 'text'));
  where.push(...anyOf('d.section_id', f.sectionIds, 'uuid'));
  where.push(...anyOf('d.category_id', f.categoryIds, 'uuid'));
  where.push(...anyOf('d.owner_id', f.ownerIds, 'uuid'));
  where.push(...anyOf('d.id', f.selectedDecisionIds, 'uuid'));
  if (f.delegable !== undefined) where.push(sql`d.delegable = ${f.delegable}`);
  if (f.groupIds?.length) where.push(sql`EXISTS (SELECT 1 FROM decision.decision_groups dg WHERE dg.decision_id = d.id AND dg.group_id = ANY(${f.groupIds}::uuid[]))`);
  if (f.authorityTypeIds?.length)
    where.push(sql`EXISTS (SELECT 1 FROM decision.decision_authorities da WHERE da.decision_id = d.id AND da.authority_type_id = ANY(${f.authorityTypeIds}::uuid[]))`);
  if (f.authorityLimitValueTypes?.length)
    where.push(sql`EXISTS (SELECT 1 FROM decision.decision_authorities da WHERE da.decision_id = d.id AND da.value_type = ANY(${f.authorityLimitValueTypes}::text[]))`);
  for (const filter of f.authorityLimitValueFilters ?? []) where.push(limitCondition(filter));
  where.push(...dateRangeConditions(f, { created: 'd.created_on', updated: 'd.updated_on' }));
  return where;
}

/** The tenant's live decisions matching the filters, a page of them in the chosen order (one statement). */
export function decisionList(tenantId: string, f: DecisionFilters): ListSpec {
  const sort = f.sortBy ?? 'name';
  const joins = sort === 'sectionName' ? ` LEFT JOIN decision.section_projection s ON s.id = d.section_id AND s.tenant_id = d.tenant_id` : sort === 'categoryName' ? ` LEFT JOIN decision.category_projection c ON c.id = d.category_id AND c.tenant_id = d.tenant_id` : '';
  const rows = searchedRows(DECISIONS_SEARCH, f.search ? `%${escapeLike(f.search.toLowerCase())}%` : undefined);
  return {
    with: rows.with,
    from: sql`${rows.table} d${raw(joins)}`,
    where: matching(tenantId, f),
    id: 'd.id',
    sort: sortBy(SORT_KEYS, sort, f.sortOrder),
    view: { columns: raw(`d.version, ${DECISION_VIEW} AS view`), from: raw(`decision.decisions d ON d.id = page.id ${VIEW_JOINS}`) },
    page: f.page,
    limit: f.limit,
  };
}

/** A row of the statements above. */
export interface DecisionRow {
  version: number;
  view: StoredDecisionView;
}
