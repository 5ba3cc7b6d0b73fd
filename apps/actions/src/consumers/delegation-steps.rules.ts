/**
 * The rules of the delegation steps' system actions that need no database: which stage a pending
 * delegation is at, what its status settles, and who must act. Pure; unit-tested in
 * delegation-steps.spec.ts.
 */
import { SystemKind } from '../core/system-actions.rules';
import { unique } from '../core/ids';

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
