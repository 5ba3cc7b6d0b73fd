/**
 * The statements of attestation campaigns: opening one (its items in one set-based statement), a
 * campaign's view with its counts (one aggregate), the lists of campaigns and of a campaign's
 * items, and the report's lines (a batch after a key, for the streamed CSV).
 */
import { ListSpec, Sql, escapeLike, isoSql, raw, sortBy, sql } from '@ddm/platform';
import { CampaignScope } from './attestation.rules';

/** The counts of campaign `c`'s items, one aggregate over its items (index campaign_id, status). */
const COUNTS = `(SELECT jsonb_build_object(
      'total', count(*)::int,
      'confirmed', (count(*) FILTER (WHERE i.status = 'CONFIRMED'))::int,
      'disputed', (count(*) FILTER (WHERE i.status = 'DISPUTED'))::int,
      'pending', (count(*) FILTER (WHERE i.status = 'PENDING'))::int,
      'overdue', (count(*) FILTER (WHERE i.status = 'OVERDUE'))::int)
    FROM decision.attestation_items i WHERE i.campaign_id = c.id)`;

/** A campaign's view as one JSON value, from a row `c` of attestation_campaigns. */
export const CAMPAIGN_VIEW = `(jsonb_build_object(
    'id', c.id, 'campaignDisplayId', c.campaign_display_id, 'tenantId', c.tenant_id, 'name', c.name, 'status', c.status,
    'dueDate', ${isoSql('c.due_date')}, 'suspendOverdue', c.suspend_overdue, 'scope', c.scope,
    'createdBy', c.created_by, 'createdAt', ${isoSql('c.created_on')}, 'closedAt', ${isoSql('c.closed_on')}) || ${COUNTS})`;

/** Get by id: $1 = id, $2 = tenant. No row: unknown or another tenant's. */
export const CAMPAIGN_BY_ID_SQL = `SELECT ${CAMPAIGN_VIEW} AS view FROM decision.attestation_campaigns c WHERE c.id = $1 AND c.tenant_id = $2`;

/** Whether the tenant has the campaign, and its display id (the report's file name): $1 = id, $2 = tenant. */
export const CAMPAIGN_EXISTS_SQL = `SELECT c.campaign_display_id FROM decision.attestation_campaigns c WHERE c.id = $1 AND c.tenant_id = $2`;

/** Closes the campaigns named ($1) that are open with nothing left PENDING (their rows locked by the caller first). */
export const CLOSE_ANSWERED_SQL = `UPDATE decision.attestation_campaigns c SET status = 'CLOSED', closed_on = now(), updated_on = now()
  WHERE c.id = ANY($1::uuid[]) AND c.status = 'OPEN'
    AND NOT EXISTS (SELECT 1 FROM decision.attestation_items i WHERE i.campaign_id = c.id AND i.status = 'PENDING')`;

/** The decisions and groups a scope names that the tenant has (live ones): what is not here is a 404. */
export function scopeRefs(tenantId: string, scope: CampaignScope): Sql {
  return sql`SELECT 'decision' AS kind, d.id FROM decision.decisions d WHERE d.tenant_id = ${tenantId} AND d.id = ANY(${scope.decisionIds}::uuid[]) AND NOT d.is_deleted
    UNION ALL
    SELECT 'group', gp.id FROM decision.group_projection gp WHERE gp.tenant_id = ${tenantId} AND gp.id = ANY(${scope.groupIds}::uuid[]) AND NOT gp.is_deleted`;
}

/** What opening answers of each item: what its event carries. */
export interface OpenedItem {
  delegation_id: string;
  delegation_display_id: string;
  decision_id: string;
  issuer_user_id: string | null;
  recipient_type: string;
  recipient_user_id: string | null;
  recipient_position_id: string | null;
  holder_ids: string[];
}

/**
 * Inserts the items of a campaign in ONE statement and answers them (at most `max`; the caller
 * refuses a scope that fills `max`, asking for `max` + 1): one per delegation of the tenant held
 * now (ISSUED or ACCEPTED, effective, not expired, not invalid) that the scope names (the decisions
 * named; the groups named and every group below them in the hierarchy, covered by the delegation
 * or by its decision; or all), with the recipient it has, and who holds it today (its person, or
 * the active holders of its position, as `holds` reads them).
 */
