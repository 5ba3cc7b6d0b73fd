import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { GroupEvent, PositionEvent, SETTINGS_EVENT_SUBJECTS } from '@ddm/contracts';
import { Consumers, Tx, applyVersionedProjection, sql } from '@ddm/platform';

const S = SETTINGS_EVENT_SUBJECTS;
type PositionSubject = typeof S.positionCreated | typeof S.positionUpdated | typeof S.positionDeleted;
type GroupSubject = typeof S.groupCreated | typeof S.groupUpdated | typeof S.groupDeleted;

/**
 * auth.position_projection and auth.group_projection: the settings area's positions and groups as
 * evt.settings.position.* and evt.settings.group.* tell them, behind the names on userPositions
 * and userGroups and the ids users may be linked to. Applied with the shared projection helper,
 * pinned to the tenant. Their events carry no version: they apply in the order they arrive.
 */
@Injectable()
export class SettingsProjection implements OnApplicationBootstrap {
  constructor(private readonly consumers: Consumers) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.consumers.start({
      name: 'auth-settings-positions',
      subjects: [S.positionCreated, S.positionUpdated, S.positionDeleted],
      handle: (msg, tx) => this.applyPosition(tx, msg.subject, msg.payload),
    });
    await this.consumers.start({
      name: 'auth-settings-groups',
      subjects: [S.groupCreated, S.groupUpdated, S.groupDeleted],
      handle: (msg, tx) => this.applyGroup(tx, msg.subject, msg.payload),
    });
  }

  /** The position's name and state; a deleted position leaves its users. */
  async applyPosition(tx: Tx, subject: PositionSubject, e: PositionEvent): Promise<void> {
    const p = e.position;
    const deleted = subject === S.positionDeleted || p.isDeleted;
    const changed = await applyVersionedProjection(tx, {
      table: 'auth.position_projection',
      key: 'id',
      id: p.id,
      tenantId: e.tenantId,
      values: {
        position_display_id: p.positionId,
        position_name: p.positionName,
        status: p.status,
        is_deleted: deleted,
        external_id: p.externalId,
        is_scim_provisioned: p.isSCIMProvisioned,
      },
    });
    if (deleted && changed)
      await tx.query(sql`UPDATE auth.user_positions SET is_deleted = true, deleted_on = now(), updated_on = now()
                          WHERE tenant_id = ${e.tenantId} AND position_id = ${p.id} AND NOT is_deleted`);
  }

  /** The group's names and type; a deleted group leaves its users. */
  async applyGroup(tx: Tx, subject: GroupSubject, e: GroupEvent): Promise<void> {
    const g = e.group;
    const deleted = subject === S.groupDeleted || g.isDeleted;
    const changed = await applyVersionedProjection(tx, {
      table: 'auth.group_projection',
      key: 'id',
      id: g.id,
      tenantId: e.tenantId,
      values: {
        group_code: g.groupId,
        group_name: g.groupName,
        display_name: g.displayName,
        tenant_group_type_id: g.tenantGroupTypeId,
        tenant_group_type_name: g.tenantGroupTypeName,
        legal_name: g.legalName ?? null,
        base_currency: g.baseCurrency ?? null,
        status: g.status,
        is_deleted: deleted,
        external_id: g.externalId,
        instance_id: g.instanceId,
      },
    });
    if (deleted && changed)
      await tx.query(sql`UPDATE auth.user_groups SET is_deleted = true, deleted_on = now(), is_primary_org = false, primary_org_set_on = NULL, updated_on = now()
                          WHERE tenant_id = ${e.tenantId} AND group_id = ${g.id} AND NOT is_deleted`);
  }
}
