import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Caller, DELEGATION_ISSUER_TYPES, DELEGATION_RECIPIENT_TYPES, PermissionRule, RecordPermission, recordPermissions, relationshipsOf } from '@ddm/contracts';
import { DELEGATION_STATUSES, INVALID_FIELDS } from './delegation.types';

export class DelegationRecipientView {
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) recipientUserId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) recipientPositionId: string | null;
}

export class DelegationGroupView {
  @ApiProperty({ format: 'uuid' }) groupId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) tenantGroupTypeId: string | null;
}

export class DelegationAuthorityView {
  @ApiProperty({ format: 'uuid' }) authorityTypeId: string;
  @ApiProperty() authorityTypeOrder: number;
  @ApiProperty({ example: 'Primary' }) authorityLimit: string;
  @ApiProperty({ example: 'Currency' }) authorityLimitValueType: string;
  @ApiProperty({ type: String, nullable: true, enum: ['<', '<=', null] }) authorityLimitOperator: string | null;
  @ApiProperty({ type: String, nullable: true, example: '500000' }) authorityLimitValue: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'USD' }) authorityLimitValueUnit: string | null;
  @ApiProperty() redelegable: boolean;
  @ApiProperty({ type: String, nullable: true }) redelegationLimitValue: string | null;
  @ApiProperty({ type: String, nullable: true }) redelegationLimitValueUnit: string | null;
  @ApiProperty() isLimitOverridden: boolean;
}

export class DelegationDocumentView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) documentId: string;
  @ApiProperty() isPinned: boolean;
}

export class DelegationPersonView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty() email: string;
}

export class SourceDecisionView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() decisionDisplayId: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: String, nullable: true }) guidance: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) sectionId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) categoryId: string | null;
}

/** A delegation (issue 11's model, the product's names). */
export class DelegationView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '10000' }) delegationDisplayId: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ format: 'uuid' }) decisionId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) parentDelegationId: string | null;
  @ApiProperty() isRootDelegation: boolean;
  @ApiProperty({ description: '0 for a root delegation' }) depth: number;
  @ApiProperty({ enum: DELEGATION_ISSUER_TYPES }) issuerType: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) issuerUserId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) issuerPositionId: string | null;
  @ApiProperty({ enum: DELEGATION_RECIPIENT_TYPES }) recipientType: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) recipientUserId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) recipientPositionId: string | null;
  @ApiProperty({ type: [DelegationRecipientView] }) delegationRecipients: DelegationRecipientView[];
  @ApiProperty() recipientAutoIssue: boolean;
  @ApiProperty({ enum: DELEGATION_STATUSES }) status: string;
  @ApiProperty({ type: String, nullable: true, enum: ['APPROVAL', 'ACCEPTANCE', null], description: 'What a PENDING delegation waits for' }) pendingStage: string | null;
  @ApiProperty({ format: 'date-time' }) effectiveDate: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expirationDate: string | null;
  @ApiProperty() isNoExpiration: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) issuedDate: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) acceptedDate: string | null;
  @ApiProperty({ type: [String] }) delegationPathway: string[];
  @ApiProperty({ type: [DelegationGroupView] }) delegationGroups: DelegationGroupView[];
  @ApiProperty({ type: [DelegationAuthorityView] }) delegationAuthorities: DelegationAuthorityView[];
  @ApiProperty({ type: [DelegationDocumentView] }) delegationDocuments: DelegationDocumentView[];
  @ApiProperty() isInvalid: boolean;
  @ApiProperty({ type: [String], enum: INVALID_FIELDS }) invalidFields: string[];
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) copiedFrom: string | null;
  @ApiProperty({ type: [String], format: 'uuid', description: 'The segregation-of-duties rules whose conflicts were acknowledged when it began to hold (acknowledgeSodConflict)' })
  sodAcknowledgedRuleIds: string[];
  @ApiProperty({ description: 'Its holder disputed it in an attestation campaign (flagged for its issuer until a later campaign confirms it)' }) attestationDisputed: boolean;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The attestation campaign in which it was disputed' }) attestationDisputedCampaignId: string | null;
  @ApiProperty({ type: DelegationPersonView, nullable: true }) issuerUser: DelegationPersonView | null;
  @ApiProperty({ type: DelegationPersonView, nullable: true }) recipientUser: DelegationPersonView | null;
  @ApiProperty({ type: String, nullable: true }) issuerPositionName: string | null;
  @ApiProperty({ type: String, nullable: true }) recipientPositionName: string | null;
  @ApiProperty({ type: SourceDecisionView }) sourceDecision: SourceDecisionView;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) createdBy: string | null;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) updatedBy: string | null;
  @ApiProperty({ description: "The delegation's URL in the app" }) link: string;
  @ApiProperty({ type: [RecordPermission] }) permissions: RecordPermission[];
  @ApiPropertyOptional({ description: 'Get by id: whether the caller must approve it now' }) approvalActionExistForUser?: boolean;
  @ApiPropertyOptional({ description: 'Get by id: whether the caller must accept it now' }) acceptanceActionExistForUser?: boolean;
  @ApiPropertyOptional({ description: 'Get by id: it waits for an approver' }) actionIssuerApproval?: boolean;
  @ApiPropertyOptional({ description: 'Get by id: it waits for its recipient' }) actionDelegationAcceptance?: boolean;
}

