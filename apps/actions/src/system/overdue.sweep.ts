import { Inject, Injectable } from '@nestjs/common';
import { ACTION_SUBJECTS } from '@ddm/contracts';
import { Db, LOGGER, ScheduledSweep } from '@ddm/platform';
import { Logger } from 'pino';
import { publishActions, readViews, statusRank } from '../actions/action-writes';

/** How often the sweep looks for open actions past their due date. */
export const OVERDUE_SWEEP_MS = 60_000;
/** Most actions one sweep moves (the next takes the rest). */
const BATCH = 500;

/**
 * Open actions (To Do, In Progress) past their due date move to Overdue on their own: every
 * OVERDUE_SWEEP_MS each replica takes up to BATCH due actions with FOR UPDATE SKIP LOCKED (two
 * replicas never take the same one), moves them in one statement and publishes overdue for each.
 */
@Injectable()
export class OverdueSweep extends ScheduledSweep {
  constructor(
    private readonly db: Db,
    @Inject(LOGGER) log: Logger,
  ) {
    super(log, OVERDUE_SWEEP_MS, 'actions moved to Overdue');
  }

  /** One sweep: answers how many actions it moved. */
  sweep(): Promise<number> {
    // Cross-tenant by nature: the explicit path (Db.acrossTenants).
    return this.db.acrossTenants('move open actions past their due date to Overdue, in every tenant', () =>
      this.db.transaction(async (tx) => {
        const rows = await tx.query<{ id: string; tenant_id: string }>(
          `WITH due AS (
             SELECT id FROM actions.actions
              WHERE NOT is_deleted AND status_key IN ('TODO', 'IN_PROGRESS') AND due_date < now()
              ORDER BY due_date LIMIT $1 FOR UPDATE SKIP LOCKED)
           UPDATE actions.actions a SET action_status_id = s.id, status_key = 'OVERDUE', status_rank = $2, version = a.version + 1, updated_on = now(), updated_by = NULL
             FROM due, actions.action_statuses s
            WHERE a.id = due.id AND s.tenant_id = a.tenant_id AND s.status_key = 'OVERDUE'
           RETURNING a.id, a.tenant_id`,
          [BATCH, statusRank('OVERDUE')],
        );
        const byTenant = new Map<string, string[]>();
        for (const r of rows) byTenant.set(r.tenant_id, [...(byTenant.get(r.tenant_id) ?? []), r.id]);
        for (const [tenantId, ids] of byTenant) await publishActions(tx, tenantId, ACTION_SUBJECTS.overdue, await readViews(tx, tenantId, ids), null);
        return rows.length;
      }),
    );
  }
}
