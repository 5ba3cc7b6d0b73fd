import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsNotEmpty, IsString, IsUUID, MaxLength } from 'class-validator';
import { Nullable, OptionalNotNull, RECORD_STATUSES, RecordStatus, ToBoolean, Trim } from '@ddm/contracts';
import { MAX_BULK_IDS, MAX_POSITION_GROUPS } from '../position.rules';

/**
 * An id array. The product's documented examples send `["id1, id2"]` (one comma-joined string);
 * such entries are split so those clients work; each id must then be a UUID.
 */
const SplitJoinedIds = () =>
  Transform(
    ({ value }) =>
      Array.isArray(value) ? value.flatMap((v: unknown) => (typeof v === 'string' ? v.split(',').map((x) => x.trim()).filter((x) => x !== '') : [v])) : value,
    { toClassOnly: true },
  );

const TenantId = () =>
  applyDecorators(ApiPropertyOptional({ description: "Tenant of the change (default: the caller's active tenant)" }), OptionalNotNull(), IsUUID());

const GroupIds = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], maxItems: MAX_POSITION_GROUPS, description }),
    OptionalNotNull(),
    SplitJoinedIds(),
    IsArray(),
    ArrayMaxSize(MAX_POSITION_GROUPS),
    IsUUID('all', { each: true }),
  );

const BulkIds = (description: string) =>
  applyDecorators(
    ApiProperty({ type: [String], minItems: 1, maxItems: MAX_BULK_IDS, description }),
    SplitJoinedIds(),
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(MAX_BULK_IDS),
    IsUUID('all', { each: true }),
  );

/** POST /settings/v1/positions */
export class CreatePositionDto {
  @TenantId()
  tenantId?: string;

  @ApiProperty({ maxLength: 200, description: 'Unique in the tenant among positions not deleted (case-insensitive)', example: 'Senior Developer' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  positionName: string;

  @GroupIds('Record ids of groups of the tenant (not deleted); unknown ones are a 404 naming them')
  groupIds?: string[];

  @ApiPropertyOptional({ enum: RECORD_STATUSES, default: 'ACTIVE' })
  @OptionalNotNull()
  @IsIn(RECORD_STATUSES)
  status?: RecordStatus;

  @ApiPropertyOptional({ type: String, maxLength: 255, nullable: true, example: 'EXT-POS-12345' })
  @Nullable()
  @IsString()
  @MaxLength(255)
  externalId?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: 255, nullable: true })
  @Nullable()
  @IsString()
  @MaxLength(255)
  instanceId?: string | null;

  @ApiPropertyOptional({ default: false, description: 'Provisioned by Directory Sync (SCIM)' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isSCIMProvisioned?: boolean;
}

/** PATCH /settings/v1/positions/{id}: the fields given change. */
export class UpdatePositionDto {
  @TenantId()
  tenantId?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  positionName?: string;

  @GroupIds('Replaces the set of groups (record ids of groups of the tenant, not deleted); [] removes every group')
  groupIds?: string[];

  @ApiPropertyOptional({ enum: RECORD_STATUSES })
  @OptionalNotNull()
  @IsIn(RECORD_STATUSES)
  status?: RecordStatus;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isSCIMProvisioned?: boolean;
}

export const POSITION_UPDATE_FIELDS = ['positionName', 'groupIds', 'status', 'isSCIMProvisioned'] as const;

/** PATCH /settings/v1/positions/bulk-status-update */
export class BulkStatusDto {
  @TenantId()
  tenantId?: string;

  @BulkIds('Position record ids (1 to 500)')
  ids: string[];

  @ApiProperty({ enum: RECORD_STATUSES })
  @IsIn(RECORD_STATUSES)
  status: RecordStatus;
}

/** DELETE /settings/v1/positions */
export class DeletePositionsDto {
  @TenantId()
  tenantId?: string;

  @BulkIds('Position record ids (1 to 500). All or nothing: if any is unknown, deleted or another tenant\'s, nothing is deleted (404 naming them)')
  ids: string[];
}
