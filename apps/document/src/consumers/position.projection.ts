import { ProjectionSpec } from '@ddm/platform';

const SUBJECTS = ['evt.settings.position.created', 'evt.settings.position.updated', 'evt.settings.position.deleted'] as const;

/** document.position_projection: the settings area's positions, for the names of a document's responsible, reviewer and approver positions. */
export const POSITIONS: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'document-settings-positions',
  subjects: SUBJECTS,
  table: 'document.position_projection',
  key: 'id',
  row: ({ payload: { tenantId, position } }) => ({
    id: position.id,
    tenantId,
    values: { position_name: position.positionName, status: position.status, is_deleted: position.isDeleted },
  }),
};
