import { DELEGATION_SUBJECTS, DelegationSubject, endsDelegation } from '@ddm/contracts';
import { ProjectionSpec } from '@ddm/platform';

/**
 * document.delegation_projection: which documents each delegation links (evt.decision.delegation.*),
 * for a document's `delegationsCount`. A revoked (or otherwise ended) delegation stays so and stops counting.
 */
export const DELEGATIONS: ProjectionSpec<DelegationSubject> = {
  name: 'document-decision-delegations',
  subjects: DELEGATION_SUBJECTS,
  table: 'document.delegation_projection',
  key: 'id',
  row: ({ subject, payload: e }) => ({
    id: e.delegationId,
    tenantId: e.tenantId,
    version: e.version,
    values: { document_ids: e.documentIds ?? [], status: e.status ?? null },
    terminal: { column: 'ended_on', reached: endsDelegation(subject, e) },
  }),
};
