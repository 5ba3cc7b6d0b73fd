import { ProjectionSpec } from '@ddm/platform';
import { POSITION_TABLE, positionChanged } from '../core/organisation';

const SUBJECTS = ['evt.settings.position.created', 'evt.settings.position.updated', 'evt.settings.position.deleted'] as const;

/**
 * decision.position_projection: the settings area's positions with their status and groups, for
 * the delegation rules (holders, Functional reach, invalidation). A change is followed by the
 * delegations naming the position checked again.
 */
export const POSITIONS: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'decision-settings-positions',
  subjects: SUBJECTS,
  table: POSITION_TABLE,
  key: 'id',
  row: ({ payload: { tenantId, position } }) => ({
    id: position.id,
    tenantId,
    values: { position_name: position.positionName, status: position.status, is_deleted: position.isDeleted, group_ids: position.groupIds ?? [] },
  }),
  afterChange: async (tx, { payload: { tenantId, position } }) => {
    await positionChanged(tx, tenantId, position.id);
  },
};
