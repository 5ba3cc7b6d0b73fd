import { Inject, Injectable } from '@nestjs/common';
import { Db, LOGGER, ScheduledSweep } from '@ddm/platform';
import { Logger } from 'pino';
import { recordDelegationChange } from '../core/delegation-changes';
import { revalidate } from '../core/invalidation';

/** How often the sweep looks for delegations past their expiration date. */
export const EXPIRY_SWEEP_MS = 30_000;
/** Most delegations one sweep expires (the next takes the rest). */
const BATCH = 500;

/**
 * `expirationDate` passing moves an ISSUED or ACCEPTED delegation to EXPIRED on its own: every
 * EXPIRY_SWEEP_MS each replica takes up to BATCH due delegations with FOR UPDATE SKIP LOCKED (two
 * replicas never take the same one), expires them in one statement with a revision, the `updated`
 * event and the `expired` notice each, and checks their subtrees again (children of an expired
 * delegation become invalid: Parent).
 */
@Injectable()
export class ExpirySweep extends ScheduledSweep {
  constructor(
    private readonly db: Db,
    @Inject(LOGGER) log: Logger,
  ) {
    super(log, EXPIRY_SWEEP_MS, 'delegations expired');
  }

  /** One sweep: answers how many delegations it expired. */
  sweep(): Promise<number> {
    // Cross-tenant by nature: the explicit path (Db.acrossTenants).
    return this.db.acrossTenants('expire delegations past their end, in every tenant', () =>
      this.db.transaction(async (tx) => {
        const rows = await tx.query<{ id: string; tenant_id: string }>(
          `WITH due AS (
             SELECT id FROM decision.delegations
              WHERE status IN ('ISSUED', 'ACCEPTED') AND expiration_date IS NOT NULL AND expiration_date <= now()
              ORDER BY expiration_date LIMIT $1 FOR UPDATE SKIP LOCKED)
           UPDATE decision.delegations g SET status = 'EXPIRED', pending_stage = NULL, updated_on = now(), version = version + 1
             FROM due WHERE g.id = due.id
           RETURNING g.id, g.tenant_id`,
          [BATCH],
        );
        const byTenant = new Map<string, string[]>();
        for (const r of rows) byTenant.set(r.tenant_id, [...(byTenant.get(r.tenant_id) ?? []), r.id]);
        for (const [tenantId, ids] of byTenant) {
          await recordDelegationChange(tx, tenantId, ids, 'expired', null, 'evt.decision.delegation.updated', 'evt.decision.delegation.expired');
          await revalidate(tx, tenantId, { delegationIds: ids });
        }
        return rows.length;
      }),
    );
  }
}
