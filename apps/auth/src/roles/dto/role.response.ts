import { ApiProperty } from '@nestjs/swagger';

export class RelationshipMappingView {
  @ApiProperty() relationshipKeyName: string;
  @ApiProperty() isEnabled: boolean;
  @ApiProperty() status: string;
}

/** Tenant role (spec §2.8). */
export class TenantRoleView {
  @ApiProperty() id: string;
  @ApiProperty() roleName: string;
  @ApiProperty() tenantId: string;
  @ApiProperty({ nullable: true }) description: string | null;
  @ApiProperty() isCustom: boolean;
  @ApiProperty() canDeactivate: boolean;
  @ApiProperty({ enum: ['ACTIVE', 'INACTIVE'] }) status: string;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty({ nullable: true }) deletedOn: string | null;
  @ApiProperty() isDeactivated: boolean;
  @ApiProperty({ nullable: true }) deactivatedOn: string | null;
  @ApiProperty() createdOn: string;
  @ApiProperty() updatedOn: string;
  @ApiProperty({ description: 'Display id' }) roleId: string;
  @ApiProperty() usersCount: number;
  @ApiProperty({ type: [RelationshipMappingView] }) relationshipMappings: RelationshipMappingView[];
}

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
  deleted_on: Date | null;
  is_deactivated: boolean;
  deactivated_on: Date | null;
  created_on: Date;
  updated_on: Date;
  users_count: string | number;
  mappings: RelationshipMappingView[] | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

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
    deletedOn: iso(r.deleted_on),
    isDeactivated: r.is_deactivated,
    deactivatedOn: iso(r.deactivated_on),
    createdOn: r.created_on.toISOString(),
    updatedOn: r.updated_on.toISOString(),
    roleId: r.role_display_id,
    usersCount: Number(r.users_count),
    relationshipMappings: r.mappings ?? [],
  };
}
