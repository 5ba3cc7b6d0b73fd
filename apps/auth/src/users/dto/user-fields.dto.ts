import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, IsArray, IsBoolean, IsOptional, IsUUID, ValidateNested } from 'class-validator';
import { ToBoolean } from '@ddm/contracts';
import { ValidGroups } from './validators';

/** One group of a user; at most one of a user's groups is the primary organisation. */
export class GroupAssignmentDto {
  @ApiProperty({ description: 'Group record id' })
  @IsUUID()
  groupId: string;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  isPrimaryOrg?: boolean;
}

export const MAX_ROLES = 20;
export const MAX_POSITIONS = 50;
export const MAX_GROUPS = 50;

/** Shared decorators of the id lists a user carries. */
export const RoleIds = () =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], maxItems: MAX_ROLES, description: 'Tenant role ids' }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(MAX_ROLES),
    ArrayUnique(),
    IsUUID('all', { each: true }),
  );
export const PositionIds = () =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], maxItems: MAX_POSITIONS, description: 'Position ids (settings area)' }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(MAX_POSITIONS),
    ArrayUnique(),
    IsUUID('all', { each: true }),
  );
export const Groups = () =>
  applyDecorators(
    ApiPropertyOptional({ type: [GroupAssignmentDto], maxItems: MAX_GROUPS }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(MAX_GROUPS),
    ValidateNested({ each: true }),
    Type(() => GroupAssignmentDto),
    ValidGroups(),
  );
