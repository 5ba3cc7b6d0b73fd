import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, IsUUID, Matches, MaxLength, ValidateNested } from 'class-validator';
import { DELEGATION_ISSUER_TYPES, DELEGATION_RECIPIENT_TYPES, IsoDateTime, Nullable, OptionalNotNull, PageQuery } from '@ddm/contracts';
import { ConsistencyDto } from '@ddm/platform';

/** The body field of the reads that wait for a write (as the x-consistency-token header does). */
const CONSISTENCY = {
  type: ConsistencyDto,
  description: 'Answer only once the change a write answered (its x-consistency-token) is applied here (the header x-consistency-token does the same)',
};
/** What an answer says of its freshness. */
export const CONSISTENT_AS_OF = {
  format: 'date-time',
  description:
    'The decision area has applied every event it follows (people, positions, groups... of the auth and settings areas) published before this instant; ' +
    'the answer reflects at least that (a lower bound, never later than what the answer was read from)',
} as const;

const DECIMAL = /^(0|[1-9]\d{0,14})(\.\d{1,6})?$/;

/** POST /decision/v1/authority/check: may this person (or position) decide this, for this value, here, at this instant? */
export class AuthorityCheckDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Tenant (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'The person asked about (record id); or positionId' })
  @Nullable()
  @IsUUID()
  userId?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'The position asked about: what was delegated to it as POSITION_ONLY' })
  @Nullable()
  @IsUUID()
  positionId?: string | null;

  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  decisionId: string;

  @ApiPropertyOptional({ format: 'uuid', description: "The authority type (default: the decision's first)" })
  @OptionalNotNull()
  @IsUUID()
  authorityTypeId?: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: '400000', description: 'A decimal (Currency, Number, Percentage, Time); none for Authorized' })
  @Nullable()
  @IsString()
  @Matches(DECIMAL, { message: '$property must be a non-negative decimal with at most 6 decimals' })
  value?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 10, example: 'USD', description: 'ISO 4217 for Currency; Days, Months or Years for Time' })
  @Nullable()
  @IsString()
  @MaxLength(10)
  unit?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'Where the decision is taken (a group of the tenant)' })
  @Nullable()
  @IsUUID()
  groupId?: string | null;

  @ApiPropertyOptional({ format: 'date-time', description: 'The instant asked about (default: now)' })
  @OptionalNotNull()
  @IsoDateTime()
  at?: string;

  @ApiPropertyOptional(CONSISTENCY)
  @OptionalNotNull()
  @ValidateNested()
  @Type(() => ConsistencyDto)
  consistency?: ConsistencyDto;
}

export class LimitView {
  @ApiProperty({ example: '250000', description: 'A decimal, or "Unlimited"' }) value: string;
  @ApiProperty({ type: String, nullable: true, example: 'USD' }) unit: string | null;
  @ApiProperty({ type: String, nullable: true, enum: ['<', '<=', null], description: 'null for Unlimited' }) operator: string | null;
}

export class ChainIssuerView {
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) userId: string | null;
  @ApiProperty({ type: String, nullable: true }) userName: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) positionId: string | null;
  @ApiProperty({ type: String, nullable: true }) positionName: string | null;
}

export class ChainRecipientView extends ChainIssuerView {
  @ApiProperty({ enum: DELEGATION_RECIPIENT_TYPES }) recipientType: string;
}

export class ChainAuthorityView {
  @ApiProperty({ format: 'uuid' }) authorityTypeId: string;
  @ApiProperty({ example: 'Currency' }) authorityLimitValueType: string;
  @ApiProperty({ type: String, nullable: true, enum: ['<', '<=', null] }) authorityLimitOperator: string | null;
  @ApiProperty({ type: String, nullable: true, example: '250000' }) authorityLimitValue: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'USD' }) authorityLimitValueUnit: string | null;
  @ApiProperty({ example: '<= USD 250,000', description: 'The limit as a person reads it' }) display: string;
}

/** One delegation of the chain, as it stood at the instant asked about. */
export class ChainLinkView {
  @ApiProperty({ format: 'uuid' }) delegationId: string;
  @ApiProperty({ example: '10231' }) delegationDisplayId: string;
  @ApiProperty({ enum: DELEGATION_ISSUER_TYPES }) issuerType: string;
  @ApiProperty({ type: ChainIssuerView }) issuer: ChainIssuerView;
  @ApiProperty({ type: ChainRecipientView }) recipient: ChainRecipientView;
  @ApiProperty({ example: 'ISSUED' }) status: string;
  @ApiProperty({ type: ChainAuthorityView, nullable: true, description: 'Its authority of the type asked about (null when it holds none)' }) authority: ChainAuthorityView | null;
}

/** One check's answer (of the batch too). */
export class AuthorityCheckResultView {
  @ApiProperty() allowed: boolean;
  @ApiProperty({ type: [String], description: 'Why the nearest chains do not allow, each naming the blocking delegation (empty when allowed)' }) reasons: string[];
  @ApiProperty({ type: LimitView, nullable: true, description: "The holder's limit on the chain that allows (the highest); null for Authorized or when not allowed" }) limit: LimitView | null;
  @ApiProperty({ type: [ChainLinkView], description: 'The chain that allows, root first (empty when none does)' }) chain: ChainLinkView[];
  @ApiProperty({ type: String, nullable: true, enum: [...DELEGATION_RECIPIENT_TYPES, null], description: 'How the subject held the last delegation of the chain' }) heldVia: string | null;
  @ApiProperty({ format: 'date-time', description: 'The instant the answer is about (`at`, default the time of the request)' }) evaluatedAt: string;
  @ApiProperty({ format: 'uuid' }) decisionId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "The type asked about (the decision's first by default; null when the decision did not exist then)" }) authorityTypeId: string | null;
}

