import { DELEGATION_SUBJECTS, DelegationSubject, endsDelegation } from '@ddm/contracts';
import { ProjectionSpec } from '@ddm/platform';

/**
 * settings.delegation_projection: the decision area's delegations as evt.decision.delegation.*
 * tell them. Feeds positions' delegationsReceived/delegationsIssued, groups' counts and the
 * positions list's delegation filters. A revoked (or otherwise ended) delegation stays so and stops counting.
 */
export const DELEGATIONS: ProjectionSpec<DelegationSubject> = {
  name: 'settings-decision-delegations',
  subjects: DELEGATION_SUBJECTS,
  table: 'settings.delegation_projection',
  key: 'delegation_id',
  row: ({ subject, payload: e }) => ({
    id: e.delegationId,
    tenantId: e.tenantId,
    version: e.version,
    values: {
      decision_id: e.decisionId,
      issuer_type: e.issuerType,
      issuer_user_id: e.issuerUserId ?? null,
      issuer_position_id: e.issuerPositionId ?? null,
      recipient_type: e.recipientType,
      recipient_user_id: e.recipientUserId ?? null,
      recipient_position_id: e.recipientPositionId ?? null,
      pathways: e.pathways,
      group_ids: e.groupIds,
    },
    terminal: { column: 'revoked_on', reached: endsDelegation(subject, e) },
  }),
};
