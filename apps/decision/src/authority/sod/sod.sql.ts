/** The statements of segregation of duties: rules (columns, list, lookups), the delegations a conflict names, their chains. */
import { ListSpec, containsPattern, isoSql, raw, sortBy, sql } from '@ddm/platform';
import type { SodRuleSort } from './sod.rules';

const SIDE = (side: 'left' | 'right', d: string, t: string) =>
  `r.${side}_decision_id, ${d}.decision_display_id AS ${side}_decision_display_id, ${d}.name AS ${side}_decision_name,
   r.${side}_authority_type_id, ${t}.authority_type AS ${side}_authority_type_name`;

/** A rule's columns (alias `r`), with its decisions' and authority types' names; needs RULE_JOINS. */
export const SOD_RULE_COLUMNS = `r.id, r.tenant_id, r.sod_rule_display_id, r.name, r.same_group_only, r.is_deleted,
  ${SIDE('left', 'ld', 'lt')}, ${SIDE('right', 'rd', 'rt')},
  ${isoSql('r.created_on')} AS created_at, r.created_by, ${isoSql('r.updated_on')} AS updated_at, r.updated_by`;

export const SOD_RULE_JOINS = `
  LEFT JOIN decision.decisions ld ON ld.id = r.left_decision_id
  LEFT JOIN decision.decisions rd ON rd.id = r.right_decision_id
  LEFT JOIN decision.authority_type_projection lt ON lt.id = r.left_authority_type_id AND lt.tenant_id = r.tenant_id
  LEFT JOIN decision.authority_type_projection rt ON rt.id = r.right_authority_type_id AND rt.tenant_id = r.tenant_id`;

/** One live rule of the tenant: $1 = id, $2 = tenant. */
export const SOD_RULE_BY_ID_SQL = `SELECT ${SOD_RULE_COLUMNS} FROM decision.sod_rules r ${SOD_RULE_JOINS} WHERE r.id = $1 AND r.tenant_id = $2 AND NOT r.is_deleted`;

/** The live rule, locked for a change: $1 = id, $2 = tenant. */
export const LOCK_SOD_RULE_SQL = `SELECT id, name, left_decision_id, left_authority_type_id, right_decision_id, right_authority_type_id
  FROM decision.sod_rules WHERE id = $1 AND tenant_id = $2 AND NOT is_deleted FOR UPDATE`;

/** How many live rules the tenant has: $1 = tenant. */
export const COUNT_SOD_RULES_SQL = `SELECT count(*)::int AS n FROM decision.sod_rules WHERE tenant_id = $1 AND NOT is_deleted`;

/**
 * The tenant's live rules whose two decisions are live (a rule over a deleted decision has nobody
 * holding that side): $1 = tenant, $2 = a decision on either side (or null: all), $3 = one rule (or null: all).
 */
export const LIVE_SOD_RULES_SQL = `SELECT ${SOD_RULE_COLUMNS} FROM decision.sod_rules r ${SOD_RULE_JOINS}
  WHERE r.tenant_id = $1 AND NOT r.is_deleted AND NOT ld.is_deleted AND NOT rd.is_deleted
    AND ($2::uuid IS NULL OR r.left_decision_id = $2 OR r.right_decision_id = $2)
    AND ($3::uuid IS NULL OR r.id = $3)
  ORDER BY lower(r.name), r.id`;

/**
 * Each side named (in order) with whether its decision is one of the tenant's live decisions and
 * whether the decision has that authority type: $1 = tenant, $2 = decisions, $3 = authority types.
 */
export const SIDES_SQL = `SELECT s.n::int, d.id IS NOT NULL AS decision_found,
    EXISTS (SELECT 1 FROM decision.decision_authorities da WHERE da.decision_id = d.id AND da.authority_type_id = s.type_id) AS type_found
  FROM unnest($2::uuid[], $3::uuid[]) WITH ORDINALITY AS s(decision_id, type_id, n)
  LEFT JOIN decision.decisions d ON d.id = s.decision_id AND d.tenant_id = $1 AND NOT d.is_deleted
  ORDER BY s.n`;

/** Soft-deletes the (locked) rule and answers it: $1 = id, $2 = tenant, $3 = the user. */
export const DELETE_SOD_RULE_SQL = `WITH d AS (
    UPDATE decision.sod_rules SET is_deleted = true, deleted_on = now(), deleted_by = $3, updated_on = now(), updated_by = $3
     WHERE id = $1 AND tenant_id = $2 RETURNING *)
  SELECT ${SOD_RULE_COLUMNS} FROM d r ${SOD_RULE_JOINS}`;

const SORT_KEYS: Record<SodRuleSort, string[]> = {
  name: ['lower(r.name)'],
  createdAt: ['r.created_on'],
  updatedAt: ['r.updated_on'],
};

