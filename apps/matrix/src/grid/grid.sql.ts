import { ListSpec, Sql, join, raw, sql } from '@ddm/platform';
import { MATRIX_DECISIONS_WHERE } from '../core/matrix.sql';

/** What the grid needs of a matrix. */
export interface GridMatrixRow {
  id: string;
  tenant_id: string;
  matrix_display_id: string;
  matrix_name: string;
  matrix_description: string | null;
  status_name: string;
  user_ids: string[];
  position_ids: string[];
  group_ids: string[];
  delegation_filter: Record<string, unknown>;
  role_matrix: boolean;
  authority_roles: { authorityRoleId: string; isEnabled?: boolean | null }[];
  formatting: Record<string, string | null>;
  ext_enabled: boolean;
  ext_expiration_enabled: boolean;
  ext_expiration_date: string | null;
  ext_password_required: boolean;
  ext_password_hash: string | null;
  /** The version of the tenant's grids when the matrix was read (matrix.grid_versions; null before the first change). */
  grid_version: string | null;
}

export const GRID_MATRIX_COLUMNS = `m.id, m.tenant_id, m.matrix_display_id, m.matrix_name, m.matrix_description, m.status_name, m.user_ids, m.position_ids, m.group_ids,
  m.delegation_filter, m.role_matrix, m.authority_roles, m.formatting, m.ext_enabled, m.ext_expiration_enabled, m.ext_expiration_date, m.ext_password_required, m.ext_password_hash,
  (SELECT v.version FROM matrix.grid_versions v WHERE v.tenant_id = m.tenant_id) AS grid_version`;

/**
 * The delegations the grid reads: the live ones now, or those that stood at `at` (the history row
 * valid then, not ended). `decisions` is a condition on `x.decision_id`. Columns as DelegationState.
 */
export function delegationsSource(tenantId: string, at: string | undefined, decisions: Sql): Sql {
  if (!at) {
    return sql`SELECT x.delegation_id, x.decision_id, x.delegation_display_id, x.status, x.recipient_user_id, x.recipient_position_id,
        to_json(x.group_ids) AS group_ids, to_json(x.pathways) AS pathways, x.authorities, x.is_invalid, to_json(x.role_ids) AS role_ids
      FROM matrix.delegation_projection x WHERE x.tenant_id = ${tenantId} AND x.revoked_on IS NULL AND ${decisions}`;
  }
  return sql`SELECT x.delegation_id, x.decision_id, x.delegation_display_id, x.status, x.recipient_user_id, x.recipient_position_id,
      to_json(x.group_ids) AS group_ids, to_json(x.pathways) AS pathways, x.authorities, x.is_invalid, to_json(x.role_ids) AS role_ids
    FROM matrix.delegation_history x WHERE x.tenant_id = ${tenantId} AND ${decisions}
      AND x.valid_from <= ${at}::timestamptz AND (x.valid_to IS NULL OR x.valid_to > ${at}::timestamptz) AND NOT x.ended`;
}

/** Whether the matrix names its columns (users, positions, groups); if not, its columns are everyone holding something in it. */
export function namesColumns(m: Pick<GridMatrixRow, 'user_ids' | 'position_ids' | 'group_ids'>): boolean {
  return m.user_ids.length + m.position_ids.length + m.group_ids.length > 0;
}

/**
 * The delegations a page can show, as a condition on `x` for delegationsSource: those of the page's
 * decisions, held in a column the matrix names (when it names any), of a status it shows (when it
 * names any) and holding one of its roles (a role matrix with roles chosen). The others would land in
 * no cell: a page of 20 named columns reads their delegations, not those of all 200 holders.
 */
