import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsNotEmpty, IsObject, IsString, IsUUID, MaxLength, ValidateBy, ValidateNested } from 'class-validator';
import { IsoDateTime, Nullable, OptionalNotNull, ToBoolean, Trim } from '@ddm/contracts';

/** Most ids a matrix names per list; decisions may be many more (a 5,000-decision matrix). */
export const MAX_IDS = 500;
export const MAX_DECISIONS = 5000;
export const SHARING_TYPES = ['SHARED', 'PRIVATE'] as const;

const Ids = (description: string, max = MAX_IDS) =>
  applyDecorators(ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: max, description }), OptionalNotNull(), IsArray(), ArrayMaxSize(max), IsUUID('all', { each: true }));
const Flag = (description: string) => applyDecorators(ApiPropertyOptional({ type: Boolean, description }), OptionalNotNull(), ToBoolean(), IsBoolean());
const Text = (max: number, description: string) =>
  applyDecorators(ApiPropertyOptional({ type: String, nullable: true, maxLength: max, description }), Nullable(), Trim(), IsString(), MaxLength(max));

export class MatrixSharingDto {
  @ApiProperty({ enum: SHARING_TYPES, description: 'SHARED: the users and groups named see it; PRIVATE: only the owner (and holders of edit:matrices)' })
  @IsIn(SHARING_TYPES)
  type: (typeof SHARING_TYPES)[number];

  @ApiPropertyOptional({ enum: ['USERS_GROUPS'], default: 'USERS_GROUPS' })
  @OptionalNotNull()
  @IsIn(['USERS_GROUPS'])
  sharingOption?: 'USERS_GROUPS';

  @Ids('Users the matrix is shared with') userIds?: string[];
  @Ids('Groups whose members the matrix is shared with') groupIds?: string[];
  @Flag('Whether the matrix has a link inside the tenant') link?: boolean;
  @Flag('Whether viewers may adjust the filters') viewerAdjustableFilters?: boolean;
}

export class MatrixExternalSharingDto {
  @ApiProperty({ description: 'A read-only link for people without an account (GET /matrix/v1/shared/{token})' })
  @ToBoolean()
  @IsBoolean()
  isEnabled: boolean;

  @Flag('The link stops working at expirationDate') isExpirationEnabled?: boolean;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Nullable()
  @IsoDateTime()
  expirationDate?: string | null;

  @Flag('Visitors send the password in an X-Share-Password header') isPasswordRequired?: boolean;

  @ApiPropertyOptional({ type: String, maxLength: 200, minLength: 8, description: 'Stored only as a hash; needed when isPasswordRequired is first turned on' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(200)
  @ValidateBy({ name: 'minPassword', validator: { validate: (v: unknown) => typeof v === 'string' && v.length >= 8, defaultMessage: () => '$property must be at least 8 characters' } })
  password?: string;
}

export class MatrixAuthorityRoleDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  authorityRoleId: string;

  @ApiProperty()
  @ToBoolean()
  @IsBoolean()
  isEnabled: boolean;
}

export class MatrixDecisionDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  decisionId: string;

  @Flag('A disabled decision stays chosen but leaves the grid') isDisabled?: boolean;
}

/** The grid's delegation filters (spec §2.12 matrixDelegation). */
export class MatrixDelegationDto {
  @Ids('Only delegations holding an authority of these types', 100) authorityTypeIds?: string[];
  @Flag('A role matrix (by decision role) rather than an authority matrix') delegationRole?: boolean;
  @Ids('Decision roles', 100) roleIds?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: 20, example: ['ISSUED', 'SUSPENDED'], description: 'Delegation statuses shown (default: all but ended ones)' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(20, { each: true })
  issuanceStatusNames?: string[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Keyed by limit-type name (Primary, ...): { min, max } numbers, or a boolean for the Authority key',
    example: { Primary: { min: 0, max: 1000000 } },
  })
  @OptionalNotNull()
  @IsObject()
  @ValidateBy({
    name: 'isLimitRanges',
    validator: {
      validate: (v: unknown) =>
        !!v &&
        typeof v === 'object' &&
        Object.keys(v).length <= 20 &&
        Object.entries(v as Record<string, unknown>).every(
          ([k, r]) =>
            k.length <= 50 &&
            (typeof r === 'boolean' ||
              (!!r && typeof r === 'object' && !Array.isArray(r) && Object.entries(r).every(([b, n]) => (b === 'min' || b === 'max') && (n === null || typeof n === 'number')))),
        ),
      defaultMessage: () => '$property must map limit-type names to { min, max } numbers (or a boolean)',
    },
  })
  primaryLimitTypes?: Record<string, { min?: number | null; max?: number | null } | boolean>;

  @Flag('Show delegation details') delegationDataDetails?: boolean;
  @Flag('Show delegation groups') delegationDataGroups?: boolean;
  @Flag('Show delegation documents') delegationDataDocuments?: boolean;
  @Flag('Show delegation conditions') delegationDataConditions?: boolean;
  @Flag('Show delegation authorities') delegationDataAuthorities?: boolean;
  @Flag('Show delegation roles') delegationDataRoles?: boolean;
}

