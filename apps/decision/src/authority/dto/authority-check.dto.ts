import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { IsoDateTime, Nullable, OptionalNotNull, PageQuery } from '@ddm/contracts';

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
}

export class ChainLinkView {
  @ApiProperty({ format: 'uuid' }) delegationId: string;
  @ApiProperty({ example: '10231' }) delegationDisplayId: string;
  @ApiProperty({ example: '<= USD 250,000' }) limit: string;
}

export class AuthorityCheckView {
  @ApiProperty() allowed: boolean;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ format: 'uuid' }) decisionId: string;
  @ApiProperty({ format: 'uuid' }) authorityTypeId: string;
  @ApiProperty({ type: String, nullable: true, description: "The holder's limit on the chain that allows (the highest), e.g. '<= USD 500,000'" }) limit: string | null;
  @ApiProperty({ type: [ChainLinkView], description: 'The chain that allows, root first (empty when none does)' }) chain: ChainLinkView[];
  @ApiProperty({ type: [String], description: 'Why the nearest chains do not allow, each naming the blocking delegation (empty when allowed)' }) reasons: string[];
}

/** GET /decision/v1/authority/holders: who held the decision's authority at an instant. */
export class AuthorityHoldersQuery extends PageQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  decisionId: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'The instant asked about (default: now)' })
  @OptionalNotNull()
  @IsoDateTime()
  at?: string;
}

export class HolderLimitView {
  @ApiProperty({ format: 'uuid' }) authorityTypeId: string;
  @ApiProperty({ example: '<= USD 250,000' }) limit: string;
}

/** One holder: a person (by person, or while in the position) or a position, through one delegation in force with its whole chain. */
export class AuthorityHolderView {
  @ApiProperty({ enum: ['USER', 'POSITION'] }) holderType: 'USER' | 'POSITION';
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) userId: string | null;
  @ApiProperty({ type: String, nullable: true }) userName: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) positionId: string | null;
  @ApiProperty({ format: 'uuid' }) delegationId: string;
  @ApiProperty() delegationDisplayId: string;
  @ApiProperty({ example: 'PERSONNEL_IN_POSITION' }) recipientType: string;
  @ApiProperty({ type: [HolderLimitView] }) limits: HolderLimitView[];
}
