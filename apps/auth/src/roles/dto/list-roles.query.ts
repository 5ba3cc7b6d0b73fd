import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { PageQuery, ToBoolean } from '@ddm/contracts';

export const ROLE_SORTS = ['roleName', 'createdOn', 'updatedOn'] as const;
export type RoleSort = (typeof ROLE_SORTS)[number];

export class ListRolesQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Accepted like on every list; must be the tenant of the path' })
  @IsOptional()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ description: 'Role name or description contains', maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  search?: string;

  @ApiPropertyOptional({ enum: ['ACTIVE', 'INACTIVE'] })
  @IsOptional()
  @IsIn(['ACTIVE', 'INACTIVE'])
  status?: 'ACTIVE' | 'INACTIVE';

  @ApiPropertyOptional({ description: 'true: custom roles only; false: default roles only' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  isCustom?: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  isDeactivated?: boolean;

  @ApiPropertyOptional({ enum: ROLE_SORTS, default: 'roleName' })
  @IsOptional()
  @IsIn(ROLE_SORTS)
  sortBy: RoleSort = 'roleName';
}