export class MatrixAuthorityFormattingDto {
  @Text(50, '"Abbreviated" shows 500000 as 500K') valueAbbrevations?: string | null;
  @Text(50, 'Decimals shown, "0".."4"') valueRounding?: string | null;
  @Text(50, 'Unit Time limits are shown in (Days, Weeks, Months, Years)') timeUnit?: string | null;
  @Text(50, 'Rounding of Time limits') timeRounding?: string | null;
  @Text(50, 'How delegations are identified in a cell') delegationIdentification?: string | null;
  @Text(50, '"Yes" shows the currency code') displayCurrencyCode?: string | null;
}

/** An object field of the body (an array or a scalar where it belongs is a 400 naming the field). */
const Nested = (type: () => new () => object, description?: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: type(), description }),
    OptionalNotNull(),
    IsObject({ message: '$property must be an object' }),
    ValidateNested(),
    Type(type),
  );

/** The fields of a matrix every change may send; each id must name a live record of the tenant (404 naming the field). */
export class MatrixFieldsDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'The tenant (default: the caller’s active tenant); a tenant the caller is not a member of is a 403' })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'A member of the tenant (create: default the caller). Changing the owner of a matrix needs change_owner:matrices or being its owner.' })
  @OptionalNotNull()
  @IsUUID()
  ownerId?: string;

  @Text(2000, 'What the matrix is for') matrixDescription?: string | null;
  @Flag('A role matrix') roleMatrix?: boolean;
  @Flag('An authority matrix (default true)') authorityMatrix?: boolean;

  @ApiPropertyOptional({ format: 'uuid', description: 'One of GET /matrix/v1/matrix/statuses (default: Active)' })
  @OptionalNotNull()
  @IsUUID()
  matrixStatusId?: string;

  @Text(50, 'The tab the matrix opens on') currentTab?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'The matrix this one was copied from (a live matrix of the tenant)' })
  @Nullable()
  @IsUUID()
  copiedFromMatrix?: string | null;

  @Ids('Decision sections: only their decisions') sectionIds?: string[];
  @Ids('Decision categories: only their decisions') categoryIds?: string[];
  @Ids('Columns: groups') groupIds?: string[];
  @Ids('Columns: positions') positionIds?: string[];
  @Ids('Columns: users (members of the tenant)') userIds?: string[];

  @ApiPropertyOptional({ type: [MatrixDecisionDto], maxItems: MAX_DECISIONS, description: 'The decisions of the matrix (none: every published decision of the tenant)' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_DECISIONS)
  @ValidateNested({ each: true })
  @Type(() => MatrixDecisionDto)
  matrixDecisions?: MatrixDecisionDto[];

  @ApiPropertyOptional({ type: [MatrixAuthorityRoleDto], maxItems: 100, description: 'Decision roles of the tenant (a role matrix shows delegations holding an enabled one)' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => MatrixAuthorityRoleDto)
  matrixAuthorityRoles?: MatrixAuthorityRoleDto[];

  @Nested(() => MatrixDelegationDto) matrixDelegation?: MatrixDelegationDto;
  @Nested(() => MatrixAuthorityFormattingDto) matrixAuthorityFormatting?: MatrixAuthorityFormattingDto;
  @Nested(() => MatrixSharingDto, 'Default PRIVATE') matrixSharing?: MatrixSharingDto;
  @Nested(() => MatrixExternalSharingDto) matrixExternalSharing?: MatrixExternalSharingDto;
}

/** The body of create and of PUT (a full update: what is left out takes its default; the owner is kept when left out). */
export class MatrixChangeDto extends MatrixFieldsDto {
  @ApiProperty({ maxLength: 200, example: 'Finance authority matrix' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  matrixName: string;
}

/** The body of PATCH: only the fields named change (an object field, such as matrixSharing, is replaced whole). */
export class MatrixPatchDto extends MatrixFieldsDto {
  @ApiPropertyOptional({ maxLength: 200, example: 'Finance authority matrix' })
  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  matrixName?: string;
}

/** The fields a PATCH may change; one naming none of them is a 400. */
export const MATRIX_PATCH_FIELDS = [
  'matrixName', 'ownerId', 'matrixDescription', 'roleMatrix', 'authorityMatrix', 'matrixStatusId', 'currentTab', 'copiedFromMatrix', 'sectionIds',
  'categoryIds', 'groupIds', 'positionIds', 'userIds', 'matrixDecisions', 'matrixAuthorityRoles', 'matrixDelegation', 'matrixAuthorityFormatting',
  'matrixSharing', 'matrixExternalSharing',
] as const satisfies readonly (keyof MatrixPatchDto)[];

export class SaveViewDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  matrixId: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The caller’s view (filters, columns, ...), a JSON object of at most 64 KiB' })
  @IsObject()
  @ValidateBy({
    name: 'isSmallObject',
    validator: {
      validate: (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v) && Buffer.byteLength(JSON.stringify(v), 'utf8') <= 64 * 1024,
      defaultMessage: () => '$property must be a JSON object of at most 64 KiB',
    },
  })
  viewData: Record<string, unknown>;
}

export class BulkReassignOwnerDto {
  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: 500 })
  @IsArray()
  @ValidateBy({ name: 'nonEmpty', validator: { validate: (v: unknown) => Array.isArray(v) && v.length > 0, defaultMessage: () => '$property must name at least one matrix' } })
  @ArrayMaxSize(500)
  @IsUUID('all', { each: true })
  matrixIds: string[];

  @ApiProperty({ format: 'uuid', description: 'A member of the tenant' })
  @IsUUID()
  ownerId: string;
}
