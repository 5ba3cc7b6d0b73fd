import { DELEGATION_SUBJECTS, DelegationRoleEvent, DelegationRolePayload, DelegationSubject, endsDelegation } from '@ddm/contracts';
import { Consumers, ProjectionSpec, Tx, sql } from '@ddm/platform';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';

/**
 * matrix.delegation_projection: the decision area's delegations, the grid's cells. Each change
 * that applies also closes the delegation's open history row and opens one with its new state
 * (matrix.delegation_history, valid from/to), so the grid as of any date is one indexed range
 * read, never a replay. The history's instants are when this area applied the change. The
 * decision's live, suspended and pending counts are recounted in the same transaction.
 *
 * The delegation's decision roles (for the role matrices) are kept per (delegation, role) in
 * matrix.delegation_role_projection, fed by both the delegation events (`roles`, every role as of
 * the event's version) and evt.decision.delegation.role-assigned (one role): a role's state is that
 * of its greatest assignment id (uuidv7s, which both carry), so a redelivered or late message of
 * either subject never brings back an older state, and a duplicate changes nothing. The active ones
 * are copied onto the delegation's row and history (`role_ids`), what the grid filters by.
 */
export const DELEGATIONS: ProjectionSpec<DelegationSubject> = {
  name: 'matrix-decision-delegations',
  subjects: DELEGATION_SUBJECTS,
  table: 'matrix.delegation_projection',
  key: 'delegation_id',
  row: ({ subject, payload: e }) => ({
    id: e.delegationId,
    tenantId: e.tenantId,
    version: e.version,
    values: {
      decision_id: e.decisionId,
      delegation_display_id: e.delegationDisplayId ?? null,
      status: e.status ?? (subject === 'evt.decision.delegation.revoked' ? 'REVOKED' : 'ISSUED'),
      recipient_type: e.recipientType,
      recipient_user_id: e.recipientUserId ?? null,
      recipient_position_id: e.recipientPositionId ?? null,
      group_ids: e.groupIds,
      pathways: e.pathways,
      authorities: JSON.stringify(e.authorities ?? []),
      is_invalid: e.isInvalid ?? false,
    },
    terminal: { column: 'revoked_on', reached: endsDelegation(subject, e) },
  }),
  afterChange: async (tx, { payload: e }) => {
    // Events published before they carried roles leave the roles known as they are.
    if (e.roles) await applyRoles(tx, e.tenantId, e.delegationId, e.roles, e.version ?? null);
    await refreshRoleIds(tx, e.delegationId);
    await openHistory(tx, e.delegationId);
    await tx.query(sql`INSERT INTO matrix.decision_delegation_counts (decision_id, tenant_id, delegations, suspended, pending)
      SELECT ${e.decisionId}, ${e.tenantId}, count(*), count(*) FILTER (WHERE status = 'SUSPENDED'), count(*) FILTER (WHERE status = 'PENDING')
        FROM matrix.delegation_projection WHERE tenant_id = ${e.tenantId} AND decision_id = ${e.decisionId} AND revoked_on IS NULL
      ON CONFLICT (decision_id) DO UPDATE SET delegations = EXCLUDED.delegations, suspended = EXCLUDED.suspended, pending = EXCLUDED.pending`);
  },
};

/**
 * Roles of a delegation, each kept unless the row holds a greater assignment (one statement for
 * all of them). Answers how many changed. An assignment id null on either side (a role set before
 * assignments were recorded) does not order: the incoming state applies.
 */
