import { ApiProperty } from '@nestjs/swagger';
import { AUTHORITY_LIMIT_OPERATORS, AUTHORITY_LIMIT_VALUE_TYPES, Caller, DECISION_STATUSES, DecisionPayload, RecordPermission, recordPermissions, relationshipsOf } from '@ddm/contracts';
import { DECISION_PERMISSIONS } from '../decision.rules';

/** A person a decision names (owner, creator, last editor), from the projection of the auth area's user events. */
export class DecisionUserDetails {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ type: String, nullable: true }) displayName: string | null;
  @ApiProperty({ type: String, nullable: true }) profileImageUrl: string | null;
}

/** decisionGroups item (spec §2.9); names from the projection of the settings area's groups. */
export class DecisionGroupView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid', description: 'The decision' }) denormalizedDecisionId: string;
  @ApiProperty({ format: 'uuid' }) groupId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) tenantGroupTypeId: string | null;
  @ApiProperty({ type: String, nullable: true }) displayName: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'null while the settings area has not announced the group' }) groupName: string | null;
}

/** decisionAuthorities item (spec §2.9). */
export class DecisionAuthorityView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) denormalizedDecisionId: string;
  @ApiProperty({ format: 'uuid' }) authorityTypeId: string;
  @ApiProperty({ type: String, nullable: true, description: "The authority type's name (Approval, Signatory, ...)" }) authorityType: string | null;
  @ApiProperty() authorityTypeOrder: number;
  @ApiProperty({ type: String, nullable: true }) authorityTypeIcon: string | null;
  @ApiProperty({ enum: ['Primary'] }) authorityLimit: string;
  @ApiProperty({ enum: AUTHORITY_LIMIT_VALUE_TYPES }) authorityLimitValueType: string;
  @ApiProperty({ type: String, nullable: true, enum: [...AUTHORITY_LIMIT_OPERATORS, null], description: 'null for Authorized' }) authorityLimitOperator: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'A decimal string or "Unlimited"; null for Authorized', example: '500000' })
  authorityLimitValue: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'ISO 4217 code for Currency; Days, Months or Years for Time' }) authorityLimitValueUnit: string | null;
}

/** decisionDocuments item (spec §2.9); the document's fields are the document area's (its projection here), null until it announced the document; DELETED once deleted. */
export class DecisionDocumentView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) denormalizedDecisionId: string;
  @ApiProperty({ format: 'uuid' }) documentId: string;
  @ApiProperty({ type: String, nullable: true }) documentName: string | null;
  @ApiProperty({ type: String, nullable: true }) documentUrl: string | null;
  @ApiProperty({ type: String, nullable: true }) documentTypeName: string | null;
  @ApiProperty({ type: String, nullable: true }) documentIcon: string | null;
  @ApiProperty({ type: String, nullable: true }) documentDescription: string | null;
  @ApiProperty({ type: String, nullable: true }) documentFileType: string | null;
  @ApiProperty() isPinned: boolean;
  @ApiProperty({ type: String, nullable: true }) documentDisplayId: string | null;
  @ApiProperty({ type: String, nullable: true }) documentStatus: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The link of the uploaded file's content (null for a linked URL)" }) documentFileLink: string | null;
}

/** Decision (spec §2.9), with its groups, authorities and documents. */
export class DecisionView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ maxLength: 150 }) name: string;
  @ApiProperty({ type: String, nullable: true, maxLength: 250 }) description: string | null;
  @ApiProperty({ type: String, nullable: true, maxLength: 5000 }) guidance: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) sectionId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) categoryId: string | null;
  @ApiProperty({ enum: DECISION_STATUSES }) status: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'User id of the creator' }) createdBy: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'User id of the owner' }) owner: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'User id of the last editor' }) updatedBy: string | null;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The decision this one was copied from' }) copiedFrom: string | null;
  @ApiProperty() conditionEnabled: boolean;
  @ApiProperty() roleEnabled: boolean;
  @ApiProperty() delegable: boolean;
  @ApiProperty({ description: 'Display id ("10000", ...)' }) decisionDisplayId: string;
  @ApiProperty({ type: [String], example: ['Matrix', 'Direct Line'] }) delegationPathway: string[];
  @ApiProperty({ description: "The decision's address in the app" }) link: string;
  @ApiProperty({ format: 'uuid', description: 'The same as id' }) decisionId: string;
  @ApiProperty({ type: String, nullable: true }) sectionName: string | null;
  @ApiProperty({ type: String, nullable: true }) categoryName: string | null;
  @ApiProperty({ type: String, nullable: true }) createdByUsername: string | null;
  @ApiProperty({ type: String, nullable: true }) ownerUsername: string | null;
  @ApiProperty({ type: String, nullable: true }) updatedByUsername: string | null;
  @ApiProperty({ description: 'Live delegations of the decision' }) delegations: number;
  @ApiProperty({ type: String, nullable: true }) ownerUserProfileUrl: string | null;
  @ApiProperty({ type: String, nullable: true }) createdByUserProfileUrl: string | null;
  @ApiProperty({ type: String, nullable: true }) updatedByUserProfileUrl: string | null;
  @ApiProperty({ type: [RecordPermission], description: 'For the caller: each key that applies to the decision' }) permissions: RecordPermission[];
  @ApiProperty({ type: DecisionUserDetails, nullable: true }) createdByDetails: DecisionUserDetails | null;
  @ApiProperty({ type: DecisionUserDetails, nullable: true }) updatedByDetails: DecisionUserDetails | null;
  @ApiProperty({ type: DecisionUserDetails, nullable: true }) ownerDetails: DecisionUserDetails | null;
  @ApiProperty() isRequestActionCompleted: boolean;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deletedOn: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) deletedBy: string | null;
  @ApiProperty({ type: [DecisionGroupView] }) decisionGroups: DecisionGroupView[];
  @ApiProperty({ type: [DecisionAuthorityView] }) decisionAuthorities: DecisionAuthorityView[];
  @ApiProperty({ type: [DecisionDocumentView] }) decisionDocuments: DecisionDocumentView[];
}

