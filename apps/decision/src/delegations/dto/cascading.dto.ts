import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsInt, IsString, IsUUID, MaxLength, Min, ValidateNested } from 'class-validator';
import { AUTHORITY_LIMIT_OPERATORS, AUTHORITY_LIMIT_VALUE_TYPES, Nullable, OptionalNotNull, ToBoolean } from '@ddm/contracts';
import { DECISION_PATHWAYS, MAX_DECISION_AUTHORITIES, MAX_DECISION_GROUPS } from '../../core/decision-limits';
import { toState } from '../../core/delegation.rules';
import { DecisionScope, DelegationLimit, DelegationRuleRow, DelegationState, INVALID_FIELDS, Limit } from '../../core/delegation.types';
import { NamedRef } from '../../core/live-refs';

class CascadeGroupDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() groupId: string;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true }) @Nullable() @IsUUID() tenantGroupTypeId?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) @Nullable() @IsString() @MaxLength(200) displayName?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) @Nullable() @IsString() @MaxLength(200) groupName?: string | null;
}

/** A group of the parent as proposed; `isInvalid` ones are left out of the proposal. */
class CascadeDelegationGroupDto extends CascadeGroupDto {
  @ApiPropertyOptional({ description: 'Left out of the proposed groups' }) @OptionalNotNull() @ToBoolean() @IsBoolean() isInvalid?: boolean;
}

export class CascadeAuthorityDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() authorityTypeId: string;
  @ApiPropertyOptional({ type: String, nullable: true }) @Nullable() @IsString() @MaxLength(50) authorityType?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) @Nullable() @IsString() @MaxLength(20) authorityLimit?: string | null;
  @ApiProperty({ enum: AUTHORITY_LIMIT_VALUE_TYPES }) @IsIn(AUTHORITY_LIMIT_VALUE_TYPES) authorityLimitValueType: string;
  @ApiPropertyOptional({ type: String, nullable: true, enum: [...AUTHORITY_LIMIT_OPERATORS, '', null], description: 'Ignored for Authorized; an empty string is absent' })
  @Nullable()
  @IsIn([...AUTHORITY_LIMIT_OPERATORS, ''])
  authorityLimitOperator?: string | null;
  @ApiPropertyOptional({ minimum: 0 }) @OptionalNotNull() @IsInt() @Min(0) authorityTypeOrder?: number;
  @ApiPropertyOptional({ type: String, nullable: true }) @Nullable() @IsString() @MaxLength(100) authorityTypeIcon?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) @Nullable() @IsString() @MaxLength(40) authorityLimitValue?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) @Nullable() @IsString() @MaxLength(10) authorityLimitValueUnit?: string | null;
}

/** An authority of the parent as proposed; `isInvalid` ones are left out, `isLimitOverridden` is recorded. */
export class CascadeDelegationAuthorityDto extends CascadeAuthorityDto {
  @ApiPropertyOptional() @OptionalNotNull() @ToBoolean() @IsBoolean() redelegable?: boolean;
  @ApiPropertyOptional({ type: String, nullable: true }) @Nullable() @IsString() @MaxLength(40) redelegationLimitValue?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) @Nullable() @IsString() @MaxLength(10) redelegationLimitValueUnit?: string | null;
  @ApiPropertyOptional({ description: 'Left out of the proposed authorities' }) @OptionalNotNull() @ToBoolean() @IsBoolean() isInvalid?: boolean;
  @ApiPropertyOptional() @OptionalNotNull() @ToBoolean() @IsBoolean() isLimitOverridden?: boolean;
}

const list = <T>(cls: new () => T, max: number, description: string) =>
  applyDecorators(
  ApiPropertyOptional({ type: [cls], maxItems: max, description }),
  OptionalNotNull(),
  IsArray(),
  ArrayMaxSize(max),
  ValidateNested({ each: true }),
    Type(() => cls),
  );

/** PATCH /decision/v1/delegations/check-cascading-updates (spec §4.1): a dry run. */
export class CheckCascadingUpdatesDto {
  @ApiPropertyOptional({ format: 'uuid', description: "The decision (every delegation of it is checked when only the decision's fields are proposed)" })
  @OptionalNotNull()
  @IsUUID()
  decisionId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The delegation whose change is proposed (its descendants are checked)' })
  @OptionalNotNull()
  @IsUUID()
  parentDelegationId?: string;

  @ApiPropertyOptional({ type: [String], enum: DECISION_PATHWAYS })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(DECISION_PATHWAYS.length)
  @ArrayUnique()
  @IsIn(DECISION_PATHWAYS, { each: true })
  updatedPathwayOptions?: string[];

  @list(CascadeDelegationGroupDto, MAX_DECISION_GROUPS, "The parent's groups as proposed")
  updatedDelegationGroups?: CascadeDelegationGroupDto[];

  @list(CascadeDelegationAuthorityDto, MAX_DECISION_AUTHORITIES, "The parent's authorities as proposed")
  updatedDelegationAuthorities?: CascadeDelegationAuthorityDto[];

