import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import {
  AUTHORITY_LIMIT_VALUE_TYPES,
  DECISION_STATUSES,
  DatedPageQuery,
  EnumListQuery,
  FilterEnumList,
  FilterUuidList,
  OptionalNotNull,
  ToBoolean,
} from '@ddm/contracts';
import { MAX_BULK_IDS } from '../decision.rules';
import { JsonArrayOf, LimitValueFilterDto, MAX_LIMIT_FILTERS } from '../../core/dto/limits.dto';
import { DECISION_SORTS, DecisionSort } from '../decision.sql';
import { DECISION_FIELDS } from './decision.response';

const MAX_LIST_ITEMS = 100;

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
  @FilterEnumList(DECISION_STATUSES)
  status?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated section ids' })
  @FilterUuidList(MAX_LIST_ITEMS)
  sectionIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated category ids' })
  @FilterUuidList(MAX_LIST_ITEMS)
  categoryIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated group ids: decisions covering any of them' })
  @FilterUuidList(MAX_LIST_ITEMS)
  groupIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated owner user ids' })
  @FilterUuidList(MAX_LIST_ITEMS)
  ownerIds?: string[];

  @ApiPropertyOptional({ description: 'Only delegable (true) or not delegable (false) decisions' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  delegable?: boolean;

  @ApiPropertyOptional({ description: 'Comma-separated authority type ids: decisions with an authority of any of them' })
  @FilterUuidList(MAX_LIST_ITEMS)
  authorityTypeIds?: string[];

  @ApiPropertyOptional({ description: `Comma-separated value types: ${AUTHORITY_LIMIT_VALUE_TYPES.join(', ')}` })
  @FilterEnumList(AUTHORITY_LIMIT_VALUE_TYPES)
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
  @FilterUuidList(MAX_BULK_IDS)
  selectedDecisionIds?: string[];

  @ApiPropertyOptional({ description: `Comma-separated fields to return; only these keys come back per item. One of: ${DECISION_FIELDS.join(', ')}`, example: 'id,name,status' })
  @EnumListQuery(DECISION_FIELDS)
  select?: string[];

  @ApiPropertyOptional({ enum: DECISION_SORTS, default: 'name', description: 'decisionDisplayId sorts numerically; ties are broken by id' })
  @OptionalNotNull()
  @IsIn(DECISION_SORTS)
  sortBy: DecisionSort = 'name';
}
