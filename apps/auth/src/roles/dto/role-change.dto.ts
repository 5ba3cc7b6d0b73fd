import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { ALL_PERMISSION_KEYS, PermissionKey, ToBoolean } from '@ddm/contracts';

export class RelationshipMappingDto {
  @ApiProperty({ enum: ALL_PERMISSION_KEYS })
  @IsIn(ALL_PERMISSION_KEYS)
  relationshipKeyName: PermissionKey;

  @ApiProperty()
  @ToBoolean()
  @IsBoolean()
  isEnabled: boolean;
}

const Mappings = () =>
  applyDecorators(
    ApiPropertyOptional({ type: [RelationshipMappingDto], maxItems: ALL_PERMISSION_KEYS.length }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(ALL_PERMISSION_KEYS.length),
    ArrayUnique((m: RelationshipMappingDto) => m?.relationshipKeyName, { message: 'relationshipMappings must name each key once' }),
    ValidateNested({ each: true }),
    Type(() => RelationshipMappingDto),
  );

/** A custom tenant role. Keys not listed are disabled. */
export class CreateRoleDto {
  @ApiPropertyOptional({ description: 'When given, the tenant of the path' })
  @IsOptional()
  @IsUUID()
  tenantId?: string;

  @ApiProperty({ maxLength: 100 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  roleName: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @Mappings()
  relationshipMappings?: RelationshipMappingDto[];
}

/** Rename, change keys (the listed ones; others stay), or (re)activate a role. */
export class UpdateRoleDto {
  @ApiPropertyOptional({ description: 'When given, the tenant of the path' })
  @IsOptional()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @ValidateIf((o: UpdateRoleDto) => o.roleName !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  roleName?: string;

  @ApiPropertyOptional({ maxLength: 500, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string | null;

  @Mappings()
  relationshipMappings?: RelationshipMappingDto[];

  @ApiPropertyOptional()
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  isDeactivated?: boolean;
}

export const ROLE_UPDATE_FIELDS = ['roleName', 'description', 'relationshipMappings', 'isDeactivated'] as const;
