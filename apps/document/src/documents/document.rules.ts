/**
 * The rules of documents that need no database; unit-tested in documents.spec.ts: status moves,
 * the review and approval flow, who sees and who may change a document, and the change log's
 * changes.
 */
import { Caller, DocumentStatus, PermissionRule } from '@ddm/contracts';

export const DOCUMENT_NAME_MAX = 200;
export const DOCUMENT_DESCRIPTION_MAX = 5000;
/** documentMetadata: a JSON object as text, at most 64 KiB (UTF-8). */
export const DOCUMENT_METADATA_MAX_BYTES = 64 * 1024;
export const DOCUMENT_URL_MAX = 2048;
export const NAME_MAX = 200;
export const ICON_MAX = 150;
export const COMMENT_MAX = 2000;
export const MAX_SHARING_GROUPS = 100;
export const MAX_SHARING_USERS = 500;

export const CREATE_STATUSES = ['DRAFT', 'PUBLISHED'] as const;
export const CHANGE_STATUSES = ['DRAFT', 'PUBLISHED', 'ARCHIVED', 'DELETED'] as const;
export const LISTED_STATUSES = ['DRAFT', 'PUBLISHED', 'ARCHIVED'] as const;
export const SHARING_TYPES = ['RESTRICTED', 'TENANT'] as const;
export const UPLOAD_TYPES = ['LINKED', 'UPLOADED'] as const;
export type SharingType = (typeof SHARING_TYPES)[number];

