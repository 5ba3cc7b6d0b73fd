import { ApiProperty } from '@nestjs/swagger';
import { SodRuleSpec } from '../sod.rules';

/** A side of a rule, with the names of its decision and authority type. */
export class SodSideView {
  @ApiProperty({ format: 'uuid' }) decisionId: string;
  @ApiProperty({ type: String, nullable: true, example: '10004' }) decisionDisplayId: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Approve supplier invoices' }) decisionName: string | null;
  @ApiProperty({ format: 'uuid' }) authorityTypeId: string;
  @ApiProperty({ type: String, nullable: true, example: 'Approval' }) authorityTypeName: string | null;
}

/** A segregation-of-duties rule: whoever holds `left` must not also hold `right`. */
export class SodRuleView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '10000' }) sodRuleDisplayId: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ maxLength: 200 }) name: string;
  @ApiProperty({ type: SodSideView }) left: SodSideView;
  @ApiProperty({ type: SodSideView }) right: SodSideView;
  @ApiProperty({ description: "Only a conflict when the two delegations' groups overlap" }) sameGroupOnly: boolean;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) createdBy: string | null;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) updatedBy: string | null;
}

/** A rule as SOD_RULE_COLUMNS answers it. */
export interface SodRuleRow {
  id: string;
  tenant_id: string;
  sod_rule_display_id: string;
  name: string;
  same_group_only: boolean;
  is_deleted: boolean;
  left_decision_id: string;
  left_decision_display_id: string | null;
  left_decision_name: string | null;
  left_authority_type_id: string;
  left_authority_type_name: string | null;
  right_decision_id: string;
  right_decision_display_id: string | null;
  right_decision_name: string | null;
  right_authority_type_id: string;
  right_authority_type_name: string | null;
  created_at: string;
  created_by: string | null;
  updated_at: string;
  updated_by: string | null;
}

const side = (r: SodRuleRow, s: 'left' | 'right'): SodSideView => ({
  decisionId: r[`${s}_decision_id`],
  decisionDisplayId: r[`${s}_decision_display_id`],
  decisionName: r[`${s}_decision_name`],
  authorityTypeId: r[`${s}_authority_type_id`],
  authorityTypeName: r[`${s}_authority_type_name`],
});

export function toSodRuleView(r: SodRuleRow): SodRuleView {
  return {
    id: r.id,
    sodRuleDisplayId: r.sod_rule_display_id,
    tenantId: r.tenant_id,
    name: r.name,
    left: side(r, 'left'),
    right: side(r, 'right'),
    sameGroupOnly: r.same_group_only,
    isDeleted: r.is_deleted,
    createdAt: r.created_at,
    createdBy: r.created_by,
    updatedAt: r.updated_at,
    updatedBy: r.updated_by,
  };
}

/** A rule as the conflict rules read it. */
export function toSodRuleSpec(r: SodRuleRow): SodRuleSpec {
  return { id: r.id, name: r.name, left: side(r, 'left'), right: side(r, 'right'), sameGroupOnly: r.same_group_only };
}
