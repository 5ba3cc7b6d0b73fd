import { ApiProperty } from '@nestjs/swagger';
import { Caller, DOCUMENT_STATUSES, ApiJsonValue, DocumentPayload, RecordPermission, recordPermissions, relationshipsOf } from '@ddm/contracts';
import { fileLink } from '../../core/file-link';
import { APPROVAL_STATUSES, APPROVE_DOCUMENT, EDIT_DOCUMENT, REVIEW_DOCUMENT, REVIEW_STATUSES, SHARING_TYPES, UPLOAD_TYPES, isNamed, oversightStatuses } from '../document.rules';

/** A person a document names, from the projection of the auth area's users. */
export class DocumentPersonView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ type: String, nullable: true }) displayName: string | null;
  @ApiProperty({ type: String, nullable: true }) profileImageUrl: string | null;
}

/** documentSharingGroups item (spec §2.10), with the group's names from the settings area. */
export class DocumentSharingGroupView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) documentId: string;
  @ApiProperty({ format: 'uuid' }) groupId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) tenantGroupTypeId: string | null;
  @ApiProperty({ type: String, nullable: true }) groupName: string | null;
  @ApiProperty({ type: String, nullable: true }) displayName: string | null;
}

/** documentSharingUsers item (spec §2.10), with the user's name. */
export class DocumentSharingUserView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) documentId: string;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ type: String, nullable: true }) email: string | null;
}

/** documentOversight (spec §2.10). */
export class DocumentOversightView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) documentId: string;
  @ApiProperty({ type: String, nullable: true, enum: [...REVIEW_STATUSES, null] }) reviewStatus: string | null;
  @ApiProperty({ type: String, nullable: true, enum: [...APPROVAL_STATUSES, null] }) approvalStatus: string | null;
  @ApiProperty({ type: String, nullable: true }) reviewerUserProfileUrl: string | null;
  @ApiProperty({ type: String, nullable: true }) responsibleUserProfileUrl: string | null;
  @ApiProperty({ type: String, nullable: true }) approverUserProfileUrl: string | null;
  @ApiProperty({ type: String, nullable: true }) documentOwnerProfileUrl: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) responsiblePositionId: string | null;
  @ApiProperty({ type: String, nullable: true }) responsiblePositionName: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) responsibleUserId: string | null;
  @ApiProperty({ type: String, nullable: true }) responsibleUsername: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) reviewerUserId: string | null;
  @ApiProperty({ type: String, nullable: true }) reviewerUsername: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) reviewerPositionId: string | null;
  @ApiProperty({ type: String, nullable: true }) reviewerPositionName: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) approverUserId: string | null;
  @ApiProperty({ type: String, nullable: true }) approverUsername: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) approverPositionId: string | null;
  @ApiProperty({ type: String, nullable: true }) approverPositionName: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) reviewedOn: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) approvedOn: string | null;
}

/** file (spec §2.10): the uploaded file of an UPLOADED document. */
export class DocumentFileView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Media type', example: 'application/pdf' }) type: string;
  @ApiProperty({ description: 'Bytes' }) size: number;
  @ApiProperty({ type: String, nullable: true, description: 'SHA-256 of the content, hex' }) sha256: string | null;
  @ApiProperty({ description: 'Where its content is read (GET)', example: '/document/v1/files/0190f5c4-0000-7000-8000-000000000001/content' }) link: string;
}

export class DocumentLinkingView {
  @ApiProperty() decisionLinkAllowed: boolean;
  @ApiProperty() delegationLinkAllowed: boolean;
}

