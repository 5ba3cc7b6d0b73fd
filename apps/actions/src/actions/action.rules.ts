/** The rules of actions that need no database; unit-tested in actions.spec.ts. */
import { PermissionRule } from '@ddm/contracts';

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

/** An action's opaque link: where the app shows it (the cause of a system action, else the action), encoded. */
export function actionLink(appUrl: string, a: { id: string; delegationId: string | null; documentId: string | null; isSystemGenerated: boolean }): string {
  const base = appUrl.replace(/\/+$/, '');
  const path = a.isSystemGenerated && a.delegationId ? `/delegations/${a.delegationId}` : a.isSystemGenerated && a.documentId ? `/documents/${a.documentId}` : `/actions/${a.id}`;
  return Buffer.from(`${base}${path}?actionId=${a.id}`).toString('base64url');
}

export const ACTION_SORTS = ['actionId', 'actionName', 'dueDate', 'priority', 'status', 'createdAt', 'updatedAt'] as const;
export type ActionSort = (typeof ACTION_SORTS)[number];
