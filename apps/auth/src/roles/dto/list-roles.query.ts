import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsString, IsUUID, MaxLength } from 'class-validator';
import { OptionalNotNull, PageQuery, RECORD_STATUSES, RecordStatus, ToBoolean, SelectQuery } from '@ddm/contracts';
import { ROLE_SORTS, RoleSort } from '../role.rules';
import { TENANT_ROLE_FIELDS } from './role.response';

export class ListRolesQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Accepted like on every list; must be the tenant of the path' })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ description: 'Role name or description contains', maxLength: 100 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  search?: string;

  @ApiPropertyOptional({ enum: RECORD_STATUSES })
  @OptionalNotNull()
  @IsIn(RECORD_STATUSES)
  status?: RecordStatus;

  @ApiPropertyOptional({ description: 'true: custom roles only; false: default roles only' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isCustom?: boolean;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isDeactivated?: boolean;

  @ApiPropertyOptional({ enum: ROLE_SORTS, default: 'roleName' })
  @OptionalNotNull()
  @IsIn(ROLE_SORTS)
  sortBy: RoleSort = 'roleName';

  @SelectQuery(TENANT_ROLE_FIELDS)
  select?: string[];
}
