import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsEmail, IsNotEmpty, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import { Nullable, OptionalNotNull, ToBoolean } from '@ddm/contracts';
import { CustomAttributes, EmployeeId, EmployeeType, GroupAssignmentDto, Groups, PositionIds, RoleIds } from '../../core/user-fields.dto';


/** What an invitation says about the person (one user of create, one item of bulk-invite). `null` is "not given" for the nullable texts and the manager only. */
export class InviteUserFields {
  @ApiProperty({ maxLength: 320 })
  @IsEmail()
  @MaxLength(320)
  email: string;

  @ApiProperty({ maxLength: 100 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  firstName: string;

  @ApiProperty({ maxLength: 100 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  lastName: string;

  @ApiPropertyOptional({ type: String, maxLength: 40, nullable: true })
  @Nullable()
  @IsString()
  @MaxLength(40)
  mobilePhone?: string | null;

  @RoleIds()
  roleIds?: string[];

  @Groups()
  groups?: GroupAssignmentDto[];

  @PositionIds()
  positionIds?: string[];

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'User record id of the manager (a member of the tenant)' })
  @Nullable()
  @IsUUID()
  managerId?: string | null;

  @ApiPropertyOptional({ default: true, description: 'Send the invitation email' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  inviteViaEmail?: boolean;

  @EmployeeId()
  employeeId?: string | null;

  @EmployeeType()
  employeeType?: string | null;

  @CustomAttributes('At most 50 keys; string, number, boolean or null values')
  customAttributes?: Record<string, string | number | boolean | null>;
}

export class CreateUserDto extends InviteUserFields {
  @ApiProperty()
  @IsUUID()
  tenantId: string;
}

export class BulkInviteItemDto extends InviteUserFields {
  @ApiPropertyOptional({ description: 'When given, the tenant of the request' })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;
}

export const MAX_BULK = 500;

export class BulkInviteDto {
  @ApiProperty()
  @IsUUID()
  tenantId: string;

  @ApiProperty({ type: [BulkInviteItemDto], minItems: 1, maxItems: MAX_BULK })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK)
  @ValidateNested({ each: true })
  @Type(() => BulkInviteItemDto)
  users: BulkInviteItemDto[];
}
