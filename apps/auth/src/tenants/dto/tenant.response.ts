import { ApiProperty } from '@nestjs/swagger';

export class TenantView {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['ACTIVE', 'INACTIVE', 'SUSPENDED'] }) status: string;
  @ApiProperty() createdOn: string;
  @ApiProperty() updatedOn: string;
}

/** A tenant of the caller, with the caller's membership of it. */
export class UserTenantView extends TenantView {
  @ApiProperty({ description: "The caller's display id in this tenant" }) userId: string;
  @ApiProperty({ enum: ['ACTIVE', 'INVITED'], description: "The caller's status in this tenant" }) userStatus: string;
  @ApiProperty({ description: "This is the caller's active tenant" }) isActiveTenant: boolean;
}

export interface TenantRow {
  id: string;
  name: string;
  status: string;
  created_on: Date;
  updated_on: Date;
}

export function toTenantView(r: TenantRow): TenantView {
  return { id: r.id, name: r.name, status: r.status, createdOn: r.created_on.toISOString(), updatedOn: r.updated_on.toISOString() };
}

export function toUserTenantView(r: TenantRow & { user_display_id: string; user_status: string; is_active: boolean }): UserTenantView {
  return { ...toTenantView(r), userId: r.user_display_id, userStatus: r.user_status, isActiveTenant: r.is_active };
}
