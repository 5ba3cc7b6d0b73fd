import { Inject, Injectable } from '@nestjs/common';
import { Db, LOGGER, MailService, SERVICE_CONFIG, ScheduledSweep, ServiceConfig } from '@ddm/platform';
import { Logger } from 'pino';
import { NOTIFICATIONS_OPTIONS, NotificationsOptions } from '../core/notifications.config';
import { digestMail } from './sweep.rules';
import { DigestItem, claimDueDigestsSql, digestItemsSql } from './sweep.sql';

/** People claimed per statement (the sweep repeats until none is due). */
const DIGEST_BATCH = 200;
/** Newest unread notifications listed in a digest (the rest are counted). */
const DIGEST_ITEMS = 20;

/**
 * The email digest: mails each person who chose a daily or weekly digest and has unread
 * notifications, when it is due. Safe on every replica: each person is claimed with SKIP LOCKED
 * and marked sent in the claiming statement, so each digest goes once.
 */
@Injectable()
export class DigestSweep extends ScheduledSweep {
  constructor(
    private readonly db: Db,
    private readonly mail: MailService,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    @Inject(NOTIFICATIONS_OPTIONS) options: NotificationsOptions,
    @Inject(LOGGER) log: Logger,
  ) {
    super(log, options.sweepIntervalMs, 'digests mailed');
  }

  /** Mails every due digest (people with unread notifications); answers how many were sent. */
  sweep(): Promise<number> {
    return this.db.acrossTenants('mail the due digests, in every tenant', async () => {
      let sent = 0;
      for (;;) {
        const claimed = await this.db.query<{ tenant_id: string; user_id: string; email: string | null; name: string | null; email_digest: string }>(claimDueDigestsSql(DIGEST_BATCH));
        if (!claimed.length) return sent;
        const items = await this.db.query<DigestItem>(digestItemsSql(claimed.map((c) => c.tenant_id), claimed.map((c) => c.user_id), DIGEST_ITEMS));
        const byPerson = new Map<string, DigestItem[]>();
        for (const i of items) {
          const key = `${i.tenant_id}:${i.user_id}`;
          byPerson.set(key, [...(byPerson.get(key) ?? []), i]);
        }
        const mails = claimed
          .filter((c) => c.email && byPerson.has(`${c.tenant_id}:${c.user_id}`))
          .map((c) => {
            const mine = byPerson.get(`${c.tenant_id}:${c.user_id}`)!;
            return digestMail({
              email: c.email!,
              name: c.name,
              period: c.email_digest,
              unread: mine[0].unread,
              items: mine.map((i) => ({ title: i.title, actionUrl: i.action_url })),
              appUrl: this.config.appUrl,
            });
          });
        const outcomes = await this.mail.sendAll(mails);
        sent += outcomes.filter((o) => o.ok).length;
        if (claimed.length < DIGEST_BATCH) return sent;
      }
    });
  }
}
