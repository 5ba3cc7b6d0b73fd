import { DELEGATION_ENDED_STATUSES, DELEGATION_SUBJECTS, DelegationSubject, EVENT_SUBJECTS } from '@ddm/contracts';
import { ProjectionSpec } from '@ddm/platform';

/**
 * auth.delegation_projection: who issued and who received each delegation of the decision area,
 * behind users' delegationsIssued/delegationsReceived. A revoked (or otherwise ended) delegation stays so and stops counting.
 */
export const DELEGATIONS: ProjectionSpec<DelegationSubject> = {
  name: 'auth-decision-delegations',
  subjects: DELEGATION_SUBJECTS,
  table: 'auth.delegation_projection',
  key: 'delegation_id',
  row: ({ subject, payload: e }) => ({
    id: e.delegationId,
    tenantId: e.tenantId,
    version: e.version,
    values: { issuer_user_id: e.issuerUserId, recipient_user_id: e.recipientUserId },
    terminal: { column: 'revoked_on', reached: subject === EVENT_SUBJECTS.delegationRevoked || ended(e.status) },
  }),
};

/** A delegation that can no longer come back (rejected, expired, archived, deleted) stops counting as a revoked one does. */
const ended = (status: string | undefined) => (DELEGATION_ENDED_STATUSES as readonly (string | undefined)[]).includes(status);
