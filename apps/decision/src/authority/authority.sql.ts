/**
 * The statements of the authority engine: chains of delegations, decisions, holdings and the group
 * hierarchy as they stood at an instant. "As it stood at T" is always the row whose validity holds
 * T at millisecond precision (an instant is a JavaScript date): valid from before T + 1 ms and not
 * valid to before then; `t` below is that T + 1 ms.
 */

/** The revision (or history row) aliased `r` was the one in force at `t`. */
const IN_FORCE = (r: string, t: string, from = 'revision_date') => `${r}.${from} < ${t} AND (${r}.valid_to IS NULL OR ${r}.valid_to >= ${t})`;

/**
 * Of a delegation's revision snapshot, what a chain link does not read either (a thousand checks read
 * some 8,000 links: a smaller row is a faster batch, and a smaller entry in the service's links; one
 * subtraction is cheaper than rebuilding).
 */
const NOT_IN_LINK = `ARRAY['conditions', 'roles', 'delegationDocuments', 'delegationRecipients', 'sourceDecision', 'tenantId', 'decisionId', 'createdBy', 'updatedBy',
  'createdAt', 'updatedAt', 'issuedDate', 'acceptedDate', 'delegationPathway', 'copiedFrom', 'pendingStage', 'isNoExpiration', 'isRootDelegation', 'depth',
  'invalidFields', 'recipientAutoIssue', 'sodAcknowledgedRuleIds', 'attestationDisputed', 'attestationDisputedCampaignId']`;

/**
 * Any number of checks in one statement. $1 = tenant; per check, in order: $2 decisions, $3
 * instants, $4 users (or null), $5 positions (or null). Answers, per check `n` (1-based): the
 * decision as it stood then (from its revisions: `decision_state` null when it did not exist yet;
 * `decision_known` false when the tenant has no such decision at all; its row has no holder), and one
 * row per link of every chain ending in a delegation the subject held then (`holder_id`, `up` = links
 * above the holder's: the root has the highest, `delegation_id` the link's delegation and `revision` its revision in force then, whose
 * snapshot LINKS_SQL reads: a revision never changes, so the service keeps the links it has read),
 * in no order (the caller groups them). The subject
 * held a delegation whose revision in force named as recipient the person (SPECIFIC_PERSONNEL), the
 * person in a position they held then (PERSONNEL_IN_POSITION), or a position they held then, or the
 * position asked about (POSITION_ONLY); each link above is its parent's revision in force then
 * (cycle-safe, at most 64 levels). Every step is an index probe on the revisions' generated columns
 * (by recipient and decision, by delegation and date) or the holdings (by person); no snapshot is
 * read here. The lateral subqueries are fenced (OFFSET 0, LIMIT) so that the
 * planner probes the indexes per check rather than hashing a whole table for a batch it cannot size.
 */
