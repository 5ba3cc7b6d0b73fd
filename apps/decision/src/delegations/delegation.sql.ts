/**
 * The delegations resource's own statements: the list and global search (now, or as the delegations
 * stood at an instant), storing what a request issues, a PATCH of terms, linked documents, revoking
 * a subtree and deleting. The delegation's view and the model's statements are core's (core/delegation.sql.ts).
 */
import { ListSpec, Queryable, Sql, escapeLike, join, raw, searchedRows, sortBy, sql } from '@ddm/platform';
import { DELEGATION_VIEW, LIVE_SQL, RULE_COLUMNS, VIEW_JOINS, inGroups } from '../core/delegation.sql';
import { DELEGATIONS_SEARCH } from '../core/text-search';
import { DelegationRuleRow, DelegationStatus } from '../core/delegation.types';

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
  // As of an instant, the groups the revisions had then (a filter); now, through the index (inGroups).
  if (f.groupIds?.length) where.push(f.at ? sql`g.group_ids && ${f.groupIds}::uuid[]` : inGroups(sql`${f.groupIds}::uuid[]`));
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
  const like = f.search ? `%${escapeLike(f.search.toLowerCase())}%` : undefined;
  // As of an instant the revisions are searched as they stood (a filter); now, the search's function answers the rows.
  if (like && f.at) where.push(sql`(lower(d.name) LIKE ${like} OR g.delegation_display_id LIKE ${like})`);
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
  const rows = searchedRows(DELEGATIONS_SEARCH, like);
  return {
    with: rows.with,
    from: withDecision(sql`${rows.table} g`),
    where,
    id: 'g.id',
    sort: sortBy(SORT_KEYS, sort, f.sortOrder),
    view: { columns: raw(`g.version, ${DELEGATION_VIEW} AS view`), from: raw(`decision.delegations g ON g.id = page.id ${VIEW_JOINS}`) },
    page: f.page,
    limit: f.limit,
  };
}

/** A delegation to be stored (one per recipient of a request). */
export interface NewDelegation {
  id: string;
  displayId: string;
  recipientUserId: string | null;
  recipientPositionId: string | null;
}

/** What the delegations of one request share when they are stored. */
export interface NewDelegationTerms {
  decisionId: string;
  parentId: string | null;
  depth: number;
  issuerType: string;
  issuerUserId: string;
  issuerPositionId: string | null;
  recipientType: string;
  recipientAutoIssue: boolean;
  status: string;
  stage: string | null;
  effectiveDate: Date;
  expirationDate: Date | null;
  pathways: readonly string[];
  groupIds: readonly string[];
  /** The groups with their type, as stored (delegation_groups). */
  groups: readonly { groupId: string; tenantGroupTypeId: string | null }[];
  authorities: readonly unknown[];
  /** The delegation this one was copied from (checked by readForIssue), if any. */
  copiedFrom?: string | null;
}

/**
 * Stores the delegations of one request in one statement (issued now when they leave DRAFT), each
 * linked to the documents in their order.
 */
export async function storeIssued(q: Queryable, tenantId: string, terms: NewDelegationTerms, rows: readonly NewDelegation[], documents: readonly { documentId: string; isPinned: boolean }[]): Promise<void> {
  const t = terms;
  await q.query(sql`
    INSERT INTO decision.delegations (id, tenant_id, delegation_display_id, decision_id, parent_delegation_id, depth, issuer_type, issuer_user_id, issuer_position_id,
                                      recipient_type, recipient_user_id, recipient_position_id, recipient_auto_issue, status, pending_stage,
                                      effective_date, expiration_date, is_no_expiration, issued_date, delegation_pathway, group_ids,
                                      delegation_groups, delegation_authorities, copied_from, created_by, updated_by)
    SELECT x.id, ${tenantId}, x.display_id, ${t.decisionId}, ${t.parentId}, ${t.depth}, ${t.issuerType}, ${t.issuerUserId}, ${t.issuerPositionId},
           ${t.recipientType}, x.user_id, x.position_id, ${t.recipientAutoIssue}, ${t.status}::text, ${t.stage}::text,
           ${t.effectiveDate}, ${t.expirationDate}, ${t.expirationDate === null},
           CASE WHEN ${t.status}::text IN ('ISSUED', 'PENDING') THEN now() END, ${[...t.pathways]}, ${[...t.groupIds]},
           ${JSON.stringify(t.groups)}, ${JSON.stringify(t.authorities)}, ${t.copiedFrom ?? null}::uuid, ${t.issuerUserId}, ${t.issuerUserId}
      FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.displayId)}::text[], ${rows.map((r) => r.recipientUserId)}::uuid[],
                  ${rows.map((r) => r.recipientPositionId)}::uuid[]) AS x(id, display_id, user_id, position_id)`);
  await linkDocuments(q, tenantId, rows.map((r) => r.id), documents);
}

