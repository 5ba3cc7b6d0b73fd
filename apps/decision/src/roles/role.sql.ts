/** The statements of roles on delegations: the tenant's roles with how a delegation fills each, and the roles a revision stored. */
import { ListSpec, isoSql, raw, sql } from '@ddm/platform';

/** A role mapping's view from `dr` (delegation_roles, may be null) and `r` (the role projection), for the delegation `delegation`. */
export const ROLE_VIEW = (delegation: string) => `jsonb_build_object(
  'id', dr.id, 'delegationId', ${delegation}, 'roleId', r.id, 'roleName', r.role_name,
  'designeeRecipientType', dr.designee_recipient_type, 'isAutoIssue', coalesce(dr.is_auto_issue, false),
  'roleDesignees', coalesce(dr.role_designees, '[]'::jsonb), 'roleStatus', coalesce(dr.role_status, 'INACTIVE'),
  'roleRequirement', dr.role_requirement, 'isCascade', coalesce(dr.is_cascade, false), 'updatedAt', ${isoSql('dr.updated_on')})`;

/** The roles set on a delegation, as a revision stores them (delegation.sql.ts puts them in every snapshot). */
export const ROLES_OF = (id: string) =>
  `(SELECT coalesce(jsonb_agg(${ROLE_VIEW('dr.delegation_id')} ORDER BY lower(r.role_name), r.id), '[]'::jsonb)
      FROM decision.delegation_roles dr JOIN decision.decision_role_projection r ON r.id = dr.role_id WHERE dr.delegation_id = ${id})`;

/**
 * The roles set on a delegation as its events carry them (DelegationRolePayload): every role mapping,
 * DRAFT-time ones too, whatever its status, by role id.
 */
export const EVENT_ROLES_OF = (id: string) =>
  `(SELECT coalesce(jsonb_agg(jsonb_build_object('roleId', dr.role_id, 'roleStatus', dr.role_status, 'assignmentId', dr.assignment_id) ORDER BY dr.role_id), '[]'::jsonb)
      FROM decision.delegation_roles dr WHERE dr.delegation_id = ${id})`;

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
