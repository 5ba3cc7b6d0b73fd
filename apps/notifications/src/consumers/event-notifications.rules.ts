/**
 * Which notification each source event makes, for whom, saying what and linking where: pure
 * rules, no I/O. The consumer resolves positions to their holders and inserts set-based.
 */
import { ActionAssignedEvent, ActionEvent, DelegationEvent, DocumentOversightEvent, JobCompletedEvent } from '@ddm/contracts';
import { EventNotification, uniq } from '../core/event-notification';
import { TemplateKey } from '../core/template.rules';

/** The delegation's recipient: the person named, or for POSITION_ONLY the position (its holders now). */
function recipient(e: DelegationEvent): { userIds: string[]; positionIds: string[] } {
  if (e.recipientUserId) return { userIds: [e.recipientUserId], positionIds: [] };
  return { userIds: [], positionIds: uniq([e.recipientPositionId]) };
}

/** The delegation's issuer: the person named, or for POSITION_ONLY issuers the position. */
function issuer(e: DelegationEvent): { userIds: string[]; positionIds: string[] } {
  if (e.issuerUserId) return { userIds: [e.issuerUserId], positionIds: [] };
  return { userIds: [], positionIds: e.issuerType === 'ROOT_AUTHORITY' ? [] : uniq([e.issuerPositionId]) };
}

const both = (a: { userIds: string[]; positionIds: string[] }, b: { userIds: string[]; positionIds: string[] }) => ({
  userIds: uniq([...a.userIds, ...b.userIds]),
  positionIds: uniq([...a.positionIds, ...b.positionIds]),
});

export const DELEGATION_NOTIFICATION_SUBJECTS = [
  'evt.decision.delegation.issued',
  'evt.decision.delegation.revoked',
  'evt.decision.delegation.pending',
  'evt.decision.delegation.accepted',
  'evt.decision.delegation.rejected',
  'evt.decision.delegation.suspended',
  'evt.decision.delegation.invalidated',
] as const;
export type DelegationNotificationSubject = (typeof DELEGATION_NOTIFICATION_SUBJECTS)[number];

/**
 * A delegation event's notification: issued -> its recipient; pending acceptance -> the recipient;
 * accepted, rejected -> the issuer; revoked, suspended, invalidated -> recipient and issuer.
 * Pending approval (the approvers act through their actions) makes none.
 */
export function delegationNotification(subject: DelegationNotificationSubject, e: DelegationEvent): EventNotification | null {
  const byTemplate: Record<DelegationNotificationSubject, [TemplateKey, { userIds: string[]; positionIds: string[] }] | null> = {
    'evt.decision.delegation.issued': ['DELEGATION_ISSUED', recipient(e)],
    'evt.decision.delegation.pending': e.pendingStage === 'APPROVAL' ? null : ['DELEGATION_PENDING_ACCEPTANCE', recipient(e)],
    'evt.decision.delegation.accepted': ['DELEGATION_ACCEPTED', issuer(e)],
    'evt.decision.delegation.rejected': ['DELEGATION_REJECTED', issuer(e)],
    'evt.decision.delegation.revoked': ['DELEGATION_REVOKED', both(recipient(e), issuer(e))],
    'evt.decision.delegation.suspended': ['DELEGATION_SUSPENDED', both(recipient(e), issuer(e))],
    'evt.decision.delegation.invalidated': ['DELEGATION_INVALIDATED', both(recipient(e), issuer(e))],
  };
  const chosen = byTemplate[subject];
  if (!chosen) return null;
  const [templateKey, who] = chosen;
  return {
    templateKey,
    ...who,
    placeholders: { delegationDisplayId: e.delegationDisplayId ?? e.delegationId },
    entityType: 'delegation',
    entityId: e.delegationId,
    path: `/delegations/${e.delegationId}`,
    // The delegation's version tells one change from the next; without it, one per subject and delegation.
    sourceKey: `${subject}:${e.delegationId}:${e.version ?? ''}`,
  };
}

/** An action assigned -> each newly assigned person (ACTION_ASSIGNED). */
export function actionAssignedNotification(e: ActionAssignedEvent): EventNotification | null {
  const userIds = uniq(e.newAssigneeIds);
  if (!userIds.length) return null;
  return { ...actionBase(e), templateKey: 'ACTION_ASSIGNED', userIds, positionIds: [], sourceKey: `evt.actions.action.assigned:${e.action.id}:${e.action.version}` };
}

/** An action overdue -> its owner and assignees (ACTION_OVERDUE), once per action and due date. */
export function actionOverdueNotification(e: ActionEvent): EventNotification | null {
  const userIds = uniq([e.action.ownerId, ...e.action.assigneeIds]);
  if (!userIds.length) return null;
  return { ...actionBase(e), templateKey: 'ACTION_OVERDUE', userIds, positionIds: [], sourceKey: `evt.actions.action.overdue:${e.action.id}:${e.action.dueDate ?? ''}` };
}

function actionBase(e: ActionEvent) {
  return {
    placeholders: { actionId: e.action.actionId, actionName: e.action.actionName },
    entityType: 'action',
    entityId: e.action.id,
    path: `/actions/${e.action.id}`,
  };
}

export const DOCUMENT_NOTIFICATION_SUBJECTS = ['evt.document.oversight.review-requested', 'evt.document.oversight.approval-requested'] as const;
export type DocumentNotificationSubject = (typeof DOCUMENT_NOTIFICATION_SUBJECTS)[number];

/** A review or approval requested -> the reviewers or approvers, once per request (cycle). */
export function documentNotification(subject: DocumentNotificationSubject, e: DocumentOversightEvent): EventNotification | null {
  const userIds = uniq(e.assigneeUserIds);
  if (!userIds.length) return null;
  return {
    templateKey: subject === 'evt.document.oversight.review-requested' ? 'DOCUMENT_REVIEW_REQUESTED' : 'DOCUMENT_APPROVAL_REQUESTED',
    userIds,
    positionIds: [],
    placeholders: { documentName: e.documentName, documentDisplayId: e.documentDisplayId },
    entityType: 'document',
    entityId: e.documentId,
    path: `/documents/${e.documentId}`,
    sourceKey: `${subject}:${e.cycleId}`,
  };
}

/** A bulk job ended -> its requester (JOB_COMPLETED). */
export function jobNotification(e: JobCompletedEvent): EventNotification | null {
  if (!e.requestedBy) return null;
  return {
    templateKey: 'JOB_COMPLETED',
    userIds: [e.requestedBy],
    positionIds: [],
    placeholders: { jobKind: e.kind, jobStatus: e.status, total: String(e.total), succeeded: String(e.succeeded), failed: String(e.failed) },
    entityType: 'job',
    entityId: e.jobId,
    path: `/jobs/${e.jobId}`,
    sourceKey: `job.completed:${e.jobId}`,
  };
}
