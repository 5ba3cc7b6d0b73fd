import { Inject, Injectable } from '@nestjs/common';
import { Db, LOGGER, ScheduledSweep } from '@ddm/platform';
import { Logger } from 'pino';
import { NOTIFICATIONS_OPTIONS, NotificationsOptions } from '../core/notifications.config';
import { expiredTicketsSql } from './sweep.sql';

/** Expired tickets deleted per statement (the sweep repeats until fewer are left). */
const TICKET_BATCH = 10_000;

/** Deletes the stream tickets that expired unused, in every tenant, as often as the other sweeps run. */
@Injectable()
export class StreamTicketSweep extends ScheduledSweep {
  constructor(
    private readonly db: Db,
    @Inject(NOTIFICATIONS_OPTIONS) options: NotificationsOptions,
    @Inject(LOGGER) log: Logger,
  ) {
    super(log, options.sweepIntervalMs, 'expired stream tickets deleted');
  }

  sweep(): Promise<number> {
    return this.db.acrossTenants('delete expired stream tickets, in every tenant', async () => {
      let total = 0;
      for (;;) {
        const n = (await this.db.query(expiredTicketsSql(TICKET_BATCH))).length;
        total += n;
        if (n < TICKET_BATCH) return total;
      }
    });
  }
}