export function pageDelegations(m: GridMatrixRow, decisionIds: readonly string[], statuses: readonly string[] | undefined, roles: readonly string[] | null = null): Sql {
  const where = [sql`x.decision_id = ANY(${decisionIds}::uuid[])`];
  if (namesColumns(m)) {
    where.push(sql`(x.recipient_user_id = ANY(${m.user_ids}::uuid[]) OR x.recipient_position_id = ANY(${m.position_ids}::uuid[]) OR x.group_ids && ${m.group_ids}::uuid[])`);
  }
  // As shows(): a delegation without a status matches the name "".
  if (statuses?.length) where.push(sql`coalesce(x.status, '') = ANY(${statuses}::text[])`);
  // As holdsChosenRole(): role_ids are the active roles.
  if (roles?.length) where.push(sql`x.role_ids && ${roles}::uuid[]`);
  return sql`(${join(where, ' AND ')})`;
}

/** The decisions as they are now, or as they stood at `at` (their history row valid then), with the projection's columns. */
export function decisionsAt(tenantId: string, at: string | undefined): Sql {
  if (!at) return sql`matrix.decision_projection`;
  return sql`(SELECT h.id, h.tenant_id, h.decision_display_id, h.name, h.status, h.section_id, h.category_id, h.authorities, h.is_deleted
      FROM matrix.decision_history h WHERE h.tenant_id = ${tenantId} AND h.valid_from <= ${at}::timestamptz AND (h.valid_to IS NULL OR h.valid_to > ${at}::timestamptz))`;
}

/** The matrix's decisions (now or at `at`), for `x.decision_id IN (...)`. */
export function matrixDecisionIds(matrixId: string, tenantId: string, at?: string): Sql {
  return sql`x.decision_id IN (SELECT d.id FROM matrix.matrices m JOIN ${decisionsAt(tenantId, at)} d ON ${raw(MATRIX_DECISIONS_WHERE)}
    WHERE m.id = ${matrixId} AND m.tenant_id = ${tenantId})`;
}

/** The columns the matrix names, in the order it names them (users, positions, groups), with their names. */
export function chosenColumns(m: GridMatrixRow): Sql {
  return sql`SELECT x.id, 'user' AS kind, coalesce(u.name, u.email, x.id::text) AS name, 1 AS k, x.n
      FROM unnest(${m.user_ids}::uuid[]) WITH ORDINALITY x(id, n) LEFT JOIN matrix.user_projection u ON u.tenant_id = ${m.tenant_id} AND u.id = x.id
    UNION ALL
    SELECT x.id, 'position', coalesce(p.position_name, x.id::text), 2, x.n
      FROM unnest(${m.position_ids}::uuid[]) WITH ORDINALITY x(id, n) LEFT JOIN matrix.position_projection p ON p.id = x.id AND p.tenant_id = ${m.tenant_id}
    UNION ALL
    SELECT x.id, 'group', coalesce(g.group_name, x.id::text), 3, x.n
      FROM unnest(${m.group_ids}::uuid[]) WITH ORDINALITY x(id, n) LEFT JOIN matrix.group_projection g ON g.id = x.id AND g.tenant_id = ${m.tenant_id}
    ORDER BY k, n`;
}

/**
 * Everyone who holds something in the matrix (now or at `at`): the recipient positions, and the
 * recipient users held without a position, by name.
 *
 * A tenant has far fewer holders than delegations, so this walks the distinct holders of the tenant
 * (a loose index scan: one probe of the by-position or by-user index per holder) and keeps those
 * holding a delegation of one of the matrix's decisions (one more probe each; LATERAL ... LIMIT 1,
 * since as an EXISTS the planner hashes every delegation), instead of reading every delegation of
 * the matrix (200,000 rows for 200 columns).
 */