export function insertItems(tenantId: string, campaignId: string, scope: CampaignScope, max: number): Sql {
  return sql`WITH RECURSIVE under AS (
      SELECT gp.id FROM decision.group_projection gp WHERE gp.tenant_id = ${tenantId} AND gp.id = ANY(${scope.groupIds}::uuid[])
      UNION
      SELECT gp.id FROM decision.group_projection gp JOIN under u ON gp.parent_group_ids @> ARRAY[u.id] WHERE gp.tenant_id = ${tenantId} AND NOT gp.is_deleted),
    groups AS (SELECT coalesce(array_agg(id), '{}') AS ids FROM under),
    scoped AS MATERIALIZED (
      SELECT g.id, g.delegation_display_id, g.decision_id, g.issuer_user_id, g.recipient_type, g.recipient_user_id, g.recipient_position_id
        FROM decision.delegations g, groups
       WHERE g.tenant_id = ${tenantId} AND g.status IN ('ISSUED', 'ACCEPTED') AND NOT g.is_invalid
         AND g.effective_date <= now() AND (g.expiration_date IS NULL OR g.expiration_date > now())
         AND (${scope.all}::boolean
              OR g.decision_id = ANY(${scope.decisionIds}::uuid[])
              OR g.group_ids && groups.ids
              OR EXISTS (SELECT 1 FROM decision.decision_groups dg WHERE dg.decision_id = g.decision_id AND dg.group_id = ANY(groups.ids)))
       ORDER BY g.delegation_display_id::bigint, g.id
       LIMIT ${max}),
    -- Runs once, to completion, whether or not the answer reads it: every scoped row becomes an item, or the statement fails.
    inserted AS (
      INSERT INTO decision.attestation_items (id, tenant_id, campaign_id, delegation_id, delegation_display_id, recipient_type, recipient_user_id, recipient_position_id)
      SELECT gen_random_uuid(), ${tenantId}, ${campaignId}, s.id, s.delegation_display_id, s.recipient_type, s.recipient_user_id, s.recipient_position_id FROM scoped s),
    people AS MATERIALIZED (
      SELECT u.id, u.position_ids FROM decision.user_projection u
        JOIN (SELECT DISTINCT recipient_user_id AS id FROM scoped WHERE recipient_user_id IS NOT NULL) r ON r.id = u.id
       WHERE u.tenant_id = ${tenantId} AND u.status = 'ACTIVE'),
    position_holders AS MATERIALIZED (
      SELECT x.position_id, array_agg(u.id ORDER BY u.id) AS ids
        FROM decision.user_projection u CROSS JOIN unnest(u.position_ids) AS x(position_id)
        JOIN (SELECT DISTINCT recipient_position_id AS id FROM scoped WHERE recipient_type = 'POSITION_ONLY') r ON r.id = x.position_id
       WHERE u.tenant_id = ${tenantId} AND u.status = 'ACTIVE'
       GROUP BY x.position_id)
    SELECT s.id AS delegation_id, s.delegation_display_id, s.decision_id, s.issuer_user_id, s.recipient_type, s.recipient_user_id, s.recipient_position_id,
           CASE WHEN s.recipient_type = 'POSITION_ONLY' THEN coalesce(ph.ids[1:100], '{}')
                WHEN p.id IS NOT NULL AND (s.recipient_type = 'SPECIFIC_PERSONNEL' OR p.position_ids @> ARRAY[s.recipient_position_id]) THEN ARRAY[p.id]
                ELSE '{}' END AS holder_ids
      FROM scoped s
      LEFT JOIN people p ON p.id = s.recipient_user_id
      LEFT JOIN position_holders ph ON ph.position_id = s.recipient_position_id
     ORDER BY s.delegation_display_id::bigint, s.id`;
}

export type CampaignSort = 'createdAt' | 'dueDate' | 'name';
export const CAMPAIGN_SORTS: readonly CampaignSort[] = ['createdAt', 'dueDate', 'name'];
const CAMPAIGN_SORT_KEYS: Record<CampaignSort, string[]> = { createdAt: ['c.created_on'], dueDate: ['c.due_date'], name: ['lower(c.name)'] };

export interface CampaignFilters {
  page: number;
  limit: number;
  status?: string[];
  search?: string;
  sortBy?: CampaignSort;
  sortOrder?: 'asc' | 'desc';
}

/** The tenant's campaigns: one statement (page, total, views with their counts for the page's rows only). */
export function campaignList(tenantId: string, f: CampaignFilters): ListSpec {
  const where: Sql[] = [sql`c.tenant_id = ${tenantId}`];
  if (f.status?.length) where.push(sql`c.status = ANY(${f.status}::text[])`);
  if (f.search) where.push(sql`(lower(c.name) LIKE ${`%${escapeLike(f.search.toLowerCase())}%`} OR c.campaign_display_id = ${f.search})`);
  return {
    from: sql`decision.attestation_campaigns c`,
    where,
    id: 'c.id',
    sort: sortBy(CAMPAIGN_SORT_KEYS, f.sortBy ?? 'createdAt', f.sortOrder),
    view: { columns: raw(`${CAMPAIGN_VIEW} AS view`), from: raw('decision.attestation_campaigns c ON c.id = page.id') },
    page: f.page,
    limit: f.limit,
  };
}

