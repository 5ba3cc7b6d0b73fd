import { DECISION_SUBJECTS, DecisionSubject } from '@ddm/contracts';
import { ProjectionSpec } from '@ddm/platform';

/** document.decision_projection: which documents each decision links (evt.decision.decision.*), for a document's `decisionsCount`. */
export const DECISIONS: ProjectionSpec<DecisionSubject> = {
  name: 'document-decision-decisions',
  subjects: DECISION_SUBJECTS,
  table: 'document.decision_projection',
  key: 'id',
  row: ({ payload: { tenantId, decision } }) => ({
    id: decision.id,
    tenantId,
    version: decision.version,
    values: { document_ids: decision.documentIds ?? [], is_deleted: decision.isDeleted },
  }),
};
