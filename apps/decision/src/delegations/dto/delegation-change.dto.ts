import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import { DELEGATION_ISSUER_TYPES, DELEGATION_RECIPIENT_TYPES, IsoDateTime, Nullable, OptionalNotNull, ToBoolean, badRequest } from '@ddm/contracts';
import { DECISION_PATHWAYS, MAX_DECISION_AUTHORITIES, MAX_DECISION_DOCUMENTS, MAX_DECISION_GROUPS, authorityProblems, authorityRows, isLimitValue } from '../../core/decision-limits';
import { DelegationLimit, DelegationRuleRow, ProposedDelegation } from '../../core/delegation.types';
import { DecisionAuthorityDto, DecisionDocumentDto } from '../../core/dto/limits.dto';
import { refuseBadRecipients } from '../../core/recipients';
import { NamedRef, documentRefs } from '../../core/live-refs';

/**
 * Issue (or approve, accept, resume) although the delegation would make someone hold both sides of
 * a segregation-of-duties rule: only a holder of approve:delegations; recorded on the delegation.
 */
const AcknowledgeSodConflict = () =>
  applyDecorators(
    ApiPropertyOptional({
      default: false,
      description:
        'When the delegation begins to hold (ISSUED or ACCEPTED) and would make someone hold both sides of a segregation-of-duties rule: true issues it anyway ' +
        '(needs approve:delegations; the rules are recorded in sodAcknowledgedRuleIds and its changelog); otherwise that is a 409 naming the rules',
    }),
    OptionalNotNull(),
    ToBoolean(),
    IsBoolean(),
  );

/** Most recipients one request issues to (each gets its own delegation). */
export const MAX_RECIPIENTS = 100;

export class DelegationRecipientDto {
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'The person (PERSONNEL_IN_POSITION, SPECIFIC_PERSONNEL)' })
  @Nullable()
  @IsUUID()
  recipientUserId?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'The position (PERSONNEL_IN_POSITION, POSITION_ONLY)' })
  @Nullable()
  @IsUUID()
  recipientPositionId?: string | null;

  @ApiPropertyOptional({ description: "The product's flag on a recipient it answers; the service decides validity, so what is sent is ignored" })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isInvalid?: boolean;
}

export class DelegationGroupDto {
  @ApiProperty({ format: 'uuid', description: 'A group of the tenant the delegation covers' })
  @IsUUID()
  groupId: string;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Nullable()
  @IsUUID()
  tenantGroupTypeId?: string | null;
}

export class DelegationAuthorityDto extends DecisionAuthorityDto {
  @ApiPropertyOptional({ default: false, description: 'Whether the recipient may hand this authority on' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  redelegable?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 40, description: 'The most a redelegation may hold (default: this limit); a decimal string or "Unlimited"' })
  @Nullable()
  @IsString()
  @MaxLength(40)
  redelegationLimitValue?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 10 })
  @Nullable()
  @IsString()
  @MaxLength(10)
  redelegationLimitValueUnit?: string | null;

  @ApiPropertyOptional({ default: false, description: 'The limit was set by hand rather than taken from the decision or the parent' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isLimitOverridden?: boolean;
}

/**
 * The terms a delegation is issued with and changed by, all optional: the part its create and its
 * PATCH share (each adds what it needs: the decision, parent, recipients and limits; the cascade).
 */
export abstract class DelegationTermsDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Tenant (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ default: false })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  recipientAutoIssue?: boolean;

  @ApiPropertyOptional({ format: 'date-time', description: 'When the authority starts (default: now)' })
  @OptionalNotNull()
  @IsoDateTime()
  effectiveDate?: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'When it ends; none with isNoExpiration' })
  @Nullable()
  @IsoDateTime()
  expirationDate?: string | null;

  @ApiPropertyOptional({ default: false })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isNoExpiration?: boolean;

  @ApiPropertyOptional({ type: [String], enum: DECISION_PATHWAYS, description: "Pathways along which it may be handed on (within the parent's and the decision's)" })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(DECISION_PATHWAYS.length)
  @ArrayUnique()
  @IsIn(DECISION_PATHWAYS, { each: true })
  delegationPathway?: string[];

  @ApiPropertyOptional({ type: [DelegationGroupDto], maxItems: MAX_DECISION_GROUPS })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_DECISION_GROUPS)
  @ValidateNested({ each: true })
  @Type(() => DelegationGroupDto)
  delegationGroups?: DelegationGroupDto[];

  @ApiPropertyOptional({ type: [DecisionDocumentDto], maxItems: MAX_DECISION_DOCUMENTS, description: 'The linked documents (on a change: the list as it should be, replacing it)' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_DECISION_DOCUMENTS)
  @ValidateNested({ each: true })
  @Type(() => DecisionDocumentDto)
  delegationDocuments?: DecisionDocumentDto[];
}

