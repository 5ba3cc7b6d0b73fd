import { ApiProperty } from '@nestjs/swagger';
import { ALL_PERMISSION_KEYS, RECORD_STATUSES, viewFields } from '@ddm/contracts';

export class RelationshipMappingView {
  @ApiProperty({ enum: ALL_PERMISSION_KEYS }) relationshipKeyName: string;
  @ApiProperty() isEnabled: boolean;
  @ApiProperty({ enum: RECORD_STATUSES }) status: string;
}

/** Tenant role (spec §2.8). */
export class TenantRoleView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() roleName: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty() isCustom: boolean;
  @ApiProperty() canDeactivate: boolean;
  @ApiProperty({ enum: RECORD_STATUSES }) status: string;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deletedOn: string | null;
  @ApiProperty() isDeactivated: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deactivatedOn: string | null;
  @ApiProperty({ format: 'date-time' }) createdOn: string;
  @ApiProperty({ format: 'date-time' }) updatedOn: string;
  @ApiProperty({ description: 'Display id ("10000", ...)' }) roleId: string;
  @ApiProperty({ description: 'Members of the tenant (not deleted) holding the role' }) usersCount: number;
  @ApiProperty({ type: [RelationshipMappingView] }) relationshipMappings: RelationshipMappingView[];
}

/** A row of the role statements (role.sql.ts). */
export interface RoleRow {
  id: string;
  tenant_id: string;
  role_display_id: string;
  role_name: string;
  description: string | null;
  is_custom: boolean;
  can_deactivate: boolean;
  status: string;
  is_deleted: boolean;
  deleted_on: string | null;
  is_deactivated: boolean;
  deactivated_on: string | null;
  created_on: string;
  updated_on: string;
  users_count: number;
  mappings: RelationshipMappingView[] | null;
}

export function toTenantRoleView(r: RoleRow): TenantRoleView {
  return {
    id: r.id,
    roleName: r.role_name,
    tenantId: r.tenant_id,
    description: r.description,
    isCustom: r.is_custom,
    canDeactivate: r.can_deactivate,
    status: r.status,
    isDeleted: r.is_deleted,
    deletedOn: r.deleted_on,
    isDeactivated: r.is_deactivated,
    deactivatedOn: r.deactivated_on,
    createdOn: r.created_on,
    updatedOn: r.updated_on,
    roleId: r.role_display_id,
    usersCount: r.users_count,
    relationshipMappings: r.mappings ?? [],
  };
}

/** Every field of the view: what `select` may name. */
export const TENANT_ROLE_FIELDS = viewFields<TenantRoleView>({ id: true, roleName: true, tenantId: true, description: true, isCustom: true, canDeactivate: true, status: true, isDeleted: true, deletedOn: true, isDeactivated: true, deactivatedOn: true, createdOn: true, updatedOn: true, roleId: true, usersCount: true, relationshipMappings: true });
