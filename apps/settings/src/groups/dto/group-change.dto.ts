import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { Nullable, OptionalNotNull, RECORD_STATUSES, RecordStatus, ToBoolean, Trim } from '@ddm/contracts';
import { DISABLE_OPTIONS, DisableOption } from '../../core/disable-options';

export const MAX_PARENTS = 50;

/** A group's address; accepted only when the group's type has addressEnabled. Null clears a field. */
export class GroupAddressDto {
  @ApiPropertyOptional({ type: String, maxLength: 200, nullable: true }) @Nullable() @IsString() @MaxLength(200) street1?: string | null;
  @ApiPropertyOptional({ type: String, maxLength: 200, nullable: true }) @Nullable() @IsString() @MaxLength(200) street2?: string | null;
  @ApiPropertyOptional({ type: String, maxLength: 100, nullable: true }) @Nullable() @IsString() @MaxLength(100) city?: string | null;
  @ApiPropertyOptional({ type: String, maxLength: 100, nullable: true }) @Nullable() @IsString() @MaxLength(100) state?: string | null;
  @ApiPropertyOptional({ type: String, maxLength: 10, nullable: true, example: 'NY' }) @Nullable() @IsString() @MaxLength(10) stateCode?: string | null;
  @ApiPropertyOptional({ type: String, maxLength: 20, nullable: true }) @Nullable() @IsString() @MaxLength(20) zipCode?: string | null;
  @ApiPropertyOptional({ type: String, maxLength: 100, nullable: true }) @Nullable() @IsString() @MaxLength(100) country?: string | null;
  @ApiPropertyOptional({ type: String, maxLength: 3, nullable: true, example: 'US' }) @Nullable() @IsString() @MaxLength(3) countryCode?: string | null;
}

/** Fields a create and an update share (all optional here; the create makes some required). */
class GroupFieldsDto {
  @ApiPropertyOptional({ description: 'Tenant ID (default: the caller’s active tenant); cannot be changed' })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ type: String, description: 'ISO 4217 code (3 upper-case letters)', example: 'USD', nullable: true })
  @Nullable()
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'baseCurrency must be 3 upper-case letters (ISO 4217)' })
  baseCurrency?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: 100, nullable: true })
  @Nullable()
  @IsString()
  @MaxLength(100)
  displayName?: string | null;

  @ApiPropertyOptional({ enum: RECORD_STATUSES, default: 'ACTIVE' })
  @OptionalNotNull()
  @IsIn(RECORD_STATUSES)
  status?: RecordStatus;

  @ApiPropertyOptional({ default: false })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isSynced?: boolean;

  @ApiPropertyOptional({ type: String, maxLength: 100, nullable: true })
  @Nullable()
  @IsString()
  @MaxLength(100)
  legalName?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: 255, nullable: true, example: 'EXT-GROUP-12345' })
  @Nullable()
  @IsString()
  @MaxLength(255)
  externalId?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: 255, nullable: true })
  @Nullable()
  @IsString()
  @MaxLength(255)
  instanceId?: string | null;
}

export class CreateGroupDto extends GroupFieldsDto {
  @ApiProperty({ description: 'An ACTIVE group type of the tenant' })
  @IsUUID()
  tenantGroupTypeId: string;

  @ApiProperty({ maxLength: 100, example: 'Engineering Team' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  groupName: string;

  @ApiPropertyOptional({ type: [String], maxItems: MAX_PARENTS, description: 'Record ids of groups of the tenant' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_PARENTS)
  @ArrayUnique()
  @IsUUID('all', { each: true })
  parentGroupIds?: string[];

  @ApiPropertyOptional({ type: GroupAddressDto, description: 'Only when the group type has addressEnabled' })
  @OptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => GroupAddressDto)
  address?: GroupAddressDto;
}

export class UpdateGroupDto extends GroupFieldsDto {
  @ApiPropertyOptional({ description: 'Move the group to another ACTIVE type of the tenant' })
  @OptionalNotNull()
  @IsUUID()
  tenantGroupTypeId?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  groupName?: string;

  @ApiPropertyOptional({ type: GroupAddressDto, nullable: true, description: 'Fields sent replace the stored ones; null removes the address' })
  @Nullable()
  @IsObject()
  @ValidateNested()
  @Type(() => GroupAddressDto)
  address?: GroupAddressDto | null;

  @ApiPropertyOptional({ type: [String], maxItems: MAX_PARENTS, description: 'Parent group ids to add (400 if one would make a cycle)' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_PARENTS)
  @ArrayUnique()
  @IsUUID('all', { each: true })
  addParentGroupIds?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: MAX_PARENTS, description: 'Parent group ids to remove (ids that are not parents are ignored)' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_PARENTS)
  @ArrayUnique()
  @IsUUID('all', { each: true })
  removeParentGroupIds?: string[];

  @ApiPropertyOptional({ description: 'true deletes the group (soft), with disableOption; nothing else may change with it' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isDeleted?: boolean;

  @ApiPropertyOptional({
    enum: DISABLE_OPTIONS,
    description: 'With isDeleted: KEEP_ASSOCIATIONS keeps position and hierarchy links, REMOVE_ASSOCIATIONS removes them, NA keeps them',
  })
  @OptionalNotNull()
  @IsIn(DISABLE_OPTIONS)
  disableOption?: DisableOption;
}
