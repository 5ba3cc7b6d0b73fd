import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsUUID } from 'class-validator';
import { OptionalNotNull, PageQuery, ToBoolean, SelectQuery } from '@ddm/contracts';
import { GROUP_TYPE_FIELDS } from './group-type.response';

/** Sorted by creation (then id); `sortOrder` turns it round. */
export class ListGroupTypesQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Tenant ID (default: the caller’s active tenant)' })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ description: 'true: ACTIVE types only; false: INACTIVE types only', example: false })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isActive?: boolean;

  @SelectQuery(GROUP_TYPE_FIELDS)
  select?: string[];
}
