import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, IsUUID, MaxLength } from 'class-validator';
import { EnumListQuery, OptionalNotNull, PageQuery, UuidListQuery, SelectQuery } from '@ddm/contracts';
import { USER_SORTS, USER_STATUSES, UserSort, UserStatus } from '../user.rules';
import { USER_FIELDS } from './user.response';

export class ListUsersQuery extends PageQuery {
  @ApiPropertyOptional({ description: "Tenant to list (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ description: 'Name, display name or email contains (case-insensitive)', maxLength: 100 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  search?: string;

  @ApiPropertyOptional({ description: 'Comma-separated: ACTIVE, INACTIVE, INVITED', example: 'ACTIVE,INVITED' })
  @EnumListQuery(USER_STATUSES, USER_STATUSES.length)
  status?: UserStatus[];

  @ApiPropertyOptional({ description: 'Comma-separated tenant role ids (users holding any of them)' })
  @UuidListQuery(50)
  roleIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated position ids (users holding any of them)' })
  @UuidListQuery(50)
  positionIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated group ids (users in any of them)' })
  @UuidListQuery(50)
  groupIds?: string[];

  @ApiPropertyOptional({ enum: USER_SORTS, default: 'createdOn', description: 'Users who never signed in come last in both orders of lastLoginDate' })
  @OptionalNotNull()
  @IsIn(USER_SORTS)
  sortBy: UserSort = 'createdOn';

  @SelectQuery(USER_FIELDS)
  select?: string[];
}
