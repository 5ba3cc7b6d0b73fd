import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The settings area's positions, as far as auth shows them (fed by evt.settings.position.*). */
@Entity({ schema: 'auth', name: 'position_projection' })
export class PositionProjectionEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'tenant_id', type: 'uuid' }) tenantId: string;
  @Column({ name: 'position_display_id', type: 'varchar', length: 20, nullable: true }) positionId: string | null;
  @Column({ name: 'position_name', type: 'varchar', length: 200 }) positionName: string;
  @Column({ type: 'varchar', length: 20 }) status: string;
  @Column({ name: 'is_deleted', type: 'boolean', default: false }) isDeleted: boolean;
  @Column({ name: 'external_id', type: 'varchar', length: 255, nullable: true }) externalId: string | null;
  @Column({ name: 'is_scim_provisioned', type: 'boolean', default: false }) isSCIMProvisioned: boolean;
  @Column({ name: 'updated_on', type: 'timestamptz', default: () => 'now()' }) updatedOn: Date;
}

/** The settings area's groups, as far as auth shows them (fed by evt.settings.group.*). */
@Entity({ schema: 'auth', name: 'group_projection' })
export class GroupProjectionEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'tenant_id', type: 'uuid' }) tenantId: string;
  @Column({ name: 'group_code', type: 'varchar', length: 20, nullable: true }) groupId: string | null;
  @Column({ name: 'group_name', type: 'varchar', length: 200 }) groupName: string;
  @Column({ name: 'display_name', type: 'varchar', length: 200, nullable: true }) displayName: string | null;
  @Column({ name: 'tenant_group_type_id', type: 'uuid', nullable: true }) tenantGroupTypeId: string | null;
  @Column({ name: 'tenant_group_type_name', type: 'varchar', length: 200, nullable: true }) tenantGroupTypeName: string | null;
  @Column({ name: 'legal_name', type: 'varchar', length: 200, nullable: true }) legalName: string | null;
  @Column({ name: 'base_currency', type: 'varchar', length: 10, nullable: true }) baseCurrency: string | null;
  @Column({ type: 'varchar', length: 20 }) status: string;
  @Column({ name: 'is_deleted', type: 'boolean', default: false }) isDeleted: boolean;
  @Column({ name: 'external_id', type: 'varchar', length: 255, nullable: true }) externalId: string | null;
  @Column({ name: 'instance_id', type: 'varchar', length: 255, nullable: true }) instanceId: string | null;
  @Column({ name: 'updated_on', type: 'timestamptz', default: () => 'now()' }) updatedOn: Date;
}

/** One delegation of the decision area: who issued it, who received it, whether it still stands. */
@Entity({ schema: 'auth', name: 'delegation_projection' })
export class DelegationProjectionEntity {
  @PrimaryColumn({ name: 'delegation_id', type: 'uuid' }) delegationId: string;
  @Column({ name: 'tenant_id', type: 'uuid' }) tenantId: string;
  @Column({ name: 'issuer_user_id', type: 'uuid', nullable: true }) issuerUserId: string | null;
  @Column({ name: 'recipient_user_id', type: 'uuid', nullable: true }) recipientUserId: string | null;
  @Column({ name: 'is_active', type: 'boolean' }) isActive: boolean;
  @Column({ name: 'updated_on', type: 'timestamptz', default: () => 'now()' }) updatedOn: Date;
}
