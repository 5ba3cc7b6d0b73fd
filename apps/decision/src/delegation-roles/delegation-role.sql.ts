/** The statements of roles on delegations: the tenant's roles with how a delegation fills each, and the roles a revision stored. */
import { ListSpec, raw, sql } from '@ddm/platform';
import { ROLE_VIEW } from '../core/delegation.sql';

/** The tenant's live decision roles, each with how the delegation fills it (by role name). */
export function delegationRoles(tenantId: string, delegationId: string, q: { page: number; limit: number; sortOrder?: 'asc' | 'desc' }): ListSpec {
  return {
    from: sql`decision.decision_role_projection r`,
    where: [sql`r.tenant_id = ${tenantId}`, sql`NOT r.is_deleted`, sql`r.status = 'ACTIVE'`],
    id: 'r.id',
    sort: { keys: ['lower(r.role_name)'], dir: q.sortOrder === 'desc' ? 'DESC' : 'ASC' },
    view: {
      columns: raw(`${ROLE_VIEW('x.delegation_id')} AS view`),
      from: sql`decision.decision_role_projection r ON r.id = page.id CROSS JOIN (SELECT ${delegationId}::uuid AS delegation_id) x
                LEFT JOIN decision.delegation_roles dr ON dr.role_id = r.id AND dr.delegation_id = x.delegation_id`,
    },
    page: q.page,
    limit: q.limit,
  };
}

/** The roles a revision (a delegation history id) stored, by role name. */
export function rolesAsOf(tenantId: string, revisionId: string, q: { page: number; limit: number; sortOrder?: 'asc' | 'desc' }): ListSpec {
  const rows = sql`(SELECT (m->>'roleId')::uuid AS id, lower(m->>'roleName') AS name, m AS view FROM decision.delegation_revisions rv, jsonb_array_elements(rv.snapshot->'roles') AS m
                     WHERE rv.id = ${revisionId} AND rv.tenant_id = ${tenantId})`;
  return {
    from: sql`${rows} x`,
    where: [],
    id: 'x.id',
    sort: { keys: ['x.name'], dir: q.sortOrder === 'desc' ? 'DESC' : 'ASC' },
    view: { columns: raw('x.view'), from: sql`${rows} x ON x.id = page.id` },
    page: q.page,
    limit: q.limit,
  };
}