export const REVIEW_STATUSES = ['REVIEW_PENDING', 'CHANGES_REQUESTED', 'REVIEWED'] as const;
export const APPROVAL_STATUSES = ['APPROVAL_PENDING', 'APPROVED', 'REJECTED'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
/** The `oversight` filter's values: a review status or an approval status. */
export const OVERSIGHT_STATUSES = [...REVIEW_STATUSES, ...APPROVAL_STATUSES] as const;
export const REVIEW_DECISIONS = ['APPROVED', 'CHANGES_REQUESTED'] as const;
export const APPROVAL_DECISIONS = ['APPROVED', 'REJECTED'] as const;

export const DOCUMENT_SORTS = ['documentName', 'documentDisplayId', 'documentStatus', 'uploadedOn', 'lastUpdatedOn'] as const;
export type DocumentSort = (typeof DOCUMENT_SORTS)[number];
export const CHANGELOG_SORTS = ['revisionId', 'revisionDate'] as const;
export type ChangelogSort = (typeof CHANGELOG_SORTS)[number];

/** Changing a document: the edit key, or being its owner. */
export const EDIT_DOCUMENT: PermissionRule = { key: 'edit:documents', grantedTo: ['owner'] };
/** Answering a review or an approval is the named person's alone (or a holder of the named position), whatever keys anyone holds. */
export const REVIEW_DOCUMENT: PermissionRule = { key: 'review:documents', grantedTo: ['reviewer'] };
export const APPROVE_DOCUMENT: PermissionRule = { key: 'approve:documents', grantedTo: ['approver'] };

/**
 * Who sees every document of the tenant, restricted ones too (ARCHITECTURE §4: System Admins and
 * Auditors). The caller's keys are all a service knows of its roles: a System Admin holds
 * `manage:roles` (whoever holds it can give themselves any role, so seeing everything grants
 * nothing more); an Auditor's role grants view keys and nothing else.
 */
export function seesEveryDocument(caller: Pick<Caller, 'keys'>): boolean {
  if (caller.keys.has('manage:roles')) return true;
  const keys = [...caller.keys];
  return keys.length > 0 && keys.every((k) => k.startsWith('view:'));
}

/** Why a status move is refused with a 409 (null = allowed): DRAFT -> PUBLISHED -> ARCHIVED, and DELETED from any; staying is no move. */
export function statusMoveProblem(from: DocumentStatus, to: DocumentStatus): string | null {
  if (from === to || to === 'DELETED') return null;
  if ((from === 'DRAFT' && to === 'PUBLISHED') || (from === 'PUBLISHED' && to === 'ARCHIVED')) return null;
  return `A ${from} document cannot become ${to} (DRAFT -> PUBLISHED -> ARCHIVED)`;
}

/** The kind a change log entry names for an update: the status it reached, else "updated". */
export function changeKindOf(from: DocumentStatus, to: DocumentStatus): string {
  if (from === to) return 'updated';
  return { PUBLISHED: 'published', ARCHIVED: 'archived', DELETED: 'deleted', DRAFT: 'updated' }[to];
}

/** A URL a document may link to: http or https, nothing else (no javascript:, data:, file:). */
export function isLinkableUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** documentMetadata must hold a JSON object (not an array, a number or a string). */
export function isJsonObjectText(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/** The oversight of a document as the flow reads it. */
export interface OversightState {
  hasReviewer: boolean;
  hasApprover: boolean;
  reviewStatus: ReviewStatus | null;
  approvalStatus: ApprovalStatus | null;
}

/** What a change did to the oversight's people and content. */
export interface OversightChange {
  /** A reviewer is named now who was not (or another one). */
  reviewerChanged: boolean;
  approverChanged: boolean;
  /** Fields other than the oversight's changed (a new version to review or approve). */
  contentChanged: boolean;
}

export interface OversightOutcome {
  reviewStatus: ReviewStatus | null;
  approvalStatus: ApprovalStatus | null;
  /** A new review is requested (a new cycle): evt.document.oversight.review-requested. */
  requestReview: boolean;
  /** A new approval is requested: evt.document.oversight.approval-requested. */
  requestApproval: boolean;
}

/**
 * The oversight after a create or an update. Naming a reviewer requests the review at once
 * (REVIEW_PENDING); approval is requested once the review is REVIEWED, or at once when an
 * approver is named without a reviewer. After CHANGES_REQUESTED (or a REJECTED approval) the next
 * change of the content requests again. Removing the person clears the step.
 */
export function nextOversight(before: Pick<OversightState, 'reviewStatus' | 'approvalStatus'>, after: Pick<OversightState, 'hasReviewer' | 'hasApprover'>, change: OversightChange): OversightOutcome {
  let reviewStatus = before.reviewStatus;
  let approvalStatus = before.approvalStatus;
  let requestReview = false;
  let requestApproval = false;
  if (!after.hasReviewer) reviewStatus = null;
  else if (change.reviewerChanged || reviewStatus === null || (reviewStatus === 'CHANGES_REQUESTED' && change.contentChanged)) {
    reviewStatus = 'REVIEW_PENDING';
    requestReview = true;
  }
  if (!after.hasApprover) approvalStatus = null;
  else if (requestReview) approvalStatus = null; // a new review comes first; approval is requested once it is REVIEWED
  else {
    const reviewDone = !after.hasReviewer || reviewStatus === 'REVIEWED';
    if (!reviewDone) approvalStatus = null;
    else if (change.approverChanged || approvalStatus === null || (approvalStatus === 'REJECTED' && change.contentChanged)) {
      approvalStatus = 'APPROVAL_PENDING';
      requestApproval = true;
    }
  }
  return { reviewStatus, approvalStatus, requestReview, requestApproval };
}

/** Why an answer is refused with a 409 (null = it may be given now). */
export function answerProblem(step: 'review' | 'approval', state: OversightState): string | null {
  if (step === 'review') {
    if (!state.hasReviewer) return 'The document has no reviewer';
    if (state.reviewStatus !== 'REVIEW_PENDING') return `No review is pending (review status: ${state.reviewStatus ?? 'none'})`;
    return null;
  }
  if (!state.hasApprover) return 'The document has no approver';
  if (state.approvalStatus !== 'APPROVAL_PENDING') return `No approval is pending (approval status: ${state.approvalStatus ?? 'none'})`;
  return null;
}

/** The reviewer's answer: APPROVED -> REVIEWED (and the approval is requested when an approver is named), CHANGES_REQUESTED -> CHANGES_REQUESTED. */
export function afterReview(state: OversightState, decision: (typeof REVIEW_DECISIONS)[number]): OversightOutcome {
  if (decision === 'CHANGES_REQUESTED') return { reviewStatus: 'CHANGES_REQUESTED', approvalStatus: null, requestReview: false, requestApproval: false };
  return { reviewStatus: 'REVIEWED', approvalStatus: state.hasApprover ? 'APPROVAL_PENDING' : null, requestReview: false, requestApproval: state.hasApprover };
}

/** The approver's answer. */
export function afterApproval(state: OversightState, decision: (typeof APPROVAL_DECISIONS)[number]): OversightOutcome {
  return { reviewStatus: state.reviewStatus, approvalStatus: decision === 'APPROVED' ? 'APPROVED' : 'REJECTED', requestReview: false, requestApproval: false };
}

/** Whether the caller is the person a step names: the user, or a holder of the position. */
export function isNamed(callerId: string, callerPositionIds: readonly string[], userId: string | null, positionId: string | null): boolean {
  return (userId !== null && userId === callerId) || (positionId !== null && callerPositionIds.includes(positionId));
}

/** The statuses of the oversight now (spec §2.10 `oversightStatuses`): the review's, then the approval's. */
export function oversightStatuses(reviewStatus: string | null, approvalStatus: string | null): string[] {
  return [reviewStatus, approvalStatus].filter((s): s is string => s !== null);
}

export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** What a change log entry lists: each tracked field whose value differs, with its old and new value (lists compare as sets, in order). */
export function changesBetween(before: Readonly<Record<string, unknown>> | null, after: Readonly<Record<string, unknown>>): FieldChange[] {
  const out: FieldChange[] = [];
  for (const field of Object.keys(after)) {
    const from = before ? (before[field] ?? null) : null;
    const to = after[field] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to) && !(before === null && (to === null || (Array.isArray(to) && to.length === 0)))) out.push({ field, from, to });
  }
  return out;
}

/** The content fields: a change of any of them is a new version for the oversight (CHANGES_REQUESTED asks again). */
export const CONTENT_FIELDS = ['documentName', 'documentDescription', 'documentMetadata', 'documentTypeId', 'documentIcon', 'documentUploadType', 'documentUrl', 'fileId', 'isExternal'];
