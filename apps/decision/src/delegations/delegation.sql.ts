/** The statements of delegations: their view, the list, the subtree, and the organisation the rules read. */
import { ListSpec, Queryable, Sql, isoSql, join, raw, sortBy, sql } from '@ddm/platform';
import { EVENT_ROLES_OF, ROLES_OF } from '../roles/role.sql';
import { DecisionScope, DelegationLimit, DelegationState, Limit, OrgView } from './delegation.rules';

const USER = (a: string) => `CASE WHEN ${a}.id IS NULL THEN NULL ELSE jsonb_build_object('id', ${a}.id, 'name', ${a}.name, 'email', ${a}.email) END`;

export const VIEW_JOINS = `
  JOIN decision.decisions dc ON dc.id = g.decision_id
  LEFT JOIN decision.user_projection iu ON iu.tenant_id = g.tenant_id AND iu.id = g.issuer_user_id
  LEFT JOIN decision.user_projection ru ON ru.tenant_id = g.tenant_id AND ru.id = g.recipient_user_id
  LEFT JOIN decision.position_projection ip ON ip.id = g.issuer_position_id AND ip.tenant_id = g.tenant_id
  LEFT JOIN decision.position_projection rp ON rp.id = g.recipient_position_id AND rp.tenant_id = g.tenant_id`;

/** A delegation's view as one JSON value (what a read answers, a revision stores and an event is made from). */
export const DELEGATION_VIEW = `(jsonb_build_object(
    'id', g.id, 'delegationDisplayId', g.delegation_display_id, 'tenantId', g.tenant_id, 'decisionId', g.decision_id,
    'parentDelegationId', g.parent_delegation_id, 'isRootDelegation', g.parent_delegation_id IS NULL, 'depth', g.depth,
    'issuerType', g.issuer_type, 'issuerUserId', g.issuer_user_id, 'issuerPositionId', g.issuer_position_id,
    'recipientType', g.recipient_type, 'recipientUserId', g.recipient_user_id, 'recipientPositionId', g.recipient_position_id,
    'delegationRecipients', jsonb_build_array(jsonb_build_object('recipientUserId', g.recipient_user_id, 'recipientPositionId', g.recipient_position_id)),
    'recipientAutoIssue', g.recipient_auto_issue, 'status', g.status, 'pendingStage', g.pending_stage,
    'effectiveDate', ${isoSql('g.effective_date')}, 'expirationDate', ${isoSql('g.expiration_date')}, 'isNoExpiration', g.is_no_expiration,
    'issuedDate', ${isoSql('g.issued_date')}, 'acceptedDate', ${isoSql('g.accepted_date')},
    'delegationPathway', to_jsonb(g.delegation_pathway), 'delegationGroups', g.delegation_groups, 'delegationAuthorities', g.delegation_authorities,
    'isInvalid', g.is_invalid, 'invalidFields', to_jsonb(g.invalid_fields), 'copiedFrom', g.copied_from,
    'sodAcknowledgedRuleIds', to_jsonb(g.sod_acknowledged_rule_ids), 'attestationDisputed', g.attestation_disputed_campaign_id IS NOT NULL, 'attestationDisputedCampaignId', g.attestation_disputed_campaign_id)
  || jsonb_build_object(
    'issuerUser', ${USER('iu')}, 'recipientUser', ${USER('ru')},
    'issuerPositionName', ip.position_name, 'recipientPositionName', rp.position_name,
    'delegationDocuments', (SELECT coalesce(jsonb_agg(jsonb_build_object('id', dd.id, 'documentId', dd.document_id, 'isPinned', dd.is_pinned)
        ORDER BY dd.is_pinned DESC, dd.position), '[]'::jsonb) FROM decision.delegation_documents dd WHERE dd.delegation_id = g.id),
    'sourceDecision', jsonb_build_object('id', dc.id, 'decisionDisplayId', dc.decision_display_id, 'name', dc.name, 'description', dc.description,
        'guidance', dc.guidance, 'sectionId', dc.section_id, 'categoryId', dc.category_id),
    'createdAt', ${isoSql('g.created_on')}, 'createdBy', g.created_by, 'updatedAt', ${isoSql('g.updated_on')}, 'updatedBy', g.updated_by))`;

