/** The SQL of decision roles: the columns every statement answers, and the list. */
import { ListSpec, SnapshotSource, containsPattern, anyOf, raw, sortBy, sql } from '@ddm/platform';
import type { ListDecisionRolesQuery } from './dto/list-decision-roles.query';
import { DecisionRoleRow, toDecisionRolePayload, toDecisionRoleView } from './dto/decision-role.response';
import type { DecisionRoleSort } from './decision-role.rules';

/** The columns a view is built from (one list of them, used by every statement). */
export const DECISION_ROLE_COLUMNS = 'd.id, d.tenant_id, d.role_name, d.is_deleted, d.status';

/** ORDER BY keys of each sort, matching the index (tenant_id, lower(role_name), id) and friends. */
const SORT_KEYS: Record<DecisionRoleSort, string[]> = {
  roleName: ['lower(d.role_name)'],
  createdOn: ['d.created_on'],
  updatedOn: ['d.updated_on'],
};

/** The tenant's live roles matching the query, a page of them in the chosen order. */
export function decisionRoleList(tenantId: string, q: ListDecisionRolesQuery): ListSpec {
  return {
    from: sql`settings.decision_roles d`,
    where: [
      sql`d.tenant_id = ${tenantId}`,
      sql`NOT d.is_deleted`,
      ...(q.search ? [sql`d.role_name ILIKE ${containsPattern(q.search)}`] : []),
      ...anyOf('d.status', q.status, 'text'),
    ],
    id: 'd.id',
    sort: sortBy(SORT_KEYS, q.sortBy, q.sortOrder),
    view: { columns: raw(DECISION_ROLE_COLUMNS), from: sql`settings.decision_roles d ON d.id = page.id` },
    page: q.page,
    limit: q.limit,
  };
}

/**
 * `sync.settings.decision-roles`: every tenant's decision roles (deleted ones too), in id order, as
 * evt.settings.decision-role.updated carries them: what another area's projection backfills from.
 */
export const DECISION_ROLES_SNAPSHOT: SnapshotSource<'evt.settings.decision-role.updated'> = {
  name: 'settings.decision-roles',
  subject: 'evt.settings.decision-role.updated',
  page: async (q, after, limit) =>
    (await q.query<DecisionRoleRow>(`SELECT ${DECISION_ROLE_COLUMNS} FROM settings.decision_roles d WHERE $1::uuid IS NULL OR d.id > $1::uuid ORDER BY d.id LIMIT $2`, [after, limit])).map(
      (r) => ({ id: r.id, payload: { tenantId: r.tenant_id, decisionRole: toDecisionRolePayload(toDecisionRoleView(r)) } }),
    ),
};