export function holderColumns(m: GridMatrixRow, at: string | undefined): Sql {
  const t = m.tenant_id;
  // The delegations standing (now, or at `at`), as `x`; each condition matches the partial indexes' own.
  const standing = at
    ? sql`matrix.delegation_history x WHERE x.tenant_id = ${t} AND x.valid_from <= ${at}::timestamptz AND (x.valid_to IS NULL OR x.valid_to > ${at}::timestamptz) AND NOT x.ended`
    : sql`matrix.delegation_projection x WHERE x.tenant_id = ${t} AND x.revoked_on IS NULL`;
  // Any delegation ever recorded (the loose scan's candidates; the history keeps ended ones, so no time condition).
  const recorded = at ? sql`matrix.delegation_history x WHERE x.tenant_id = ${t}` : sql`matrix.delegation_projection x WHERE x.tenant_id = ${t} AND x.revoked_on IS NULL`;
  const inMatrix = matrixDecisionIds(m.id, t, at);
  return sql`WITH RECURSIVE positions AS (
        SELECT (SELECT x.recipient_position_id FROM ${recorded} AND x.recipient_position_id IS NOT NULL ORDER BY x.recipient_position_id LIMIT 1) AS id
        UNION ALL
        SELECT (SELECT x.recipient_position_id FROM ${recorded} AND x.recipient_position_id > p.id ORDER BY x.recipient_position_id LIMIT 1) FROM positions p WHERE p.id IS NOT NULL
      ), users AS (
        SELECT (SELECT x.recipient_user_id FROM ${recorded} AND x.recipient_position_id IS NULL AND x.recipient_user_id IS NOT NULL ORDER BY x.recipient_user_id LIMIT 1) AS id
        UNION ALL
        SELECT (SELECT x.recipient_user_id FROM ${recorded} AND x.recipient_position_id IS NULL AND x.recipient_user_id > u.id ORDER BY x.recipient_user_id LIMIT 1) FROM users u WHERE u.id IS NOT NULL
      )
    SELECT c.id, c.kind, c.name FROM (
      SELECT h.id, 'position' AS kind, coalesce(p.position_name, h.id::text) AS name, 1 AS k
        FROM positions h
        CROSS JOIN LATERAL (SELECT 1 FROM ${standing} AND x.recipient_position_id = h.id AND ${inMatrix} LIMIT 1) held
        LEFT JOIN matrix.position_projection p ON p.id = h.id AND p.tenant_id = ${t}
       WHERE h.id IS NOT NULL
      UNION ALL
      SELECT h.id, 'user', coalesce(u.name, u.email, h.id::text), 2
        FROM users h
        CROSS JOIN LATERAL (SELECT 1 FROM ${standing} AND x.recipient_position_id IS NULL AND x.recipient_user_id = h.id AND ${inMatrix} LIMIT 1) held
        LEFT JOIN matrix.user_projection u ON u.tenant_id = ${t} AND u.id = h.id
       WHERE h.id IS NOT NULL
    ) c ORDER BY c.k, lower(c.name), c.id`;
}

/** A page of the matrix's rows (decisions by section, category and name; as they stood at `at` when given) and their total. */
export function gridRows(m: GridMatrixRow, page: number, limit: number, at?: string): ListSpec {
  const decisions = decisionsAt(m.tenant_id, at);
  return {
    from: sql`matrix.matrices m JOIN ${decisions} d ON ${raw(MATRIX_DECISIONS_WHERE)}
      LEFT JOIN matrix.section_projection s ON s.id = d.section_id
      LEFT JOIN matrix.category_projection c ON c.id = d.category_id`,
    where: [sql`m.id = ${m.id}`, sql`m.tenant_id = ${m.tenant_id}`],
    id: 'd.id',
    sort: { keys: ['s.section_name', 'c.category_name', 'lower(d.name)'], dir: 'ASC' },
    view: {
      columns: sql`d.id AS decision_id, d.decision_display_id, d.name, s.section_name, c.category_name, d.authorities`,
      from: sql`${decisions} d ON d.id = page.id
        LEFT JOIN matrix.section_projection s ON s.id = d.section_id
        LEFT JOIN matrix.category_projection c ON c.id = d.category_id`,
    },
    page,
    limit,
  };
}
