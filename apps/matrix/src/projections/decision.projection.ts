import { DECISION_SUBJECTS, DecisionSubject } from '@ddm/contracts';
import { ProjectionSpec } from '@ddm/platform';

/** matrix.decision_projection: the decision area's decisions, the grid's rows (section, category, name, authorities). */
export const DECISIONS: ProjectionSpec<DecisionSubject> = {
  name: 'matrix-decision-decisions',
  subjects: DECISION_SUBJECTS,
  table: 'matrix.decision_projection',
  key: 'id',
  row: ({ payload: { tenantId, decision: d } }) => ({
    id: d.id,
    tenantId,
    version: d.version,
    values: {
      decision_display_id: d.decisionDisplayId,
      name: d.name,
      status: d.status,
      section_id: d.sectionId,
      category_id: d.categoryId,
      authorities: JSON.stringify(d.authorities ?? []),
      is_deleted: d.isDeleted,
    },
  }),
};
