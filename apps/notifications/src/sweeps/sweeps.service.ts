import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Db, LOGGER, MailService, SERVICE_CONFIG, ServiceConfig } from '@ddm/platform';
import { expiringNotification } from '../consumers/event-notifications.rules';
import { NotificationsService } from '../notifications/notifications.service';
import { Logger } from 'pino';
import { NOTIFICATIONS_OPTIONS, NotificationsOptions } from '../notifications.config';
import { digestMail } from './sweep.rules';
import { DigestItem, ExpiringRow, claimDueDigestsSql, claimExpiringSql, digestItemsSql, retentionSql } from './sweep.sql';

const RETENTION_BATCH = 10_000;
const DIGEST_BATCH = 200;
const DIGEST_ITEMS = 20;
const EXPIRING_BATCH = 200;

/**
 * The scheduled sweeps, run on every replica on a timer and safe together: the retention sweep
 * deletes read notifications past the retention in batches (any replica may, deleting twice is
 * nothing); the expiring sweep and the digest claim their rows with SKIP LOCKED, so each warning
 * and each digest goes once.
 */
@Injectable()
export class SweepsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly mail: MailService,
    private readonly notifications: NotificationsService,
    @Inject(NOTIFICATIONS_OPTIONS) private readonly options: NotificationsOptions,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.options.sweepIntervalMs) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.runAll().finally(() => (this.running = undefined));
    }, this.options.sweepIntervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private async runAll(): Promise<void> {
    try {
      await this.retention();
      await this.expiring();
      await this.digests();
    } catch (err) {
      this.log.error({ err }, 'notification sweep failed');
    }
  }

  /** Deletes read notifications older than the retention; answers how many. */
  retention(): Promise<number> {
    return this.db.acrossTenants('delete read notifications past the retention, in every tenant', async () => {
      let total = 0;
      for (;;) {
        const n = (await this.db.query(retentionSql(this.options.retentionDays, RETENTION_BATCH))).length;
        total += n;
        if (n < RETENTION_BATCH) return total;
      }
    });
  }

  /**
   * Warns the recipients of live delegations expiring within 7 days (DELEGATION_EXPIRING), each
   * claimed delegation in the transaction that claims it; answers how many notifications were made.
   */
  expiring(): Promise<number> {
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
            const spec = {
              tenantId: r.tenant_id,
              templateKey: n.templateKey,
              placeholders: n.placeholders,
              entityType: n.entityType,
              entityId: n.entityId,
              actionUrl: `${this.config.appUrl}${n.path}`,
              payload: null,
              sourceKey: n.sourceKey,
              createdBy: null,
            };
            made += (await this.notifications.notify(tx, spec, n.userIds, n.positionIds)).length;
          }
          return rows.length;
        });
        if (claimed < EXPIRING_BATCH) return made;
      }
    });
  }

  /** Mails every due digest (people with unread notifications); answers how many were sent. */
  digests(): Promise<number> {
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
