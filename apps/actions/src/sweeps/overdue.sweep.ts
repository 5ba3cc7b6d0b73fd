import { Inject, Injectable } from '@nestjs/common';
import { Db, LOGGER, ScheduledSweep } from '@ddm/platform';
import { Logger } from 'pino';
import { moveOverdueActions } from '../actions/action-refs';

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
      this.db.transaction((tx) => moveOverdueActions(tx, BATCH)),
    );
  }
}
