import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type, plainToInstance } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsString, IsUUID, Matches, MaxLength, ValidateNested } from 'class-validator';
import {
  AUTHORITY_LIMIT_VALUE_TYPES,
  DECISION_STATUSES,
  DatedPageQuery,
  EnumListQuery,
  Nullable,
  OptionalNotNull,
  ToBoolean,
  UuidListQuery,
} from '@ddm/contracts';
import { MAX_BULK_IDS } from '../decision.rules';
import { DECISION_SORTS, DecisionSort } from '../decision.sql';
import { DECISION_FIELDS } from './decision.response';

const LIMIT_VALUE = /^((0|[1-9]\d{0,14})(\.\d{1,6})?|Unlimited)$/;
const MAX_LIST_ITEMS = 100;
export const MAX_LIMIT_FILTERS = 10;

/** One limit filter: decisions with an authority of the value type whose limit lies in [minValue, maxValue] (numbers compared as numbers). */
export class LimitValueFilterDto {
  @ApiPropertyOptional({ enum: AUTHORITY_LIMIT_VALUE_TYPES })
  @IsIn(AUTHORITY_LIMIT_VALUE_TYPES)
  authorityLimitValueType: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: '1000', description: 'A decimal (or "Unlimited": only unlimited limits)' })
  @Nullable()
  @IsString()
  @Matches(LIMIT_VALUE, { message: '$property must be a non-negative decimal or "Unlimited"' })
  minValue?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Unlimited', description: 'A decimal, or "Unlimited" for no upper bound' })
  @Nullable()
  @IsString()
  @Matches(LIMIT_VALUE, { message: '$property must be a non-negative decimal or "Unlimited"' })
  maxValue?: string | null;
}

/**
 * A JSON-encoded array of `cls` in a query string (`authorityLimitValueFilters=[{...}]`), or the
 * array itself in a body. class-transformer runs `@Type` before this, while the value is still a
 * string, so the parsed items are made instances here (as plain objects, whitelisting would refuse
 * every field of theirs and nothing inside would be validated).
 */
export const JsonArrayOf = (cls: new () => object, max: number) =>
  Transform(
    ({ value }) => {
      if (typeof value !== 'string') return value;
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        return value; // not JSON: IsArray names the field
      }
      if (!Array.isArray(parsed) || parsed.length > max) return parsed; // IsArray or ArrayMaxSize names the field
      return parsed.map((item: unknown) => (item && typeof item === 'object' && !Array.isArray(item) ? plainToInstance(cls, item) : item));
    },
    { toClassOnly: true },
  );

/**
 * GET /decision/v1/decisions (comma lists, the limit filters JSON-encoded) and POST
 * /decision/v1/decisions/global-search (the same fields in a body, lists as arrays or comma strings).
 */
export class SearchDecisionsDto extends DatedPageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: "Tenant to search (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ maxLength: 200, description: 'Contained in the name, the description or the display id (case-insensitive)', example: 'purchase' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ description: `Comma-separated: ${DECISION_STATUSES.join(', ')}`, example: 'PUBLISHED' })
  @EnumListQuery(DECISION_STATUSES)
  status?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated section ids' })
  @UuidListQuery(MAX_LIST_ITEMS)
  sectionIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated category ids' })
  @UuidListQuery(MAX_LIST_ITEMS)
  categoryIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated group ids: decisions covering any of them' })
  @UuidListQuery(MAX_LIST_ITEMS)
  groupIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated owner user ids' })
  @UuidListQuery(MAX_LIST_ITEMS)
  ownerIds?: string[];

  @ApiPropertyOptional({ description: 'Only delegable (true) or not delegable (false) decisions' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  delegable?: boolean;

  @ApiPropertyOptional({ description: 'Comma-separated authority type ids: decisions with an authority of any of them' })
  @UuidListQuery(MAX_LIST_ITEMS)
  authorityTypeIds?: string[];

  @ApiPropertyOptional({ description: `Comma-separated value types: ${AUTHORITY_LIMIT_VALUE_TYPES.join(', ')}` })
  @EnumListQuery(AUTHORITY_LIMIT_VALUE_TYPES)
  authorityLimitValueTypes?: string[];

  @ApiPropertyOptional({
    type: [LimitValueFilterDto],
    description: 'Each filter must hold (in a query string: the array JSON-encoded), e.g. [{"authorityLimitValueType":"Currency","minValue":"1000","maxValue":"Unlimited"}]',
  })
  @OptionalNotNull()
  @JsonArrayOf(LimitValueFilterDto, MAX_LIMIT_FILTERS)
  @IsArray()
  @ArrayMaxSize(MAX_LIMIT_FILTERS)
  @ValidateNested({ each: true })
  @Type(() => LimitValueFilterDto)
  authorityLimitValueFilters?: LimitValueFilterDto[];

  @ApiPropertyOptional({ description: 'Comma-separated decision ids: only these' })
  @UuidListQuery(MAX_BULK_IDS)
  selectedDecisionIds?: string[];

  @ApiPropertyOptional({ description: `Comma-separated fields to return; only these keys come back per item. One of: ${DECISION_FIELDS.join(', ')}`, example: 'id,name,status' })
  @EnumListQuery(DECISION_FIELDS)
  select?: string[];

  @ApiPropertyOptional({ enum: DECISION_SORTS, default: 'name', description: 'decisionDisplayId sorts numerically; ties are broken by id' })
  @OptionalNotNull()
  @IsIn(DECISION_SORTS)
  sortBy: DecisionSort = 'name';
}
