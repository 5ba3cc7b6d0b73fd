import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A person, across tenants (identity, profile and preferences). */
@Entity({ schema: 'auth', name: 'users' })
export class UserEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'idp_user_id', type: 'varchar', length: 255, nullable: true }) idpUserId: string | null;
  @Column({ name: 'login_id', type: 'varchar', length: 320, nullable: true }) loginId: string | null;
  @Column({ type: 'varchar', length: 320 }) email: string;
  @Column({ name: 'first_name', type: 'varchar', length: 100, nullable: true }) firstName: string | null;
  @Column({ name: 'last_name', type: 'varchar', length: 100, nullable: true }) lastName: string | null;
  @Column({ type: 'varchar', length: 200, nullable: true }) name: string | null;
  @Column({ name: 'display_name', type: 'varchar', length: 200, nullable: true }) displayName: string | null;
  @Column({ name: 'mobile_phone', type: 'varchar', length: 40, nullable: true }) mobilePhone: string | null;
  @Column({ name: 'profile_image_url', type: 'varchar', length: 2048, nullable: true }) profileImageUrl: string | null;
  @Column({ name: 'display_language', type: 'varchar', length: 20, nullable: true }) displayLanguage: string | null;
  @Column({ name: 'date_format', type: 'varchar', length: 30, nullable: true }) dateFormat: string | null;
  @Column({ name: 'column_view_settings', type: 'jsonb', nullable: true }) columnViewSettings: { columns: string[] } | null;
  @Column({ name: 'dashboard_data', type: 'jsonb', nullable: true }) dashboardData: Record<string, number | string>[] | null;
  @Column({ name: 'active_tenant_id', type: 'uuid', nullable: true }) activeTenantId: string | null;
  @Column({ name: 'last_login_date', type: 'timestamptz', nullable: true }) lastLoginDate: Date | null;
  @Column({ name: 'created_on', type: 'timestamptz', default: () => 'now()' }) createdOn: Date;
  @Column({ name: 'created_by', type: 'varchar', length: 200, nullable: true }) createdBy: string | null;
  @Column({ name: 'updated_on', type: 'timestamptz', default: () => 'now()' }) updatedOn: Date;
  @Column({ name: 'updated_by', type: 'varchar', length: 200, nullable: true }) updatedBy: string | null;
}

/** A user's membership of one tenant: display id, status and the tenant's own facts about them. */
@Entity({ schema: 'auth', name: 'tenant_users' })
export class TenantUserEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'tenant_id', type: 'uuid' }) tenantId: string;
  @Column({ name: 'user_id', type: 'uuid' }) userId: string;
  @Column({ name: 'user_display_id', type: 'varchar', length: 20 }) userDisplayId: string;
  @Column({ type: 'varchar', length: 20, default: 'INVITED' }) status: string;
  @Column({ name: 'employee_id', type: 'varchar', length: 100, nullable: true }) employeeId: string | null;
  @Column({ name: 'employee_type', type: 'varchar', length: 50, nullable: true }) employeeType: string | null;
  @Column({ name: 'custom_attributes', type: 'jsonb', default: () => `'{}'` }) customAttributes: Record<string, unknown>;
  @Column({ name: 'manager_id', type: 'uuid', nullable: true }) managerId: string | null;
  @Column({ name: 'is_deleted', type: 'boolean', default: false }) isDeleted: boolean;
  @Column({ name: 'created_on', type: 'timestamptz', default: () => 'now()' }) createdOn: Date;
  @Column({ name: 'created_by', type: 'varchar', length: 200, nullable: true }) createdBy: string | null;
  @Column({ name: 'updated_on', type: 'timestamptz', default: () => 'now()' }) updatedOn: Date;
}

@Entity({ schema: 'auth', name: 'user_roles' })
export class UserRoleEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'tenant_id', type: 'uuid' }) tenantId: string;
  @Column({ name: 'user_id', type: 'uuid' }) userId: string;
  @Column({ name: 'tenant_role_id', type: 'uuid' }) tenantRoleId: string;
  @Column({ name: 'created_on', type: 'timestamptz', default: () => 'now()' }) createdOn: Date;
}

/** A user's link to a position of the tenant (the position itself belongs to the settings area). */
@Entity({ schema: 'auth', name: 'user_positions' })
export class UserPositionEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'tenant_id', type: 'uuid' }) tenantId: string;
  @Column({ name: 'user_id', type: 'uuid' }) userId: string;
  @Column({ name: 'position_id', type: 'uuid' }) positionId: string;
  @Column({ name: 'auto_provisioned', type: 'boolean', default: false }) autoProvisioned: boolean;
  @Column({ name: 'instance_id', type: 'varchar', length: 255, nullable: true }) instanceId: string | null;
  @Column({ name: 'is_editable', type: 'boolean', default: true }) isEditable: boolean;
  @Column({ name: 'is_deleted', type: 'boolean', default: false }) isDeleted: boolean;
  @Column({ name: 'deleted_on', type: 'timestamptz', nullable: true }) deletedOn: Date | null;
  @Column({ name: 'created_on', type: 'timestamptz', default: () => 'now()' }) createdOn: Date;
  @Column({ name: 'updated_on', type: 'timestamptz', default: () => 'now()' }) updatedOn: Date;
}

/** A user's link to a group of the tenant; at most one is the primary organisation. */
@Entity({ schema: 'auth', name: 'user_groups' })
export class UserGroupEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'tenant_id', type: 'uuid' }) tenantId: string;
  @Column({ name: 'user_id', type: 'uuid' }) userId: string;
  @Column({ name: 'group_id', type: 'uuid' }) groupId: string;
  @Column({ name: 'is_primary_org', type: 'boolean', default: false }) isPrimaryOrg: boolean;
  @Column({ name: 'primary_org_set_on', type: 'timestamptz', nullable: true }) primaryOrgSetOn: Date | null;
  @Column({ name: 'external_id', type: 'varchar', length: 255, nullable: true }) externalId: string | null;
  @Column({ name: 'instance_id', type: 'varchar', length: 255, nullable: true }) instanceId: string | null;
  @Column({ name: 'auto_provisioned', type: 'boolean', default: false }) autoProvisioned: boolean;
  @Column({ name: 'is_deleted', type: 'boolean', default: false }) isDeleted: boolean;
  @Column({ name: 'deleted_on', type: 'timestamptz', nullable: true }) deletedOn: Date | null;
  @Column({ name: 'created_on', type: 'timestamptz', default: () => 'now()' }) createdOn: Date;
  @Column({ name: 'updated_on', type: 'timestamptz', default: () => 'now()' }) updatedOn: Date;
}