/** A live delegation's terms as a PATCH leaves them (what it did not name stays). */
export interface DelegationTerms {
  recipientType: string;
  recipientUserId: string | null;
  recipientPositionId: string | null;
  recipientAutoIssue: boolean | null;
  status: string;
  stage: string | null;
  /** Whether the recipient changed: an acceptance is then forgotten. */
  recipientChanged: boolean;
  effectiveDate: Date;
  expirationDate: Date | null;
  pathways: readonly string[];
  groupIds: readonly string[];
  /** null: the stored groups stay. */
  groups: readonly { groupId: string; tenantGroupTypeId: string | null }[] | null;
  authorities: readonly unknown[];
}

/** Writes a delegation's changed terms in one statement. */
export async function updateTerms(q: Queryable, tenantId: string, id: string, t: DelegationTerms, by: string): Promise<void> {
  await q.query(sql`
    UPDATE decision.delegations
       SET recipient_type = ${t.recipientType}, recipient_user_id = ${t.recipientUserId}, recipient_position_id = ${t.recipientPositionId},
           recipient_auto_issue = coalesce(${t.recipientAutoIssue}, recipient_auto_issue),
           status = ${t.status}::text, pending_stage = ${t.stage}::text,
           accepted_date = CASE WHEN ${t.recipientChanged}::boolean AND status = 'ACCEPTED' THEN NULL ELSE accepted_date END,
           effective_date = ${t.effectiveDate}, expiration_date = ${t.expirationDate}, is_no_expiration = ${t.expirationDate}::timestamptz IS NULL,
           delegation_pathway = ${[...t.pathways]}, group_ids = ${[...t.groupIds]},
           delegation_groups = coalesce(${t.groups ? JSON.stringify(t.groups) : null}::jsonb, delegation_groups), delegation_authorities = ${JSON.stringify(t.authorities)},
           updated_on = now(), updated_by = ${by}, version = version + 1
     WHERE id = ${id} AND tenant_id = ${tenantId}`);
}

/** Links documents to each delegation named, in the order given (a pair already linked stays as it is). */
export async function linkDocuments(q: Queryable, tenantId: string, ids: readonly string[], documents: readonly { documentId: string; isPinned: boolean }[]): Promise<void> {
  if (!documents.length) return;
  await q.query(
    `INSERT INTO decision.delegation_documents (id, tenant_id, delegation_id, document_id, is_pinned, position)
     SELECT gen_random_uuid(), $1, g.id, d.document_id, d.is_pinned, d.n FROM unnest($2::uuid[]) AS g(id)
       CROSS JOIN unnest($3::uuid[], $4::boolean[]) WITH ORDINALITY AS d(document_id, is_pinned, n)
     ON CONFLICT (delegation_id, document_id) DO NOTHING`,
    [tenantId, ids, documents.map((d) => d.documentId), documents.map((d) => d.isPinned)],
  );
}

