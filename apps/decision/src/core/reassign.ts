/**
 * Giving delegations to a new recipient (PATCH bulk-reassign-recipients, done by its job, a batch at
 * a time): each delegation is live, may be managed by the requester, and its new recipient passes
 * the rules a new recipient must (sound; for a redelegation, reachable from its issuer along its
 * pathways: checkChange). Those that pass change in one UPDATE (an accepted one awaits the new
 * recipient: statusOnReassign), each with a revision, its state event and, when it awaits acceptance,
 * the pending notice; their subtrees are checked again (the old holder's redelegations break `Issuer`).
 * A delegation already held by that recipient counts as done and changes nothing, so a batch run
 * twice (a redelivery after a crash) reassigns each once.
 */
import { JobItemOutcome, Tx } from '@ddm/platform';
import { manageable, recordDelegationChange } from './delegation-changes';
import { checkChange, toState } from './delegation.rules';
import { decisionScope, delegationRules, loadOrg, reassignTo, tenantSettingsOf } from './delegation.sql';
import { stateSubjectOf, statusOnReassign } from './delegation.status';
import { DecisionScope, DelegationRuleRow, DelegationStatus, LIVE_STATUSES, Manager, ProposedDelegation } from './delegation.types';
import { revalidate } from './invalidation';

export interface NewRecipient {
  recipientType: DelegationRuleRow['recipient_type'];
  recipientUserId: string | null;
  recipientPositionId: string | null;
  recipientAutoIssue?: boolean;
}

/** What a bulk reassignment's job carries (its params): the new recipient, and the requester's keys as they were when they asked. */
export interface ReassignParams {
  to: NewRecipient;
  /** The requester's keys that widen who may manage a delegation. */
  keys: string[];
}

export async function reassignRecipients(tx: Tx, who: Manager, ids: readonly string[], to: NewRecipient): Promise<JobItemOutcome[]> {
  const tenantId = who.tenantId;
  const rows = await delegationRules(tx, tenantId, ids, { lock: 'update', live: true });
  const parentIds = [...new Set(rows.map((r) => r.parent_delegation_id).filter((p): p is string => !!p))];
  const parents = parentIds.length ? await delegationRules(tx, tenantId, parentIds) : [];
  const parentById = new Map(parents.map((p) => [p.id, p]));
  const decisions = new Map<string, DecisionScope | null>();
  for (const decisionId of new Set(rows.map((r) => r.decision_id))) decisions.set(decisionId, await decisionScope(tx, tenantId, decisionId, false));
  const org = await loadOrg(
    tx,
    tenantId,
    [...rows.map((r) => r.issuer_user_id), to.recipientUserId].filter((x): x is string => !!x),
    [...parents.map((p) => p.recipient_position_id), to.recipientPositionId].filter((x): x is string => !!x),
  );
  const { acceptanceRequired } = await tenantSettingsOf(tx, tenantId);

  const byId = new Map(rows.map((r) => [r.id, r]));
  const allowed = await manageable(tx, who, rows);
  const outcomes: JobItemOutcome[] = [];
  const moves: { id: string; status: DelegationStatus; stage: string | null }[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    const fail = (error: string) => outcomes.push({ itemId: id, ok: false, error });
    if (!row) {
      fail('Delegation not found');
      continue;
    }
    if (!LIVE_STATUSES.includes(row.status)) {
      fail(`Delegation is ${row.status}; only a live delegation (${LIVE_STATUSES.join(', ')}) can be reassigned`);
      continue;
    }
    if (!allowed.has(row.id)) {
      fail('Only the issuer, someone above the issuer in the chain, or a holder of "approve:delegations" may reassign it');
      continue;
    }
    if (row.recipient_type === to.recipientType && row.recipient_user_id === to.recipientUserId && row.recipient_position_id === to.recipientPositionId) {
      outcomes.push({ itemId: id, ok: true, resultId: id }); // already theirs: done once
      continue;
    }
    const state = toState(row);
    const proposed: ProposedDelegation = {
      recipientType: to.recipientType,
      recipients: [{ recipientUserId: to.recipientUserId, recipientPositionId: to.recipientPositionId }],
      pathways: state.pathways,
      groupIds: state.groupIds,
      authorities: state.authorities,
      effectiveDate: state.effectiveDate,
      expirationDate: state.expirationDate,
    };
    const parent = row.parent_delegation_id ? parentById.get(row.parent_delegation_id) : undefined;
    const decision = decisions.get(row.decision_id);
    const violations = decision ? checkChange(parent ? toState(parent) : null, decision, proposed, row.issuer_user_id, org).filter((v) => v.rule === 'recipient' || v.rule === 'reach') : [];
    if (violations.length) {
      fail(`The new recipient breaks the rule "${violations[0].rule}": ${violations[0].message}`);
      continue;
    }
    const next = statusOnReassign(row.status, row.pending_stage, acceptanceRequired);
    moves.push({ id, status: next.status, stage: next.stage });
    outcomes.push({ itemId: id, ok: true, resultId: id });
  }
  if (!moves.length) return outcomes;

  await reassignTo(tx, tenantId, moves, to, who.userId);
  // One revision and event statement per kind (drafts publish nothing); the new recipient of a pending acceptance is told.
  const kinds = new Map<string, { status: DelegationStatus; pending: boolean; ids: string[] }>();
  for (const m of moves) {
    const pending = m.status === 'PENDING' && m.stage === 'ACCEPTANCE';
    const key = `${m.status}|${pending}`;
    if (!kinds.has(key)) kinds.set(key, { status: m.status, pending, ids: [] });
    kinds.get(key)!.ids.push(m.id);
  }
  for (const k of kinds.values()) {
    await recordDelegationChange(tx, tenantId, k.ids, 'recipient reassigned', who.userId, stateSubjectOf(k.status), k.pending ? 'evt.decision.delegation.pending' : undefined);
  }
  await revalidate(tx, tenantId, { delegationIds: moves.map((m) => m.id) }, who.userId);
  return outcomes;
}
