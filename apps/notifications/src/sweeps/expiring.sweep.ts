import { Inject, Injectable } from '@nestjs/common';
import { Db, LOGGER, ScheduledSweep } from '@ddm/platform';
import { Logger } from 'pino';
import { NOTIFICATIONS_OPTIONS, NotificationsOptions } from '../core/notifications.config';
import { NotificationRefs } from '../notifications/notification-refs';
import { expiringNotification } from './sweep.rules';
import { ExpiringRow, claimExpiringSql } from './sweep.sql';

/** Delegations claimed per transaction (the sweep repeats until fewer are left). */
const EXPIRING_BATCH = 200;

/**
 * The expiring sweep: warns the recipients of live delegations expiring within 7 days
 * (DELEGATION_EXPIRING). Safe on every replica: each delegation is claimed with SKIP LOCKED and
 * marked warned for its expiration date, so each warning goes once.
 */
@Injectable()
export class ExpiringSweep extends ScheduledSweep {
  constructor(
    private readonly db: Db,
    private readonly notifications: NotificationRefs,
    @Inject(NOTIFICATIONS_OPTIONS) options: NotificationsOptions,
    @Inject(LOGGER) log: Logger,
  ) {
    super(log, options.sweepIntervalMs, 'expiring-delegation warnings made');
  }

  /** Each claimed delegation's warning in the transaction that claims it; answers how many notifications were made. */
  sweep(): Promise<number> {
    return this.db.acrossTenants('warn of delegations expiring soon, in every tenant', async () => {
      let made = 0;
      for (;;) {
        const claimed = await this.db.transaction(async (tx) => {
          const rows = await tx.query<ExpiringRow>(claimExpiringSql(EXPIRING_BATCH));
          for (const r of rows) {
            const n = expiringNotification({
              delegationId: r.delegation_id,
              delegationDisplayId: r.delegation_display_id,
              recipientUserId: r.recipient_user_id,
              recipientPositionId: r.recipient_position_id,
              expirationDate: r.expiration_date,
            });
            if (!n) continue;
            made += (await this.notifications.notifyOf(tx, r.tenant_id, n)).length;
          }
          return rows.length;
        });
        if (claimed < EXPIRING_BATCH) return made;
      }
    });
  }
}
