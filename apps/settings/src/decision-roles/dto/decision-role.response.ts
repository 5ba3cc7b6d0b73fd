import { ApiProperty } from '@nestjs/swagger';
import { DecisionRolePayload, RECORD_STATUSES, viewFields } from '@ddm/contracts';

/** Decision role (spec §2.7): exactly these fields. */
export class DecisionRoleView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ maxLength: 50, example: 'Approver' }) roleName: string;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty({ enum: RECORD_STATUSES }) status: string;
}

export interface DecisionRoleRow {
  id: string;
  tenant_id: string;
  role_name: string;
  is_deleted: boolean;
  status: string;
}

export function toDecisionRoleView(r: DecisionRoleRow): DecisionRoleView {
  return { id: r.id, tenantId: r.tenant_id, roleName: r.role_name, isDeleted: r.is_deleted, status: r.status };
}

/** The role as evt.settings.decision-role.* carries it. */
export function toDecisionRolePayload(v: DecisionRoleView): DecisionRolePayload {
  return { id: v.id, roleName: v.roleName, status: v.status, isDeleted: v.isDeleted };
}

/** Every field of the view: what `select` may name. */
export const DECISION_ROLE_FIELDS = viewFields<DecisionRoleView>({ id: true, tenantId: true, roleName: true, isDeleted: true, status: true });
