/**
 * The statements of the delegation model, which several resources run: a delegation's view (what a
 * read answers, a revision stores and an event is made from), recording a revision, the rows the
 * rules read (a delegation, its subtree, its decision, the organisation around it, the tenant's
 * settings). Each function runs one statement. The delegations list is the delegations resource's
 * own (delegations/delegation.sql.ts).
 */
import { AppError, ErrorCode, FieldError, notFound } from '@ddm/contracts';
import { Queryable, Sql, isoSql, join, raw, sql } from '@ddm/platform';
import { Person, PersonNames, RECIPIENT_NAMES } from './recipients';
import { DecisionScope, DelegationRuleRow, DelegationStatus, LIVE_STATUSES, Limit, OrgView, RevalidationScope, SubtreeRow } from './delegation.types';

/** LIVE_STATUSES as an SQL list, for `status IN ${LIVE_SQL}` (the one place SQL names them). */
export const LIVE_SQL = `(${LIVE_STATUSES.map((x) => `'${x}'`).join(', ')})`;

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

/** A role mapping's view from `dr` (delegation_roles, may be null) and `r` (the role projection), for the delegation `delegation`. */
export const ROLE_VIEW = (delegation: string) => `jsonb_build_object(
  'id', dr.id, 'delegationId', ${delegation}, 'roleId', r.id, 'roleName', r.role_name,
  'designeeRecipientType', dr.designee_recipient_type, 'isAutoIssue', coalesce(dr.is_auto_issue, false),
  'roleDesignees', coalesce(dr.role_designees, '[]'::jsonb), 'roleStatus', coalesce(dr.role_status, 'INACTIVE'),
  'roleRequirement', dr.role_requirement, 'isCascade', coalesce(dr.is_cascade, false), 'updatedAt', ${isoSql('dr.updated_on')})`;

/** The roles set on a delegation, as a revision stores them (reviseDelegations puts them in every snapshot). */
export const ROLES_OF = (id: string) =>
  `(SELECT coalesce(jsonb_agg(${ROLE_VIEW('dr.delegation_id')} ORDER BY lower(r.role_name), r.id), '[]'::jsonb)
      FROM decision.delegation_roles dr JOIN decision.decision_role_projection r ON r.id = dr.role_id WHERE dr.delegation_id = ${id})`;

/**
 * A role mapping's status as the events carry it: whether the role is in force (ACTIVE: set ACTIVE,
 * or the product's ASSIGNED and ACKNOWLEDGED) or not (INACTIVE); the API answers the status as set.
 */
export const EVENT_ROLE_STATUS = (column: string) => `(CASE WHEN ${column} = 'INACTIVE' THEN 'INACTIVE' ELSE 'ACTIVE' END)`;

/**
 * The roles set on a delegation as its events carry them (DelegationRolePayload): every role mapping,
 * DRAFT-time ones too, whatever its status (EVENT_ROLE_STATUS), by role id.
 */
export const EVENT_ROLES_OF = (id: string) =>
  `(SELECT coalesce(jsonb_agg(jsonb_build_object('roleId', dr.role_id, 'roleStatus', ${EVENT_ROLE_STATUS('dr.role_status')}, 'assignmentId', dr.assignment_id) ORDER BY dr.role_id), '[]'::jsonb)
      FROM decision.delegation_roles dr WHERE dr.delegation_id = ${id})`;

/** The columns of a delegation row the rules read (DelegationRuleRow), from `g`. */
export const RULE_COLUMNS = `g.id, g.decision_id, g.parent_delegation_id, g.depth, g.status, g.effective_date, g.expiration_date, g.is_invalid,
  g.issuer_type, g.issuer_user_id, g.issuer_position_id, g.recipient_type, g.recipient_user_id, g.recipient_position_id,
  g.delegation_pathway, g.group_ids, g.delegation_authorities, g.accepted_date, g.pending_stage`;

/** How a read of rule rows locks them: inside a change, FOR UPDATE what it changes and FOR SHARE what it relies on (a parent). */
export type RowLock = 'update' | 'share';

/**
 * The tenant's delegations named, as the rules read them, in id order (the order row locks are
 * taken in, so two changes never wait on each other in a circle). `live: true` leaves out DELETED
 * ones (they are then neither read nor locked).
 */