/** What a stored view (a read, a revision) holds: the view without what is the caller's. */
export type StoredDelegationView = Omit<DelegationView, 'link' | 'permissions' | 'approvalActionExistForUser' | 'acceptanceActionExistForUser' | 'actionIssuerApproval' | 'actionDelegationAcceptance'>;

/** PATCH bulk-delete: how many delegations were deleted (the named ones and, with cascade, their descendants). */
/** What a delegation's `permissions` list, and who holds each key beyond its role keys. */
export const DELEGATION_PERMISSIONS: readonly PermissionRule[] = [
  { key: 'view:decisions', grantedTo: ['issuer', 'recipient'] },
  /** Hand it on: its recipient may (the rules then check they hold it). */
  { key: 'create:delegations', grantedTo: ['recipient'] },
  { key: 'approve:delegations' },
];

export function toDelegationView(stored: StoredDelegationView, caller: Caller, appUrl: string, withActions = false): DelegationView {
  const view: DelegationView = {
    ...stored,
    // Revisions stored before the field existed do not carry it.
    sodAcknowledgedRuleIds: stored.sodAcknowledgedRuleIds ?? [],
    // Revisions stored before attestations existed have no flag: they were not disputed.
    attestationDisputed: stored.attestationDisputed ?? false,
    attestationDisputedCampaignId: stored.attestationDisputedCampaignId ?? null,
    link: `${appUrl.replace(/\/$/, '')}/delegations/${stored.id}`,
    permissions: recordPermissions(caller, DELEGATION_PERMISSIONS, relationshipsOf(caller.userId, { issuer: stored.issuerUserId, recipient: stored.recipientUserId })),
  };
  if (withActions) {
    const waitsApproval = stored.status === 'PENDING' && stored.pendingStage === 'APPROVAL';
    const waitsAcceptance = stored.status === 'PENDING' && stored.pendingStage === 'ACCEPTANCE';
    view.actionIssuerApproval = waitsApproval;
    view.actionDelegationAcceptance = waitsAcceptance;
    view.approvalActionExistForUser = waitsApproval && caller.keys.has('approve:delegations');
    view.acceptanceActionExistForUser = waitsAcceptance && stored.recipientUserId === caller.userId;
  }
  return view;
}


/** The fields of a delegation `select` may name. */
export const DELEGATION_FIELDS = [
  'id', 'delegationDisplayId', 'tenantId', 'decisionId', 'parentDelegationId', 'isRootDelegation', 'depth', 'issuerType', 'issuerUserId', 'issuerPositionId',
  'recipientType', 'recipientUserId', 'recipientPositionId', 'delegationRecipients', 'recipientAutoIssue', 'status', 'pendingStage', 'effectiveDate', 'expirationDate',
  'isNoExpiration', 'issuedDate', 'acceptedDate', 'delegationPathway', 'delegationGroups', 'delegationAuthorities', 'delegationDocuments', 'isInvalid', 'invalidFields',
  'copiedFrom', 'sodAcknowledgedRuleIds', 'attestationDisputed', 'attestationDisputedCampaignId', 'issuerUser', 'recipientUser', 'issuerPositionName', 'recipientPositionName', 'sourceDecision', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy',
  'link', 'permissions',
] as const satisfies readonly (keyof DelegationView)[];

/** Only the named fields of a view (`select`); none named = the whole view. */
export function selectDelegationFields(view: DelegationView, fields: readonly string[] | undefined): Partial<DelegationView> {
  if (!fields?.length) return view;
  return Object.fromEntries(fields.map((f) => [f, view[f as keyof DelegationView]])) as Partial<DelegationView>;
}