/** Document (spec §2.10). */
export class DocumentView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ maxLength: 200 }) documentName: string;
  @ApiProperty({ type: String, nullable: true, maxLength: 5000 }) documentDescription: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'A string holding a JSON object' }) documentMetadata: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) fileId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) documentTypeId: string | null;
  @ApiProperty({ type: String, nullable: true }) documentTypeName: string | null;
  @ApiProperty({ enum: DOCUMENT_STATUSES }) documentStatus: string;
  @ApiProperty({ enum: SHARING_TYPES }) documentSharingType: string;
  @ApiProperty({ type: String, nullable: true }) documentIcon: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) documentOwnerId: string | null;
  @ApiProperty({ type: String, nullable: true }) documentOwnerUsername: string | null;
  @ApiProperty({ enum: UPLOAD_TYPES }) documentUploadType: string;
  @ApiProperty({ type: String, nullable: true }) documentUrl: string | null;
  @ApiProperty({ format: 'date-time' }) uploadedOn: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) lastUpdatedBy: string | null;
  @ApiProperty({ type: String, nullable: true }) lastUpdatedByUsername: string | null;
  @ApiProperty({ format: 'date-time' }) lastUpdatedOn: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) archivedOn: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deletedOn: string | null;
  @ApiProperty({ description: 'Display id ("10000", ...)' }) documentDisplayId: string;
  @ApiProperty({ description: "The document's address in the app" }) link: string;
  @ApiProperty({ format: 'uuid', description: 'The same as id' }) documentId: string;
  @ApiProperty({ description: 'Live decisions linking the document (from the decision area)' }) decisionsCount: number;
  @ApiProperty({ description: 'Live delegations linking the document (from the decision area)' }) delegationsCount: number;
  @ApiProperty({ type: [String], description: 'The review status, then the approval status, when set' }) oversightStatuses: string[];
  @ApiProperty({ type: [RecordPermission], description: 'For the caller: each key that applies to the document' }) permissions: RecordPermission[];
  @ApiProperty({ description: 'A reviewer (user or position) is named' }) isReviewerEnable: boolean;
  @ApiProperty({ description: 'An approver (user or position) is named' }) isApprovalEnable: boolean;
  @ApiProperty({ description: 'An approval is pending (its system action is open)' }) isApprovalActionExist: boolean;
  @ApiProperty({ description: 'A review is pending (its system action is open)' }) isReviewerActionExist: boolean;
  @ApiProperty({ description: 'The caller is the approver (or holds the approving position)' }) isApprovalUser: boolean;
  @ApiProperty({ description: 'The caller is the reviewer (or holds the reviewing position)' }) isReviewerUser: boolean;
  @ApiProperty({ description: 'The caller may approve now' }) isSettingApprovalActionEnabled: boolean;
  @ApiProperty({ description: 'The caller may review now' }) isSettingReviewerActionEnabled: boolean;
  @ApiProperty() isExternal: boolean;
  @ApiProperty({ description: "In the caller's favourites" }) isFavourite: boolean;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) createdBy: string | null;
  @ApiProperty({ type: DocumentPersonView, nullable: true }) ownerDetails: DocumentPersonView | null;
  @ApiProperty({ type: DocumentLinkingView }) documentLinking: DocumentLinkingView;
  @ApiProperty({ type: [DocumentSharingGroupView] }) documentSharingGroups: DocumentSharingGroupView[];
  @ApiProperty({ type: [DocumentSharingUserView] }) documentSharingUsers: DocumentSharingUserView[];
  @ApiProperty({ type: DocumentOversightView }) documentOversight: DocumentOversightView;
  @ApiProperty({ type: DocumentFileView, nullable: true }) file: DocumentFileView | null;
}

export class DocumentCountsView {
  @ApiProperty({ description: 'PUBLISHED documents' }) active: number;
  @ApiProperty({ description: 'DRAFT and ARCHIVED documents' }) inactive: number;
  @ApiProperty({ description: "The caller's favourites" }) favorites: number;
  @ApiProperty({ description: 'Every document the filters match' }) all: number;
}

/** A change log entry (spec §2.11), with what changed. */
export class ChangeView {
  @ApiProperty({ example: 'documentName' }) field: string;
  @ApiJsonValue('The value before (any JSON value)') from: unknown;
  @ApiJsonValue('The value after (any JSON value)') to: unknown;
}

export class ChangelogEntryView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tenantId: string;
  @ApiProperty({ format: 'uuid' }) documentId: string;
  @ApiProperty({ description: 'Increasing per document: "1", "2", ...', example: '1' }) revisionId: string;
  @ApiProperty({ format: 'date-time' }) revisionDate: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) revisedById: string | null;
  @ApiProperty({ type: String, nullable: true }) revisedByName: string | null;
  @ApiProperty({ type: DocumentPersonView, description: "The reviser's summary when the change was made" }) revisedUserDetail: Partial<DocumentPersonView>;
  @ApiProperty({ example: 'updated', description: 'created, updated, published, archived, deleted, review-requested... reviewed, changes-requested, approved, rejected' }) change: string;
  @ApiProperty({ type: [ChangeView] }) changes: ChangeView[];
}

/** The view as the SQL builds it (document.sql.ts): everything but what depends on the caller and the service. */
export type StoredDocumentView = Omit<
  DocumentView,
  | 'link'
  | 'permissions'
  | 'oversightStatuses'
  | 'isReviewerEnable'
  | 'isApprovalEnable'
  | 'isApprovalActionExist'
  | 'isReviewerActionExist'
  | 'isApprovalUser'
  | 'isReviewerUser'
  | 'isSettingApprovalActionEnabled'
  | 'isSettingReviewerActionEnabled'
  | 'isFavourite'
  | 'file'