export const CHECKS_AT_SQL = `
WITH RECURSIVE
  q AS (
    SELECT x.n, x.decision_id, x.at + interval '1 millisecond' AS t, x.user_id, x.position_id
      FROM unnest($2::uuid[], $3::timestamptz[], $4::uuid[], $5::uuid[]) WITH ORDINALITY AS x(decision_id, at, user_id, position_id, n)),
  positions AS (
    SELECT q.n, h.position_id FROM q JOIN decision.position_holding_history h
        ON h.tenant_id = $1 AND h.user_id = q.user_id AND ${IN_FORCE('h', 'q.t', 'valid_from')}
    UNION
    SELECT q.n, q.position_id FROM q WHERE q.position_id IS NOT NULL),
  holder AS (
    SELECT q.n, q.t, r.delegation_id AS id, r.id AS revision, r.parent_delegation_id AS parent FROM q
     CROSS JOIN LATERAL (
       SELECT r.id, r.delegation_id, r.parent_delegation_id, r.recipient_type, r.recipient_position_id FROM decision.delegation_revisions r
        WHERE r.tenant_id = $1 AND r.recipient_user_id = q.user_id AND r.decision_id = q.decision_id AND ${IN_FORCE('r', 'q.t')} OFFSET 0) r
     WHERE r.recipient_type = 'SPECIFIC_PERSONNEL'
        OR (r.recipient_type = 'PERSONNEL_IN_POSITION' AND EXISTS (SELECT 1 FROM positions p WHERE p.n = q.n AND p.position_id = r.recipient_position_id))
    UNION ALL
    SELECT q.n, q.t, r.delegation_id, r.id, r.parent_delegation_id FROM positions p JOIN q ON q.n = p.n
     CROSS JOIN LATERAL (
       SELECT r.id, r.delegation_id, r.parent_delegation_id, r.recipient_type FROM decision.delegation_revisions r
        WHERE r.tenant_id = $1 AND r.recipient_position_id = p.position_id AND r.decision_id = q.decision_id AND ${IN_FORCE('r', 'q.t')} OFFSET 0) r
     WHERE r.recipient_type = 'POSITION_ONLY'),
  chain AS (
    SELECT h.n, h.t, h.id AS holder_id, h.id, h.revision, h.parent, 0 AS up, ARRAY[h.id] AS seen FROM holder h
    UNION ALL
    SELECT c.n, c.t, c.holder_id, p.delegation_id, p.id, p.parent_delegation_id, c.up + 1, c.seen || p.delegation_id
      FROM chain c
     CROSS JOIN LATERAL (
       SELECT p.id, p.delegation_id, p.parent_delegation_id FROM decision.delegation_revisions p
        WHERE p.delegation_id = c.parent AND p.tenant_id = $1 AND p.revision_date < c.t
        ORDER BY p.revision_date DESC LIMIT 1) p
     WHERE NOT p.delegation_id = ANY(c.seen) AND c.up < 64)
SELECT q.n, cur.known AS decision_known, cur.display_id AS decision_display_id, dec.state AS decision_state, NULL::uuid AS holder_id, NULL::int AS up, NULL::uuid AS delegation_id, NULL::uuid AS revision
  FROM q
  LEFT JOIN LATERAL (SELECT true AS known, d.decision_display_id AS display_id FROM decision.decisions d WHERE d.id = q.decision_id AND d.tenant_id = $1) cur ON true
  LEFT JOIN LATERAL (
    SELECT jsonb_build_object('decisionDisplayId', r.snapshot -> 'decisionDisplayId', 'status', r.snapshot -> 'status', 'isDeleted', r.snapshot -> 'isDeleted',
             'since', r.revision_date, 'authorityTypeIds', (SELECT coalesce(jsonb_agg(a -> 'authorityTypeId'), '[]') FROM jsonb_array_elements(r.snapshot -> 'decisionAuthorities') a)) AS state
      FROM decision.decision_revisions r WHERE r.decision_id = q.decision_id AND r.tenant_id = $1 AND r.revision_date < q.t
     ORDER BY r.revision_date DESC, r.id DESC LIMIT 1) dec ON true
UNION ALL
SELECT c.n, NULL, NULL, NULL, c.holder_id, c.up, c.id, c.revision FROM chain c`;

/**
 * Revisions of delegations as chain links (Snapshot: what evaluating a link and answering it read):
 * $1 = tenant, $2 = revision ids.
 */
export const LINKS_SQL = `
SELECT r.id, r.snapshot - ${NOT_IN_LINK} AS link FROM decision.delegation_revisions r WHERE r.id = ANY($2::uuid[]) AND r.tenant_id = $1`;

/** The tenant's groups, their parents and whether each was live, at instants: $1 = tenant, $2 = instants. */
export const GROUPS_AT_SQL = `
SELECT x.at, h.group_id, h.parent_group_ids, h.live
  FROM unnest($2::timestamptz[]) AS x(at) JOIN decision.group_history h
    ON h.tenant_id = $1 AND ${IN_FORCE('h', "(x.at + interval '1 millisecond')", 'valid_from')}`;

/** The decision's status as its revision in force at the instant stood (no row: it did not exist yet): $1 = tenant, $2 = decision, $3 = instant. */
export const DECISION_AT_SQL = `
SELECT r.snapshot ->> 'status' AS status, coalesce((r.snapshot ->> 'isDeleted')::boolean, false) AS is_deleted
  FROM decision.decision_revisions r
 WHERE r.decision_id = $2 AND r.tenant_id = $1 AND r.revision_date < ($3::timestamptz + interval '1 millisecond')
 ORDER BY r.revision_date DESC, r.id DESC LIMIT 1`;