  @list(CascadeGroupDto, MAX_DECISION_GROUPS, "The decision's groups as proposed")
  updatedDecisionGroups?: CascadeGroupDto[];

  @list(CascadeAuthorityDto, MAX_DECISION_AUTHORITIES, "The decision's authorities as proposed")
  updatedDecisionAuthorities?: CascadeAuthorityDto[];
}

export class AffectedDelegationView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() delegationDisplayId: string;
  @ApiProperty({ description: "1 for the changed delegation's direct children (for a decision: its root delegations)" }) depth: number;
  @ApiProperty({ type: [String], enum: INVALID_FIELDS }) invalidFields: string[];
}

export class CascadingCheckView {
  @ApiProperty() numberOfChildDelegationsInvalidated: number;
  @ApiProperty() childDelegationsInvalidated: boolean;
  @ApiProperty({ type: [AffectedDelegationView] }) childDelegationsAffected: AffectedDelegationView[];
}

/**
 * What check-cascading-updates proposes: the decision as it would be (its pathways only when no
 * parent is named), and the parent delegation `root` (when named) as it would be; authorities and
 * groups sent as `isInvalid` are left out.
 */
export function proposedCascade(dto: CheckCascadingUpdatesDto, decision: DecisionScope, root: DelegationRuleRow | null): { decision: DecisionScope; changed: { id: string; proposed: DelegationState } | null } {
  const proposedDecision: DecisionScope = {
    ...decision,
    pathways: !dto.parentDelegationId && dto.updatedPathwayOptions ? dto.updatedPathwayOptions : decision.pathways,
    groupIds: dto.updatedDecisionGroups ? dto.updatedDecisionGroups.map((g) => g.groupId.toLowerCase()) : decision.groupIds,
    authorities: dto.updatedDecisionAuthorities ? dto.updatedDecisionAuthorities.map(proposedLimit) : decision.authorities,
  };
  const changed = root && {
    id: root.id,
    proposed: {
      ...toState(root),
      pathways: dto.updatedPathwayOptions ?? root.delegation_pathway,
      groupIds: dto.updatedDelegationGroups ? dto.updatedDelegationGroups.filter((g) => !g.isInvalid).map((g) => g.groupId.toLowerCase()) : root.group_ids,
      authorities: dto.updatedDelegationAuthorities ? dto.updatedDelegationAuthorities.filter((a) => !a.isInvalid).map(proposedDelegationLimit) : root.delegation_authorities,
    },
  };
  return { decision: proposedDecision, changed };
}

/** A limit as check-cascading-updates proposes it. */
function proposedLimit(a: CascadeAuthorityDto): Limit {
  const authorized = a.authorityLimitValueType === 'Authorized';
  return {
    authorityTypeId: a.authorityTypeId.toLowerCase(),
    authorityLimitValueType: a.authorityLimitValueType as Limit['authorityLimitValueType'],
    authorityLimitOperator: authorized || !a.authorityLimitOperator ? null : (a.authorityLimitOperator as Limit['authorityLimitOperator']),
    authorityLimitValue: authorized ? null : (a.authorityLimitValue ?? null),
    authorityLimitValueUnit: authorized || !a.authorityLimitValueUnit ? null : a.authorityLimitValueUnit,
  };
}

function proposedDelegationLimit(a: CascadeDelegationAuthorityDto): DelegationLimit {
  return {
    ...proposedLimit(a),
    redelegable: a.redelegable ?? false,
    redelegationLimitValue: a.redelegationLimitValue ?? null,
    redelegationLimitValueUnit: a.redelegationLimitValueUnit ?? null,
    isLimitOverridden: a.isLimitOverridden ?? false,
  };
}

/** The records a check-cascading-updates body names, each with its field (requireLiveRefs): the decision, the parent, groups and their types, authority types. */
export function cascadeRefs(dto: CheckCascadingUpdatesDto): NamedRef[] {
  const groups = (field: string, items: readonly CascadeGroupDto[] | undefined): NamedRef[] =>
    (items ?? []).flatMap((g, i): NamedRef[] => [
      { kind: 'group', id: g.groupId, field: `${field}.${i}.groupId` },
      { kind: 'groupType', id: g.tenantGroupTypeId, field: `${field}.${i}.tenantGroupTypeId` },
    ]);
  const types = (field: string, items: readonly CascadeAuthorityDto[] | undefined): NamedRef[] =>
    (items ?? []).map((a, i): NamedRef => ({ kind: 'authorityType', id: a.authorityTypeId, field: `${field}.${i}.authorityTypeId` }));
  return [
    { kind: 'decision', id: dto.decisionId, field: 'decisionId' },
    { kind: 'delegation', id: dto.parentDelegationId, field: 'parentDelegationId' },
    ...groups('updatedDelegationGroups', dto.updatedDelegationGroups),
    ...groups('updatedDecisionGroups', dto.updatedDecisionGroups),
    ...types('updatedDelegationAuthorities', dto.updatedDelegationAuthorities),
    ...types('updatedDecisionAuthorities', dto.updatedDecisionAuthorities),
  ];
}
