import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsString, IsUUID, Matches, MaxLength, ValidateNested } from 'class-validator';
import { Nullable, OptionalNotNull } from '@ddm/contracts';
import { ConsistencyDto } from '@ddm/platform';
import { MAX_ANSWER_ITEMS, MAX_CHANGES, MAX_DECISIONS_EVALUATED, MAX_PARENT_GROUPS, WHAT_IF_CHANGE_TYPES, WhatIfChangeType } from '../what-if.rules';

/** A limit value as a decision holds it: a non-negative decimal (15 digits, 6 decimals) or "Unlimited". */
const LIMIT_VALUE = /^(Unlimited|(0|[1-9]\d{0,14})(\.\d{1,6})?)$/;

/** One proposed change of the organisation (or of a decision's limit); each type takes exactly the fields its description names. */
export class WhatIfChangeDto {
  @ApiProperty({
    enum: WHAT_IF_CHANGE_TYPES,
    description:
      'user-leaves-position, user-joins-position: userId + positionId; position-deleted: positionId; group-deleted: groupId (its live children lose it as a parent, ' +
      'as settings republishes them; its positions keep the link, as disableOption NA and KEEP_ASSOCIATIONS do); group-moved: groupId + parentGroupIds (its new parents, all of them); ' +
      'manager-changed: userId + managerId (null: no manager); user-deactivated: userId (becomes INACTIVE); decision-limit-changed: decisionId + authorityTypeId + value',
  })
  @IsIn(WHAT_IF_CHANGE_TYPES)
  type: WhatIfChangeType;

  @ApiPropertyOptional({ format: 'uuid', description: 'A member of the tenant (user record id)' })
  @OptionalNotNull()
  @IsUUID()
  userId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'A position of the tenant' })
  @OptionalNotNull()
  @IsUUID()
  positionId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'A group of the tenant (record id)' })
  @OptionalNotNull()
  @IsUUID()
  groupId?: string;

  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_PARENT_GROUPS, description: 'group-moved: every parent the group would have (none: the top of the hierarchy)' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_PARENT_GROUPS)
  @ArrayUnique((id: string) => String(id).toLowerCase())
  @IsUUID('all', { each: true })
  parentGroupIds?: string[];

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'manager-changed: the new manager (a member of the tenant), or null for none' })
  @Nullable()
  @IsUUID()
  managerId?: string | null;

  @ApiPropertyOptional({ format: 'uuid', description: 'decision-limit-changed: a decision of the tenant' })
  @OptionalNotNull()
  @IsUUID()
  decisionId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'decision-limit-changed: one of the decision\'s authority types' })
  @OptionalNotNull()
  @IsUUID()
  authorityTypeId?: string;

  @ApiPropertyOptional({
    maxLength: 40,
    example: '250000',
    description:
      "decision-limit-changed: the decision's new limit value for that authority type, as a decision holds it (`authorityLimitValue`): a non-negative decimal string " +
      '(at most 15 digits and 6 decimals) or "Unlimited"; the operator, value type and unit stay. An Authorized authority has no value to change (400).',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(40)
  @Matches(LIMIT_VALUE, { message: '$property must be a non-negative decimal (at most 15 digits and 6 decimals) or "Unlimited"' })
  value?: string;
}

/** POST /decision/v1/authority/what-if: what the changes, applied in order, would do to delegations and authority. */
export class WhatIfDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Tenant (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiProperty({ type: [WhatIfChangeDto], minItems: 1, maxItems: MAX_CHANGES, description: 'Applied in this order, each to the organisation as the changes before it left it' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CHANGES)
  @ValidateNested({ each: true })
  @Type(() => WhatIfChangeDto)
  changes: WhatIfChangeDto[];

  @ApiPropertyOptional({
    type: ConsistencyDto,
    description: 'Evaluate only once the change a write answered (its x-consistency-token) is applied here (the header x-consistency-token does the same)',
  })
  @OptionalNotNull()
  @ValidateNested()
  @Type(() => ConsistencyDto)
  consistency?: ConsistencyDto;
}

export class InvalidatedDelegationView {
  @ApiProperty({ format: 'uuid' }) delegationId: string;
  @ApiProperty({ example: '10231' }) delegationDisplayId: string;
  @ApiProperty({ type: [String], example: ['Recipient'], description: 'What the delegation would be marked invalid for (Recipient, Issuer, Pathway, Authority, Groups, Parent)' }) invalidFields: string[];
}

/** A person holding a decision's authority of one type, through any delegation in force with its chain (a position's counts for whoever holds it). */
export class AuthorityHoldingView {
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ format: 'uuid' }) decisionId: string;
  @ApiProperty({ format: 'uuid' }) authorityTypeId: string;
}

export class DecisionWithoutHolderView {
  @ApiProperty({ format: 'uuid' }) decisionId: string;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: "One of the decision's groups, or a group one of its delegations in force was scoped to; null: the decision's whole scope (a decision without groups)",
  })
  groupId: string | null;
}

export class WhatIfView {
  @ApiProperty({
    type: [InvalidatedDelegationView],
    maxItems: MAX_ANSWER_ITEMS,
    description: 'Live delegations that would become invalid, or be invalid for other fields than now; by delegationDisplayId',
  })
  invalidated: InvalidatedDelegationView[];

  @ApiProperty({ type: [AuthorityHoldingView], maxItems: MAX_ANSWER_ITEMS, description: 'Who would no longer hold what they hold now; by decision (display id), person, authority type' })
  authorityLost: AuthorityHoldingView[];

  @ApiProperty({ type: [AuthorityHoldingView], maxItems: MAX_ANSWER_ITEMS, description: 'Who would hold what they do not hold now; same order' })
  authorityGained: AuthorityHoldingView[];

  @ApiProperty({
    type: [DecisionWithoutHolderView],
    maxItems: MAX_ANSWER_ITEMS,
    description:
      'Where a decision would lose its last holder: each of its groups (or its whole scope) that someone holds now through a delegation covering it (no groups, or a group it lies within) ' +
      `and no one would; by decision (display id), then group (whole scope first). Decisions are evaluated only where the changes reach (at most ${MAX_DECISIONS_EVALUATED})`,
  })
  decisionsWithoutHolder: DecisionWithoutHolderView[];
}
