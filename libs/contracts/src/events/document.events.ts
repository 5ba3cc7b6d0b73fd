/** Events of the document area that other areas project (decision: names and links; actions: the oversight actions). */
import { BooleanField, IntField, NestedField, StringField, UuidArrayField, UuidField } from './fields';
import { eventEntry } from './entry';

export const DOCUMENT_STATUSES = ['DRAFT', 'PUBLISHED', 'ARCHIVED', 'DELETED'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** A document as the document area publishes it (what a decision's `decisionDocuments` show of it). */
export class DocumentPayload {
  @UuidField() id: string;
  @StringField({ max: 20 }) documentDisplayId: string;
  @StringField({ max: 200 }) documentName: string;
  @StringField({ nullable: true, max: 5000 }) documentDescription: string | null;
  @StringField({ nullable: true, max: 2048, description: 'The linked URL, or the link of the uploaded file' }) documentUrl: string | null;
  @StringField({ nullable: true, max: 150 }) documentTypeName: string | null;
  @StringField({ nullable: true, max: 150 }) documentIcon: string | null;
  @StringField({ nullable: true, max: 150, description: 'The media type of the uploaded file' }) documentFileType: string | null;
  @StringField({ max: 20, description: 'DRAFT, PUBLISHED, ARCHIVED or DELETED' }) documentStatus: string;
  @StringField({ max: 20, description: 'RESTRICTED or TENANT' }) documentSharingType: string;
  @UuidField({ nullable: true }) ownerId: string | null;
  @BooleanField() isDeleted: boolean;
  /** Increases with every change of the document: a consumer keeps the newest state. */
  @IntField({ min: 0 }) version: number;
}

/** evt.document.document.created | updated | deleted */
export class DocumentEvent {
  @UuidField() tenantId: string;
  @NestedField(() => DocumentPayload) document: DocumentPayload;
}

/**
 * evt.document.oversight.*: a step of a document's review and approval. `assigneeUserIds` are the
 * people who must act now (the named reviewer or approver, or the holders of the named position);
 * the actions area opens one Document Review / Document Approval action per `cycleId` (a new
 * request after CHANGES_REQUESTED is a new cycle) and closes it when the step is answered.
 */
export class DocumentOversightEvent {
  @UuidField() tenantId: string;
  @UuidField() documentId: string;
  @StringField({ max: 20 }) documentDisplayId: string;
  @StringField({ max: 200 }) documentName: string;
  /** One id per review or approval request: the key that makes opening its action happen once. */
  @UuidField() cycleId: string;
  /** The document's owner: the owner of the system action. */
  @UuidField({ nullable: true }) ownerId: string | null;
  @UuidArrayField({ max: 1000 }) assigneeUserIds: string[];
  /** Who answered (reviewed, approved, rejected); null for a request. */
  @UuidField({ nullable: true }) actedById: string | null;
  @StringField({ nullable: true, max: 2000 }) comment: string | null;
  /** The oversight status after the step: REVIEW_PENDING, CHANGES_REQUESTED, REVIEWED, APPROVAL_PENDING, APPROVED, REJECTED; WITHDRAWN for a withdrawn request. */
  @StringField({ max: 20 }) status: string;
}

export const DOCUMENT_EVENTS = {
  'evt.document.document.created': eventEntry(DocumentEvent, 'A document was created.'),
  'evt.document.document.updated': eventEntry(DocumentEvent, 'A document changed (fields, status, sharing, oversight).'),
  'evt.document.document.deleted': eventEntry(DocumentEvent, 'A document was deleted (softly).'),
  'evt.document.oversight.review-requested': eventEntry(DocumentOversightEvent, 'A review of a document was requested (assigneeUserIds: the reviewers).'),
  'evt.document.oversight.approval-requested': eventEntry(DocumentOversightEvent, 'An approval of a document was requested (assigneeUserIds: the approvers).'),
  'evt.document.oversight.reviewed': eventEntry(DocumentOversightEvent, 'The reviewer answered: status REVIEWED or CHANGES_REQUESTED (closes the review action of cycleId).'),
  'evt.document.oversight.approved': eventEntry(DocumentOversightEvent, 'The approver approved the document (closes the approval action of cycleId).'),
  'evt.document.oversight.rejected': eventEntry(DocumentOversightEvent, 'The approver rejected the document (closes the approval action of cycleId).'),
  'evt.document.oversight.withdrawn': eventEntry(
    DocumentOversightEvent,
    'A pending review or approval request was withdrawn unanswered (its person was replaced or removed, the review started again, or the document was deleted): status WITHDRAWN; closes the action of cycleId.',
  ),
} as const;

/** The document subjects, for the areas that project documents. */
export const DOCUMENT_SUBJECTS = ['evt.document.document.created', 'evt.document.document.updated', 'evt.document.document.deleted'] as const satisfies readonly (keyof typeof DOCUMENT_EVENTS)[];
/** The oversight subjects, for the actions area. */
export const DOCUMENT_OVERSIGHT_SUBJECTS = [
  'evt.document.oversight.review-requested',
  'evt.document.oversight.approval-requested',
  'evt.document.oversight.reviewed',
  'evt.document.oversight.approved',
  'evt.document.oversight.rejected',
  'evt.document.oversight.withdrawn',
] as const satisfies readonly (keyof typeof DOCUMENT_EVENTS)[];
