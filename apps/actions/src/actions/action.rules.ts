/** The rules of actions that need no database; unit-tested in actions.spec.ts. */
import { PermissionRule } from '@ddm/contracts';
import type { StatusKey } from '../action-config/action-config.rules';

export const ACTION_NAME_MAX = 200;
export const DESCRIPTION_MAX = 5000;
export const MAX_ASSIGNEES = 100;
export const MAX_FILES = 20;
export const MAX_REASSIGN_IDS = 500;
export const MAX_DUPLICATE_IDS = 100;
export const MAX_LISTED_IDS = 100;

/** What an action's `permissions` list, and who holds each key beyond its role keys: owner and assignees may change their action. */
export const ACTION_PERMISSIONS: readonly PermissionRule[] = [
  { key: 'create:actions' },
  { key: 'edit:actions', grantedTo: ['owner', 'assignee'] },
];
export const EDIT_ACTION = ACTION_PERMISSIONS[1];

/** What opens a system action. */
export const SYSTEM_KINDS = ['DELEGATION_ACCEPTANCE', 'DELEGATION_APPROVAL', 'DELEGATION_REQUEST', 'DOCUMENT_REVIEW', 'DOCUMENT_APPROVAL', 'DECISION_ROLE_ACCEPTANCE', 'ATTESTATION'] as const;
export type SystemKind = (typeof SYSTEM_KINDS)[number];

/** The fields of a system action that name its cause: users cannot change them (409). */
export const CAUSE_FIELDS = ['decisionId', 'delegationId', 'documentId', 'ownerId'] as const;
export type CauseField = (typeof CAUSE_FIELDS)[number];

/** The cause fields a change would alter on an action (an unchanged value sent again alters nothing). */
export function changedCauseFields(current: Record<CauseField, string | null>, change: Partial<Record<CauseField, string | null>>): CauseField[] {
  return CAUSE_FIELDS.filter((f) => change[f] !== undefined && (change[f]?.toLowerCase() ?? null) !== (current[f]?.toLowerCase() ?? null));
}

/**
 * An assignee's status by name: the tenant's status whose name it is (case-insensitive, trimmed),
 * or undefined.
 */
export function statusByName<S extends { actionStatusName: string }>(statuses: readonly S[], name: string): S | undefined {
  const wanted = name.trim().toLowerCase();
  return statuses.find((s) => s.actionStatusName.toLowerCase() === wanted);
}

/** Whether an action is done once its assignees stand as given: every assignee completed (an action without assignees never is). */
export function allCompleted(assigneeStatusKeys: readonly string[]): boolean {
  return assigneeStatusKeys.length > 0 && assigneeStatusKeys.every((k) => k === 'COMPLETED');
}

/**
 * Which stage a pending delegation event is at: the decision area publishes `pending` when a
 * delegation is issued (it then waits for an approval when the tenant requires one, else for the
 * recipient's acceptance) and again when an approval moves it on to acceptance. So: an approval
 * action opened by an older event means this one is the acceptance stage; one opened by this very
 * event (same version) means it is a repeat; none, the tenant's setting decides. When the event
 * names its stage (`announced`, the event's pendingStage) that is what it is.
 */
export function pendingStage(
  approvalRequired: boolean,
  approvalActionVersion: number | null | undefined,
  eventVersion: number | null | undefined,
  announced?: string | null,
): 'APPROVAL' | 'ACCEPTANCE' | 'REPEAT' {
  // The decision area names the stage (pendingStage): an approval already opened by this or a later event is a repeat.
  if (announced === 'ACCEPTANCE') return 'ACCEPTANCE';
  if (announced === 'APPROVAL') {
    const repeat = approvalActionVersion !== undefined && (approvalActionVersion === null || eventVersion === null || eventVersion === undefined || eventVersion <= approvalActionVersion);
    return repeat ? 'REPEAT' : 'APPROVAL';
  }
  if (approvalActionVersion !== undefined) {
    if (approvalActionVersion !== null && eventVersion !== null && eventVersion !== undefined && eventVersion <= approvalActionVersion) return 'REPEAT';
    return 'ACCEPTANCE';
  }
  return approvalRequired ? 'APPROVAL' : 'ACCEPTANCE';
}

/**
 * What a delegation's status settles among its system actions: `complete` the kinds someone
 * answered (accepted, approved, rejected), `cancel` those whose cause went away (revoked, expired,
 * ...; an ended delegation has nothing left to attest either).
 */
