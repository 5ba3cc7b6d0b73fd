import { ApiProperty } from '@nestjs/swagger';

export class TenantView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['ACTIVE', 'INACTIVE', 'SUSPENDED'] }) status: string;
  @ApiProperty({ format: 'date-time' }) createdOn: string;
  @ApiProperty({ format: 'date-time' }) updatedOn: string;
}

/** A tenant of the caller, with the caller's membership of it. */
export class UserTenantView extends TenantView {
  @ApiProperty({ description: "The caller's display id in this tenant" }) userId: string;
  @ApiProperty({ enum: ['ACTIVE', 'INVITED'], description: "The caller's status in this tenant" }) userStatus: string;
  @ApiProperty({ description: "This is the caller's active tenant" }) isActiveTenant: boolean;
}

/** A row of the tenant statements (tenant.sql.ts). */
export interface TenantRow {
  id: string;
  name: string;
  status: string;
  created_on: string;
  updated_on: string;
}

export interface UserTenantRow extends TenantRow {
  user_display_id: string;
  user_status: string;
  is_active: boolean;
}

export function toTenantView(r: TenantRow): TenantView {
  return { id: r.id, name: r.name, status: r.status, createdOn: r.created_on, updatedOn: r.updated_on };
}

export function toUserTenantView(r: UserTenantRow): UserTenantView {
  return { ...toTenantView(r), userId: r.user_display_id, userStatus: r.user_status, isActiveTenant: r.is_active };
}
