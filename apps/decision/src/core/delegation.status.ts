/**
 * The status machine of a delegation, with no I/O: where an action takes it (and the 409 when it
 * cannot), what a change of recipient does to its status, and which events follow a change.
 */
import { DelegationNoticeSubject } from '@ddm/contracts';
import { DelegationAction, DelegationStatus, PendingStage } from './delegation.types';

/** A step of the status machine: a status and, for PENDING, its stage. */
interface Step {
  to: DelegationStatus;
  stage: PendingStage | null;
}

interface Move {
  /** The states the action applies to: a status (any stage), or "PENDING (STAGE)" for one stage. */
  from: readonly string[];
  to(settings: { approvalRequired: boolean; acceptanceRequired: boolean }, wasAccepted: boolean): Step;
}

const step = (to: DelegationStatus, stage: PendingStage | null = null): Step => ({ to, stage });
const afterApproval = (s: { acceptanceRequired: boolean }): Step => (s.acceptanceRequired ? step('PENDING', 'ACCEPTANCE') : step('ISSUED'));

const MOVES: Readonly<Record<DelegationAction, Move>> = {
  issue: { from: ['DRAFT'], to: (s) => (s.approvalRequired ? step('PENDING', 'APPROVAL') : afterApproval(s)) },
  approve: { from: ['PENDING (APPROVAL)'], to: (s) => afterApproval(s) },
  deny: { from: ['PENDING (APPROVAL)'], to: () => step('REJECTED') },
  accept: { from: ['PENDING (ACCEPTANCE)', 'ISSUED'], to: () => step('ACCEPTED') },
  reject: { from: ['PENDING (ACCEPTANCE)', 'ISSUED'], to: () => step('REJECTED') },
  suspend: { from: ['ISSUED', 'ACCEPTED'], to: () => step('SUSPENDED') },
  resume: { from: ['SUSPENDED'], to: (_s, wasAccepted) => step(wasAccepted ? 'ACCEPTED' : 'ISSUED') },
  revoke: { from: ['PENDING', 'ISSUED', 'ACCEPTED', 'SUSPENDED'], to: () => step('REVOKED') },
  archive: { from: ['DRAFT', 'REJECTED', 'REVOKED', 'EXPIRED'], to: () => step('ARCHIVED') },
};

/**
 * A status move: where `action` takes a delegation in `from` (and, for PENDING, at which stage),
 * given the tenant's settings; or the 409 problem naming both states (where it is, where the action
 * would take it) and what the action applies to.
 * issue: DRAFT -> PENDING (APPROVAL when approval is required, else ACCEPTANCE when acceptance is) or ISSUED;
 * approve: PENDING/APPROVAL -> PENDING/ACCEPTANCE when acceptance is required, else ISSUED; deny: PENDING/APPROVAL -> REJECTED;
 * accept: PENDING/ACCEPTANCE or ISSUED -> ACCEPTED; reject: PENDING/ACCEPTANCE or ISSUED -> REJECTED;
 * suspend: ISSUED or ACCEPTED -> SUSPENDED; resume: SUSPENDED -> ACCEPTED if it had been accepted, else ISSUED;
 * revoke: PENDING (either stage), ISSUED, ACCEPTED or SUSPENDED -> REVOKED; archive: DRAFT, REJECTED, REVOKED or EXPIRED -> ARCHIVED.
 */
export function statusMove(
  from: DelegationStatus,
  stage: PendingStage | null,
  action: DelegationAction,
  settings: { approvalRequired: boolean; acceptanceRequired: boolean },
  wasAccepted: boolean,
): { to: DelegationStatus; stage: PendingStage | null } | { problem: string } {
  const move = MOVES[action];
  const target = move.to(settings, wasAccepted);
  const here = stateLabel(from, from === 'PENDING' ? stage : null);
  if (move.from.includes(from) || move.from.includes(here)) return target;
  const list = move.from.length === 1 ? move.from[0] : `${move.from.slice(0, -1).join(', ')} or ${move.from[move.from.length - 1]}`;
  return { problem: `A delegation cannot ${action} from ${here} to ${stateLabel(target.to, target.stage)} (${action} applies only to a delegation in ${list})` };
}


/**
 * A delegation's status when its recipient changes: an ACCEPTED one was accepted by someone else, so
 * it awaits the new recipient's acceptance (PENDING, ACCEPTANCE) when the tenant requires acceptance
 * and is ISSUED otherwise; any other status (a pending acceptance now waits for the new recipient) stays.
 */
export function statusOnReassign(status: DelegationStatus, stage: PendingStage | null, acceptanceRequired: boolean): { status: DelegationStatus; stage: PendingStage | null } {
  if (status !== 'ACCEPTED') return { status, stage };
  return acceptanceRequired ? { status: 'PENDING', stage: 'ACCEPTANCE' } : { status: 'ISSUED', stage: null };
}

/** The state subjects: one of them follows every change of a delegation that has left DRAFT. */
export type DelegationStateSubject = 'evt.decision.delegation.issued' | 'evt.decision.delegation.updated' | 'evt.decision.delegation.revoked';

/** The state subject of a change to a delegation in `status` (null: a draft publishes nothing). */
export function stateSubjectOf(status: DelegationStatus): DelegationStateSubject | null {
  return status === 'DRAFT' ? null : status === 'REVOKED' ? 'evt.decision.delegation.revoked' : 'evt.decision.delegation.updated';
}

/** What a status move publishes beside the state subject, by the status it reaches (who is told is the move's business). */
export const MOVE_NOTICES: Partial<Record<DelegationStatus, DelegationNoticeSubject>> = {
  PENDING: 'evt.decision.delegation.pending',
  ACCEPTED: 'evt.decision.delegation.accepted',
  REJECTED: 'evt.decision.delegation.rejected',
  SUSPENDED: 'evt.decision.delegation.suspended',
  EXPIRED: 'evt.decision.delegation.expired',
};

const stateLabel = (status: DelegationStatus, stage: PendingStage | null) => (stage === null ? status : `${status} (${stage})`);
