import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength, ValidateIf } from 'class-validator';
import { ToBoolean } from '@ddm/contracts';
import { DECISION_ROLE_NAME_MAX, DECISION_ROLE_STATUSES, DecisionRoleStatus } from '../decision-role.rules';

/** Validated whenever sent: `null` is not "absent" (it is a 400, not a silent no-op). */
const Given = (field: string) => ValidateIf((o: Record<string, unknown>) => o[field] !== undefined);

/** Surrounding blanks are not part of a name (checked after trimming). */
const Trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value), { toClassOnly: true });

export class CreateDecisionRoleDto {
  @ApiPropertyOptional({ format: 'uuid', description: "The tenant; defaults to the caller's" })
  @IsOptional()
  @IsUUID()
  tenantId?: string;

  @ApiProperty({ maxLength: DECISION_ROLE_NAME_MAX, example: 'Approver', description: 'Unique in the tenant (case-insensitive)' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(DECISION_ROLE_NAME_MAX)
  roleName: string;

  @ApiPropertyOptional({ enum: DECISION_ROLE_STATUSES, default: 'ACTIVE' })
  @Given('status')
  @IsIn(DECISION_ROLE_STATUSES)
  status?: DecisionRoleStatus;
}

/** Rename, (de)activate or delete (softly, `isDeleted: true`) a decision role. At least one field. */
export class UpdateDecisionRoleDto {
  @ApiPropertyOptional({ format: 'uuid', description: "The tenant; defaults to the caller's" })
  @IsOptional()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ maxLength: DECISION_ROLE_NAME_MAX, example: 'Approver' })
  @Given('roleName')
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(DECISION_ROLE_NAME_MAX)
  roleName?: string;

  @ApiPropertyOptional({ description: 'true deletes the role (softly); false changes nothing', example: false })
  @Given('isDeleted')
  @ToBoolean()
  @IsBoolean()
  isDeleted?: boolean;

  @ApiPropertyOptional({ enum: DECISION_ROLE_STATUSES })
  @Given('status')
  @IsIn(DECISION_ROLE_STATUSES)
  status?: DecisionRoleStatus;
}
