/** The SQL every resource reads a matrix with: who may see it (the audience) and which decisions are its rows. */
import { Sql, sql } from '@ddm/platform';

/** Who is asking: what they may see, and whose favourites and saved views the items show. */
export interface Audience {
  tenantId: string;
  userId: string;
  /** The groups the caller is a member of (own, through positions, and their ancestors). */
  groupIds: string[];
  /** Holders of edit:matrices see every matrix of the tenant. */
  all: boolean;
}

/** The caller's groups in one statement: $1 = tenant, $2 = user (own groups, their positions' groups, and every ancestor). */
export const AUDIENCE_GROUPS_SQL = `WITH RECURSIVE me AS (
    SELECT group_ids, position_ids FROM matrix.user_projection WHERE tenant_id = $1 AND id = $2),
  up(id) AS (
    SELECT unnest(group_ids) FROM me
    UNION
    SELECT unnest(p.group_ids) FROM matrix.position_projection p, me WHERE p.id = ANY(me.position_ids) AND p.tenant_id = $1 AND NOT p.is_deleted
    UNION
    SELECT unnest(g.parent_group_ids) FROM matrix.group_projection g JOIN up ON g.id = up.id WHERE g.tenant_id = $1 AND NOT g.is_deleted)
  SELECT coalesce((SELECT array_agg(id) FROM up), '{}') AS group_ids`;

/** "The audience may see m": its owner, the users and group members it is shared with; nothing for those who see all. */
export function visibleTo(a: Audience): Sql[] {
  if (a.all) return [];
  return [
    sql`(m.owner_id = ${a.userId} OR (m.sharing_type = 'SHARED' AND (m.shared_user_ids @> ARRAY[${a.userId}]::uuid[] OR m.shared_group_ids && ${a.groupIds}::uuid[])))`,
  ];
}

/**
 * The decisions of matrix m (alias `d`): those chosen and not disabled, or every published one of
 * the tenant when none are chosen; narrowed to the matrix's sections and categories when it names any.
 */
export const MATRIX_DECISIONS_WHERE = `d.tenant_id = m.tenant_id AND NOT d.is_deleted
  AND (CASE WHEN cardinality(m.decision_ids) > 0 THEN d.id = ANY(m.decision_ids) AND NOT d.id = ANY(m.disabled_decision_ids) ELSE d.status = 'PUBLISHED' END)
  AND (cardinality(m.section_ids) = 0 OR d.section_id = ANY(m.section_ids))
  AND (cardinality(m.category_ids) = 0 OR d.category_id = ANY(m.category_ids))`;
