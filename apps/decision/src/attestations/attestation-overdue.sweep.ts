import { Inject, Injectable } from '@nestjs/common';
import { Db, LOGGER, ScheduledSweep, Tx } from '@ddm/platform';
import { Logger } from 'pino';
import { statusMove } from '../delegations/delegation.rules';
import { DelegationRuleRow, RULE_COLUMNS, tenantSettingsOf } from '../delegations/delegation.sql';
import { writeStatusMove } from '../delegations/status-move';
import { CLOSE_ANSWERED_SQL } from './attestation.sql';
import { toItemEvent } from './dto/attestation.response';

/** How often the sweep looks for campaigns past their due date. */
export const ATTESTATION_SWEEP_MS = 60_000;
/** Most campaigns, and most items, one sweep takes (the next takes the rest). */
const BATCH = 500;

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
 * A campaign's due date passing: every ATTESTATION_SWEEP_MS each replica takes the open campaigns
 * past due (FOR NO KEY UPDATE SKIP LOCKED: two replicas never take the same one, and an answer to
 * one of them waits, then finds it past due), marks up to BATCH of their PENDING items OVERDUE in
 * one statement, suspends the delegations of those whose campaign says so and that are still held
 * (through the delegations' own move: a revision, the updated event and the suspended notice each,
 * their subtrees checked again), publishes overdue for each item, and closes the campaigns with
 * nothing left pending. The system acts: revisions name no one.
 */
@Injectable()
export class AttestationOverdueSweep extends ScheduledSweep {
  constructor(
    private readonly db: Db,
    @Inject(LOGGER) log: Logger,
  ) {
    super(log, ATTESTATION_SWEEP_MS, 'attestation items overdue');
  }

  /** One sweep: answers how many items it marked overdue. */
  sweep(): Promise<number> {
    // Cross-tenant by nature: the explicit path (Db.acrossTenants).
    return this.db.acrossTenants('mark attestation items past their due date overdue, in every tenant', () =>
      this.db.transaction(async (tx) => {
        const campaigns = await tx.query<DueCampaign>(
          `SELECT id, tenant_id, name, due_date, created_by, suspend_overdue FROM decision.attestation_campaigns
            WHERE status = 'OPEN' AND due_date <= now() ORDER BY due_date, id LIMIT $1 FOR NO KEY UPDATE SKIP LOCKED`,
          [BATCH],
        );
        if (!campaigns.length) return 0;
        const items = await tx.query<OverdueItem>(
          `WITH due AS (
             SELECT i.id FROM decision.attestation_items i WHERE i.campaign_id = ANY($1::uuid[]) AND i.status = 'PENDING'
              ORDER BY i.campaign_id, i.id LIMIT $2 FOR UPDATE)
           UPDATE decision.attestation_items i SET status = 'OVERDUE', updated_on = now() FROM due WHERE i.id = due.id
           RETURNING i.campaign_id, i.tenant_id, i.delegation_id, i.delegation_display_id, i.recipient_type, i.recipient_user_id, i.recipient_position_id`,
          [campaigns.map((c) => c.id), BATCH],
        );
        const byId = new Map(campaigns.map((c) => [c.id, c]));
        const suspended = await this.suspend(tx, items.filter((i) => byId.get(i.campaign_id)!.suspend_overdue));
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
      }),
    );
  }

  /**
   * Suspends the delegations of `items` that may be suspended (statusMove: ISSUED or ACCEPTED) in
   * one move per tenant; answers their ids. One already suspended, revoked or expired is left as it is.
   */
  private async suspend(tx: Tx, items: readonly OverdueItem[]): Promise<Set<string>> {
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
}