/** The tenant's live rules matching the query, a page of them in the chosen order. */
export function sodRuleList(tenantId: string, q: { page: number; limit: number; search?: string; decisionId?: string; sortBy: SodRuleSort; sortOrder?: string }): ListSpec {
  return {
    from: sql`decision.sod_rules r`,
    where: [
      sql`r.tenant_id = ${tenantId}`,
      sql`NOT r.is_deleted`,
      ...(q.search ? [sql`r.name ILIKE ${containsPattern(q.search)}`] : []),
      ...(q.decisionId ? [sql`(r.left_decision_id = ${q.decisionId}::uuid OR r.right_decision_id = ${q.decisionId}::uuid)`] : []),
    ],
    id: 'r.id',
    sort: sortBy(SORT_KEYS, q.sortBy, q.sortOrder),
    view: { columns: raw(SOD_RULE_COLUMNS), from: raw(`decision.sod_rules r ON r.id = page.id ${SOD_RULE_JOINS}`) },
    page: q.page,
    limit: q.limit,
  };
}

/** The groups of the delegations named (the overlap of sameGroupOnly rules): $1 = tenant, $2 = delegations. */
export const DELEGATION_GROUPS_SQL = `SELECT id, group_ids FROM decision.delegations WHERE tenant_id = $1 AND id = ANY($2::uuid[])`;

/**
 * The delegations named and everything below them (cycle-safe), each with the one named it is or
 * descends from: what holds through them. $1 = tenant, $2 = delegations.
 */
export const SUBTREES_SQL = `WITH RECURSIVE t AS (
    SELECT g.id, g.id AS issued, ARRAY[g.id] AS seen FROM decision.delegations g WHERE g.tenant_id = $1 AND g.id = ANY($2::uuid[])
    UNION ALL
    SELECT c.id, t.issued, t.seen || c.id FROM t JOIN decision.delegations c ON c.parent_delegation_id = t.id AND c.tenant_id = $1
     WHERE NOT c.id = ANY(t.seen) AND cardinality(t.seen) < 64)
  SELECT id, issued FROM t`;

/** The tenant's live groups with their parents (for the overlap of sameGroupOnly rules): $1 = tenant. */
export const GROUP_PARENTS_SQL = `SELECT id, parent_group_ids FROM decision.group_projection WHERE tenant_id = $1 AND NOT is_deleted`;

/**
 * The chain of each delegation named, one row per link, each chain root first (cycle-safe, at most
 * 64 levels): $1 = tenant, $2 = delegations.
 */
export const CHAINS_SQL = `WITH RECURSIVE up AS (
    SELECT s.id AS below, 0 AS up, g.id, g.parent_delegation_id, ARRAY[g.id] AS seen
      FROM unnest($2::uuid[]) AS s(id) JOIN decision.delegations g ON g.id = s.id AND g.tenant_id = $1
    UNION ALL
    SELECT up.below, up.up + 1, p.id, p.parent_delegation_id, up.seen || p.id
      FROM up JOIN decision.delegations p ON p.id = up.parent_delegation_id AND p.tenant_id = $1
     WHERE NOT p.id = ANY(up.seen) AND up.up < 64)
  SELECT up.below, g.id, g.delegation_display_id, g.status, g.issuer_type, g.issuer_user_id, g.issuer_position_id,
         g.recipient_type, g.recipient_user_id, g.recipient_position_id, g.delegation_authorities, g.sod_acknowledged_rule_ids
    FROM up JOIN decision.delegations g ON g.id = up.id
   ORDER BY up.below, up.up DESC`;

/**
 * Serialises the SoD checks of a tenant's issues: a check waits for another in flight, then reads
 * what it committed (two people issuing the two sides at once cannot both pass). $1 = tenant.
 */
export const SOD_LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtextextended('decision.sod:' || $1::text, 0))`;

/**
 * The instant the delegations named begin to hold: now (the database's clock, read after the lock,
 * so what was committed before is in) or their effective date when later; rounded up to the
 * millisecond the engine takes. $1 = tenant, $2 = delegations.
 */
export const HOLDING_FROM_SQL = `SELECT ${isoSql("(date_trunc('milliseconds', greatest(clock_timestamp(), max(effective_date))) + interval '1 millisecond')")} AS at
  FROM decision.delegations WHERE tenant_id = $1 AND id = ANY($2::uuid[])`;

/** Adds the rules each delegation acknowledged to what it had: $1 = tenant, $2 = [{ id, rules }] as JSON. */
export const ACKNOWLEDGE_SQL = `UPDATE decision.delegations g
    SET sod_acknowledged_rule_ids = ARRAY(SELECT DISTINCT x FROM unnest(g.sod_acknowledged_rule_ids || a.rules) AS x ORDER BY x)
   FROM (SELECT (e ->> 'id')::uuid AS id, ARRAY(SELECT jsonb_array_elements_text(e -> 'rules'))::uuid[] AS rules FROM jsonb_array_elements($2::jsonb) AS e) a
  WHERE g.id = a.id AND g.tenant_id = $1`;
