import { Inject, Injectable } from '@nestjs/common';
import { Db, LOGGER, ScheduledSweep } from '@ddm/platform';
import { Logger } from 'pino';
import { NOTIFICATIONS_OPTIONS, NotificationsOptions } from '../core/notifications.config';
import { retentionSql } from './sweep.sql';

/** Read notifications deleted per statement (the sweep repeats until fewer are left). */
const RETENTION_BATCH = 10_000;

/**
 * The retention sweep: deletes the read notifications older than the retention (NOTIFICATIONS_RETENTION_DAYS),
 * in batches, in every tenant. Any replica may run it at any time: deleting twice is nothing.
 */
@Injectable()
export class RetentionSweep extends ScheduledSweep {
  constructor(
    private readonly db: Db,
    @Inject(NOTIFICATIONS_OPTIONS) private readonly options: NotificationsOptions,
    @Inject(LOGGER) log: Logger,
  ) {
    super(log, options.sweepIntervalMs, 'read notifications deleted past the retention');
  }

  /** Deletes read notifications older than the retention; answers how many. */
  sweep(): Promise<number> {
    return this.db.acrossTenants('delete read notifications past the retention, in every tenant', async () => {
      let total = 0;
      for (;;) {
        const n = (await this.db.query(retentionSql(this.options.retentionDays, RETENTION_BATCH))).length;
        total += n;
        if (n < RETENTION_BATCH) return total;
      }
    });
  }
}