/** The check's answer, with how fresh it is. */
export class AuthorityCheckView extends AuthorityCheckResultView {
  @ApiProperty(CONSISTENT_AS_OF) consistentAsOf: string;
}

/** POST /decision/v1/authority/check-batch: up to 1,000 checks, answered in order. */
export class AuthorityCheckBatchDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Tenant (default: the caller's active tenant); each check's tenantId, if sent, must be this one" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiProperty({ type: [AuthorityCheckDto], minItems: 1, maxItems: 1000, description: "Each a check's body; a check's own `consistency` is waited for too" })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => AuthorityCheckDto)
  checks: AuthorityCheckDto[];

  @ApiPropertyOptional(CONSISTENCY)
  @OptionalNotNull()
  @ValidateNested()
  @Type(() => ConsistencyDto)
  consistency?: ConsistencyDto;
}

export class AuthorityCheckBatchView {
  @ApiProperty({ ...CONSISTENT_AS_OF, description: `${CONSISTENT_AS_OF.description}; one instant for every result (all are read after the same wait)` }) consistentAsOf: string;
  @ApiProperty({ type: [AuthorityCheckResultView], description: 'One answer per check, in the same order' }) results: AuthorityCheckResultView[];
}

/** A page of the authority held at an instant (default now), with only the chains covering a group when one is named. */
export class HeldAtQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only chains whose every link covers this group (a group of the tenant, live then)' })
  @OptionalNotNull()
  @IsUUID()
  groupId?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'The instant asked about (default: now)' })
  @OptionalNotNull()
  @IsoDateTime()
  at?: string;
}

/** GET /decision/v1/authority/holders: who held the decision's authority at an instant, each person (and position) once. */
export class AuthorityHoldersQuery extends HeldAtQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  decisionId: string;

  @ApiPropertyOptional({ format: 'uuid', description: "Only this authority type (its limit also orders the list; default order: the decision's first type)" })
  @OptionalNotNull()
  @IsUUID()
  authorityTypeId?: string;
}

/** A delegation through which an authority is held. */
export class HeldViaDelegationView {
  @ApiProperty({ format: 'uuid' }) delegationId: string;
  @ApiProperty({ example: '10002' }) delegationDisplayId: string;
}

/** One authority type as a holder holds it: the highest limit, how, and every delegation giving it. */
export class HeldAuthorityView {
  @ApiProperty({ format: 'uuid' }) authorityTypeId: string;
  @ApiProperty({ type: LimitView, nullable: true, description: 'The highest limit held (null for Authorized)' }) limit: LimitView | null;
  @ApiProperty({ example: '<= USD 250,000', description: 'The limit as a person reads it' }) display: string;
  @ApiProperty({ enum: DELEGATION_RECIPIENT_TYPES, description: 'How the delegation giving the highest limit names the holder' }) heldVia: string;
  @ApiProperty({ type: [HeldViaDelegationView], description: 'Every delegation giving the holder this type (each in force with its whole chain): the highest limit first, then in display id order' }) via: HeldViaDelegationView[];
}

/** A holder of a decision's authority, once: a person (by person, while in a position, or as a holder of a POSITION_ONLY position), or a POSITION_ONLY position. */
export class AuthorityHolderView {
  @ApiProperty({ enum: ['USER', 'POSITION'] }) holderType: 'USER' | 'POSITION';
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) userId: string | null;
  @ApiProperty({ type: String, nullable: true }) userName: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The position itself (POSITION); null for a person' }) positionId: string | null;
  @ApiProperty({ type: String, nullable: true }) positionName: string | null;
  @ApiProperty({ type: [HeldAuthorityView], description: 'Per authority type, the highest limit held' }) authorities: HeldAuthorityView[];
}

/** GET /decision/v1/authority/decisions: what a person (or a position) may decide ("my authority"). */
export class AuthorityDecisionsQuery extends HeldAtQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'The person asked about (record id); or positionId. A person may ask of themselves without view:decisions' })
  @OptionalNotNull()
  @IsUUID()
  userId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The position asked about: what was delegated to it as POSITION_ONLY' })
  @OptionalNotNull()
  @IsUUID()
  positionId?: string;
}

/** One authority type of a decision as the subject holds it: the highest limit, how, and the chain giving it (root first). */
export class HeldDecisionAuthorityView {
  @ApiProperty({ format: 'uuid' }) authorityTypeId: string;
  @ApiProperty({ type: LimitView, nullable: true, description: 'The highest limit held (null for Authorized)' }) limit: LimitView | null;
  @ApiProperty({ example: '<= USD 250,000', description: 'The limit as a person reads it' }) display: string;
  @ApiProperty({ enum: DELEGATION_RECIPIENT_TYPES, description: 'How the subject holds the last delegation of the chain' }) heldVia: string;
  @ApiProperty({ type: [HeldViaDelegationView], description: 'The chain of the highest limit, root first' }) chain: HeldViaDelegationView[];
}

/** A decision the subject may decide, with the highest limit per authority type. */
export class HeldDecisionView {
  @ApiProperty({ format: 'uuid' }) decisionId: string;
  @ApiProperty({ example: '70001' }) decisionDisplayId: string;
  @ApiProperty() decisionName: string;
  @ApiProperty({ type: [HeldDecisionAuthorityView] }) authorities: HeldDecisionAuthorityView[];
}
