import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsNotEmpty, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import { ALL_PERMISSION_KEYS, Nullable, OptionalNotNull, PermissionKey, ToBoolean } from '@ddm/contracts';

export class RelationshipMappingDto {
  @ApiProperty({ enum: ALL_PERMISSION_KEYS })
  @IsIn(ALL_PERMISSION_KEYS)
  relationshipKeyName: PermissionKey;

  @ApiProperty()
  @ToBoolean()
  @IsBoolean()
  isEnabled: boolean;
}

const TenantId = () => applyDecorators(ApiPropertyOptional({ description: 'When given, the tenant of the path' }), OptionalNotNull(), IsUUID());

const Mappings = () =>
  applyDecorators(
    ApiPropertyOptional({ type: [RelationshipMappingDto], maxItems: ALL_PERMISSION_KEYS.length }),
    OptionalNotNull(),
    IsArray(),
    ArrayMaxSize(ALL_PERMISSION_KEYS.length),
    ArrayUnique((m: RelationshipMappingDto) => m?.relationshipKeyName, { message: 'relationshipMappings must name each key once' }),
    ValidateNested({ each: true }),
    Type(() => RelationshipMappingDto),
  );

const Description = () =>
  applyDecorators(ApiPropertyOptional({ type: String, maxLength: 500, nullable: true }), Nullable(), IsString(), MaxLength(500));

/** A custom tenant role. Keys not listed are disabled. */
export class CreateRoleDto {
  @TenantId()
  tenantId?: string;

  @ApiProperty({ maxLength: 100 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  roleName: string;

  @Description()
  description?: string | null;

  @Mappings()
  relationshipMappings?: RelationshipMappingDto[];
}

/** Rename, change keys (the listed ones; others stay), or (re)activate a role. Only the description may be null (it clears it). */
export class UpdateRoleDto {
  @TenantId()
  tenantId?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  roleName?: string;

  @Description()
  description?: string | null;

  @Mappings()
  relationshipMappings?: RelationshipMappingDto[];

  @ApiPropertyOptional()
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isDeactivated?: boolean;
}

export const ROLE_UPDATE_FIELDS = ['roleName', 'description', 'relationshipMappings', 'isDeactivated'] as const;
