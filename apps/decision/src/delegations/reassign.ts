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
import { JobItemOutcome } from '@ddm/platform';
import { Tx } from '@ddm/platform';
import { DecisionScope, DelegationStatus, LIVE_STATUSES, ProposedDelegation, checkChange, statusOnReassign } from './delegation.rules';
import { DelegationRuleRow, RULE_COLUMNS, decisionScope, loadOrg, tenantSettingsOf, toState } from './delegation.sql';
import { Manager, manageable, recordDelegationChange, stateSubjectOf } from './delegation-changes';
import { revalidate } from './invalidation';

export interface NewRecipient {
  recipientType: DelegationRuleRow['recipient_type'];
  recipientUserId: string | null;
  recipientPositionId: string | null;
  recipientAutoIssue?: boolean;
}

export async function reassignRecipients(tx: Tx, who: Manager, ids: readonly string[], to: NewRecipient): Promise<JobItemOutcome[]> {
  const tenantId = who.tenantId;
  const rows = await tx.query<DelegationRuleRow>(
    `SELECT ${RULE_COLUMNS} FROM decision.delegations g WHERE g.tenant_id = $1 AND g.id = ANY($2::uuid[]) AND g.status <> 'DELETED' ORDER BY g.id FOR UPDATE`,
    [tenantId, ids],
  );
  const parentIds = [...new Set(rows.map((r) => r.parent_delegation_id).filter((p): p is string => !!p))];
  const parents = parentIds.length ? await tx.query<DelegationRuleRow>(`SELECT ${RULE_COLUMNS} FROM decision.delegations g WHERE g.tenant_id = $1 AND g.id = ANY($2::uuid[])`, [tenantId, parentIds]) : [];
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

  await tx.query(
    `UPDATE decision.delegations g
        SET recipient_type = $3, recipient_user_id = $4, recipient_position_id = $5, recipient_auto_issue = coalesce($6, g.recipient_auto_issue),
            status = m.status, pending_stage = m.stage, accepted_date = CASE WHEN g.status = 'ACCEPTED' THEN NULL ELSE g.accepted_date END,
            updated_on = now(), updated_by = $7, version = g.version + 1
       FROM unnest($2::uuid[], $8::text[], $9::text[]) AS m(id, status, stage)
      WHERE g.id = m.id AND g.tenant_id = $1`,
    [tenantId, moves.map((m) => m.id), to.recipientType, to.recipientUserId, to.recipientPositionId, to.recipientAutoIssue ?? null, who.userId, moves.map((m) => m.status), moves.map((m) => m.stage)],
  );
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