/** A condition mapping (spec §2.1) as JSON, from a row `c` of delegation_conditions or of its history. */
export const CONDITION_MAPPING = (c: string) => `jsonb_build_object(
    'id', ${c}.mapping_id, 'delegationId', ${c}.delegation_id, 'conditionId', ${c}.condition_id, 'isActive', ${c}.is_active,
    'createdAt', ${isoSql(`${c}.created_on`)}, 'updatedAt', ${isoSql(`${c}.updated_on`)},
    'conditionDetails', jsonb_build_object('id', ${c}.condition_id, 'conditionName', ${c}.condition_name, 'conditionDescription', ${c}.condition_description,
      'createdAt', ${isoSql(`${c}.condition_created_on`)}, 'updatedAt', ${isoSql(`${c}.updated_on`)}))`;

/** A delegation's conditions now (what a revision stores beside the view). */
const CONDITIONS_OF = (id: string) =>
  `(SELECT coalesce(jsonb_agg(${CONDITION_MAPPING('c')} ORDER BY c.created_on, c.id), '[]'::jsonb)
      FROM (SELECT dc.id AS mapping_id, dc.* FROM decision.delegation_conditions dc WHERE dc.delegation_id = ${id}) c)`;

/**
 * The revision in force at an instant: the newest made at or before it, to the millisecond the views
 * show. $1 = delegation, $2 = tenant, $3 = the instant (as toInstant makes it).
 */
export const DELEGATION_AT_SQL = `SELECT r.snapshot - 'conditions' - 'roles' AS view FROM decision.delegation_revisions r
  WHERE r.delegation_id = $1 AND r.tenant_id = $2 AND r.revision_date < $3::timestamptz + interval '1 millisecond'
  ORDER BY r.revision_date DESC, r.revision_id DESC LIMIT 1`;

/** Get by id: $1 = id, $2 = tenant (a DELETED one too: its status says so). */
export const DELEGATION_BY_ID_SQL = `SELECT g.version, ${DELEGATION_VIEW} AS view FROM decision.delegations g ${VIEW_JOINS} WHERE g.id = $1 AND g.tenant_id = $2`;

/**
 * Stores a revision of each delegation named (as it is now in the transaction) and answers them
 * (version and view, in the order named), in one statement that builds each view once.
 */
export function reviseDelegations(tenantId: string, ids: readonly string[], change: string, by: string | null): Sql {
  return sql`WITH v AS MATERIALIZED (
      SELECT x.n, g.id, g.tenant_id, g.version, ${raw(DELEGATION_VIEW)} AS view
        FROM unnest(${ids}::uuid[]) WITH ORDINALITY AS x(id, n)
        JOIN decision.delegations g ON g.id = x.id AND g.tenant_id = ${tenantId} ${raw(VIEW_JOINS)}),
    -- The revision each had until now is valid until this one.
    closed AS (
      UPDATE decision.delegation_revisions r SET valid_to = now() FROM v WHERE r.delegation_id = v.id AND r.valid_to IS NULL RETURNING 1),
    revised AS (
      INSERT INTO decision.delegation_revisions (id, tenant_id, delegation_id, revision_id, revised_by, change, snapshot)
      SELECT gen_random_uuid(), v.tenant_id, v.id,
             coalesce((SELECT max(r.revision_id) FROM decision.delegation_revisions r WHERE r.delegation_id = v.id), 0) + 1,
             ${by}::uuid, ${change}, v.view || jsonb_build_object('conditions', ${raw(CONDITIONS_OF('v.id'))}, 'roles', ${raw(ROLES_OF('v.id'))}) FROM v)
    SELECT v.version, v.view, ${raw(EVENT_ROLES_OF('v.id'))} AS roles FROM v ORDER BY v.n`;
}

export type DelegationSort = 'delegationDisplayId' | 'decisionName' | 'status' | 'updatedAt' | 'expirationDate' | 'authorityLimitValue';
export const DELEGATION_SORTS: readonly DelegationSort[] = ['delegationDisplayId', 'decisionName', 'status', 'updatedAt', 'expirationDate', 'authorityLimitValue'];
/** A limit's value as a number (null for Unlimited and Authorized), from a jsonb authority `a`. */
const LIMIT_NUMBER = (a: string) => `CASE WHEN (${a} ->> 'authorityLimitValue') ~ '^[0-9]+(\\.[0-9]+)?$' THEN (${a} ->> 'authorityLimitValue')::numeric END`;
const SORT_KEYS: Record<DelegationSort, string[]> = {
  delegationDisplayId: ['(g.delegation_display_id::bigint)'],
  decisionName: ['lower(d.name)'],
  status: ['g.status'],
  updatedAt: ['g.updated_on'],
  expirationDate: ['g.expiration_date'],
  // The first authority's limit, numerically (Unlimited above every number).
  authorityLimitValue: [`coalesce(${LIMIT_NUMBER("(g.delegation_authorities -> 0)")}, CASE WHEN g.delegation_authorities -> 0 ->> 'authorityLimitValue' = 'Unlimited' THEN 'Infinity'::numeric END)`],
};