/** POST /decision/v1/delegations: a root delegation (no parent) or a redelegation, to one or more recipients. */
export class CreateDelegationDto extends DelegationTermsDto {
  @ApiProperty({ format: 'uuid', description: 'The decision whose authority is handed on' })
  @IsUUID()
  decisionId: string;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'The delegation handed on (a redelegation); none for a root delegation' })
  @Nullable()
  @IsUUID()
  parentDelegationId?: string | null;

  @ApiPropertyOptional({
    type: String,
    enum: DELEGATION_ISSUER_TYPES,
    nullable: true,
    description:
      'How the caller issues (left out: derived). ROOT_AUTHORITY: a root delegation (no parentDelegationId; needs create:root_delegations). ' +
      "On a redelegation, how the caller holds the parent now: its recipientType (PERSONNEL_IN_POSITION or POSITION_ONLY, from the parent's position; SPECIFIC_PERSONNEL, in person); anything else is a 400",
  })
  @Nullable()
  @IsIn(DELEGATION_ISSUER_TYPES)
  issuerType?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'The issuer: the caller (another user is a 403); left out: the caller' })
  @Nullable()
  @IsUUID()
  issuerUserId?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      "The position issued from. On a redelegation held through a position (PERSONNEL_IN_POSITION, POSITION_ONLY) the parent's position (left out: that one; another is a 400), none when held in person; " +
      'on a root delegation a position the caller holds (recorded; left out: none). An unknown position is a 404',
  })
  @Nullable()
  @IsUUID()
  issuerPositionId?: string | null;

  @ApiPropertyOptional({ description: 'Whether it is a root delegation: true without parentDelegationId, false with one (anything else is a 400); left out: derived' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  isRootDelegation?: boolean;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'The delegation this one was copied from (a delegation of the tenant; recorded, answered as copiedFrom)' })
  @Nullable()
  @IsUUID()
  copiedFrom?: string | null;

  @ApiProperty({ enum: DELEGATION_RECIPIENT_TYPES })
  @IsIn(DELEGATION_RECIPIENT_TYPES)
  recipientType: string;

  @ApiProperty({ type: [DelegationRecipientDto], minItems: 1, maxItems: MAX_RECIPIENTS, description: 'Each recipient gets its own delegation' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_RECIPIENTS)
  @ValidateNested({ each: true })
  @Type(() => DelegationRecipientDto)
  delegationRecipients: DelegationRecipientDto[];

  @ApiPropertyOptional({ enum: ['DRAFT', 'ISSUED'], default: 'DRAFT', description: 'ISSUED issues at once (through PENDING when the tenant requires approval or acceptance)' })
  @OptionalNotNull()
  @IsIn(['DRAFT', 'ISSUED'])
  status?: 'DRAFT' | 'ISSUED';

  @ApiProperty({ type: [DelegationAuthorityDto], minItems: 1, maxItems: MAX_DECISION_AUTHORITIES })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_DECISION_AUTHORITIES)
  @ValidateNested({ each: true })
  @Type(() => DelegationAuthorityDto)
  delegationAuthorities: DelegationAuthorityDto[];

  @AcknowledgeSodConflict()
  acknowledgeSodConflict?: boolean;
}