const USER = (a: string) => `CASE WHEN ${a}.id IS NULL THEN NULL ELSE jsonb_build_object('id', ${a}.id, 'name', ${a}.name, 'email', ${a}.email) END`;

/** The tables an item's view reads: i = the item, g its delegation, d its decision, ru/rp its recipient (person, position), rb who answered. */
const ITEM_JOINS = `
  JOIN decision.delegations g ON g.id = i.delegation_id
  JOIN decision.decisions d ON d.id = g.decision_id
  LEFT JOIN decision.user_projection ru ON ru.tenant_id = i.tenant_id AND ru.id = i.recipient_user_id
  LEFT JOIN decision.position_projection rp ON rp.tenant_id = i.tenant_id AND rp.id = i.recipient_position_id
  LEFT JOIN decision.user_projection rb ON rb.tenant_id = i.tenant_id AND rb.id = i.responded_by`;

/** An item's view as one JSON value (the items list, the answer of a response). */
export const ITEM_VIEW = `jsonb_build_object(
    'id', i.id, 'campaignId', i.campaign_id, 'delegationId', i.delegation_id, 'delegationDisplayId', i.delegation_display_id,
    'decisionId', g.decision_id, 'decisionDisplayId', d.decision_display_id, 'decisionName', d.name,
    'delegationStatus', g.status, 'issuerUserId', g.issuer_user_id,
    'recipientType', i.recipient_type, 'recipientUserId', i.recipient_user_id, 'recipientPositionId', i.recipient_position_id,
    'recipientUser', ${USER('ru')}, 'recipientPositionName', rp.position_name,
    'status', i.status, 'comment', i.comment, 'respondedBy', i.responded_by, 'respondedByUser', ${USER('rb')},
    'respondedAt', ${isoSql('i.responded_on')}, 'respondedVia', i.responded_via, 'updatedAt', ${isoSql('i.updated_on')})`;

/** One item by campaign and delegation: $1 = campaign, $2 = delegation, $3 = tenant. */
export const ITEM_BY_DELEGATION_SQL = `SELECT ${ITEM_VIEW} AS view FROM decision.attestation_items i ${ITEM_JOINS}
  WHERE i.campaign_id = $1 AND i.delegation_id = $2 AND i.tenant_id = $3`;

export interface ItemFilters {
  page: number;
  limit: number;
  status?: string[];
  sortOrder?: 'asc' | 'desc';
}

/** A campaign's items, in delegation display id order (index campaign_id[, status], display id). */
export function itemList(tenantId: string, campaignId: string, f: ItemFilters): ListSpec {
  const where: Sql[] = [sql`i.tenant_id = ${tenantId}`, sql`i.campaign_id = ${campaignId}`];
  if (f.status?.length) where.push(sql`i.status = ANY(${f.status}::text[])`);
  return {
    from: sql`decision.attestation_items i`,
    where,
    id: 'i.id',
    sort: { keys: ['(i.delegation_display_id::bigint)'], dir: f.sortOrder === 'desc' ? 'DESC' : 'ASC' },
    view: { columns: raw(`${ITEM_VIEW} AS view`), from: raw(`decision.attestation_items i ON i.id = page.id ${ITEM_JOINS}`) },
    page: f.page,
    limit: f.limit,
  };
}

/** A line of the report as one JSON value (the keys of REPORT_COLUMNS, every value text or null). */
const REPORT_LINE = `jsonb_build_object(
    'delegationDisplayId', i.delegation_display_id, 'decisionDisplayId', d.decision_display_id, 'decisionName', d.name,
    'recipientType', i.recipient_type, 'holderName', ru.name, 'holderEmail', ru.email, 'holderPositionName', rp.position_name,
    'status', i.status, 'respondedByName', rb.name, 'respondedByEmail', rb.email, 'respondedAt', ${isoSql('i.responded_on')}, 'comment', i.comment)`;

/** Where a batch of the streamed report starts: after this display id and item id (null: from the first). */
export interface ReportKey {
  displayId: string;
  id: string;
}

/** The next `limit` lines of the report after `after`, in display-id order (keyset: each batch one index range). */
export function reportBatch(tenantId: string, campaignId: string, after: ReportKey | null, limit: number): Sql {
  const from = after ? sql`AND ((i.delegation_display_id::bigint), i.id) > (${after.displayId}::bigint, ${after.id}::uuid)` : sql``;
  return sql`SELECT i.id, i.delegation_display_id, ${raw(REPORT_LINE)} AS line FROM decision.attestation_items i ${raw(ITEM_JOINS)}
    WHERE i.campaign_id = ${campaignId} AND i.tenant_id = ${tenantId} ${from}
    ORDER BY (i.delegation_display_id::bigint), i.id LIMIT ${limit}`;
}
