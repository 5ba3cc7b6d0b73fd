import { AuditedRecord } from '@ddm/platform';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** settings.positions: documentation and typing; the service reads and writes with raw SQL. */
@Entity({ schema: 'settings', name: 'positions' })
export class PositionEntity extends AuditedRecord {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'tenant_id', type: 'uuid' }) tenantId: string;
  /** positionId: the display id ("10000", ...), per tenant. */
  @Column({ name: 'position_display_id', type: 'varchar', length: 20 }) positionId: string;
  /** Unique per tenant among positions not deleted (case-insensitive). */
  @Column({ name: 'position_name', type: 'varchar', length: 200 }) positionName: string;
  @Column({ type: 'varchar', length: 20, default: 'ACTIVE' }) status: string;
  /** Directory Sync (SCIM) provisioned; the others are Manual (the list's sourceType). */
  @Column({ name: 'is_scim_provisioned', type: 'boolean', default: false }) isSCIMProvisioned: boolean;
  @Column({ name: 'external_id', type: 'varchar', length: 255, nullable: true }) externalId: string | null;
  @Column({ name: 'instance_id', type: 'varchar', length: 255, nullable: true }) instanceId: string | null;
}

/** settings.position_groups: the groups of a position (`groups` of spec §2.6 take createdAt/updatedAt from here). */
@Entity({ schema: 'settings', name: 'position_groups' })
export class PositionGroupEntity {
  @PrimaryColumn({ name: 'position_id', type: 'uuid' }) positionId: string;
  @PrimaryColumn({ name: 'group_id', type: 'uuid' }) groupId: string;
  @Column({ name: 'tenant_id', type: 'uuid' }) tenantId: string;
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' }) updatedAt: Date;
}
