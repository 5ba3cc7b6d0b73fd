import { DELEGATION_SUBJECTS, DelegationSubject, endsDelegation } from '@ddm/contracts';
import { ProjectionSpec, sql } from '@ddm/platform';

/**
 * matrix.delegation_projection: the decision area's delegations, the grid's cells. Each change
 * that applies also closes the delegation's open history row and opens one with its new state
 * (matrix.delegation_history, valid from/to), so the grid as of any date is one indexed range
 * read, never a replay. The history's instants are when this area applied the change. The
 * decision's live, suspended and pending counts are recounted in the same transaction.
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
    await tx.query(sql`UPDATE matrix.delegation_history SET valid_to = now()
      WHERE delegation_id = ${e.delegationId} AND valid_to IS NULL`);
    await tx.query(sql`INSERT INTO matrix.delegation_history (delegation_id, tenant_id, decision_id, delegation_display_id, status, recipient_type,
        recipient_user_id, recipient_position_id, group_ids, pathways, authorities, is_invalid, ended, valid_from)
      SELECT delegation_id, tenant_id, decision_id, delegation_display_id, status, recipient_type, recipient_user_id, recipient_position_id,
             group_ids, pathways, authorities, is_invalid, revoked_on IS NOT NULL, now()
        FROM matrix.delegation_projection WHERE delegation_id = ${e.delegationId}`);
    await tx.query(sql`INSERT INTO matrix.decision_delegation_counts (decision_id, tenant_id, delegations, suspended, pending)
      SELECT ${e.decisionId}, ${e.tenantId}, count(*), count(*) FILTER (WHERE status = 'SUSPENDED'), count(*) FILTER (WHERE status = 'PENDING')
        FROM matrix.delegation_projection WHERE tenant_id = ${e.tenantId} AND decision_id = ${e.decisionId} AND revoked_on IS NULL
      ON CONFLICT (decision_id) DO UPDATE SET delegations = EXCLUDED.delegations, suspended = EXCLUDED.suspended, pending = EXCLUDED.pending`);
  },
};
