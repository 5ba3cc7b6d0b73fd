import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsString, IsUUID, MaxLength } from 'class-validator';
import { EnumListQuery, OptionalNotNull, PageQuery, ToBoolean, UuidListQuery } from '@ddm/contracts';
import { DELEGATION_STATUSES } from '../delegation.rules';
import { DELEGATION_SORTS, DelegationSort } from '../delegation.sql';

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
  @EnumListQuery(DELEGATION_STATUSES)
  status?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated decision ids' })
  @UuidListQuery(MAX_LIST_ITEMS)
  decisionIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated recipient user ids' })
  @UuidListQuery(MAX_LIST_ITEMS)
  recipientUserIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated position ids: delegations issued from or given to any of them' })
  @UuidListQuery(MAX_LIST_ITEMS)
  positionIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated group ids: delegations covering any of them' })
  @UuidListQuery(MAX_LIST_ITEMS)
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

  @ApiPropertyOptional({ enum: DELEGATION_SORTS, default: 'delegationDisplayId' })
  @OptionalNotNull()
  @IsIn(DELEGATION_SORTS)
  sortBy: DelegationSort = 'delegationDisplayId';
}
