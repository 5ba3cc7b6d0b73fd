import { DECISION_SUBJECTS, DecisionSubject } from '@ddm/contracts';
import { ProjectionSpec, sql } from '@ddm/platform';

/**
 * matrix.decision_projection: the decision area's decisions, the grid's rows (section, category,
 * name, authorities). Each change that applies also closes the decision's open history row and
 * opens one with its new state (matrix.decision_history), so the grid's rows ?at= are those of then.
 */
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
  afterChange: async (tx, { payload: { decision: d } }) => {
    await tx.query(sql`UPDATE matrix.decision_history SET valid_to = now() WHERE id = ${d.id} AND valid_to IS NULL`);
    await tx.query(sql`INSERT INTO matrix.decision_history (id, tenant_id, decision_display_id, name, status, section_id, category_id, authorities, is_deleted, valid_from)
      SELECT id, tenant_id, decision_display_id, name, status, section_id, category_id, authorities, is_deleted, now() FROM matrix.decision_projection WHERE id = ${d.id}`);
  },
};
