import { ApiProperty } from '@nestjs/swagger';
import { STATUS_KEYS } from '../../core/configuration.rules';

/** An action status (spec §2.2 `status`). */
export class ActionStatusView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ example: 'To Do' }) actionStatusName: string;
  @ApiProperty({ enum: STATUS_KEYS, description: 'Stable key of the status' }) statusKey: string;
  @ApiProperty() isEnabled: boolean;
}

/** An action priority (spec §2.2 `priority`). */
export class ActionPriorityView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ example: 'High' }) actionPriorityName: string;
  @ApiProperty({ example: 'orange' }) colorName: string;
  @ApiProperty() isEnabled: boolean;
}

/** An action type (spec §2.2 `actionType`). */
export class ActionTypeView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ example: 'MEETING', description: 'Stable key of the type' }) type: string;
  @ApiProperty({ example: 'Meeting' }) name: string;
  @ApiProperty({ type: String, nullable: true, example: 'calendar' }) typeIcon: string | null;
  @ApiProperty({ description: 'Enabled' }) status: boolean;
  @ApiProperty() isCustom: boolean;
}

export interface StatusRow {
  id: string;
  tenant_id: string;
  status_key: string;
  action_status_name: string;
  is_enabled: boolean;
}
export interface PriorityRow {
  id: string;
  tenant_id: string;
  priority_key: string;
  action_priority_name: string;
  color_name: string;
  is_enabled: boolean;
}
export interface TypeRow {
  id: string;
  tenant_id: string;
  type: string;
  name: string;
  type_icon: string | null;
  status: boolean;
  is_custom: boolean;
}

export const toStatusView = (r: StatusRow): ActionStatusView => ({
  id: r.id,
  tenantId: r.tenant_id,
  actionStatusName: r.action_status_name,
  statusKey: r.status_key,
  isEnabled: r.is_enabled,
});
export const toPriorityView = (r: PriorityRow): ActionPriorityView => ({
  id: r.id,
  tenantId: r.tenant_id,
  actionPriorityName: r.action_priority_name,
  colorName: r.color_name,
  isEnabled: r.is_enabled,
});
export const toTypeView = (r: TypeRow): ActionTypeView => ({
  id: r.id,
  tenantId: r.tenant_id,
  type: r.type,
  name: r.name,
  typeIcon: r.type_icon,
  status: r.status,
  isCustom: r.is_custom,
});