export interface DelegationFilters {
  page: number;
  limit: number;
  search?: string;
  status?: string[];
  decisionIds?: string[];
  recipientUserIds?: string[];
  positionIds?: string[];
  groupIds?: string[];
  issuerUserId?: string;
  isInvalid?: boolean;
  attestationDisputed?: boolean;
  rootOnly?: boolean;
  onlyMine?: boolean;
  sectionIds?: string[];
  categoryIds?: string[];
  issuerType?: string[];
  issuerPositionId?: string;
  delegationPathway?: string[];
  redelegable?: boolean;
  invalidFields?: string[];
  authorityTypeIds?: string[];
  authorityLimitValueFilters?: { authorityLimitValueType: string; minValue?: string | null; maxValue?: string | null }[];
  issuedDateStart?: string;
  issuedDateEnd?: string;
  expirationDateStart?: string;
  expirationDateEnd?: string;
  sortBy?: DelegationSort;
  sortOrder?: 'asc' | 'desc';
  /** The delegations as they stood at this instant (their revisions then) instead of now. */
  at?: string;
}

/**
 * The tenant's delegations as they stood at an instant, as a table with the columns of
 * decision.delegations that the list's filters and sorts read (from each one's revision in force
 * then), and `view_at`, its view then. The same conditions then apply to now and to any instant.
 */
function delegationsAt(tenantId: string, at: string): Sql {
  const t = sql`${at}::timestamptz + interval '1 millisecond'`;
  return sql`(SELECT r.delegation_id AS id, r.tenant_id, r.decision_id, r.recipient_user_id, r.recipient_position_id, r.parent_delegation_id, r.recipient_type,
      r.snapshot ->> 'status' AS status, r.snapshot ->> 'delegationDisplayId' AS delegation_display_id, r.snapshot ->> 'issuerType' AS issuer_type,
      (r.snapshot ->> 'issuerUserId')::uuid AS issuer_user_id, (r.snapshot ->> 'issuerPositionId')::uuid AS issuer_position_id,
      coalesce((r.snapshot ->> 'isInvalid')::boolean, false) AS is_invalid,
      ARRAY(SELECT jsonb_array_elements_text(coalesce(r.snapshot -> 'invalidFields', '[]'))) AS invalid_fields,
      ARRAY(SELECT (x ->> 'groupId')::uuid FROM jsonb_array_elements(coalesce(r.snapshot -> 'delegationGroups', '[]')) x) AS group_ids,
      ARRAY(SELECT jsonb_array_elements_text(coalesce(r.snapshot -> 'delegationPathway', '[]'))) AS delegation_pathway,
      r.snapshot -> 'delegationAuthorities' AS delegation_authorities,
      (r.snapshot ->> 'issuedDate')::timestamptz AS issued_date, (r.snapshot ->> 'expirationDate')::timestamptz AS expiration_date,
      (r.snapshot ->> 'updatedAt')::timestamptz AS updated_on, (r.snapshot ->> 'attestationDisputedCampaignId')::uuid AS attestation_disputed_campaign_id,
      r.snapshot - 'conditions' - 'roles' AS view_at
    FROM decision.delegation_revisions r
   WHERE r.tenant_id = ${tenantId} AND r.revision_date < ${t} AND (r.valid_to IS NULL OR r.valid_to >= ${t})) g`;
}

/** A limit filter on a delegation's authorities: one of the value type whose limit lies in [minValue, maxValue], numerically (Unlimited above every number). */
function limitCondition(f: { authorityLimitValueType: string; minValue?: string | null; maxValue?: string | null }): Sql {
  const min = f.minValue && f.minValue !== 'Unlimited' ? f.minValue : null;
  const max = f.maxValue && f.maxValue !== 'Unlimited' ? f.maxValue : null;
  const value = raw(LIMIT_NUMBER('a'));
  const conditions = [sql`a ->> 'authorityLimitValueType' = ${f.authorityLimitValueType}`];
  if (f.minValue === 'Unlimited') conditions.push(sql`a ->> 'authorityLimitValue' = 'Unlimited'`);
  else {
    if (min !== null) conditions.push(sql`(${value} >= ${min}::numeric${max === null ? sql` OR a ->> 'authorityLimitValue' = 'Unlimited'` : sql``})`);
    if (max !== null) conditions.push(sql`${value} <= ${max}::numeric`);
  }
  return sql`EXISTS (SELECT 1 FROM jsonb_array_elements(g.delegation_authorities) a WHERE ${join(conditions, ' AND ')})`;
}

