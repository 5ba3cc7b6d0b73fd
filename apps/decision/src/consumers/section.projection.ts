import { ProjectionSpec } from '@ddm/platform';

const SUBJECTS = ['evt.settings.decision-section.created', 'evt.settings.decision-section.updated', 'evt.settings.decision-section.deleted'] as const;

/** decision.section_projection: the settings area's decision sections (a decision's sectionId and its name). */
export const SECTIONS: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'decision-settings-sections',
  subjects: SUBJECTS,
  table: 'decision.section_projection',
  key: 'id',
  row: ({ payload: { tenantId, decisionSection: s } }) => ({
    id: s.id,
    tenantId,
    values: { section_name: s.sectionName, is_deleted: s.isDeleted },
  }),
};