async function applyRoles(tx: Tx, tenantId: string, delegationId: string, roles: readonly Pick<DelegationRolePayload, 'roleId' | 'roleStatus' | 'assignmentId'>[], version: number | null, strictlyNewer = false): Promise<number> {
  if (!roles.length) return 0;
  const later = strictlyNewer ? sql`EXCLUDED.assignment_id > t.assignment_id` : sql`EXCLUDED.assignment_id >= t.assignment_id`;
  const rows = await tx.query(sql`INSERT INTO matrix.delegation_role_projection AS t (delegation_id, role_id, tenant_id, role_status, assignment_id, version, updated_on)
      SELECT ${delegationId}, r.role_id, ${tenantId}, r.role_status, r.assignment_id, ${version}::bigint, now()
        FROM unnest(${roles.map((r) => r.roleId)}::uuid[], ${roles.map((r) => r.roleStatus)}::text[], ${roles.map((r) => r.assignmentId ?? null)}::uuid[]) AS r(role_id, role_status, assignment_id)
    ON CONFLICT (delegation_id, role_id) DO UPDATE SET role_status = EXCLUDED.role_status, assignment_id = coalesce(EXCLUDED.assignment_id, t.assignment_id),
      version = coalesce(EXCLUDED.version, t.version), updated_on = now()
    WHERE t.tenant_id = EXCLUDED.tenant_id AND (EXCLUDED.assignment_id IS NULL OR t.assignment_id IS NULL OR ${later})
    RETURNING 1`);
  return rows.length;
}

/** Copies the delegation's active roles onto its projection row; answers whether they changed (false too when the delegation is not known yet). */
async function refreshRoleIds(tx: Tx, delegationId: string): Promise<boolean> {
  const rows = await tx.query(sql`UPDATE matrix.delegation_projection p SET role_ids = r.ids, updated_on = now()
      FROM (SELECT coalesce(array_agg(role_id ORDER BY role_id), '{}') AS ids FROM matrix.delegation_role_projection
             WHERE delegation_id = ${delegationId} AND role_status = 'ACTIVE') r
     WHERE p.delegation_id = ${delegationId} AND p.role_ids IS DISTINCT FROM r.ids
     RETURNING 1`);
  return rows.length > 0;
}

/** Closes the delegation's open history row and opens one with its projection row as it is now. */
async function openHistory(tx: Tx, delegationId: string): Promise<void> {
  await tx.query(sql`UPDATE matrix.delegation_history SET valid_to = now()
    WHERE delegation_id = ${delegationId} AND valid_to IS NULL`);
  await tx.query(sql`INSERT INTO matrix.delegation_history (delegation_id, tenant_id, decision_id, delegation_display_id, status, recipient_type,
      recipient_user_id, recipient_position_id, group_ids, pathways, authorities, is_invalid, role_ids, ended, valid_from)
    SELECT delegation_id, tenant_id, decision_id, delegation_display_id, status, recipient_type, recipient_user_id, recipient_position_id,
           group_ids, pathways, authorities, is_invalid, role_ids, revoked_on IS NOT NULL, now()
      FROM matrix.delegation_projection WHERE delegation_id = ${delegationId}`);
}

/**
 * evt.decision.delegation.role-assigned: one role of a delegation, applied when its assignment is
 * newer than the one the role stands at (a duplicate or an older assignment changes nothing). When
 * the delegation's active roles change, its history gets a new row. A role of a delegation not
 * known yet is kept for when it arrives.
 */
export async function applyRoleAssignment(tx: Tx, e: DelegationRoleEvent): Promise<boolean> {
  const changed = await applyRoles(tx, e.tenantId, e.delegationId, [{ roleId: e.roleId, roleStatus: e.roleStatus, assignmentId: e.assignmentId }], null, true);
  if (!changed) return false;
  if (await refreshRoleIds(tx, e.delegationId)) await openHistory(tx, e.delegationId);
  return true;
}

/** The durable consumer of evt.decision.delegation.role-assigned (beside the DELEGATIONS projection). */
@Injectable()
export class DelegationRoleConsumer implements OnApplicationBootstrap {
  constructor(private readonly consumers: Consumers) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.consumers.start({
      name: 'matrix-delegation-roles',
      subjects: ['evt.decision.delegation.role-assigned'] as const,
      handle: (message, tx) => applyRoleAssignment(tx, message.payload),
    });
  }
}
