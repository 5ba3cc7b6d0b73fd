import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, IntersectionType, OmitType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsNotEmpty, IsObject, IsString, IsUUID, Matches, MaxLength, ValidateNested } from 'class-validator';
import { IsoDateTime, Nullable, OptionalNotNull, PageQuery, SORT_ORDERS, SortOrder, ToBoolean } from '@ddm/contracts';
import { MATRIX_STATUS_NAMES, MatrixStatusName } from '../../core/matrix-status.rules';
import { SHARING_TYPES } from './matrix-change.dto';

export const MATRIX_SORTS = ['matrixName', 'matrixId', 'createdOn', 'updatedOn', 'matrixStatusName'] as const;
export type MatrixSort = (typeof MATRIX_SORTS)[number];
export const COUNT_STATUS_NAMES = [...MATRIX_STATUS_NAMES, 'all'] as const;

/**
 * The search's id lists as CommaList reads them, except a string naming no id ("" or " , "): that one
 * stays a string, so it is a 400 naming the field rather than a filter that filters nothing.
 */
const commaIds = Transform(
  ({ value }) => {
    if (typeof value === 'string' && value.split(',').every((v) => v.trim() === '')) return value;
    const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : value;
    return Array.isArray(list) ? list.map((v: unknown) => (typeof v === 'string' ? v.trim() : v)).filter((v: unknown) => v !== '') : list;
  },
  { toClassOnly: true },
);

/** An id list of the search: an array or a comma string, or null (no filter); an empty string is a 400. */
const IdList = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], format: 'uuid', nullable: true, maxItems: 500, description: `${description} (array, or comma-separated string; null or left out: no filter)` }),
    Nullable(),
    commaIds,
    IsArray({ message: '$property must be an array of ids or a comma-separated string of them (an empty string is no filter: leave it out or send null)' }),
    ArrayMaxSize(500),
    IsUUID('all', { each: true }),
  );

const Instant = (description: string) =>
  applyDecorators(ApiPropertyOptional({ type: String, format: 'date-time', description }), OptionalNotNull(), IsoDateTime());

const numberText = Transform(({ value }) => (typeof value === 'number' ? String(value) : value), { toClassOnly: true });

export class CountRangeDto {
  @ApiPropertyOptional({ type: String, example: '0', description: 'A whole number' })
  @OptionalNotNull()
  @numberText
  @IsString()
  @Matches(/^\d{1,9}$/, { message: '$property must be a whole number' })
  minValue?: string;

  @ApiPropertyOptional({ type: String, example: 'Unlimited', description: 'A whole number, or "Unlimited"' })
  @OptionalNotNull()
  @numberText
  @IsString()
  @Matches(/^(\d{1,9}|Unlimited)$/i, { message: '$property must be a whole number or "Unlimited"' })
  maxValue?: string;
}

/** The search's filters (also the status counts'). */
export class MatrixFiltersDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Tenant (default: the caller’s active tenant)' })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: 200, description: 'Name, description or display id contains (case-insensitive); null or left out: no filter' })
  @Nullable()
  @IsString()
  @IsNotEmpty({ message: '$property must not be empty (leave it out or send null for no filter)' })
  @MaxLength(200)
  search?: string | null;

  @Instant('Created at or after') startDate?: string;
  @Instant('Created at or before') endDate?: string;
  @Instant('Created at or after') createdAtStart?: string;
  @Instant('Created at or before') createdAtEnd?: string;
  @Instant('Updated at or after') updatedAtStart?: string;
  @Instant('Updated at or before') updatedAtEnd?: string;

  @ApiPropertyOptional({ enum: MATRIX_STATUS_NAMES, nullable: true })
  @Nullable()
  @IsIn(MATRIX_STATUS_NAMES)
  matrixStatusName?: MatrixStatusName | null;

  @ApiPropertyOptional({ enum: COUNT_STATUS_NAMES, nullable: true, description: 'The status tab (as status-counts names them): one status, or all' })
  @Nullable()
  @IsIn(COUNT_STATUS_NAMES)
  countStatusName?: string | null;

  @IdList('Matrices with any of these groups as columns') groupIds?: string[] | null;
  @IdList('Matrices with any of these positions as columns') positionIds?: string[] | null;
  @IdList('Matrices with any of these users as columns') userIds?: string[] | null;
  @IdList('Matrices limited to any of these sections') sectionIds?: string[] | null;
  @IdList('Matrices limited to any of these categories') categoryIds?: string[] | null;
  @IdList('Matrices owned by any of these users') ownerIds?: string[] | null;
  @IdList('Only these matrices') selectedMatrixIds?: string[] | null;

  @ApiPropertyOptional({ enum: SHARING_TYPES, nullable: true })
  @Nullable()
  @IsIn(SHARING_TYPES)
  matrixSharingType?: string | null;

  @ApiPropertyOptional({ description: 'Only (true) or none of (false) the caller’s favourites' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isFavorite?: boolean;

  @ApiPropertyOptional({ type: CountRangeDto })
  @OptionalNotNull()
  @IsObject({ message: '$property must be an object' })
  @ValidateNested()
  @Type(() => CountRangeDto)
  decisionsCount?: CountRangeDto;

  @ApiPropertyOptional({ type: CountRangeDto })
  @OptionalNotNull()
  @IsObject({ message: '$property must be an object' })
  @ValidateNested()
  @Type(() => CountRangeDto)
  delegationsCount?: CountRangeDto;
}

/**
 * POST /matrix/v1/matrix/global-search: the filters, a page (PageQuery's page and limit) and the
 * sort. sortOrder is the search's own (newest first by default), declared after sortBy.
 */
export class MatrixSearchDto extends IntersectionType(MatrixFiltersDto, OmitType(PageQuery, ['sortOrder'])) {
  @ApiPropertyOptional({ enum: MATRIX_SORTS, default: 'updatedOn' })
  @OptionalNotNull()
  @IsIn(MATRIX_SORTS)
  sortBy: MatrixSort = 'updatedOn';

  @ApiPropertyOptional({ enum: SORT_ORDERS, default: 'desc' })
  @OptionalNotNull()
  @IsIn(SORT_ORDERS)
  sortOrder: SortOrder = 'desc';

  @ApiPropertyOptional({ maxLength: 1000, description: 'Comma-separated field names of the items to return' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(1000)
  select?: string;
}