> & { file: Omit<DocumentFileView, 'link'> | null };

/** The document's address in the app (APP_URL + /documents/<id>). */
export function documentLink(appUrl: string, id: string): string {
  return `${appUrl.replace(/\/+$/, '')}/documents/${id}`;
}

/** The view for a caller (who holds `positionIds`): the stored view, its link, the caller's flags and permissions on it. */
export function toDocumentView(stored: StoredDocumentView, caller: Pick<Caller, 'userId' | 'keys'>, positionIds: readonly string[], appUrl: string, isFavourite: boolean): DocumentView {
  const o = stored.documentOversight;
  const isReviewerUser = isNamed(caller.userId, positionIds, o.reviewerUserId, o.reviewerPositionId);
  const isApprovalUser = isNamed(caller.userId, positionIds, o.approverUserId, o.approverPositionId);
  const isReviewerActionExist = o.reviewStatus === 'REVIEW_PENDING';
  const isApprovalActionExist = o.approvalStatus === 'APPROVAL_PENDING';
  const relationships = relationshipsOf(caller.userId, { owner: stored.documentOwnerId });
  if (isReviewerUser) relationships.push('reviewer');
  if (isApprovalUser) relationships.push('approver');
  const noKeys = { keys: new Set<string>() };
  return {
    ...stored,
    file: stored.file ? { ...stored.file, link: fileLink(stored.file.id) } : null,
    link: documentLink(appUrl, stored.id),
    oversightStatuses: oversightStatuses(o.reviewStatus, o.approvalStatus),
    // Answering a step is the named person's alone: review and approve are allowed by the relationship only.
    permissions: [...recordPermissions(caller, [EDIT_DOCUMENT], relationships), ...recordPermissions(noKeys, [REVIEW_DOCUMENT, APPROVE_DOCUMENT], relationships)],
    isReviewerEnable: o.reviewerUserId !== null || o.reviewerPositionId !== null,
    isApprovalEnable: o.approverUserId !== null || o.approverPositionId !== null,
    isApprovalActionExist,
    isReviewerActionExist,
    isApprovalUser,
    isReviewerUser,
    isSettingApprovalActionEnabled: isApprovalUser && isApprovalActionExist,
    isSettingReviewerActionEnabled: isReviewerUser && isReviewerActionExist,
    isFavourite,
  };
}

/** Only the named fields of a view (`select`); null or empty = the whole view. */
export function selectDocumentFields(view: DocumentView, fields: readonly string[] | null | undefined): Partial<DocumentView> {
  if (!fields?.length) return view;
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = view[f as keyof DocumentView];
  return out as Partial<DocumentView>;
}

/** What evt.document.document.* carry of a document. */
export function toDocumentPayload(v: StoredDocumentView, version: number): DocumentPayload {
  return {
    id: v.id,
    documentDisplayId: v.documentDisplayId,
    documentName: v.documentName,
    documentDescription: v.documentDescription,
    documentUrl: v.documentUploadType === 'UPLOADED' && v.file ? fileLink(v.file.id) : v.documentUrl,
    documentTypeName: v.documentTypeName,
    documentIcon: v.documentIcon,
    documentFileType: v.file?.type ?? null,
    documentStatus: v.documentStatus,
    documentSharingType: v.documentSharingType,
    ownerId: v.documentOwnerId,
    isDeleted: v.isDeleted,
    version,
  };
}

/** The fields of a document `select` may name. */
export const DOCUMENT_FIELDS = [
  'id', 'tenantId', 'documentName', 'documentDescription', 'documentMetadata', 'fileId', 'documentTypeId', 'documentTypeName', 'documentStatus',
  'documentSharingType', 'documentIcon', 'documentOwnerId', 'documentOwnerUsername', 'documentUploadType', 'documentUrl', 'uploadedOn', 'lastUpdatedBy',
  'lastUpdatedByUsername', 'lastUpdatedOn', 'archivedOn', 'deletedOn', 'documentDisplayId', 'link', 'documentId', 'decisionsCount', 'delegationsCount',
  'oversightStatuses', 'permissions', 'isReviewerEnable', 'isApprovalEnable', 'isApprovalActionExist', 'isReviewerActionExist', 'isApprovalUser',
  'isReviewerUser', 'isSettingApprovalActionEnabled', 'isSettingReviewerActionEnabled', 'isExternal', 'isFavourite', 'isDeleted', 'createdBy',
  'ownerDetails', 'documentLinking', 'documentSharingGroups', 'documentSharingUsers', 'documentOversight', 'file',
] as const;
