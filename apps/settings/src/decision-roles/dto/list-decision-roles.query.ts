import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { EnumListQuery, PageQuery, RECORD_STATUSES, RecordStatus } from '@ddm/contracts';
import { DECISION_ROLE_SORTS, DecisionRoleSort } from '../decision-role.rules';

export class ListDecisionRolesQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: "The tenant; defaults to the caller's" })
  @IsOptional()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ description: 'Role name contains (case-insensitive)', maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  search?: string;

  @ApiPropertyOptional({ description: 'Comma-separated: ACTIVE, INACTIVE', example: 'ACTIVE,INACTIVE' })
  @EnumListQuery(RECORD_STATUSES)
  status?: RecordStatus[];

  @ApiPropertyOptional({ enum: DECISION_ROLE_SORTS, default: 'roleName' })
  @IsOptional()
  @IsIn(DECISION_ROLE_SORTS)
  sortBy: DecisionRoleSort = 'roleName';
}