/** A decision as it stood at an instant (GET /decisions/{id}/{revisionDate}): the revision it came from. */
export class BulkDeleteResult {
  @ApiProperty({ description: 'Decisions that were live and are now deleted' }) deleteCount: number;
}

export class BulkRestoreResult {
  @ApiProperty({ description: 'Deleted decisions brought back' }) updateCount: number;
}

export class UnlinkRecordsResult {
  @ApiProperty({ description: 'Links of the document to the decisions removed' }) deletedCount: number;
}

/** The view as the SQL builds it (decision.sql.ts): everything but what depends on the caller and the service. */
export type StoredDecisionView = Omit<DecisionView, 'link' | 'permissions'>;

/** The decision's address in the app (APP_URL + /decisions/<id>). */
export function decisionLink(appUrl: string, id: string): string {
  return `${appUrl.replace(/\/+$/, '')}/decisions/${id}`;
}

/** The view for a caller: the stored view, its link and the caller's permissions on it. */
export function toDecisionView(stored: StoredDecisionView, caller: Caller, appUrl: string): DecisionView {
  return {
    ...stored,
    link: decisionLink(appUrl, stored.id),
    permissions: recordPermissions(caller, DECISION_PERMISSIONS, relationshipsOf(caller.userId, { owner: stored.owner })),
  };
}

/** Only the named fields of a view (`select`); null or empty = the whole view. */
export function selectDecisionFields(view: DecisionView, fields: readonly string[] | null | undefined): Partial<DecisionView> {
  if (!fields?.length) return view;
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = view[f as keyof DecisionView];
  return out as Partial<DecisionView>;
}

/** What evt.decision.decision.* carry of a decision. */
export function toDecisionPayload(v: StoredDecisionView, version: number): DecisionPayload {
  return {
    id: v.id,
    decisionDisplayId: v.decisionDisplayId,
    name: v.name,
    status: v.status,
    sectionId: v.sectionId,
    categoryId: v.categoryId,
    ownerId: v.owner,
    delegable: v.delegable,
    delegationPathway: v.delegationPathway,
    groupIds: v.decisionGroups.map((g) => g.groupId),
    authorities: v.decisionAuthorities.map((a) => ({
      authorityTypeId: a.authorityTypeId,
      authorityTypeOrder: a.authorityTypeOrder,
      authorityLimit: a.authorityLimit,
      authorityLimitValueType: a.authorityLimitValueType,
      authorityLimitOperator: a.authorityLimitOperator,
      authorityLimitValue: a.authorityLimitValue,
      authorityLimitValueUnit: a.authorityLimitValueUnit,
    })),
    isDeleted: v.isDeleted,
    documentIds: v.decisionDocuments.map((d) => d.documentId),
    version,
  };
}

/** The fields of a decision `select` may name, in the order they are answered. */
export const DECISION_FIELDS = [
  'id', 'tenantId', 'name', 'description', 'guidance', 'sectionId', 'categoryId', 'status', 'createdBy', 'owner', 'createdAt', 'updatedBy',
  'updatedAt', 'copiedFrom', 'conditionEnabled', 'roleEnabled', 'delegable', 'decisionDisplayId', 'delegationPathway', 'link', 'decisionId',
  'sectionName', 'categoryName', 'createdByUsername', 'ownerUsername', 'updatedByUsername', 'delegations', 'ownerUserProfileUrl',
  'createdByUserProfileUrl', 'updatedByUserProfileUrl', 'permissions', 'createdByDetails', 'updatedByDetails', 'ownerDetails',
  'isRequestActionCompleted', 'isDeleted', 'deletedOn', 'deletedBy', 'decisionGroups', 'decisionAuthorities', 'decisionDocuments',
] as const;
