import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsNotEmpty, IsString, IsUUID, MaxLength } from 'class-validator';
import { OptionalNotNull, RECORD_STATUSES, RecordStatus, ToBoolean, Trim } from '@ddm/contracts';
import { DISABLE_OPTIONS, DisableOption } from '../../core/disable-options';

export class CreateGroupTypeDto {
  @ApiPropertyOptional({ description: 'Tenant ID (default: the caller’s active tenant)' })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiProperty({ maxLength: 50, example: 'Department', description: 'Unique in the tenant (case-insensitive)' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(50)
  groupTypeName: string;

  @ApiPropertyOptional({ default: false, description: 'Whether groups of this type may carry an address' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  addressEnabled?: boolean;
}

export class UpdateGroupTypeDto {
  @ApiPropertyOptional({ description: 'When given, the caller’s tenant' })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ maxLength: 50 })
  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(50)
  groupTypeName?: string;

  @ApiPropertyOptional({ enum: RECORD_STATUSES, description: 'INACTIVE disables the type (409 for a type that cannot be disabled)' })
  @OptionalNotNull()
  @IsIn(RECORD_STATUSES)
  status?: RecordStatus;

  @ApiPropertyOptional({ enum: DISABLE_OPTIONS })
  @OptionalNotNull()
  @IsIn(DISABLE_OPTIONS)
  disableOption?: DisableOption;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  addressEnabled?: boolean;
}
