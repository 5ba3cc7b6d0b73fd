import { ProjectionSpec } from '@ddm/platform';

const SUBJECTS = ['evt.settings.authority-type.created', 'evt.settings.authority-type.updated', 'evt.settings.authority-type.deleted'] as const;

/** decision.authority_type_projection: the settings area's authority types (the type of each of a decision's authorities). */
export const AUTHORITY_TYPES: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'decision-settings-authority-types',
  subjects: SUBJECTS,
  table: 'decision.authority_type_projection',
  key: 'id',
  row: ({ payload: { tenantId, authorityType: t } }) => ({
    id: t.id,
    tenantId,
    values: {
      authority_type: t.authorityType,
      authority_type_icon: t.authorityTypeIcon,
      authority_type_order: t.authorityTypeOrder,
      status: t.status,
      is_deleted: t.isDeleted,
    },
  }),
};
