import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { OptionalNotNull, PageQuery } from '@ddm/contracts';
import { SodSideView } from './sod-rule.response';

/** GET /decision/v1/authority/sod-conflicts: who holds both sides of a rule now. */
export class SodConflictsQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: "Tenant (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only the conflicts of this rule' })
  @OptionalNotNull()
  @IsUUID()
  ruleId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only the conflicts of this person' })
  @OptionalNotNull()
  @IsUUID()
  userId?: string;
}

export class SodRuleRefView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
}

/** One delegation of a chain, as it stands. */
export class SodChainLinkView {
  @ApiProperty({ format: 'uuid' }) delegationId: string;
  @ApiProperty({ example: '10231' }) delegationDisplayId: string;
  @ApiProperty({ example: 'ISSUED' }) status: string;
  @ApiProperty({ example: 'ROOT_AUTHORITY' }) issuerType: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) issuerUserId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) issuerPositionId: string | null;
  @ApiProperty({ example: 'SPECIFIC_PERSONNEL' }) recipientType: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) recipientUserId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) recipientPositionId: string | null;
  @ApiProperty({ example: '<= USD 250,000', description: "The link's limit of the side's authority type" }) limit: string;
}

/** How the holder holds one side: the delegation held and its chain, root first (the holder's delegation last). */
export class SodConflictSideView extends SodSideView {
  @ApiProperty({ format: 'uuid', description: "The holder's delegation" }) delegationId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The position it is held through (a POSITION_ONLY or PERSONNEL_IN_POSITION delegation)' }) viaPositionId: string | null;
  @ApiProperty({ type: [SodChainLinkView] }) chain: SodChainLinkView[];
}

/** A person or a position holding both sides of a rule now, by one delegation each. */
export class SodConflictView {
  @ApiProperty({ type: SodRuleRefView }) rule: SodRuleRefView;
  @ApiProperty({ enum: ['USER', 'POSITION'] }) holderType: 'USER' | 'POSITION';
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) userId: string | null;
  @ApiProperty({ type: String, nullable: true }) userName: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The position holding both sides (POSITION holders)' }) positionId: string | null;
  @ApiProperty({ description: 'Whether either delegation was issued with this rule acknowledged (acknowledgeSodConflict)' }) acknowledged: boolean;
  @ApiProperty({ type: SodConflictSideView }) left: SodConflictSideView;
  @ApiProperty({ type: SodConflictSideView }) right: SodConflictSideView;
}
