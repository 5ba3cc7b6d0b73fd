import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, IsUUID, MaxLength } from 'class-validator';
import { DatedPageQuery, EnumListQuery, OptionalNotNull, RECORD_STATUSES, RecordStatus, UuidListQuery, SelectQuery } from '@ddm/contracts';
import { GROUP_FIELDS } from './group.response';

export const GROUP_SORTS = ['groupId', 'groupName', 'status', 'createdOn', 'updatedOn', 'isSynced', 'tenantGroupType'] as const;
export type GroupSort = (typeof GROUP_SORTS)[number];

export class ListGroupsQuery extends DatedPageQuery {
  @ApiPropertyOptional({ description: 'Tenant ID (default: the caller’s active tenant)' })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ description: 'Group name or display name contains (case-insensitive)', maxLength: 100, example: 'Engineering' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  search?: string;

  @ApiPropertyOptional({ description: 'Comma-separated statuses', example: 'ACTIVE,INACTIVE' })
  @EnumListQuery(RECORD_STATUSES, RECORD_STATUSES.length)
  status?: RecordStatus[];

  @ApiPropertyOptional({ description: 'Comma-separated group type ids' })
  @UuidListQuery(100)
  tenantGroupTypeIds?: string[];

  @ApiPropertyOptional({ description: 'Only the direct children of this group' })
  @OptionalNotNull()
  @IsUUID()
  parentGroupId?: string;





  @ApiPropertyOptional({ enum: GROUP_SORTS, default: 'groupName' })
  @OptionalNotNull()
  @IsIn(GROUP_SORTS)
  sortBy: GroupSort = 'groupName';

  @SelectQuery(GROUP_FIELDS)
  select?: string[];
}
