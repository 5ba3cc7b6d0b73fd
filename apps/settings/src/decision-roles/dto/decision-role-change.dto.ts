import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsNotEmpty, IsString, IsUUID, MaxLength } from 'class-validator';
import { OptionalNotNull, RECORD_STATUSES, RecordStatus, ToBoolean, Trim } from '@ddm/contracts';
import { DECISION_ROLE_NAME_MAX } from '../decision-role.rules';

export class CreateDecisionRoleDto {
  @ApiPropertyOptional({ format: 'uuid', description: "The tenant; defaults to the caller's" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiProperty({ maxLength: DECISION_ROLE_NAME_MAX, example: 'Approver', description: 'Unique in the tenant (case-insensitive)' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(DECISION_ROLE_NAME_MAX)
  roleName: string;

  @ApiPropertyOptional({ enum: RECORD_STATUSES, default: 'ACTIVE' })
  @OptionalNotNull()
  @IsIn(RECORD_STATUSES)
  status?: RecordStatus;
}

/** Rename, (de)activate or delete (softly, `isDeleted: true`) a decision role. At least one field. */
export class UpdateDecisionRoleDto {
  @ApiPropertyOptional({ format: 'uuid', description: "The tenant; defaults to the caller's" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ maxLength: DECISION_ROLE_NAME_MAX, example: 'Approver' })
  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(DECISION_ROLE_NAME_MAX)
  roleName?: string;

  @ApiPropertyOptional({ description: 'true deletes the role (softly); false changes nothing', example: false })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isDeleted?: boolean;

  @ApiPropertyOptional({ enum: RECORD_STATUSES })
  @OptionalNotNull()
  @IsIn(RECORD_STATUSES)
  status?: RecordStatus;
}
