import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsNotEmpty, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import { Nullable, OptionalNotNull, ToBoolean, Trim } from '@ddm/contracts';
import { DESCRIPTION_MAX, GUIDANCE_MAX, MAX_BULK_IDS, NAME_MAX } from '../decision.rules';
import { DECISION_PATHWAYS, MAX_DECISION_AUTHORITIES, MAX_DECISION_DOCUMENTS, MAX_DECISION_GROUPS } from '../../core/decision-limits';
import { DecisionAuthorityDto, DecisionDocumentDto } from '../../core/dto/limits.dto';

const TenantId = () => applyDecorators(ApiPropertyOptional({ format: 'uuid', description: "Tenant of the decision (default: the caller's active tenant)" }), OptionalNotNull(), IsUUID());

export class DecisionGroupDto {
  @ApiProperty({ format: 'uuid', description: 'A group of the tenant (settings area)' })
  @IsUUID()
  groupId: string;
}

const Groups = () =>
  applyDecorators(
    ApiPropertyOptional({ type: [DecisionGroupDto], maxItems: MAX_DECISION_GROUPS, description: 'Groups of the tenant the decision covers (replaces the set on PATCH)' }),
    OptionalNotNull(),
    IsArray(),
    ArrayMaxSize(MAX_DECISION_GROUPS),
    ValidateNested({ each: true }),
    Type(() => DecisionGroupDto),
  );

const Authorities = () =>
  applyDecorators(
    ApiPropertyOptional({ type: [DecisionAuthorityDto], maxItems: MAX_DECISION_AUTHORITIES, description: 'The limits of the decision (replaces the list on PATCH)' }),
    OptionalNotNull(),
    IsArray(),
    ArrayMaxSize(MAX_DECISION_AUTHORITIES),
    ValidateNested({ each: true }),
    Type(() => DecisionAuthorityDto),
  );

const Documents = () =>
  applyDecorators(
    ApiPropertyOptional({ type: [DecisionDocumentDto], maxItems: MAX_DECISION_DOCUMENTS, description: 'Documents that ground the decision (replaces the set on PATCH)' }),
    OptionalNotNull(),
    IsArray(),
    ArrayMaxSize(MAX_DECISION_DOCUMENTS),
    ValidateNested({ each: true }),
    Type(() => DecisionDocumentDto),
  );

const Pathways = () =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], enum: DECISION_PATHWAYS, description: 'Pathways along which the authority may be delegated' }),
    OptionalNotNull(),
    IsArray(),
    ArrayMaxSize(DECISION_PATHWAYS.length),
    ArrayUnique(),
    IsIn(DECISION_PATHWAYS, { each: true }),
  );

const Flag = (description: string, fallback: boolean) =>
  applyDecorators(ApiPropertyOptional({ description, default: fallback }), OptionalNotNull(), ToBoolean(), IsBoolean());

/** The fields a create and a PATCH share (all optional here; the create requires the name). */
class DecisionFieldsDto {
  @TenantId()
  tenantId?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DESCRIPTION_MAX })
  @Nullable()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: GUIDANCE_MAX })
  @Nullable()
  @IsString()
  @MaxLength(GUIDANCE_MAX)
  guidance?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'A decision section of the tenant' })
  @Nullable()
  @IsUUID()
  sectionId?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'A decision category of the tenant' })
  @Nullable()
  @IsUUID()
  categoryId?: string | null;

  @ApiPropertyOptional({ format: 'uuid', description: 'A member of the tenant (default on create: the caller)' })
  @OptionalNotNull()
  @IsUUID()
  ownerId?: string;

  @Flag('Whether the authority may be delegated', true)
  delegable?: boolean;

  @Flag('Whether delegations of the decision carry conditions', false)
  conditionEnabled?: boolean;

  @Flag('Whether delegations of the decision name decision roles', false)
  roleEnabled?: boolean;

  @Pathways()
  delegationPathway?: string[];

  @Groups()
  decisionGroups?: DecisionGroupDto[];

  @Authorities()
  decisionAuthorities?: DecisionAuthorityDto[];

  @Documents()
  decisionDocuments?: DecisionDocumentDto[];
}

/** POST /decision/v1/decisions */
export class CreateDecisionDto extends DecisionFieldsDto {
  @ApiProperty({ maxLength: NAME_MAX, description: 'Unique in the tenant among decisions not deleted (case-insensitive)', example: 'Approve purchase orders' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name: string;

  @ApiPropertyOptional({ enum: ['DRAFT', 'PUBLISHED'], default: 'DRAFT' })
  @OptionalNotNull()
  @IsIn(['DRAFT', 'PUBLISHED'])
  status?: 'DRAFT' | 'PUBLISHED';
}

/** PATCH /decision/v1/decisions/{id}: the fields given change; lists replace what the decision has. */
export class UpdateDecisionDto extends DecisionFieldsDto {
  @ApiPropertyOptional({ maxLength: NAME_MAX })
  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name?: string;

  @ApiPropertyOptional({ enum: ['DRAFT', 'PUBLISHED', 'ARCHIVED'], description: 'DRAFT to PUBLISHED, PUBLISHED to ARCHIVED, ARCHIVED to PUBLISHED; other moves are a 409' })
  @OptionalNotNull()
  @IsIn(['DRAFT', 'PUBLISHED', 'ARCHIVED'])
  status?: 'DRAFT' | 'PUBLISHED' | 'ARCHIVED';
}

/** The fields a PATCH may change (sending none of them is a 400). */
export const DECISION_UPDATE_FIELDS = [
  'name',
  'description',
  'guidance',
  'sectionId',
  'categoryId',
  'ownerId',
  'status',
  'delegable',
  'conditionEnabled',
  'roleEnabled',
  'delegationPathway',
  'decisionGroups',
  'decisionAuthorities',
  'decisionDocuments',
] as const;

/** PATCH /decision/v1/decisions/bulk-delete | bulk-restore | bulk-duplicate */
export class BulkDecisionIdsDto {
  @TenantId()
  tenantId?: string;

  @ApiProperty({ type: [String], minItems: 1, maxItems: MAX_BULK_IDS, description: 'Decision record ids (1 to 1000)' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_IDS)
  @IsUUID('all', { each: true })
  decisionIds: string[];
}

/** POST /decision/v1/decisions/unlink-records */
export class UnlinkRecordsDto {
  @TenantId()
  tenantId?: string;

  @ApiProperty({ format: 'uuid', description: 'The document to unlink' })
  @IsUUID()
  documentId: string;

  @ApiProperty({ type: [String], minItems: 1, maxItems: MAX_BULK_IDS, description: 'Decisions to unlink it from' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_IDS)
  @IsUUID('all', { each: true })
  decisionIds: string[];
}