export function delegationRules(q: Queryable, tenantId: string, ids: readonly string[], options: { lock?: RowLock; live?: boolean } = {}): Promise<DelegationRuleRow[]> {
  const lock = options.lock === 'update' ? sql` FOR UPDATE` : options.lock === 'share' ? sql` FOR SHARE` : sql``;
  const live = options.live ? sql` AND g.status <> 'DELETED'` : sql``;
  return q.query<DelegationRuleRow>(sql`SELECT ${raw(RULE_COLUMNS)} FROM decision.delegations g
    WHERE g.tenant_id = ${tenantId} AND g.id = ANY(${[...ids]}::uuid[])${live} ORDER BY g.id${lock}`);
}

/** Every ancestor of each delegation named (`below`: the one it is above), as the rules read them, in one recursive statement. */
export function ancestorsOf(q: Queryable, tenantId: string, ids: readonly string[]): Promise<(DelegationRuleRow & { below: string })[]> {
  return q.query<DelegationRuleRow & { below: string }>(
    `WITH RECURSIVE up AS (
       SELECT s.id AS below, ${RULE_COLUMNS} FROM unnest($1::uuid[]) AS s(id) JOIN decision.delegations g ON g.id = s.id AND g.tenant_id = $2
       UNION ALL
       SELECT up.below, ${RULE_COLUMNS} FROM decision.delegations g JOIN up ON g.id = up.parent_delegation_id)
     SELECT * FROM up WHERE id <> below`,
    [ids, tenantId],
  );
}

/** The delegation (any status but DELETED) and its live descendants, shallowest first. */
export function subtreeOf(q: Queryable, tenantId: string, id: string): Promise<SubtreeRow[]> {
  return q.query<SubtreeRow>(
    `WITH RECURSIVE tree AS (
       SELECT ${RULE_COLUMNS}, g.delegation_display_id, 0 AS rel FROM decision.delegations g WHERE g.id = $1 AND g.tenant_id = $2 AND g.status <> 'DELETED'
       UNION ALL
       SELECT ${RULE_COLUMNS}, g.delegation_display_id, t.rel + 1 FROM decision.delegations g JOIN tree t ON g.parent_delegation_id = t.id
        WHERE g.tenant_id = $2 AND g.status IN ${LIVE_SQL})
     SELECT * FROM tree ORDER BY rel`,
    [id, tenantId],
  );
}

