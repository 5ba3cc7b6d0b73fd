import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsIn, IsNotEmpty, IsObject, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import { ATTESTATION_COMMENT_MAX, ATTESTATION_OUTCOMES, IsoDateTime, Nullable, OptionalNotNull, ToBoolean, Trim } from '@ddm/contracts';
import { CAMPAIGN_NAME_MAX, MAX_SCOPE_IDS } from '../attestation.rules';

/** What a campaign covers: the delegations held now of the decisions named, or covering (or of a decision in) the groups named or a group below them; or all. */
export class AttestationScopeDto {
  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_SCOPE_IDS, description: 'Decisions whose delegations are attested' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_SCOPE_IDS)
  @IsUUID('all', { each: true })
  decisionIds?: string[];

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    maxItems: MAX_SCOPE_IDS,
    description: 'Groups: delegations covering one of them or a group below it, and the delegations of decisions in one of them or below it',
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_SCOPE_IDS)
  @IsUUID('all', { each: true })
  groupIds?: string[];

  @ApiPropertyOptional({ default: false, description: "Every delegation of the tenant (then send neither decisionIds nor groupIds)" })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  all?: boolean;
}

/** POST /decision/v1/attestations */
export class CreateAttestationCampaignDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Tenant (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiProperty({ maxLength: CAMPAIGN_NAME_MAX, example: 'Q3 delegation review' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(CAMPAIGN_NAME_MAX)
  name: string;

  @ApiProperty({ type: AttestationScopeDto, description: 'Criteria add up: a delegation matching any of them is covered' })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => AttestationScopeDto)
  scope: AttestationScopeDto;

  @ApiProperty({ format: 'date-time', description: 'When answers are due (in the future); unanswered ones are then OVERDUE' })
  @IsoDateTime()
  dueDate: string;

  @ApiPropertyOptional({ default: false, description: 'Suspend the delegations nobody answered for by the due date' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  suspendOverdue?: boolean;
}

/** POST /decision/v1/attestations/{id}/items/{delegationId}/respond */
export class RespondAttestationDto {
  @ApiProperty({ enum: ATTESTATION_OUTCOMES, description: 'CONFIRMED: the holder holds it rightly; DISPUTED: it is flagged for its issuer' })
  @IsIn(ATTESTATION_OUTCOMES)
  outcome: (typeof ATTESTATION_OUTCOMES)[number];

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ATTESTATION_COMMENT_MAX })
  @Nullable()
  @Trim()
  @IsString()
  @MaxLength(ATTESTATION_COMMENT_MAX)
  comment?: string | null;
}
