import { SETTINGS_EVENT_SUBJECTS } from '@ddm/contracts';
import { GroupSubject, ProjectionSpec, groupProjection, sql } from '@ddm/platform';

const S = SETTINGS_EVENT_SUBJECTS;
type PositionSubject = typeof S.positionCreated | typeof S.positionUpdated | typeof S.positionDeleted;

/*
 * auth.position_projection and auth.group_projection: the settings area's positions and groups, behind
 * the names on userPositions and userGroups and the ids users may be linked to. Their events carry no
 * version: they apply in the order they arrive.
 */

/** Positions: name and state; a deleted position leaves its users. */
export const POSITIONS: ProjectionSpec<PositionSubject> = {
  name: 'auth-settings-positions',
  subjects: [S.positionCreated, S.positionUpdated, S.positionDeleted],
  table: 'auth.position_projection',
  key: 'id',
  row: ({ subject, payload: { tenantId, position: p } }) => ({
    id: p.id,
    tenantId,
    values: {
      position_display_id: p.positionId,
      position_name: p.positionName,
      status: p.status,
      is_deleted: subject === S.positionDeleted || p.isDeleted,
      external_id: p.externalId,
      is_scim_provisioned: p.isSCIMProvisioned,
    },
  }),
  afterChange: async (tx, { subject, payload: { tenantId, position: p } }) => {
    if (subject !== S.positionDeleted && !p.isDeleted) return;
    await tx.query(sql`UPDATE auth.user_positions SET is_deleted = true, deleted_on = now(), updated_on = now()
                        WHERE tenant_id = ${tenantId} AND position_id = ${p.id} AND NOT is_deleted`);
  },
};

/** Groups: names and type; a deleted group (its deleted event, or a group marked deleted) leaves its users. */
export const GROUPS: ProjectionSpec<GroupSubject> = groupProjection({
  name: 'auth-settings-groups',
  table: 'auth.group_projection',
  columns: ['group_code', 'group_name', 'display_name', 'tenant_group_type_id', 'tenant_group_type_name', 'legal_name', 'base_currency', 'status', 'external_id', 'instance_id'],
  extra: (g, { subject }) => ({ is_deleted: subject === S.groupDeleted || g.isDeleted }),
  afterChange: async (tx, { subject, payload: { tenantId, group: g } }) => {
    if (subject !== S.groupDeleted && !g.isDeleted) return;
    await tx.query(sql`UPDATE auth.user_groups SET is_deleted = true, deleted_on = now(), is_primary_org = false, primary_org_set_on = NULL, updated_on = now()
                        WHERE tenant_id = ${tenantId} AND group_id = ${g.id} AND NOT is_deleted`);
  },
});
