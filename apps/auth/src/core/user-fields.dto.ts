import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, IsArray, IsBoolean, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import { Nullable, OptionalNotNull, ToBoolean } from '@ddm/contracts';
import { IsCustomAttributes, ValidGroups } from './user-fields.validators';

/** One group of a user; at most one of a user's groups is the primary organisation. */
export class GroupAssignmentDto {
  @ApiProperty({ description: 'Group record id' })
  @IsUUID()
  groupId: string;

  @ApiPropertyOptional({ default: false })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isPrimaryOrg?: boolean;
}

export const MAX_ROLES = 20;
export const MAX_POSITIONS = 50;
export const MAX_GROUPS = 50;

/** An id list a user carries: may be left out, never null (a list replaces what the user has; [] removes all). */
const IdList = (max: number, description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], maxItems: max, description }),
    OptionalNotNull(),
    IsArray(),
    ArrayMaxSize(max),
    ArrayUnique(),
    IsUUID('all', { each: true }),
  );

export const RoleIds = () => IdList(MAX_ROLES, 'Tenant role ids');
export const PositionIds = () => IdList(MAX_POSITIONS, 'Position ids (settings area)');
export const Groups = () =>
  applyDecorators(
    ApiPropertyOptional({ type: [GroupAssignmentDto], maxItems: MAX_GROUPS }),
    OptionalNotNull(),
    IsArray(),
    ArrayMaxSize(MAX_GROUPS),
    ValidateNested({ each: true }),
    Type(() => GroupAssignmentDto),
    ValidGroups(),
  );

/** A text of the membership that may be cleared (null). */
const MembershipText = (max: number) =>
  applyDecorators(ApiPropertyOptional({ type: String, maxLength: max, nullable: true }), Nullable(), IsString(), MaxLength(max));

export const EmployeeId = () => MembershipText(100);
export const EmployeeType = () => MembershipText(50);

/** Free key/values of the membership (spec §2.4 customAttributes). */
export const CustomAttributes = (description: string) =>
  applyDecorators(ApiPropertyOptional({ type: 'object', additionalProperties: true, description }), OptionalNotNull(), IsCustomAttributes());
