/**
 * What the attestations resource does for the area's other entry points: an answer given in the
 * actions area (consumers/attestation-answers.consumer.ts) is recorded as one sent to POST
 * .../respond is, and a campaign's due date passing (sweeps/attestation-overdue.sweep.ts) marks what
 * is left overdue.
 */
import { AttestationOutcome, conflict, forbidden, notFound } from '@ddm/contracts';
import { Tx, isoSql } from '@ddm/platform';
import { recordDelegationChange } from '../core/delegation-changes';
import { holds, toState } from '../core/delegation.rules';
import { RULE_COLUMNS, loadOrg, tenantSettingsOf } from '../core/delegation.sql';
import { stateSubjectOf, statusMove } from '../core/delegation.status';
import { DelegationRuleRow } from '../core/delegation.types';
import { writeStatusMove } from '../core/status-move';
import { ItemStatus, ResponseChannel, answerProblem, flagChange } from './attestation.rules';
import { CLOSE_ANSWERED_SQL, ITEM_BY_DELEGATION_SQL } from './attestation.sql';
import { AttestationItemView, toItemEvent } from './dto/attestation.response';

/** An answer to record: who gave it, for which delegation of which campaign, and how it came. */
export interface Answer {
  tenantId: string;
  campaignId: string;
  delegationId: string;
  userId: string;
  outcome: AttestationOutcome;
  comment: string | null;
  via: ResponseChannel;
}

/** What a campaign row holds that an answer and its events need. */
export interface CampaignRow {
  id: string;
  name: string;
  due_date: Date;
  created_by: string;
}

interface DueCampaign {
  id: string;
  tenant_id: string;
  name: string;
  due_date: Date;
  created_by: string;
  suspend_overdue: boolean;
}

interface OverdueItem {
  campaign_id: string;
  tenant_id: string;
  delegation_id: string;
  delegation_display_id: string;
  recipient_type: string;
  recipient_user_id: string | null;
  recipient_position_id: string | null;
}

/**
 * Records an answer, however it came (this area's endpoint, the actions area's event): 404 for an
 * unknown campaign or a delegation it does not cover, 403 unless the person holds the delegation
 * now, 409 when it was answered already, the campaign is past due, or the delegation is no longer
 * held. A dispute flags the delegation for its issuer (a revision, its updated event, the disputed
 * notice); a confirmation clears a flag an earlier campaign set. The campaign closes with its last
 * pending item. The campaign row is locked first, so two last answers cannot both miss closing it.
 */
export async function recordAttestationAnswer(tx: Tx, a: Answer): Promise<AttestationItemView> {
  const [campaign] = await tx.query<CampaignRow>(
    `SELECT id, name, due_date, created_by FROM decision.attestation_campaigns WHERE id = $1 AND tenant_id = $2 FOR NO KEY UPDATE`,
    [a.campaignId, a.tenantId],
  );
  if (!campaign) throw notFound(`Attestation campaign ${a.campaignId} not found`);
  const [item] = await tx.query<{ id: string; status: ItemStatus; recipient_type: string; recipient_user_id: string | null; recipient_position_id: string | null }>(
    `SELECT id, status, recipient_type, recipient_user_id, recipient_position_id FROM decision.attestation_items WHERE campaign_id = $1 AND delegation_id = $2 AND tenant_id = $3 FOR UPDATE`,
    [a.campaignId, a.delegationId, a.tenantId],
  );
  if (!item) throw notFound(`Delegation ${a.delegationId} is not covered by attestation campaign ${a.campaignId}`);
  const [row] = await tx.query<DelegationRuleRow & { delegation_display_id: string; attestation_disputed_campaign_id: string | null }>(
    `SELECT ${RULE_COLUMNS}, g.delegation_display_id, g.attestation_disputed_campaign_id FROM decision.delegations g WHERE g.id = $1 AND g.tenant_id = $2 FOR UPDATE`,
    [a.delegationId, a.tenantId],
  );
  const org = await loadOrg(tx, a.tenantId, [a.userId], row.recipient_position_id ? [row.recipient_position_id] : []);
  if (!holds(toState(row), a.userId, org)) throw forbidden(`Only a holder of delegation ${row.delegation_display_id} may answer its attestation`);
  const problem = answerProblem({ itemStatus: item.status, dueDate: new Date(campaign.due_date), delegationStatus: row.status, delegationDisplayId: row.delegation_display_id }, new Date());
  if (problem) throw conflict(problem);

  const [answered] = await tx.query<{ responded_at: string }>(
    `UPDATE decision.attestation_items SET status = $3, comment = $4, responded_by = $5, responded_on = now(), responded_via = $6, updated_on = now()
      WHERE id = $1 AND tenant_id = $2 RETURNING ${isoSql('responded_on')} AS responded_at`,
    [item.id, a.tenantId, a.outcome, a.comment, a.userId, a.via],
  );
  const flag = flagChange(a.outcome, row.attestation_disputed_campaign_id);
  if (flag) {
    await tx.query(
      `UPDATE decision.delegations SET attestation_disputed_campaign_id = $3, updated_on = now(), updated_by = $4, version = version + 1 WHERE id = $1 AND tenant_id = $2`,
      [row.id, a.tenantId, flag === 'flag' ? a.campaignId : null, a.userId],
    );
    await recordDelegationChange(tx, a.tenantId, [row.id], flag === 'flag' ? 'attestation disputed' : 'attestation confirmed', a.userId, stateSubjectOf(row.status));
  }
  const event = {
    ...toItemEvent(a.tenantId, campaign, { ...item, delegation_id: row.id, delegation_display_id: row.delegation_display_id, decision_id: row.decision_id, issuer_user_id: row.issuer_user_id }),
    outcome: a.outcome,
    comment: a.comment,
    respondedById: a.userId,
    respondedAt: answered.responded_at,
  };
  await tx.publish('evt.decision.attestation.responded', event);
  if (a.outcome === 'DISPUTED') await tx.publish('evt.decision.attestation.disputed', { ...event, notifyUserIds: row.issuer_user_id ? [row.issuer_user_id] : [] });
  await tx.query(CLOSE_ANSWERED_SQL, [[a.campaignId]]);
  const [view] = await tx.query<{ view: AttestationItemView }>(ITEM_BY_DELEGATION_SQL, [a.campaignId, a.delegationId, a.tenantId]);
  return view.view;
}

