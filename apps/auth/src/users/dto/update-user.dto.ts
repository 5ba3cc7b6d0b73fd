import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsNotEmpty, IsString, IsUUID, MaxLength } from 'class-validator';
import { Nullable, OptionalNotNull } from '@ddm/contracts';
import { STATUS_CHANGES, StatusChange } from '../user.rules';
import { CustomAttributes, EmployeeId, EmployeeType, GroupAssignmentDto, Groups, PositionIds, RoleIds } from '../../core/user-fields.dto';


export const MAX_BULK_USERS = 500;

/**
 * What an administrator changes about a user in a tenant: the fields given change. Lists replace
 * what the user had. `null` clears the nullable texts and the manager; names, lists and
 * customAttributes cannot be null.
 */
export class UpdateUserEntitiesDto {
  @ApiPropertyOptional({ description: "Tenant of the user (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  firstName?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  lastName?: string;

  @ApiPropertyOptional({ type: String, maxLength: 40, nullable: true })
  @Nullable()
  @IsString()
  @MaxLength(40)
  mobilePhone?: string | null;

  @RoleIds()
  roleIds?: string[];

  @PositionIds()
  positionIds?: string[];

  @Groups()
  groups?: GroupAssignmentDto[];

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'User record id of the manager; null removes the manager' })
  @Nullable()
  @IsUUID()
  managerId?: string | null;

  @EmployeeId()
  employeeId?: string | null;

  @EmployeeType()
  employeeType?: string | null;

  @CustomAttributes('Replaces them: at most 50 keys; string, number, boolean or null values')
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

export class ActiveTenantDto {
  @ApiProperty()
  @IsUUID()
  tenantId: string;
}
