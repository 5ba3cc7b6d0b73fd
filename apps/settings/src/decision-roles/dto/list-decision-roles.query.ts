import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, IsUUID, MaxLength } from 'class-validator';
import { EnumListQuery, OptionalNotNull, PageQuery, RECORD_STATUSES, RecordStatus, SelectQuery } from '@ddm/contracts';
import { DECISION_ROLE_SORTS, DecisionRoleSort } from '../decision-role.rules';
import { DECISION_ROLE_FIELDS } from './decision-role.response';

export class ListDecisionRolesQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: "The tenant; defaults to the caller's" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ description: 'Role name contains (case-insensitive)', maxLength: 100 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  search?: string;

  @ApiPropertyOptional({ description: 'Comma-separated: ACTIVE, INACTIVE', example: 'ACTIVE,INACTIVE' })
  @EnumListQuery(RECORD_STATUSES)
  status?: RecordStatus[];

  @ApiPropertyOptional({ enum: DECISION_ROLE_SORTS, default: 'roleName' })
  @OptionalNotNull()
  @IsIn(DECISION_ROLE_SORTS)
  sortBy: DecisionRoleSort = 'roleName';

  @SelectQuery(DECISION_ROLE_FIELDS)
  select?: string[];
}
