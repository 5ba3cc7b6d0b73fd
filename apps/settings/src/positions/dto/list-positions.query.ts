import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsString, IsUUID, MaxLength } from 'class-validator';
import { CommaList, DatedPageQuery, DELEGATION_ISSUER_TYPES, DELEGATION_RECIPIENT_TYPES, DelegationIssuerType, DelegationRecipientType, EnumListQuery, OptionalNotNull, RECORD_STATUSES, RecordStatus, UuidListQuery } from '@ddm/contracts';
import {
  MAX_LIST_ITEMS,
  POSITION_FIELDS,
  POSITION_SORTS,
  PositionField,
  PositionSort,
  SOURCE_TYPES,
  SourceType,
} from '../position.rules';

const DELEGATION_FILTER_NOTE =
  'Delegation filters select the positions that RECEIVED delegations of a shape: a position matches when at least one active (not revoked) ' +
  'delegation has it as recipient position and satisfies every delegation filter given (delegationIssuerType, delegationIssuerUserId, ' +
  'delegationIssuerPositionId, delegationPathway, delegationRecipientType).';

/** GET /settings/v1/positions: every filter of spec §4.3 under the product's names (ARCHITECTURE §3). */
export class ListPositionsQuery extends DatedPageQuery {
  @ApiPropertyOptional({ description: "Tenant to list (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({
    description: 'Comma-separated source types: Manual (created here), Directory Sync (SCIM-provisioned), All (no filter)',
    example: 'All,Directory Sync',
  })
  @EnumListQuery(SOURCE_TYPES, MAX_LIST_ITEMS)
  sourceType?: SourceType[];

  @ApiPropertyOptional({ description: 'Comma-separated group record ids: positions linked to any of them (groups not deleted)' })
  @UuidListQuery(MAX_LIST_ITEMS)
  groupIds?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated statuses', example: 'ACTIVE,INACTIVE' })
  @EnumListQuery(RECORD_STATUSES, MAX_LIST_ITEMS)
  status?: RecordStatus[];

  @ApiPropertyOptional({ description: 'Position name contains (case-insensitive)', maxLength: 200, example: 'Developer' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({
    enum: POSITION_SORTS,
    default: 'createdOn',
    description: 'positionId sorts by the numeric display id; status sorts by status, then name. Ties are broken by id.',
  })
  @OptionalNotNull()
  @IsIn(POSITION_SORTS)
  sortBy: PositionSort = 'createdOn';

  @ApiPropertyOptional({
    description: `Comma-separated fields to return; only these keys come back per item. One of: ${POSITION_FIELDS.join(', ')}`,
    example: 'id,positionName',
  })
  @EnumListQuery(POSITION_FIELDS, POSITION_FIELDS.length)
  select?: PositionField[];

  @ApiPropertyOptional({
    deprecated: true,
    description: 'DEPRECATED: use select instead. Same behaviour as select; ignored when select is given.',
    example: 'id,positionName',
  })
  @EnumListQuery(POSITION_FIELDS, POSITION_FIELDS.length)
  fields?: PositionField[];

  @ApiPropertyOptional({ description: 'Comma-separated position record ids: only these' })
  @UuidListQuery(MAX_LIST_ITEMS)
  selectedPositionIds?: string[];





  @ApiPropertyOptional({ enum: DELEGATION_ISSUER_TYPES, description: `Issuer type of a received delegation. ${DELEGATION_FILTER_NOTE}` })
  @OptionalNotNull()
  @IsIn(DELEGATION_ISSUER_TYPES)
  delegationIssuerType?: DelegationIssuerType;

  @ApiPropertyOptional({ description: `Issuing user of a received delegation (user record id). ${DELEGATION_FILTER_NOTE}` })
  @OptionalNotNull()
  @IsUUID()
  delegationIssuerUserId?: string;

  @ApiPropertyOptional({ description: `Issuing position of a received delegation (position record id). ${DELEGATION_FILTER_NOTE}` })
  @OptionalNotNull()
  @IsUUID()
  delegationIssuerPositionId?: string;

  @ApiPropertyOptional({
    description: `Comma-separated pathways; a received delegation matches when it has any of them. ${DELEGATION_FILTER_NOTE}`,
    example: 'Matrix,Functional',
  })
  @OptionalNotNull()
  @CommaList()
  @IsArray()
  @ArrayMaxSize(MAX_LIST_ITEMS)
  @IsString({ each: true })
  @MaxLength(50, { each: true })
  delegationPathway?: string[];

  @ApiPropertyOptional({ enum: DELEGATION_RECIPIENT_TYPES, description: `Recipient type of a received delegation. ${DELEGATION_FILTER_NOTE}` })
  @OptionalNotNull()
  @IsIn(DELEGATION_RECIPIENT_TYPES)
  delegationRecipientType?: DelegationRecipientType;

  @ApiPropertyOptional({
    description: 'Comma-separated position record ids sorted to the top (those that match the filters), then the chosen sort',
  })
  @UuidListQuery(MAX_LIST_ITEMS)
  pinnedPositionIds?: string[];
}
