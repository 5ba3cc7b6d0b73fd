import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ schema: 'auth', name: 'tenant_roles' })
export class TenantRoleEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'tenant_id', type: 'uuid' }) tenantId: string;
  @Column({ name: 'role_display_id', type: 'varchar', length: 20 }) roleId: string;
  @Column({ name: 'role_name', type: 'varchar', length: 100 }) roleName: string;
  @Column({ type: 'varchar', length: 500, nullable: true }) description: string | null;
  @Column({ name: 'is_custom', type: 'boolean' }) isCustom: boolean;
  @Column({ name: 'can_deactivate', type: 'boolean' }) canDeactivate: boolean;
  /** Which default role this is (SYSTEM_ADMIN, ...); null for custom roles. */
  @Column({ name: 'system_key', type: 'varchar', length: 40, nullable: true }) systemKey: string | null;
  @Column({ type: 'varchar', length: 20, default: 'ACTIVE' }) status: string;
  @Column({ name: 'is_deleted', type: 'boolean', default: false }) isDeleted: boolean;
  @Column({ name: 'deleted_on', type: 'timestamptz', nullable: true }) deletedOn: Date | null;
  @Column({ name: 'is_deactivated', type: 'boolean', default: false }) isDeactivated: boolean;
  @Column({ name: 'deactivated_on', type: 'timestamptz', nullable: true }) deactivatedOn: Date | null;
  @Column({ name: 'created_on', type: 'timestamptz', default: () => 'now()' }) createdOn: Date;
  @Column({ name: 'updated_on', type: 'timestamptz', default: () => 'now()' }) updatedOn: Date;
}

@Entity({ schema: 'auth', name: 'role_mappings' })
export class RoleMappingEntity {
  @PrimaryColumn({ name: 'role_id', type: 'uuid' }) roleId: string;
  @PrimaryColumn({ name: 'relationship_key_name', type: 'varchar', length: 60 }) relationshipKeyName: string;
  @Column({ name: 'is_enabled', type: 'boolean' }) isEnabled: boolean;
  @Column({ type: 'varchar', length: 20, default: 'ACTIVE' }) status: string;
}