/** POST /decision/v1/delegations/{id}/{action}: what a move may carry (a body is optional). */
export class DelegationMoveDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Tenant (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @AcknowledgeSodConflict()
  acknowledgeSodConflict?: boolean;
}

/** PATCH /decision/v1/delegations/bulk-link-documents */
export class BulkLinkDocumentsDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Tenant (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: 1000 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  delegationIds: string[];

  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: 100 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  documentIds: string[];
}

/**
 * PATCH /decision/v1/delegations/{id}: the terms of a live delegation; what is left out stays. The
 * change is checked by the rules against its parent (or, for a root one, its decision); one that
 * would make its own descendants invalid is a 409 listing them, unless `cascade` is true, which
 * makes the change and marks them invalid.
 */
export class UpdateDelegationDto extends DelegationTermsDto {
  @AcknowledgeSodConflict()
  acknowledgeSodConflict?: boolean;

  @ApiPropertyOptional({ enum: DELEGATION_RECIPIENT_TYPES, description: 'With delegationRecipients: a new recipient (checked as the rules check a new one)' })
  @OptionalNotNull()
  @IsIn(DELEGATION_RECIPIENT_TYPES)
  recipientType?: string;

  @ApiPropertyOptional({ type: [DelegationRecipientDto], minItems: 1, maxItems: 1, description: 'The one recipient of this delegation' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1)
  @ValidateNested({ each: true })
  @Type(() => DelegationRecipientDto)
  delegationRecipients?: DelegationRecipientDto[];

  @ApiPropertyOptional({ type: [DelegationAuthorityDto], minItems: 1, maxItems: MAX_DECISION_AUTHORITIES })
  @OptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_DECISION_AUTHORITIES)
  @ValidateNested({ each: true })
  @Type(() => DelegationAuthorityDto)
  delegationAuthorities?: DelegationAuthorityDto[];