/**
 * A campaign's due date passing, in one transaction of the sweep: the open campaigns past due
 * (FOR NO KEY UPDATE SKIP LOCKED: two replicas never take the same one, and an answer to one of
 * them waits, then finds it past due), up to `batch` of their PENDING items marked OVERDUE in one
 * statement, the delegations of those whose campaign says so and that are still held suspended
 * (through the delegations' own move: a revision, the updated event and the suspended notice each,
 * their subtrees checked again), overdue published for each item, and the campaigns with nothing
 * left pending closed. The system acts: revisions name no one. Answers how many items it marked.
 */
export async function markOverdueAttestations(tx: Tx, batch: number): Promise<number> {
  const campaigns = await tx.query<DueCampaign>(
    `SELECT id, tenant_id, name, due_date, created_by, suspend_overdue FROM decision.attestation_campaigns
      WHERE status = 'OPEN' AND due_date <= now() ORDER BY due_date, id LIMIT $1 FOR NO KEY UPDATE SKIP LOCKED`,
    [batch],
  );
  if (!campaigns.length) return 0;
  const items = await tx.query<OverdueItem>(
    `WITH due AS (
       SELECT i.id FROM decision.attestation_items i WHERE i.campaign_id = ANY($1::uuid[]) AND i.status = 'PENDING'
        ORDER BY i.campaign_id, i.id LIMIT $2 FOR UPDATE)
     UPDATE decision.attestation_items i SET status = 'OVERDUE', updated_on = now() FROM due WHERE i.id = due.id
     RETURNING i.campaign_id, i.tenant_id, i.delegation_id, i.delegation_display_id, i.recipient_type, i.recipient_user_id, i.recipient_position_id`,
    [campaigns.map((c) => c.id), batch],
  );
  const byId = new Map(campaigns.map((c) => [c.id, c]));
  const suspended = await suspendOverdue(tx, items.filter((i) => byId.get(i.campaign_id)!.suspend_overdue));
  const byTenant = new Map<string, OverdueItem[]>();
  for (const i of items) byTenant.set(i.tenant_id, [...(byTenant.get(i.tenant_id) ?? []), i]);
  for (const [tenantId, overdue] of byTenant) {
    const issuers = await tx.query<{ id: string; decision_id: string; issuer_user_id: string | null }>(
      `SELECT id, decision_id, issuer_user_id FROM decision.delegations WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
      [tenantId, [...new Set(overdue.map((i) => i.delegation_id))]],
    );
    const delegation = new Map(issuers.map((d) => [d.id, d]));
    await tx.publishMany(
      'evt.decision.attestation.overdue',
      overdue.map((i) => {
        const d = delegation.get(i.delegation_id)!;
        const campaign = byId.get(i.campaign_id)!;
        return {
          ...toItemEvent(tenantId, campaign, { ...i, decision_id: d.decision_id, issuer_user_id: d.issuer_user_id }),
          suspended: campaign.suspend_overdue && suspended.has(i.delegation_id),
          notifyUserIds: [...new Set([d.issuer_user_id, i.recipient_user_id].filter((x): x is string => !!x))],
        };
      }),
    );
  }
  await tx.query(CLOSE_ANSWERED_SQL, [campaigns.map((c) => c.id)]);
  return items.length;
}

/**
 * Suspends the delegations of `items` that may be suspended (statusMove: ISSUED or ACCEPTED) in
 * one move per tenant; answers their ids. One already suspended, revoked or expired is left as it is.
 */
async function suspendOverdue(tx: Tx, items: readonly OverdueItem[]): Promise<Set<string>> {
  const done = new Set<string>();
  const byTenant = new Map<string, Set<string>>();
  for (const i of items) byTenant.set(i.tenant_id, (byTenant.get(i.tenant_id) ?? new Set()).add(i.delegation_id));
  for (const [tenantId, wanted] of byTenant) {
    const rows = await tx.query<DelegationRuleRow>(
      `SELECT ${RULE_COLUMNS} FROM decision.delegations g WHERE g.tenant_id = $1 AND g.id = ANY($2::uuid[]) ORDER BY g.id FOR UPDATE`,
      [tenantId, [...wanted]],
    );
    const settings = await tenantSettingsOf(tx, tenantId);
    const allowed = rows.flatMap((r) => {
      const moved = statusMove(r.status, r.pending_stage, 'suspend', settings, r.accepted_date !== null);
      return 'problem' in moved ? [] : [{ id: r.id, moved }];
    });
    if (!allowed.length) continue;
    // A suspension lands every one of them in the same place (SUSPENDED): one move for all.
    const ids = allowed.map((m) => m.id);
    await writeStatusMove(tx, tenantId, ids, 'suspend', allowed[0].moved, null, 'evt.decision.delegation.updated', 'evt.decision.delegation.suspended');
    for (const id of ids) done.add(id);
  }
  return done;
}
