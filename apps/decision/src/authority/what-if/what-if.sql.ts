/** The statements of the reorg what-if (every one names the tenant, $1). */
import { LIVE_SQL, inGroupsText } from '../../core/delegation.sql';

/**
 * Which of the records the changes name the tenant has, live: members ($2, not DELETED), positions
 * ($3) and groups ($4) not deleted, decisions ($5) not deleted, authority types ($6) not deleted, and
 * the authority types each of those decisions holds (`decision_id authority_type_id`).
 */
export const KNOWN_RECORDS_SQL = `
SELECT 'user' AS kind, id::text AS id FROM decision.user_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND status <> 'DELETED'
UNION ALL
SELECT 'position', id::text FROM decision.position_projection WHERE tenant_id = $1 AND id = ANY($3::uuid[]) AND NOT is_deleted
UNION ALL
SELECT 'group', id::text FROM decision.group_projection WHERE tenant_id = $1 AND id = ANY($4::uuid[]) AND NOT is_deleted
UNION ALL
SELECT 'decision', id::text FROM decision.decisions WHERE tenant_id = $1 AND id = ANY($5::uuid[]) AND NOT is_deleted
UNION ALL
SELECT 'authorityType', id::text FROM decision.authority_type_projection WHERE tenant_id = $1 AND id = ANY($6::uuid[]) AND NOT is_deleted
UNION ALL
SELECT 'authority', da.decision_id::text || ' ' || da.authority_type_id::text
  FROM decision.decision_authorities da JOIN decision.decisions d ON d.id = da.decision_id AND d.tenant_id = $1 AND NOT d.is_deleted
 WHERE da.decision_id = ANY($5::uuid[])`;

/**
 * The decisions (not deleted) whose holders the changes may change, in display id order, at most
 * $6 + 1 of them: every decision with a live delegation the invalidation would check again (naming
 * one of the people $2 as issuer or recipient, one of the positions $3, scoped to one of the groups
 * $4; a delegation's descendants are of its decision), and the decisions $5 whose limits change.
 * With each, its groups.
 */
export const REACHED_DECISIONS_SQL = `
WITH reached AS (
  SELECT g.decision_id AS id FROM decision.delegations g
   WHERE g.tenant_id = $1 AND g.status IN ${LIVE_SQL}
     AND (g.issuer_user_id = ANY($2::uuid[]) OR g.recipient_user_id = ANY($2::uuid[])
          OR g.issuer_position_id = ANY($3::uuid[]) OR g.recipient_position_id = ANY($3::uuid[])
          OR ${inGroupsText('$4::uuid[]')})
  UNION
  SELECT unnest($5::uuid[]))
SELECT d.id, d.decision_display_id,
       coalesce((SELECT array_agg(dg.group_id ORDER BY dg.position) FROM decision.decision_groups dg WHERE dg.decision_id = d.id), '{}') AS group_ids
  FROM reached r JOIN decision.decisions d ON d.id = r.id AND d.tenant_id = $1 AND NOT d.is_deleted
 ORDER BY d.decision_display_id::bigint, d.id
 LIMIT $6::int + 1`;

/** The delegations $2 with their display ids, decisions and groups. */
export const DELEGATIONS_SQL = `SELECT id, delegation_display_id, decision_id, group_ids FROM decision.delegations WHERE tenant_id = $1 AND id = ANY($2::uuid[])`;
