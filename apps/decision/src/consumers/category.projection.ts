import { ProjectionSpec } from '@ddm/platform';

const SUBJECTS = ['evt.settings.decision-category.created', 'evt.settings.decision-category.updated', 'evt.settings.decision-category.deleted'] as const;

/** decision.category_projection: the settings area's decision categories (a decision's categoryId, its name and section). */
export const CATEGORIES: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'decision-settings-categories',
  subjects: SUBJECTS,
  table: 'decision.category_projection',
  key: 'id',
  row: ({ payload: { tenantId, decisionCategory: c } }) => ({
    id: c.id,
    tenantId,
    values: { category_name: c.categoryName, section_id: c.sectionId, is_deleted: c.isDeleted },
  }),
};