/**
 * Every delegation of a decision as it stood at the instant: the id of its revision in force then
 * (whose snapshot LINKS_SQL reads, when the service does not have it yet; a decision held by 10,000
 * is 10,000 rows, so nothing else leaves the database): $1 = tenant, $2 = decision, $3 = instant.
 */
export const DECISION_DELEGATIONS_AT_SQL = `
SELECT r.id AS revision FROM decision.delegation_revisions r
 WHERE r.tenant_id = $1 AND r.decision_id = $2 AND ${IN_FORCE('r', "($3::timestamptz + interval '1 millisecond')")}`;

/** Who held each of the positions at the instant (the holding history), with their names: $1 = tenant, $2 = positions, $3 = instant. */
export const HOLDERS_AT_SQL = `
SELECT h.position_id, h.user_id, u.name FROM decision.position_holding_history h
  LEFT JOIN decision.user_projection u ON u.tenant_id = h.tenant_id AND u.id = h.user_id
 WHERE h.tenant_id = $1 AND h.position_id = ANY($2::uuid[]) AND ${IN_FORCE('h', "($3::timestamptz + interval '1 millisecond')", 'valid_from')}`;

/** The tenant's currency rates in force at any of the instants: $1 = tenant, $2 = the latest instant. */
export const RATES_SQL = `
SELECT currency, valid_from::text AS valid_from, rate::text AS rate FROM decision.currency_rates
 WHERE tenant_id = $1 AND valid_from <= $2::date ORDER BY currency, valid_from`;

/**
 * The decisions a subject held a delegation of at an instant, with the authority types each had
 * then: $1 = tenant, $2 = instant, $3 = person (or null), $4 = position (or null). Held as
 * CHECKS_AT_SQL reads it (the person by name or in a position they held then, a POSITION_ONLY
 * position they held then or the position asked about); whether a chain is in force is the
 * engine's to say, check by check. In display id order.
 */
export const HELD_DECISIONS_AT_SQL = `
WITH
  q AS (SELECT $2::timestamptz + interval '1 millisecond' AS t),
  positions AS (
    SELECT h.position_id FROM q JOIN decision.position_holding_history h ON h.tenant_id = $1 AND h.user_id = $3::uuid AND ${IN_FORCE('h', 'q.t', 'valid_from')}
    UNION
    SELECT $4::uuid WHERE $4::uuid IS NOT NULL),
  held AS (
    SELECT r.decision_id FROM q JOIN decision.delegation_revisions r ON r.tenant_id = $1 AND r.recipient_user_id = $3::uuid AND ${IN_FORCE('r', 'q.t')}
     WHERE r.recipient_type = 'SPECIFIC_PERSONNEL' OR (r.recipient_type = 'PERSONNEL_IN_POSITION' AND r.recipient_position_id IN (SELECT position_id FROM positions))
    UNION
    SELECT r.decision_id FROM q CROSS JOIN positions p JOIN decision.delegation_revisions r ON r.tenant_id = $1 AND r.recipient_position_id = p.position_id AND ${IN_FORCE('r', 'q.t')}
     WHERE r.recipient_type = 'POSITION_ONLY')
SELECT d.id AS decision_id, d.decision_display_id, d.name,
       coalesce((SELECT array_agg(DISTINCT lower(a ->> 'authorityTypeId'))
                   FROM q, LATERAL (SELECT x.snapshot FROM decision.decision_revisions x WHERE x.decision_id = d.id AND x.tenant_id = $1 AND x.revision_date < q.t
                                     ORDER BY x.revision_date DESC, x.id DESC LIMIT 1) rev,
                        jsonb_array_elements(rev.snapshot -> 'decisionAuthorities') a), '{}') AS type_ids
  FROM held h JOIN decision.decisions d ON d.id = h.decision_id AND d.tenant_id = $1
 ORDER BY d.decision_display_id::bigint, d.id`;
