import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength, ValidateIf } from 'class-validator';
import { GroupAssignmentDto, Groups, PositionIds, RoleIds } from './user-fields.dto';
import { IsCustomAttributes } from './validators';
import { STATUS_CHANGES, StatusChange } from '../user.rules';

export const MAX_BULK_USERS = 500;

/** What an administrator changes about a user in a tenant. Lists replace what the user had. */
export class UpdateUserEntitiesDto {
  @ApiPropertyOptional({ description: "Tenant of the user (default: the caller's active tenant)" })
  @IsOptional()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @ValidateIf((o: UpdateUserEntitiesDto) => o.firstName !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  firstName?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @ValidateIf((o: UpdateUserEntitiesDto) => o.lastName !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  lastName?: string;

  @ApiPropertyOptional({ maxLength: 40, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  mobilePhone?: string | null;

  @RoleIds()
  roleIds?: string[];

  @PositionIds()
  positionIds?: string[];

  @Groups()
  groups?: GroupAssignmentDto[];

  @ApiPropertyOptional({ nullable: true, description: 'User record id of the manager; null removes the manager' })
  @IsOptional()
  @IsUUID()
  managerId?: string | null;

  @ApiPropertyOptional({ maxLength: 100, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  employeeId?: string | null;

  @ApiPropertyOptional({ maxLength: 50, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  employeeType?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsCustomAttributes()
  customAttributes?: Record<string, string | number | boolean | null>;
}

export const UPDATABLE_FIELDS = [
  'firstName',
  'lastName',
  'mobilePhone',
  'roleIds',
  'positionIds',
  'groups',
  'managerId',
  'employeeId',
  'employeeType',
  'customAttributes',
] as const;

export class BulkStatusUpdateDto {
  @ApiProperty()
  @IsUUID()
  tenantId: string;

  @ApiProperty({ type: [String], minItems: 1, maxItems: MAX_BULK_USERS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_USERS)
  @ArrayUnique()
  @IsUUID('all', { each: true })
  userIds: string[];

  @ApiProperty({ enum: STATUS_CHANGES })
  @IsIn(STATUS_CHANGES)
  status: StatusChange;
}

export class BulkStatusResult {
  @ApiProperty() total: number;
  @ApiProperty() successful: number;
  @ApiProperty() failed: number;
}

export class ActiveTenantDto {
  @ApiProperty()
  @IsUUID()
  tenantId: string;
}
