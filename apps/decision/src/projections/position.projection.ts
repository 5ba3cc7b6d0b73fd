import { EventPayload } from '@ddm/contracts';
import { ProjectionSpec, Queryable, Tx, applyVersionedProjection } from '@ddm/platform';
import { ValidityChange, revalidateChanges } from '../delegations/invalidation';

const SUBJECTS = ['evt.settings.position.created', 'evt.settings.position.updated', 'evt.settings.position.deleted'] as const;
const TABLE = 'decision.position_projection';

/** The columns of a position's row in decision.position_projection: what an event of the position sets. */
export type PositionColumns = {
  position_name: string;
  status: string;
  is_deleted: boolean;
  group_ids: string[];
};

/** decision.position_projection: the settings area's positions with their status and groups, for the delegation rules (holders, Functional reach, invalidation). */
export const POSITIONS: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'decision-settings-positions',
  subjects: SUBJECTS,
  table: TABLE,
  key: 'id',
  row: ({ payload: { tenantId, position } }) => ({ id: position.id, tenantId, values: positionColumns(position) }),
  afterChange: async (tx, { payload: { tenantId, position } }) => {
    await positionChanged(tx, tenantId, position.id);
  },
};

function positionColumns(position: EventPayload<(typeof SUBJECTS)[number]>['position']): PositionColumns {
  return { position_name: position.positionName, status: position.status, is_deleted: position.isDeleted, group_ids: position.groupIds ?? [] };
}

/** What follows a change of a position's row: the delegations naming it checked again (a person, position or group that changed may break them). */
function positionChanged(tx: Tx, tenantId: string, positionId: string): Promise<ValidityChange[]> {
  return revalidateChanges(tx, tenantId, { positionIds: [positionId] });
}

/** A position's row as it stands (null: the tenant has no such position). */
export async function projectedPosition(q: Queryable, tenantId: string, positionId: string): Promise<PositionColumns | null> {
  const [row] = await q.query<PositionColumns>(`SELECT position_name, status, is_deleted, group_ids FROM ${TABLE} WHERE tenant_id = $1 AND id = $2`, [tenantId, positionId]);
  return row ?? null;
}

/**
 * Applies a state of a position exactly as an event carrying it would be applied (the row, then
 * what follows a change), for the reorg what-if. Answers the delegations whose validity changed.
 */
export async function applyPositionState(tx: Tx, tenantId: string, positionId: string, position: PositionColumns): Promise<ValidityChange[]> {
  const changed = await applyVersionedProjection(tx, { table: TABLE, key: POSITIONS.key, id: positionId, tenantId, values: position });
  return changed ? positionChanged(tx, tenantId, positionId) : [];
}
