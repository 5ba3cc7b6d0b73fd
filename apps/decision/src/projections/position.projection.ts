import { ProjectionSpec } from '@ddm/platform';
import { revalidate } from '../delegations/invalidation';

const SUBJECTS = ['evt.settings.position.created', 'evt.settings.position.updated', 'evt.settings.position.deleted'] as const;

/** decision.position_projection: the settings area's positions with their status and groups, for the delegation rules (holders, Functional reach, invalidation). */
export const POSITIONS: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'decision-settings-positions',
  subjects: SUBJECTS,
  table: 'decision.position_projection',
  key: 'id',
  row: ({ payload: { tenantId, position } }) => ({
    id: position.id,
    tenantId,
    values: {
      position_name: position.positionName,
      status: position.status,
      is_deleted: position.isDeleted,
      group_ids: position.groupIds ?? [],
    },
  }),
  // A person, position or group that changed may break delegations that name it: they are checked again.
  afterChange: (tx, { payload: { tenantId, position } }) => revalidate(tx, tenantId, { positionIds: [position.id] }).then(() => undefined),
};