/** The linked documents as they should be: those left out are unlinked, the rest linked (or their pin changed), in order. */
export async function replaceDocuments(q: Queryable, tenantId: string, id: string, documents: readonly { documentId: string; isPinned: boolean }[]): Promise<void> {
  await q.query(`DELETE FROM decision.delegation_documents WHERE tenant_id = $1 AND delegation_id = $2 AND NOT (document_id = ANY($3::uuid[]))`, [
    tenantId,
    id,
    documents.map((d) => d.documentId),
  ]);
  if (!documents.length) return;
  await q.query(
    `INSERT INTO decision.delegation_documents (id, tenant_id, delegation_id, document_id, is_pinned, position)
     SELECT gen_random_uuid(), $1, $2, d.document_id, d.is_pinned, d.n FROM unnest($3::uuid[], $4::boolean[]) WITH ORDINALITY AS d(document_id, is_pinned, n)
     ON CONFLICT (delegation_id, document_id) DO UPDATE SET is_pinned = excluded.is_pinned, position = excluded.position`,
    [tenantId, id, documents.map((d) => d.documentId), documents.map((d) => d.isPinned)],
  );
}

/** Revokes a delegation and every live descendant in one statement; answers the ids revoked. */
export async function revokeSubtree(q: Queryable, tenantId: string, id: string, by: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `WITH RECURSIVE tree AS (
       SELECT id FROM decision.delegations WHERE id = $1
       UNION ALL
       SELECT c.id FROM decision.delegations c JOIN tree t ON c.parent_delegation_id = t.id WHERE c.tenant_id = $2)
     UPDATE decision.delegations g SET status = 'REVOKED', pending_stage = NULL, updated_on = now(), updated_by = $3, version = version + 1
       FROM tree WHERE g.id = tree.id AND g.status IN ${LIVE_SQL}
     RETURNING g.id`,
    [id, tenantId, by],
  );
  return rows.map((r) => r.id);
}

/** The delegations named (`named`) and every descendant not deleted, each with its status. */
export function deletionTree(q: Queryable, tenantId: string, ids: readonly string[]): Promise<{ id: string; status: DelegationStatus; named: boolean }[]> {
  return q.query<{ id: string; status: DelegationStatus; named: boolean }>(
    `WITH RECURSIVE tree AS (
       SELECT g.id, true AS named FROM decision.delegations g WHERE g.tenant_id = $1 AND g.id = ANY($2::uuid[])
       UNION
       SELECT c.id, false FROM decision.delegations c JOIN tree t ON c.parent_delegation_id = t.id WHERE c.tenant_id = $1 AND c.status <> 'DELETED')
     SELECT g.id, g.status, bool_or(t.named) AS named FROM tree t JOIN decision.delegations g ON g.id = t.id GROUP BY g.id, g.status`,
    [tenantId, ids],
  );
}

/** Marks the delegations DELETED in one statement; answers each with the status it had. */
export function markDeleted(q: Queryable, tenantId: string, doomed: readonly { id: string; status: DelegationStatus }[], by: string): Promise<{ id: string; was: DelegationStatus }[]> {
  return q.query<{ id: string; was: DelegationStatus }>(
    `UPDATE decision.delegations g SET status = 'DELETED', pending_stage = NULL, updated_on = now(), updated_by = $3, version = g.version + 1
       FROM unnest($2::uuid[], $4::text[]) AS x(id, was) WHERE g.id = x.id AND g.tenant_id = $1 RETURNING g.id, x.was`,
    [tenantId, doomed.map((t) => t.id), by, doomed.map((t) => t.status)],
  );
}

/** A delegation's status now (any; none for an unknown one). */
export async function statusOf(q: Queryable, tenantId: string, id: string): Promise<DelegationStatus | null> {
  const [row] = await q.query<{ status: DelegationStatus }>(`SELECT status FROM decision.delegations WHERE id = $1 AND tenant_id = $2`, [id, tenantId]);
  return row?.status ?? null;
}

/** A delegation not deleted, as the rules read it, with its display id (none for an unknown or deleted one). */
export async function liveWithDisplayId(q: Queryable, tenantId: string, id: string): Promise<(DelegationRuleRow & { delegation_display_id: string }) | null> {
  const [row] = await q.query<DelegationRuleRow & { delegation_display_id: string }>(
    `SELECT ${RULE_COLUMNS}, g.delegation_display_id FROM decision.delegations g WHERE g.id = $1 AND g.tenant_id = $2 AND g.status <> 'DELETED'`,
    [id, tenantId],
  );
  return row ?? null;
}
