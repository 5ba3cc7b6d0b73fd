/** The statements of the authority engine: chains of delegations and the group hierarchy as they stood at an instant. */

/**
 * Every chain ending in a delegation the subject held at the instant, one row per link: each
 * delegation of the decision as it stood then (its revision in force), the subject's positions
 * then (the holding history), the holder's delegations (by person, by person-in-position, by
 * position), then up the parents (cycle-safe, at most 64 levels). $1 = tenant, $2 = decision,
 * $3 = instant, $4 = user (or null), $5 = position (or null).
 */
export const CHAINS_AT_SQL = `
WITH RECURSIVE
  held AS (
    SELECT h.position_id FROM decision.position_holding_history h
     WHERE $4::uuid IS NOT NULL AND h.tenant_id = $1 AND h.user_id = $4 AND h.valid_from <= $3 AND (h.valid_to IS NULL OR h.valid_to > $3)),
  at_t AS (
    SELECT DISTINCT ON (r.delegation_id) r.delegation_id AS id, r.snapshot AS s
      FROM decision.delegations g JOIN decision.delegation_revisions r ON r.delegation_id = g.id
     WHERE g.tenant_id = $1 AND g.decision_id = $2 AND r.revision_date < $3::timestamptz + interval '1 millisecond'
     ORDER BY r.delegation_id, r.revision_date DESC, r.revision_id DESC),
  holder AS (
    SELECT a.id FROM at_t a
     WHERE ($4::uuid IS NOT NULL AND a.s->>'recipientType' = 'SPECIFIC_PERSONNEL' AND (a.s->>'recipientUserId')::uuid = $4)
        OR ($4::uuid IS NOT NULL AND a.s->>'recipientType' = 'PERSONNEL_IN_POSITION' AND (a.s->>'recipientUserId')::uuid = $4
            AND (a.s->>'recipientPositionId')::uuid IN (SELECT position_id FROM held))
        OR (a.s->>'recipientType' = 'POSITION_ONLY'
            AND ((a.s->>'recipientPositionId')::uuid IN (SELECT position_id FROM held) OR (a.s->>'recipientPositionId')::uuid = $5))),
  chain AS (
    SELECT h.id AS holder_id, a.id, a.s, 0 AS up, ARRAY[a.id] AS seen FROM holder h JOIN at_t a ON a.id = h.id
    UNION ALL
    SELECT c.holder_id, p.id, p.s, c.up + 1, c.seen || p.id
      FROM chain c JOIN at_t p ON p.id = (c.s->>'parentDelegationId')::uuid
     WHERE NOT p.id = ANY(c.seen) AND c.up < 64)
SELECT holder_id, id, up, s AS snapshot FROM chain ORDER BY holder_id, up DESC`;

/** The tenant's groups and their parents as they stood at the instant: $1 = tenant, $2 = instant. */
export const GROUPS_AT_SQL = `
SELECT group_id, parent_group_ids, live FROM decision.group_history
 WHERE tenant_id = $1 AND valid_from <= $2 AND (valid_to IS NULL OR valid_to > $2)`;

/** Every delegation of a decision as it stood at the instant (its revision in force then): $1 = tenant, $2 = decision, $3 = instant. */
export const DECISION_DELEGATIONS_AT_SQL = `
SELECT DISTINCT ON (r.delegation_id) r.delegation_id AS id, r.snapshot - 'conditions' - 'roles' AS snapshot
  FROM decision.delegations g JOIN decision.delegation_revisions r ON r.delegation_id = g.id
 WHERE g.tenant_id = $1 AND g.decision_id = $2 AND r.revision_date < $3::timestamptz + interval '1 millisecond'
 ORDER BY r.delegation_id, r.revision_date DESC, r.revision_id DESC`;

/** Who held each of the positions at the instant (the holding history), with their names: $1 = tenant, $2 = positions, $3 = instant. */
export const HOLDERS_AT_SQL = `
SELECT h.position_id, h.user_id, u.name FROM decision.position_holding_history h
  LEFT JOIN decision.user_projection u ON u.tenant_id = h.tenant_id AND u.id = h.user_id
 WHERE h.tenant_id = $1 AND h.position_id = ANY($2::uuid[]) AND h.valid_from <= $3 AND (h.valid_to IS NULL OR h.valid_to > $3)`;