export function settledByDelegationStatus(status: string | undefined, ended: boolean): { complete: SystemKind[]; cancel: SystemKind[] } {
  if (status === 'ACCEPTED') return { complete: ['DELEGATION_ACCEPTANCE', 'DELEGATION_APPROVAL'], cancel: [] };
  if (status === 'REJECTED') return { complete: ['DELEGATION_ACCEPTANCE', 'DELEGATION_APPROVAL'], cancel: ['DELEGATION_REQUEST', 'ATTESTATION'] };
  if (status === 'ISSUED') return { complete: ['DELEGATION_APPROVAL'], cancel: [] };
  if (ended) return { complete: [], cancel: ['DELEGATION_ACCEPTANCE', 'DELEGATION_APPROVAL', 'DELEGATION_REQUEST', 'DECISION_ROLE_ACCEPTANCE', 'ATTESTATION'] };
  return { complete: [], cancel: [] };
}

/** The people who must accept: the recipient when the delegation names one, else those the event names, but never the issuer. */
export function acceptanceAssignees(e: { recipientUserId: string | null; issuerUserId: string | null; notifyUserIds?: string[] }): string[] {
  if (e.recipientUserId) return [e.recipientUserId];
  return unique((e.notifyUserIds ?? []).filter((id) => id !== e.issuerUserId));
}

/** The people who must approve: those the event names, but not the issuer or the recipient (nobody approves their own delegation). */
export function approvalAssignees(e: { recipientUserId: string | null; issuerUserId: string | null; notifyUserIds?: string[] }): string[] {
  return unique((e.notifyUserIds ?? []).filter((id) => id !== e.issuerUserId && id !== e.recipientUserId));
}

/** The cause of a delegation's Attestation action in a campaign: one action per (campaign, delegation). */
export function attestationCauseKey(campaignId: string, delegationId: string): string {
  return `attestation:${campaignId.toLowerCase()}:${delegationId.toLowerCase()}`;
}

/** The campaign and delegation an Attestation action's cause names (null: not an attestation's cause). */
export function attestationCauseOf(causeKey: string | null): { campaignId: string; delegationId: string } | null {
  const m = /^attestation:([0-9a-f-]{36}):([0-9a-f-]{36})$/.exec(causeKey ?? '');
  return m ? { campaignId: m[1], delegationId: m[2] } : null;
}

/**
 * Why an action cannot be answered as an attestation by `userId` (with its HTTP status), or null:
 * it must be an Attestation action (409), the caller one of its assignees (403), still open (409:
 * answered, canceled) and not past its due date (409: the campaign no longer takes answers).
 */
export function attestationAnswerProblem(
  a: { system_kind: string | null; assignee_ids: readonly string[]; status_key: string; due_date: Date | null },
  userId: string,
  now: Date,
): { status: 403 | 409; message: string } | null {
  if (a.system_kind !== 'ATTESTATION') return { status: 409, message: 'Only an Attestation action is answered with CONFIRMED or DISPUTED' };
  if (!a.assignee_ids.includes(userId)) return { status: 403, message: 'Only an assignee of the Attestation action (a holder of the delegation) may answer it' };
  if (!['TODO', 'IN_PROGRESS'].includes(a.status_key)) return { status: 409, message: `The Attestation action is ${a.status_key} and takes no answer` };
  if (a.due_date && a.due_date.getTime() <= now.getTime()) return { status: 409, message: `The Attestation action was due at ${a.due_date.toISOString()} and takes no answer` };
  return null;
}

/** Ids, lower case, each once, in the order given. */
export function unique(ids: readonly string[]): string[] {
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

/** The status key an action moves to when its cause is settled. */
export type SettledKey = Extract<StatusKey, 'COMPLETED' | 'CANCELED'>;

/** An action's opaque link: where the app shows it (the cause of a system action, else the action), encoded. */
export function actionLink(appUrl: string, a: { id: string; delegationId: string | null; documentId: string | null; isSystemGenerated: boolean }): string {
  const base = appUrl.replace(/\/+$/, '');
  const path = a.isSystemGenerated && a.delegationId ? `/delegations/${a.delegationId}` : a.isSystemGenerated && a.documentId ? `/documents/${a.documentId}` : `/actions/${a.id}`;
  return Buffer.from(`${base}${path}?actionId=${a.id}`).toString('base64url');
}

export const ACTION_SORTS = ['actionId', 'actionName', 'dueDate', 'priority', 'status', 'createdAt', 'updatedAt'] as const;
export type ActionSort = (typeof ACTION_SORTS)[number];
