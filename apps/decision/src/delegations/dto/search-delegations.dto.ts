import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import { DELEGATION_ISSUER_TYPES, EnumListQuery, FilterEnumList, FilterUuidList, IsoDateTime, OptionalNotNull, PageQuery, ToBoolean } from '@ddm/contracts';
import { DECISION_PATHWAYS } from '../../core/decision-limits';
import { JsonArrayOf, LimitValueFilterDto, MAX_LIMIT_FILTERS } from '../../core/dto/limits.dto';
import { DELEGATION_STATUSES, INVALID_FIELDS } from '../../core/delegation.types';
import { DELEGATION_SORTS, DelegationSort } from '../delegation.sql';
import { DELEGATION_FIELDS } from '../../core/delegation.view';

const MAX_LIST_ITEMS = 100;

/** GET /decision/v1/delegations (comma lists) and POST /decision/v1/delegations/global-search (the same fields in a body). */
export class SearchDelegationsDto extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: "Tenant to search (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ maxLength: 200, description: "Contained in the decision's name or the delegation's display id (case-insensitive)" })
  @OptionalNotNull()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ description: `Comma-separated: ${DELEGATION_STATUSES.join(', ')} (default: all but DELETED)`, example: 'ISSUED,ACCEPTED' })
  @FilterEnumList(DELEGATION_STATUSES)
  status?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated decision ids' })
  @FilterUuidList(MAX_LIST_ITEMS)
  decisionIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated recipient user ids' })
  @FilterUuidList(MAX_LIST_ITEMS)
  recipientUserIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated position ids: delegations issued from or given to any of them' })
  @FilterUuidList(MAX_LIST_ITEMS)
  positionIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated group ids: delegations covering any of them' })
  @FilterUuidList(MAX_LIST_ITEMS)
  groupIds?: string[];

  @ApiPropertyOptional({ format: 'uuid' })
  @OptionalNotNull()
  @IsUUID()
  issuerUserId?: string;

  @ApiPropertyOptional({ description: 'Only delegations with alerts (true) or without (false)' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isInvalid?: boolean;

  @ApiPropertyOptional({ description: 'Only delegations a holder disputed in an attestation campaign (true) or not (false)' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  attestationDisputed?: boolean;

  @ApiPropertyOptional({ description: 'Only root delegations' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  rootOnly?: boolean;

  @ApiPropertyOptional({ description: "Only the caller's: issued by or given to them" })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  onlyMine?: boolean;

  @ApiPropertyOptional({ description: 'Comma-separated section ids of the decisions delegated' })
  @FilterUuidList(MAX_LIST_ITEMS)
  sectionIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated category ids of the decisions delegated' })
  @FilterUuidList(MAX_LIST_ITEMS)
  categoryIds?: string[];

  @ApiPropertyOptional({ description: `Comma-separated: ${DELEGATION_ISSUER_TYPES.join(', ')}` })
  @FilterEnumList(DELEGATION_ISSUER_TYPES)
  issuerType?: string[];

  @ApiPropertyOptional({ format: 'uuid', description: 'Issued from this position' })
  @OptionalNotNull()
  @IsUUID()
  issuerPositionId?: string;

  @ApiPropertyOptional({ description: `Comma-separated pathways: delegations with any of them (${DECISION_PATHWAYS.join(', ')})` })
  @FilterEnumList(DECISION_PATHWAYS)
  delegationPathway?: string[];

  @ApiPropertyOptional({ description: 'Only delegations with (true) or without (false) an authority the recipient may hand on' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  redelegable?: boolean;

  @ApiPropertyOptional({ description: `Comma-separated: delegations marked invalid for any of them (${INVALID_FIELDS.join(', ')})` })
  @FilterEnumList(INVALID_FIELDS)
  invalidFields?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated authority type ids: delegations with an authority of any of them' })
  @FilterUuidList(MAX_LIST_ITEMS)
  authorityTypeIds?: string[];

  @ApiPropertyOptional({
    type: [LimitValueFilterDto],
    description: 'Each filter must hold (in a query string: the array JSON-encoded), e.g. [{"authorityLimitValueType":"Currency","minValue":"1000","maxValue":"50000"}]',
  })
  @OptionalNotNull()
  @JsonArrayOf(LimitValueFilterDto, MAX_LIMIT_FILTERS)
  @IsArray()
  @ArrayMaxSize(MAX_LIMIT_FILTERS)
  @ValidateNested({ each: true })
  @Type(() => LimitValueFilterDto)
  authorityLimitValueFilters?: LimitValueFilterDto[];

  @ApiPropertyOptional({ description: 'Issued at or after (ISO 8601 date-time)' })
  @OptionalNotNull()
  @IsoDateTime()
  issuedDateStart?: string;

  @ApiPropertyOptional({ description: 'Issued at or before (ISO 8601 date-time, inclusive to the millisecond)' })
  @OptionalNotNull()
  @IsoDateTime()
  issuedDateEnd?: string;

  @ApiPropertyOptional({ description: 'Expiring at or after (ISO 8601 date-time)' })
  @OptionalNotNull()
  @IsoDateTime()
  expirationDateStart?: string;

  @ApiPropertyOptional({ description: 'Expiring at or before (ISO 8601 date-time, inclusive to the millisecond)' })
  @OptionalNotNull()
  @IsoDateTime()
  expirationDateEnd?: string;

  @ApiPropertyOptional({ description: `Comma-separated fields to return; only these keys come back per item. One of: ${DELEGATION_FIELDS.join(', ')}`, example: 'id,status' })
  @EnumListQuery(DELEGATION_FIELDS)
  select?: string[];

  @ApiPropertyOptional({ enum: DELEGATION_SORTS, default: 'delegationDisplayId' })
  @OptionalNotNull()
  @IsIn(DELEGATION_SORTS)
  sortBy: DelegationSort = 'delegationDisplayId';

  @ApiPropertyOptional({ format: 'date-time', description: 'The delegations as they stood at this instant (each one\'s revision then; the filters apply to that state); now when left out' })
  @OptionalNotNull()
  @IsoDateTime()
  at?: string;
}

/** GET /decision/v1/delegations/{id}?at=: the delegation as it stood at an instant (its revision then). */
export class DelegationAtQuery {
  @ApiPropertyOptional({ format: 'date-time', description: 'Answer the delegation as it stood at this instant (ISO 8601); now when left out' })
  @OptionalNotNull()
  @IsoDateTime()
  at?: string;
}