/** The list and the global search: one statement (page, total and views). */
export function delegationList(tenantId: string, callerId: string, f: DelegationFilters): ListSpec {
  const where: Sql[] = [sql`g.tenant_id = ${tenantId}`];
  where.push(f.status?.length ? sql`g.status = ANY(${f.status}::text[])` : sql`g.status <> 'DELETED'`);
  if (f.decisionIds?.length) where.push(sql`g.decision_id = ANY(${f.decisionIds}::uuid[])`);
  if (f.recipientUserIds?.length) where.push(sql`g.recipient_user_id = ANY(${f.recipientUserIds}::uuid[])`);
  if (f.positionIds?.length) where.push(sql`(g.recipient_position_id = ANY(${f.positionIds}::uuid[]) OR g.issuer_position_id = ANY(${f.positionIds}::uuid[]))`);
  if (f.groupIds?.length) where.push(sql`g.group_ids && ${f.groupIds}::uuid[]`);
  if (f.issuerUserId) where.push(sql`g.issuer_user_id = ${f.issuerUserId}`);
  if (f.isInvalid !== undefined) where.push(sql`g.is_invalid = ${f.isInvalid}`);
  if (f.attestationDisputed !== undefined) where.push(f.attestationDisputed ? sql`g.attestation_disputed_campaign_id IS NOT NULL` : sql`g.attestation_disputed_campaign_id IS NULL`);
  if (f.rootOnly) where.push(sql`g.parent_delegation_id IS NULL`);
  if (f.onlyMine) where.push(sql`(g.issuer_user_id = ${callerId} OR g.recipient_user_id = ${callerId})`);
  if (f.sectionIds?.length) where.push(sql`d.section_id = ANY(${f.sectionIds}::uuid[])`);
  if (f.categoryIds?.length) where.push(sql`d.category_id = ANY(${f.categoryIds}::uuid[])`);
  if (f.issuerType?.length) where.push(sql`g.issuer_type = ANY(${f.issuerType}::text[])`);
  if (f.issuerPositionId) where.push(sql`g.issuer_position_id = ${f.issuerPositionId}`);
  if (f.delegationPathway?.length) where.push(sql`g.delegation_pathway && ${f.delegationPathway}::text[]`);
  if (f.redelegable !== undefined) {
    const any = sql`EXISTS (SELECT 1 FROM jsonb_array_elements(g.delegation_authorities) a WHERE (a ->> 'redelegable')::boolean)`;
    where.push(f.redelegable ? any : sql`NOT ${any}`);
  }
  if (f.invalidFields?.length) where.push(sql`g.invalid_fields && ${f.invalidFields}::text[]`);
  if (f.authorityTypeIds?.length) where.push(sql`EXISTS (SELECT 1 FROM jsonb_array_elements(g.delegation_authorities) a WHERE (a ->> 'authorityTypeId')::uuid = ANY(${f.authorityTypeIds}::uuid[]))`);
  for (const filter of f.authorityLimitValueFilters ?? []) where.push(limitCondition(filter));
  if (f.issuedDateStart) where.push(sql`g.issued_date >= ${f.issuedDateStart}::timestamptz`);
  if (f.issuedDateEnd) where.push(sql`g.issued_date < ${f.issuedDateEnd}::timestamptz + interval '1 millisecond'`);
  if (f.expirationDateStart) where.push(sql`g.expiration_date >= ${f.expirationDateStart}::timestamptz`);
  if (f.expirationDateEnd) where.push(sql`g.expiration_date < ${f.expirationDateEnd}::timestamptz + interval '1 millisecond'`);
  if (f.search) {
    const like = `%${f.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(sql`(lower(d.name) LIKE ${like} OR g.delegation_display_id LIKE ${like})`);
  }
  // The decision is joined only when a filter or the sort reads it: counting most of a large tenant's delegations stays one index scan.
  const sort = f.sortBy ?? 'delegationDisplayId';
  const readsDecision = Boolean(f.search || f.sectionIds?.length || f.categoryIds?.length || sort === 'decisionName');
  const withDecision = (g: Sql) => (readsDecision ? sql`${g} JOIN decision.decisions d ON d.id = g.decision_id` : g);
  if (f.at) {
    // As of an instant: the same conditions over the revisions in force then; each view as it stood.
    return {
      from: withDecision(delegationsAt(tenantId, f.at)),
      where,
      id: 'g.id',
      sort: sortBy(SORT_KEYS, sort, f.sortOrder),
      view: { columns: raw(`NULL::int AS version, g.view_at AS view`), from: sql`${delegationsAt(tenantId, f.at)} ON g.id = page.id` },
      page: f.page,
      limit: f.limit,
    };
  }
  return {
    from: withDecision(raw('decision.delegations g')),
    where,
    id: 'g.id',
    sort: sortBy(SORT_KEYS, sort, f.sortOrder),
    view: { columns: raw(`g.version, ${DELEGATION_VIEW} AS view`), from: raw(`decision.delegations g ON g.id = page.id ${VIEW_JOINS}`) },
    page: f.page,
    limit: f.limit,
  };
}

/** A delegation row as the rules read it. */
export interface DelegationRuleRow {
  id: string;
  decision_id: string;
  parent_delegation_id: string | null;
  depth: number;
  status: DelegationState['status'];
  effective_date: Date;
  expiration_date: Date | null;
  is_invalid: boolean;
  issuer_type: DelegationState['issuerType'];
  issuer_user_id: string | null;
  issuer_position_id: string | null;
  recipient_type: DelegationState['recipientType'];
  recipient_user_id: string | null;
  recipient_position_id: string | null;
  delegation_pathway: string[];
  group_ids: string[];
  delegation_authorities: DelegationLimit[];
  accepted_date: Date | null;
  pending_stage: 'APPROVAL' | 'ACCEPTANCE' | null;
}

export const RULE_COLUMNS = `g.id, g.decision_id, g.parent_delegation_id, g.depth, g.status, g.effective_date, g.expiration_date, g.is_invalid,
  g.issuer_type, g.issuer_user_id, g.issuer_position_id, g.recipient_type, g.recipient_user_id, g.recipient_position_id,
  g.delegation_pathway, g.group_ids, g.delegation_authorities, g.accepted_date, g.pending_stage`;

export function toState(r: DelegationRuleRow): DelegationState {
  return {
    status: r.status,
    effectiveDate: new Date(r.effective_date),
    expirationDate: r.expiration_date ? new Date(r.expiration_date) : null,
    isInvalid: r.is_invalid,
    issuerType: r.issuer_type,
    issuerUserId: r.issuer_user_id,
    issuerPositionId: r.issuer_position_id,
    recipientType: r.recipient_type,
    recipientUserId: r.recipient_user_id,
    recipientPositionId: r.recipient_position_id,
    pathways: r.delegation_pathway,
    groupIds: r.group_ids,
    authorities: r.delegation_authorities,
  };
}

/** The decision as the rules read it (FOR SHARE inside a change: it cannot narrow meanwhile). */
export async function decisionScope(q: Queryable, tenantId: string, decisionId: string, lock: boolean): Promise<(DecisionScope & { id: string; name: string }) | null> {
  const [row] = await q.query<{ id: string; name: string; status: DecisionScope['status']; delegable: boolean; pathways: string[]; group_ids: string[]; authorities: Limit[] }>(
    `SELECT d.id, d.name, d.status, d.delegable, d.delegation_pathway AS pathways,
            coalesce((SELECT array_agg(dg.group_id ORDER BY dg.position) FROM decision.decision_groups dg WHERE dg.decision_id = d.id), '{}') AS group_ids,
            coalesce((SELECT jsonb_agg(jsonb_build_object('authorityTypeId', da.authority_type_id, 'authorityLimitValueType', da.value_type,
                        'authorityLimitOperator', da.operator, 'authorityLimitValue', da.value_text, 'authorityLimitValueUnit', da.unit) ORDER BY da.position)
                        FROM decision.decision_authorities da WHERE da.decision_id = d.id), '[]') AS authorities
       FROM decision.decisions d WHERE d.id = $1 AND d.tenant_id = $2 AND NOT d.is_deleted ${lock ? 'FOR SHARE OF d' : ''}`,
    [decisionId, tenantId],
  );
  return row ? { id: row.id, name: row.name, status: row.status, delegable: row.delegable, pathways: row.pathways, groupIds: row.group_ids, authorities: row.authorities } : null;
}

/**
 * The part of the organisation a check needs, from the projections, in one statement: the people
 * named and everyone above them in the reporting line (Down-Line), the positions named or held by
 * them with their holders, and the tenant's groups with their parents.
 */
export async function loadOrg(q: Queryable, tenantId: string, userIds: readonly string[], positionIds: readonly string[]): Promise<OrgView> {
  const rows = await q.query<{ kind: string; id: string; a: string | null; b: string[] | null; c: string[] | null; ok: boolean }>(sql`
    WITH RECURSIVE line AS (
      SELECT u.id, u.manager_id, 0 AS level FROM decision.user_projection u WHERE u.tenant_id = ${tenantId} AND u.id = ANY(${[...userIds]}::uuid[])
      UNION
      SELECT m.id, m.manager_id, l.level + 1 FROM line l JOIN decision.user_projection m ON m.tenant_id = ${tenantId} AND m.id = l.manager_id WHERE l.level < 50
    ),
    people AS (SELECT DISTINCT id FROM line),
    positions AS (
      SELECT unnest(${[...positionIds]}::uuid[]) AS id
      UNION SELECT unnest(u.position_ids) FROM decision.user_projection u JOIN people p ON p.id = u.id WHERE u.tenant_id = ${tenantId}
    )
    SELECT 'user' AS kind, u.id, u.manager_id::text AS a, u.position_ids::text[] AS b, u.group_ids::text[] AS c, u.status = 'ACTIVE' AS ok
      FROM decision.user_projection u JOIN people p ON p.id = u.id WHERE u.tenant_id = ${tenantId}
    UNION ALL
    SELECT 'position', pp.id, NULL, pp.group_ids::text[],
           (SELECT array_agg(h.id::text) FROM decision.user_projection h WHERE h.tenant_id = ${tenantId} AND h.position_ids @> ARRAY[pp.id] AND h.status = 'ACTIVE'),
           pp.status = 'ACTIVE' AND NOT pp.is_deleted
      FROM decision.position_projection pp JOIN positions x ON x.id = pp.id WHERE pp.tenant_id = ${tenantId}
    UNION ALL
    SELECT 'group', gp.id, NULL, gp.parent_group_ids::text[], NULL, NOT gp.is_deleted FROM decision.group_projection gp WHERE gp.tenant_id = ${tenantId}`);
  const users = new Map<string, { manager: string | null; positions: string[]; groups: string[]; active: boolean }>();
  const positions = new Map<string, { groups: string[]; holders: string[]; active: boolean }>();
  const groups = new Map<string, { parents: string[]; live: boolean }>();
  for (const r of rows) {
    if (r.kind === 'user') users.set(r.id, { manager: r.a, positions: r.b ?? [], groups: r.c ?? [], active: r.ok });
    else if (r.kind === 'position') positions.set(r.id, { groups: r.b ?? [], holders: r.c ?? [], active: r.ok });
    else groups.set(r.id, { parents: r.b ?? [], live: r.ok });
  }
  return {
    isActiveUser: (id) => users.get(id)?.active ?? false,
    managerOf: (id) => users.get(id)?.manager ?? null,
    positionsOf: (id) => (users.get(id)?.active ? users.get(id)!.positions.filter((p) => positions.get(p)?.active ?? true) : []),
    holdersOf: (id) => positions.get(id)?.holders ?? [],
    isActivePosition: (id) => positions.get(id)?.active ?? false,
    groupsOfUser: (id) => {
      const u = users.get(id);
      if (!u) return [];
      return [...new Set([...u.groups, ...u.positions.flatMap((p) => positions.get(p)?.groups ?? [])])];
    },
    groupsOfPosition: (id) => positions.get(id)?.groups ?? [],
    parentGroupsOf: (id) => groups.get(id)?.parents ?? [],
    isLiveGroup: (id) => groups.get(id)?.live ?? false,
  };
}

/** The tenant's delegation settings (auth's, projected); a tenant that never changed them requires neither approval nor acceptance. */
export async function tenantSettingsOf(q: Queryable, tenantId: string): Promise<{ approvalRequired: boolean; acceptanceRequired: boolean }> {
  const [row] = await q.query<{ approval_required: boolean; acceptance_required: boolean }>(
    `SELECT approval_required, acceptance_required FROM decision.tenant_settings_projection WHERE id = $1`,
    [tenantId],
  );
  return { approvalRequired: row?.approval_required ?? false, acceptanceRequired: row?.acceptance_required ?? false };
}