/** Every live delegation of a decision, roots first (`rel` is its depth + 1: a root delegation is 1). */
export function decisionTreeOf(q: Queryable, tenantId: string, decisionId: string): Promise<SubtreeRow[]> {
  return q.query<SubtreeRow>(
    `SELECT ${RULE_COLUMNS}, g.delegation_display_id, g.depth + 1 AS rel FROM decision.delegations g
      WHERE g.tenant_id = $1 AND g.decision_id = $2 AND g.status IN ${LIVE_SQL} ORDER BY g.depth`,
    [tenantId, decisionId],
  );
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
      SELECT u.id, u.manager_id, 0 AS level FROM decision.user_projection u
       WHERE u.tenant_id = ${tenantId} AND (u.id = ANY(${[...userIds]}::uuid[]) OR u.position_ids && ${[...positionIds]}::uuid[])
      UNION
      SELECT m.id, m.manager_id, l.level + 1 FROM line l JOIN decision.user_projection m ON m.tenant_id = ${tenantId} AND m.id = l.manager_id WHERE l.level < 50
    ),
    people AS (SELECT DISTINCT id FROM line),
    positions AS (
      SELECT unnest(${[...positionIds]}::uuid[]) AS id
      UNION SELECT unnest(u.position_ids) FROM decision.user_projection u JOIN people p ON p.id = u.id WHERE u.tenant_id = ${tenantId}
    )
    SELECT CASE WHEN u.status = 'DELETED' THEN 'removed' ELSE 'user' END AS kind, u.id, u.manager_id::text AS a, u.position_ids::text[] AS b, u.group_ids::text[] AS c, u.status = 'ACTIVE' AS ok
      FROM decision.user_projection u JOIN people p ON p.id = u.id WHERE u.tenant_id = ${tenantId}
    UNION ALL
    SELECT 'position', pp.id, NULL, pp.group_ids::text[],
           (SELECT array_agg(h.id::text) FROM decision.user_projection h WHERE h.tenant_id = ${tenantId} AND h.position_ids @> ARRAY[pp.id] AND h.status = 'ACTIVE'),
           pp.status = 'ACTIVE' AND NOT pp.is_deleted
      FROM decision.position_projection pp JOIN positions x ON x.id = pp.id WHERE pp.tenant_id = ${tenantId}
    UNION ALL
    SELECT 'group', gp.id, NULL, gp.parent_group_ids::text[], NULL, NOT gp.is_deleted FROM decision.group_projection gp WHERE gp.tenant_id = ${tenantId}`);
  const users = new Map<string, { manager: string | null; positions: string[]; groups: string[]; active: boolean; removed: boolean }>();
  const positions = new Map<string, { groups: string[]; holders: string[]; active: boolean }>();
  const groups = new Map<string, { parents: string[]; live: boolean }>();
  for (const r of rows) {
    if (r.kind === 'user' || r.kind === 'removed') users.set(r.id, { manager: r.a, positions: r.b ?? [], groups: r.c ?? [], active: r.ok, removed: r.kind === 'removed' });
    else if (r.kind === 'position') positions.set(r.id, { groups: r.b ?? [], holders: r.c ?? [], active: r.ok });
    else groups.set(r.id, { parents: r.b ?? [], live: r.ok });
  }
  return {
    isActiveUser: (id) => users.get(id)?.active ?? false,
    // A manager removed from the tenant is no one's manager any more (auth shows their reports without one).
    managerOf: (id) => {
      const manager = users.get(id)?.manager ?? null;
      return manager !== null && users.get(manager)?.removed ? null : manager;
    },
    positionsOf: (id) => (users.get(id)?.active ? users.get(id)!.positions.filter((p) => positions.get(p)?.active ?? true) : []),
    holdersOf: (id) => positions.get(id)?.holders ?? [],
    isActivePosition: (id) => positions.get(id)?.active ?? false,
    // A closed group joins no one (a Functional line runs through live groups only).
    groupsOfUser: (id) => {
      const u = users.get(id);
      if (!u) return [];
      return [...new Set([...u.groups, ...u.positions.flatMap((p) => positions.get(p)?.groups ?? [])])].filter((g) => groups.get(g)?.live ?? false);
    },
    groupsOfPosition: (id) => (positions.get(id)?.groups ?? []).filter((g) => groups.get(g)?.live ?? false),
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

/** The tenant's active holders of approve:delegations (auth's keys, projected), at most 500. */
export async function approversOf(q: Queryable, tenantId: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `SELECT id FROM decision.user_projection WHERE tenant_id = $1 AND status = 'ACTIVE' AND 'approve:delegations' = ANY(permission_keys) ORDER BY id LIMIT 500`,
    [tenantId],
  );
  return rows.map((r) => r.id);
}

/** A delegation row as invalidation reads it: the rules' columns and the fields it is marked invalid with now. */
export type ValidityRow = DelegationRuleRow & { invalid_fields: string[] };

/**
 * The condition "scoped to one of `groups`" over `g.id`, through the GIN index of group_ids under
 * row-level security (`g.group_ids && ...` cannot use it there: arrayoverlap is not leakproof): the
 * ids decision.delegations_in_groups answers for the request's tenant, as one array, so the
 * condition is an index condition of the primary key (and a part of a BitmapOr).
 */
export function inGroups(groups: Sql): Sql {
  return sql`${raw(IN_GROUPS[0])}${groups}${raw(IN_GROUPS[1])}`;
}

/** `inGroups` in a statement written as text, `groups` an expression of it (a parameter: `$4::uuid[]`). */
export function inGroupsText(groups: string): string {
  return IN_GROUPS.join(groups);
}

/** The condition's text around its groups. */
const IN_GROUPS = ['g.id = ANY(ARRAY(SELECT decision.delegations_in_groups(', ')))'] as const;

/**
 * The live delegations a change touches (naming a person, position, group, decision or delegation
 * of `scope`) and every live descendant, in one recursive statement, shallowest first. Only the
 * conditions the scope names are asked: under row-level security an OR holding a condition that is
 * not leakproof (`group_ids && ...`) can use no index, and the statement read every delegation of
 * the tenant, for each person, position or decision changed; the groups' is `inGroups`.
 */
export function touchedTrees(q: Queryable, tenantId: string, scope: RevalidationScope): Promise<ValidityRow[]> {
  const touched: Sql[] = [];
  if (scope.userIds?.length) touched.push(sql`g.issuer_user_id = ANY(${[...scope.userIds]}::uuid[])`, sql`g.recipient_user_id = ANY(${[...scope.userIds]}::uuid[])`);
  if (scope.positionIds?.length) {
    touched.push(sql`g.issuer_position_id = ANY(${[...scope.positionIds]}::uuid[])`, sql`g.recipient_position_id = ANY(${[...scope.positionIds]}::uuid[])`);
  }
  if (scope.groupIds?.length) touched.push(inGroups(sql`${[...scope.groupIds]}::uuid[]`));
  if (scope.decisionIds?.length) touched.push(sql`g.decision_id = ANY(${[...scope.decisionIds]}::uuid[])`);
  if (scope.delegationIds?.length) touched.push(sql`g.id = ANY(${[...scope.delegationIds]}::uuid[])`);
  if (!touched.length) return Promise.resolve([]);
  return q.query<ValidityRow>(sql`
    WITH RECURSIVE seeds AS (
      SELECT g.id FROM decision.delegations g
       WHERE g.tenant_id = ${tenantId} AND (${join(touched, ' OR ')})),
    tree AS (
      SELECT id FROM seeds
      UNION
      SELECT c.id FROM decision.delegations c JOIN tree t ON c.parent_delegation_id = t.id WHERE c.tenant_id = ${tenantId})
    SELECT ${raw(`${RULE_COLUMNS}, g.invalid_fields`)}
      FROM decision.delegations g JOIN tree ON tree.id = g.id
     WHERE g.status IN ${raw(LIVE_SQL)}
     ORDER BY g.depth, g.id`);
}

/** The tenant's delegations named (any status), as invalidation reads them. */
export function withInvalidFields(q: Queryable, tenantId: string, ids: readonly string[]): Promise<ValidityRow[]> {
  return q.query<ValidityRow>(`SELECT ${RULE_COLUMNS}, g.invalid_fields FROM decision.delegations g WHERE g.tenant_id = $1 AND g.id = ANY($2::uuid[])`, [tenantId, ids]);
}

/** Marks each delegation with the invalid fields found (none: valid again), in one statement. */
export async function writeValidity(q: Queryable, tenantId: string, changes: readonly { id: string; fields: readonly string[] }[]): Promise<void> {
  await q.query(
    `UPDATE decision.delegations g SET is_invalid = cardinality(x.fields) > 0, invalid_fields = x.fields, updated_on = now(), version = version + 1
       FROM (SELECT u.id, coalesce(string_to_array(nullif(u.fields, ''), ','), '{}') AS fields FROM unnest($2::uuid[], $3::text[]) AS u(id, fields)) x
      WHERE g.id = x.id AND g.tenant_id = $1`,
    [tenantId, changes.map((c) => c.id), changes.map((c) => c.fields.join(','))],
  );
}

/**
 * Gives the delegations named to a new recipient in one statement, each to the status its move
 * names (an accepted one awaits the new recipient: statusOnReassign), its acceptance forgotten.
 */
export async function reassignTo(
  q: Queryable,
  tenantId: string,
  moves: readonly { id: string; status: string; stage: string | null }[],
  to: { recipientType: string; recipientUserId: string | null; recipientPositionId: string | null; recipientAutoIssue?: boolean },
  by: string,
): Promise<void> {
  await q.query(sql`UPDATE decision.delegations g
        SET recipient_type = ${to.recipientType}, recipient_user_id = ${to.recipientUserId}, recipient_position_id = ${to.recipientPositionId},
            recipient_auto_issue = coalesce(${to.recipientAutoIssue ?? null}, g.recipient_auto_issue),
            status = m.status, pending_stage = m.stage, accepted_date = CASE WHEN g.status = 'ACCEPTED' THEN NULL ELSE g.accepted_date END,
            updated_on = now(), updated_by = ${by}, version = g.version + 1
       FROM unnest(${moves.map((m) => m.id)}::uuid[], ${moves.map((m) => m.status)}::text[], ${moves.map((m) => m.stage)}::text[]) AS m(id, status, stage)
      WHERE g.id = m.id AND g.tenant_id = ${tenantId}`);
}

/**
 * Moves the delegations named to `to` (and, for PENDING, `stage`) in one statement: the issued
 * date set when it first leaves DRAFT, the accepted date when it is first accepted. `by` null (the
 * system): the delegations keep their last updatedBy.
 */
export async function moveStatus(q: Queryable, tenantId: string, ids: readonly string[], to: string, stage: string | null, by: string | null): Promise<void> {
  await q.query(
    `UPDATE decision.delegations SET status = $3::text, pending_stage = $4::text, updated_on = now(), updated_by = coalesce($5::uuid, updated_by), version = version + 1,
            issued_date = CASE WHEN $3::text IN ('ISSUED', 'PENDING') AND issued_date IS NULL THEN now() ELSE issued_date END,
            accepted_date = CASE WHEN $3::text = 'ACCEPTED' AND accepted_date IS NULL THEN now() ELSE accepted_date END
      WHERE id = ANY($1::uuid[]) AND tenant_id = $2`,
    [ids, tenantId, to, stage, by],
  );
}

/** Which of the members and positions named the tenant has (`kind` user or position): not deleted. */
export function knownPeople(q: Queryable, tenantId: string, userIds: readonly string[], positionIds: readonly string[]): Promise<{ kind: string; id: string }[]> {
  return q.query<{ kind: string; id: string }>(
    `SELECT 'user' AS kind, id FROM decision.user_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND status <> 'DELETED'
     UNION ALL SELECT 'position', id FROM decision.position_projection WHERE tenant_id = $1 AND id = ANY($3::uuid[]) AND NOT is_deleted`,
    [tenantId, userIds, positionIds],
  );
}

/** What issuing delegations of a decision reads (readForIssue). */
export interface IssueFacts {
  /** The decision, FOR SHARE (it cannot narrow meanwhile). */
  decision: DecisionScope & { id: string; name: string };
  /** The parent, FOR SHARE (not DELETED; null when none is named). */
  parent: DelegationRuleRow | null;
  /** The issuer, the recipients and the positions named, with the organisation around them. */
  org: OrgView;
  /** The tenant's delegation settings, when the delegations are issued at once (a draft needs none). */
  settings: { approvalRequired: boolean; acceptanceRequired: boolean } | null;
}

/**
 * Everything the rules need to issue delegations of `decisionId` by `issuerId` to `recipients`
 * (from `parentId` when it is a redelegation), read in one place, each record refused where it is
 * read when the tenant does not have it, in this order: the decision (404, locked FOR SHARE: it
 * cannot narrow meanwhile), the recipients (404 naming each), the issuer's position and the
 * delegation copied from when named (404 naming the field), the parent (404, locked FOR SHARE);
 * then the organisation around the issuer and the recipients, and, when `issuing`, the tenant's settings.
 */
export async function readForIssue(
  tx: Queryable,
  tenantId: string,
  ask: { decisionId: string; parentId: string | null; issuerId: string; recipients: readonly Person[]; positionId: string | null; copiedFrom?: string | null; issuing: boolean },
): Promise<IssueFacts> {
  const decision = await decisionScope(tx, tenantId, ask.decisionId, true);
  if (!decision) throw notFound(`Decision ${ask.decisionId} not found`, [{ field: 'decisionId', message: `Decision ${ask.decisionId} not found` }]);
  await requireRecipients(tx, tenantId, ask.recipients);
  if (ask.positionId && !(await knownPeople(tx, tenantId, [], [ask.positionId])).length) {
    throw notFound(`Position ${ask.positionId} not found`, [{ field: 'issuerPositionId', message: `Position ${ask.positionId} not found` }]);
  }
  if (ask.copiedFrom) {
    const [copied] = await tx.query(`SELECT 1 FROM decision.delegations WHERE id = $1 AND tenant_id = $2 AND status <> 'DELETED'`, [ask.copiedFrom, tenantId]);
    if (!copied) throw notFound(`Delegation ${ask.copiedFrom} not found`, [{ field: 'copiedFrom', message: `Delegation ${ask.copiedFrom} not found` }]);
  }
  const org = await loadOrg(tx, tenantId, [ask.issuerId, ...ask.recipients.flatMap((r) => (r.recipientUserId ? [r.recipientUserId] : []))], [
    ...ask.recipients.flatMap((r) => (r.recipientPositionId ? [r.recipientPositionId] : [])),
    ...(ask.positionId ? [ask.positionId] : []),
  ]);
  let parent: DelegationRuleRow | null = null;
  if (ask.parentId) {
    [parent] = await delegationRules(tx, tenantId, [ask.parentId], { lock: 'share' });
    if (!parent || parent.status === 'DELETED') throw notFound(`Delegation ${ask.parentId} not found`, [{ field: 'parentDelegationId', message: `Delegation ${ask.parentId} not found` }]);
  }
  const settings = ask.issuing ? await tenantSettingsOf(tx, tenantId) : null;
  return { decision, parent, org, settings };
}

/** Recipients are members and positions of the tenant (404 naming each unknown one). */
export async function requireRecipients(tx: Queryable, tenantId: string, recipients: readonly Person[], field = 'delegationRecipients', names: PersonNames = RECIPIENT_NAMES): Promise<void> {
  const userIds = [...new Set(recipients.flatMap((r) => (r.recipientUserId ? [r.recipientUserId] : [])))];
  const positionIds = [...new Set(recipients.flatMap((r) => (r.recipientPositionId ? [r.recipientPositionId] : [])))];
  const unknown = unknownRecipients(await knownPeople(tx, tenantId, userIds, positionIds), recipients, field, names);
  if (unknown) throw unknown;
}

/** The 404 naming each recipient the tenant does not have (`known`: the members and positions it has, as knownPeople answers), or null. */
function unknownRecipients(known: readonly { kind: string; id: string }[], recipients: readonly Person[], field = 'delegationRecipients', names: PersonNames = RECIPIENT_NAMES): AppError | null {
  const has = new Set(known.map((f) => `${f.kind}:${f.id}`));
  const errors: FieldError[] = [];
  recipients.forEach((r, i) => {
    if (r.recipientUserId && !has.has(`user:${r.recipientUserId}`)) errors.push({ field: `${field}.${i}.${names.user}`, message: `User ${r.recipientUserId} is not a member of the tenant` });
    if (r.recipientPositionId && !has.has(`position:${r.recipientPositionId}`)) errors.push({ field: `${field}.${i}.${names.position}`, message: `Position ${r.recipientPositionId} not found` });
  });
  return errors.length ? new AppError(ErrorCode.NotFound, errors.map((e) => e.message).join('; '), errors) : null;
}

/**
 * Links documents to each of the tenant's delegations named (not DELETED; locked), after those it
 * has, a pair already linked changing nothing; the delegations that gained one get a new version.
 * Answers each delegation found, with its status and how many documents it gained.
 */
export async function addDocuments(tx: Queryable, tenantId: string, ids: readonly string[], documentIds: readonly string[], by: string | null): Promise<{ id: string; status: DelegationStatus; added: number }[]> {
  const rows = await tx.query<{ id: string; status: DelegationStatus; added: number }>(
    `WITH targets AS (
       SELECT g.id, g.status FROM decision.delegations g WHERE g.tenant_id = $1 AND g.id = ANY($2::uuid[]) AND g.status <> 'DELETED' FOR UPDATE),
     linked AS (
       INSERT INTO decision.delegation_documents (id, tenant_id, delegation_id, document_id, is_pinned, position)
       SELECT gen_random_uuid(), $1, t.id, d.document_id, false,
              coalesce((SELECT max(x.position) FROM decision.delegation_documents x WHERE x.delegation_id = t.id), 0) + d.n
         FROM targets t CROSS JOIN unnest($3::uuid[]) WITH ORDINALITY AS d(document_id, n)
       ON CONFLICT (delegation_id, document_id) DO NOTHING
       RETURNING delegation_id)
     SELECT t.id, t.status, (SELECT count(*)::int FROM linked l WHERE l.delegation_id = t.id) AS added FROM targets t`,
    [tenantId, ids, documentIds],
  );
  const changed = rows.filter((r) => r.added > 0).map((r) => r.id);
  if (changed.length) await tx.query(`UPDATE decision.delegations SET updated_on = now(), updated_by = $2, version = version + 1 WHERE id = ANY($1::uuid[])`, [changed, by]);
  return rows;
}
