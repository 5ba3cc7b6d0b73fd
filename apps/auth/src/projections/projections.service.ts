import { Injectable } from '@nestjs/common';
import { DelegationEvent, GroupEvent, PositionEvent, isUuid } from '@ddm/contracts';
import { EntityManager } from 'typeorm';

const uuidOrNull = (v: unknown): string | null => (isUuid(v) ? v.toLowerCase() : null);
const text = (v: unknown, max: number): string | null => (typeof v === 'string' ? v.slice(0, max) : null);

/**
 * Applies other areas' events to auth's projections. Each handler runs inside the consumer's
 * transaction that also records the message as processed, so it is applied once. A record never
 * moves between tenants: an event naming a known id under another tenant changes nothing.
 */
@Injectable()
export class ProjectionsService {
  /** evt.settings.position.*: the position's name and state; a deleted position leaves its users. */
  async applyPosition(m: EntityManager, subject: string, e: PositionEvent): Promise<void> {
    const p = e.position;
    const deleted = subject.endsWith('.deleted') || p.isDeleted === true;
    const rows: unknown[] = await m.query(
      `INSERT INTO auth.position_projection (id, tenant_id, position_display_id, position_name, status, is_deleted, external_id, is_scim_provisioned, updated_on)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())
       ON CONFLICT (id) DO UPDATE SET position_display_id = EXCLUDED.position_display_id, position_name = EXCLUDED.position_name,
              status = EXCLUDED.status, is_deleted = EXCLUDED.is_deleted, external_id = EXCLUDED.external_id,
              is_scim_provisioned = EXCLUDED.is_scim_provisioned, updated_on = now()
        WHERE position_projection.tenant_id = EXCLUDED.tenant_id
       RETURNING id`,
      [p.id, e.tenantId, text(p.positionId, 20), text(p.positionName, 200), text(p.status, 20) ?? 'ACTIVE', deleted, text(p.externalId, 255), p.isSCIMProvisioned === true],
    );
    if (deleted && rows.length)
      await m.query(
        `UPDATE auth.user_positions SET is_deleted = true, deleted_on = now(), updated_on = now()
          WHERE tenant_id = $1 AND position_id = $2 AND NOT is_deleted`,
        [e.tenantId, p.id],
      );
  }

  /** evt.settings.group.*: the group's names and type; a deleted group leaves its users. */
  async applyGroup(m: EntityManager, subject: string, e: GroupEvent): Promise<void> {
    const g = e.group;
    const deleted = subject.endsWith('.deleted') || g.isDeleted === true;
    const rows: unknown[] = await m.query(
      `INSERT INTO auth.group_projection (id, tenant_id, group_code, group_name, display_name, tenant_group_type_id, tenant_group_type_name,
                                         legal_name, base_currency, status, is_deleted, external_id, instance_id, updated_on)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now())
       ON CONFLICT (id) DO UPDATE SET group_code = EXCLUDED.group_code, group_name = EXCLUDED.group_name, display_name = EXCLUDED.display_name,
              tenant_group_type_id = EXCLUDED.tenant_group_type_id, tenant_group_type_name = EXCLUDED.tenant_group_type_name,
              legal_name = EXCLUDED.legal_name, base_currency = EXCLUDED.base_currency, status = EXCLUDED.status,
              is_deleted = EXCLUDED.is_deleted, external_id = EXCLUDED.external_id, instance_id = EXCLUDED.instance_id, updated_on = now()
        WHERE group_projection.tenant_id = EXCLUDED.tenant_id
       RETURNING id`,
      [
        g.id,
        e.tenantId,
        text(g.groupId, 20),
        text(g.groupName, 200),
        text(g.displayName, 200),
        uuidOrNull(g.tenantGroupTypeId),
        text(g.tenantGroupTypeName, 200),
        text(g.legalName, 200),
        text(g.baseCurrency, 10),
        text(g.status, 20) ?? 'ACTIVE',
        deleted,
        text(g.externalId, 255),
        text(g.instanceId, 255),
      ],
    );
    if (deleted && rows.length)
      await m.query(
        `UPDATE auth.user_groups SET is_deleted = true, deleted_on = now(), is_primary_org = false, primary_org_set_on = NULL, updated_on = now()
          WHERE tenant_id = $1 AND group_id = $2 AND NOT is_deleted`,
        [e.tenantId, g.id],
      );
  }

  /**
   * evt.decision.delegation.*: who issued and who received each delegation. Revoked ones stop
   * counting and stay revoked; with versions, an older event arriving after a newer one changes
   * nothing (as in the settings area's projection of the same events).
   */
  async applyDelegation(m: EntityManager, subject: string, e: DelegationEvent): Promise<void> {
    const version = typeof e.version === 'number' && Number.isSafeInteger(e.version) && e.version >= 0 ? e.version : null;
    await m.query(
      `INSERT INTO auth.delegation_projection (delegation_id, tenant_id, issuer_user_id, recipient_user_id, is_active, version, updated_on)
       VALUES ($1, $2, $3, $4, $5, $6, now())
       ON CONFLICT (delegation_id) DO UPDATE SET issuer_user_id = EXCLUDED.issuer_user_id, recipient_user_id = EXCLUDED.recipient_user_id,
              is_active = delegation_projection.is_active AND EXCLUDED.is_active,
              version = GREATEST(EXCLUDED.version, delegation_projection.version), updated_on = now()
        WHERE delegation_projection.tenant_id = EXCLUDED.tenant_id
          AND (EXCLUDED.version IS NULL OR delegation_projection.version IS NULL OR EXCLUDED.version > delegation_projection.version
               -- a revocation always counts, whatever its version
               OR NOT EXCLUDED.is_active)`,
      [e.delegationId, e.tenantId, uuidOrNull(e.issuerUserId), uuidOrNull(e.recipientUserId), !subject.endsWith('.revoked'), version],
    );
  }
}
