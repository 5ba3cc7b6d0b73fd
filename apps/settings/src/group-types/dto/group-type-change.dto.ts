import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength, ValidateIf } from 'class-validator';
import { ToBoolean } from '@ddm/contracts';
import { DISABLE_OPTIONS, DisableOption, GROUP_TYPE_STATUSES, GroupTypeStatus } from '../group-type.rules';

const trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value), { toClassOnly: true });

export class CreateGroupTypeDto {
  @ApiPropertyOptional({ description: 'Tenant ID (default: the caller’s active tenant)' })
  @IsOptional()
  @IsUUID()
  tenantId?: string;

  @ApiProperty({ maxLength: 50, example: 'Department', description: 'Unique in the tenant (case-insensitive)' })
  @trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(50)
  groupTypeName: string;

  @ApiPropertyOptional({ default: false, description: 'Whether groups of this type may carry an address' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  addressEnabled?: boolean;
}

export class UpdateGroupTypeDto {
  @ApiPropertyOptional({ description: 'When given, the caller’s tenant' })
  @IsOptional()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ maxLength: 50 })
  @ValidateIf((o: UpdateGroupTypeDto) => o.groupTypeName !== undefined)
  @trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(50)
  groupTypeName?: string;

  @ApiPropertyOptional({ enum: GROUP_TYPE_STATUSES, description: 'INACTIVE disables the type (409 for a type that cannot be disabled)' })
  @ValidateIf((o: UpdateGroupTypeDto) => o.status !== undefined)
  @IsIn(GROUP_TYPE_STATUSES)
  status?: GroupTypeStatus;

  @ApiPropertyOptional({ enum: DISABLE_OPTIONS })
  @ValidateIf((o: UpdateGroupTypeDto) => o.disableOption !== undefined)
  @IsIn(DISABLE_OPTIONS)
  disableOption?: DisableOption;

  @ApiPropertyOptional()
  @ValidateIf((o: UpdateGroupTypeDto) => o.addressEnabled !== undefined)
  @ToBoolean()
  @IsBoolean()
  addressEnabled?: boolean;
}
