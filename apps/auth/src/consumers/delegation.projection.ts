import { DELEGATION_SUBJECTS, DelegationSubject, endsDelegation } from '@ddm/contracts';
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
    terminal: { column: 'revoked_on', reached: endsDelegation(subject, e) },
  }),
};
