import { DELEGATION_SUBJECTS, DelegationSubject, endsDelegation } from '@ddm/contracts';
import { ProjectionSpec } from '@ddm/platform';

/**
 * actions.delegation_projection: the decision area's delegations (state subjects), for the
 * delegationId an action names, its delegationDisplayId, and validate-action. A delegation that
 * ended (revoked, rejected, expired, ...) stays ended whatever arrives later.
 */
export const DELEGATIONS: ProjectionSpec<DelegationSubject> = {
  name: 'actions-decision-delegations',
  subjects: DELEGATION_SUBJECTS,
  table: 'actions.delegation_projection',
  key: 'id',
  row: ({ subject, payload: e }) => ({
    id: e.delegationId,
    tenantId: e.tenantId,
    version: e.version ?? null,
    values: {
      decision_id: e.decisionId,
      delegation_display_id: e.delegationDisplayId ?? null,
      status: e.status ?? null,
      issuer_user_id: e.issuerUserId,
      recipient_user_id: e.recipientUserId,
    },
    terminal: { column: 'ended_on', reached: endsDelegation(subject, e) },
  }),
};
