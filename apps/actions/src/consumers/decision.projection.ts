import { DECISION_SUBJECTS, DecisionSubject } from '@ddm/contracts';
import { ProjectionSpec } from '@ddm/platform';

/** actions.decision_projection: the decision area's decisions, for the decisionId an action names and its decisionDisplayId. */
export const DECISIONS: ProjectionSpec<DecisionSubject> = {
  name: 'actions-decision-decisions',
  subjects: DECISION_SUBJECTS,
  table: 'actions.decision_projection',
  key: 'id',
  row: ({ payload: { tenantId, decision } }) => ({
    id: decision.id,
    tenantId,
    version: decision.version,
    values: { decision_display_id: decision.decisionDisplayId, name: decision.name, is_deleted: decision.isDeleted },
  }),
};
