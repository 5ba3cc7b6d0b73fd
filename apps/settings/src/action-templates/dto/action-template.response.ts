import { ApiProperty } from '@nestjs/swagger';
import { ActionTemplatePayload, viewFields } from '@ddm/contracts';
import { actionTypeOf } from '../action-template.rules';

/** The action type a template opens actions of (spec §2.2 `actionType`), as the actions area answers it. */
export class ActionTemplateTypeView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ example: 'EMAIL' }) type: string;
  @ApiProperty({ example: 'Email' }) name: string;
  @ApiProperty({ type: String, nullable: true }) typeIcon: string | null;
  @ApiProperty() status: boolean;
  @ApiProperty() isCustom: boolean;
}

/** Action template (spec §2.2 `actionTemplate`). */
export class ActionTemplateView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ example: 'Send Email' }) name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ description: 'Enabled' }) status: boolean;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) actionTypeId: string | null;
  @ApiProperty({ type: ActionTemplateTypeView, nullable: true }) type: ActionTemplateTypeView | null;
}

export interface ActionTemplateRow {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  action_type_id: string | null;
  status: boolean;
  is_deleted: boolean;
  version: number;
}

export function toActionTemplateView(r: ActionTemplateRow): ActionTemplateView {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    name: r.name,
    description: r.description,
    status: r.status,
    actionTypeId: r.action_type_id,
    type: actionTypeOf(r.tenant_id, r.action_type_id),
  };
}

/** The template as evt.settings.action-template.* carries it. */
export function toActionTemplatePayload(r: ActionTemplateRow): ActionTemplatePayload {
  return { id: r.id, name: r.name, description: r.description, actionTypeId: r.action_type_id, status: r.status, isDeleted: r.is_deleted, version: r.version };
}

/** Every field of the view: what `select` may name. */
export const ACTION_TEMPLATE_FIELDS = viewFields<ActionTemplateView>({ id: true, tenantId: true, name: true, description: true, status: true, actionTypeId: true, type: true });
