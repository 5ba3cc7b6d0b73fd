import { DELEGATION_ENDED_STATUSES, DELEGATION_SUBJECTS, DelegationSubject, EVENT_SUBJECTS } from '@ddm/contracts';
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
    terminal: { column: 'revoked_on', reached: subject === EVENT_SUBJECTS.delegationRevoked || ended(e.status) },
  }),
};

/** A delegation that can no longer come back (rejected, expired, archived, deleted) stops counting as a revoked one does. */
const ended = (status: string | undefined) => (DELEGATION_ENDED_STATUSES as readonly (string | undefined)[]).includes(status);