  @ApiPropertyOptional({ default: false, description: 'Make the change even though it makes descendants invalid (they are marked invalid)' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  cascade?: boolean;
}

/** PATCH /decision/v1/delegations/bulk-delete */
export class BulkDeleteDelegationsDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Tenant (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: 1000 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  delegationIds: string[];

  @ApiPropertyOptional({ default: false, description: 'Delete their descendants too; without it, a delegation with live descendants is a 409' })
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  cascadeToChildDelegations?: boolean;
}

/** PATCH /decision/v1/delegations/bulk-reassign-recipients */
export class BulkReassignRecipientsDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Tenant (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: 1000 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  delegationIds: string[];

  @ApiProperty({ enum: DELEGATION_RECIPIENT_TYPES })
  @IsIn(DELEGATION_RECIPIENT_TYPES)
  recipientType: string;

  @ApiProperty({ type: [DelegationRecipientDto], minItems: 1, maxItems: 1, description: 'The new recipient of every delegation named' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1)
  @ValidateNested({ each: true })
  @Type(() => DelegationRecipientDto)
  delegationRecipients: DelegationRecipientDto[];

  @ApiPropertyOptional()
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  recipientAutoIssue?: boolean;
}

/** POST /decision/v1/delegations/delegation-request-action */
export class DelegationRequestActionDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Tenant (default: the caller's active tenant)" })
  @OptionalNotNull()
  @IsUUID()
  tenantId?: string;

  @ApiProperty({ format: 'uuid', description: 'The delegation whose holder is asked for a redelegation' })
  @IsUUID()
  delegationId: string;

  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  decisionId: string;
}

// ---------------------------------------------------------------------------------------------
// From a request to what the rules check (each a 400 naming the field it refuses)

/** A group as stored on a delegation (delegation_groups). */
export interface StoredGroup {
  groupId: string;
  tenantGroupTypeId: string | null;
}

/** A recipient as sent, ids in lower case (as the database answers them). */
export function recipientOf(r: DelegationRecipientDto): { recipientUserId: string | null; recipientPositionId: string | null } {
  return { recipientUserId: r.recipientUserId?.toLowerCase() ?? null, recipientPositionId: r.recipientPositionId?.toLowerCase() ?? null };
}

/** What POST /delegations proposes: the limits, recipients (each checked for its type), window and groups, and the documents to link. */
export function proposedDelegation(dto: CreateDelegationDto): { proposed: ProposedDelegation; groups: StoredGroup[]; documents: { documentId: string; isPinned: boolean }[] } {
  const authorities = delegationLimits(dto.delegationAuthorities);
  const recipients = dto.delegationRecipients.map(recipientOf);
  refuseBadRecipients(dto.recipientType, recipients);
  const effectiveDate = dto.effectiveDate ? new Date(dto.effectiveDate) : new Date();
  const expirationDate = dto.isNoExpiration || !dto.expirationDate ? null : new Date(dto.expirationDate);
  if (expirationDate && expirationDate <= effectiveDate) throw badRequest('expirationDate must be after effectiveDate', [{ field: 'expirationDate', message: 'must be after effectiveDate' }]);
  const groups = uniqueGroups(dto.delegationGroups ?? []);
  const proposed: ProposedDelegation = {
    recipientType: dto.recipientType as ProposedDelegation['recipientType'],
    recipients,
    pathways: dto.delegationPathway ?? [],
    groupIds: groups.map((g) => g.groupId),
    authorities,
    effectiveDate,
    expirationDate,
  };
  return { proposed, groups, documents: uniqueDocuments(dto.delegationDocuments ?? []) };
}

/** The recipient a PATCH leaves a delegation with (the one sent, else its own), checked for its type, and whether it changes. */
export function recipientChange(dto: UpdateDelegationDto, row: DelegationRuleRow): { recipientType: ProposedDelegation['recipientType']; recipient: { recipientUserId: string | null; recipientPositionId: string | null }; changed: boolean } {
  const recipientType = (dto.recipientType ?? row.recipient_type) as ProposedDelegation['recipientType'];
  const recipient = dto.delegationRecipients ? recipientOf(dto.delegationRecipients[0]) : { recipientUserId: row.recipient_user_id, recipientPositionId: row.recipient_position_id };
  refuseBadRecipients(recipientType, [recipient]);
  const changed = recipientType !== row.recipient_type || recipient.recipientUserId !== row.recipient_user_id || recipient.recipientPositionId !== row.recipient_position_id;
  return { recipientType, recipient, changed };
}

/** What a PATCH of a delegation's terms proposes (what it leaves out stays as `current` has it), and which parts it changes. */
export function proposedChange(
  dto: UpdateDelegationDto,
  current: Pick<ProposedDelegation, 'pathways' | 'groupIds' | 'authorities' | 'effectiveDate' | 'expirationDate'>,
  to: ReturnType<typeof recipientChange>,
): { proposed: ProposedDelegation; groups: StoredGroup[] | null; changed: { authority: boolean; pathway: boolean; groups: boolean; expiration: boolean; recipient: boolean } } {
  const groups = dto.delegationGroups ? uniqueGroups(dto.delegationGroups) : null;
  const proposed: ProposedDelegation = {
    recipientType: to.recipientType,
    recipients: [to.recipient],
    pathways: dto.delegationPathway ?? current.pathways,
    groupIds: groups ? groups.map((g) => g.groupId) : current.groupIds,
    authorities: dto.delegationAuthorities ? delegationLimits(dto.delegationAuthorities) : current.authorities,
    effectiveDate: dto.effectiveDate ? new Date(dto.effectiveDate) : current.effectiveDate,
    expirationDate: dto.isNoExpiration ? null : dto.expirationDate !== undefined ? (dto.expirationDate === null ? null : new Date(dto.expirationDate)) : current.expirationDate,
  };
  const changed = {
    authority: dto.delegationAuthorities !== undefined,
    pathway: dto.delegationPathway !== undefined,
    groups: groups !== null,
    expiration: dto.effectiveDate !== undefined || dto.expirationDate !== undefined || dto.isNoExpiration !== undefined,
    recipient: to.changed,
  };
  return { proposed, groups, changed };
}

/** The limits as sent, checked like a decision's (value, operator, unit per value type) plus the redelegation cap. */
export function delegationLimits(items: readonly DelegationAuthorityDto[]): DelegationLimit[] {
  const problems = authorityProblems(items).map((p) => ({ ...p, field: p.field.replace(/^decisionAuthorities/, 'delegationAuthorities') }));
  items.forEach((a, i) => {
    const cap = a.redelegationLimitValue ?? null;
    if (cap !== null && !isLimitValue(cap)) problems.push({ field: `delegationAuthorities.${i}.redelegationLimitValue`, message: 'must be a non-negative decimal or "Unlimited"' });
  });
  if (problems.length) throw badRequest(`Invalid delegation authorities: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`, problems);
  const rows = authorityRows(items);
  return items.map((a, i) => ({
    authorityTypeId: rows[i].authorityTypeId,
    authorityTypeOrder: rows[i].authorityTypeOrder,
    authorityLimit: rows[i].authorityLimit,
    authorityLimitValueType: rows[i].valueType,
    authorityLimitOperator: (rows[i].operator as '<' | '<=' | null) ?? null,
    authorityLimitValue: rows[i].valueText,
    authorityLimitValueUnit: rows[i].unit,
    redelegable: a.redelegable ?? false,
    redelegationLimitValue: a.redelegationLimitValue ?? null,
    redelegationLimitValueUnit: a.redelegationLimitValueUnit ?? (a.redelegationLimitValue ? rows[i].unit : null),
    isLimitOverridden: a.isLimitOverridden ?? false,
  }));
}

/** Each group once (the first time it is named), ids in lower case. */
export function uniqueGroups(items: readonly { groupId: string; tenantGroupTypeId?: string | null }[]): StoredGroup[] {
  const byId = new Map<string, string | null>();
  for (const g of items) if (!byId.has(g.groupId.toLowerCase())) byId.set(g.groupId.toLowerCase(), g.tenantGroupTypeId?.toLowerCase() ?? null);
  return [...byId].map(([groupId, tenantGroupTypeId]) => ({ groupId, tenantGroupTypeId }));
}

/** Each document once, in the order first named; its pin as the last mention says. */
export function uniqueDocuments(items: readonly { documentId: string; isPinned?: boolean }[]): { documentId: string; isPinned: boolean }[] {
  return [...new Map(items.map((d) => [d.documentId.toLowerCase(), d.isPinned === true])).entries()].map(([documentId, isPinned]) => ({ documentId, isPinned }));
}

/** The records a delegation's terms name (documents but those it links already, groups, their types, authority types), each with its field, for requireLiveRefs. */
export function termRefs(
  dto: Pick<DelegationTermsDto, 'delegationGroups' | 'delegationDocuments'> & { delegationAuthorities?: readonly DelegationAuthorityDto[] },
  linkedDocuments: readonly string[] = [],
): NamedRef[] {
  return [
    ...documentRefs('delegationDocuments', dto.delegationDocuments, linkedDocuments),
    ...(dto.delegationGroups ?? []).flatMap((g, i): NamedRef[] => [
      { kind: 'group', id: g.groupId, field: `delegationGroups.${i}.groupId` },
      { kind: 'groupType', id: g.tenantGroupTypeId, field: `delegationGroups.${i}.tenantGroupTypeId` },
    ]),
    ...(dto.delegationAuthorities ?? []).map((a, i): NamedRef => ({ kind: 'authorityType', id: a.authorityTypeId, field: `delegationAuthorities.${i}.authorityTypeId` })),
  ];
}
