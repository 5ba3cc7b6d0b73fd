import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { NotificationEvent } from '@ddm/contracts';
import { Db, LOGGER, NatsClient } from '@ddm/platform';
import type { FastifyReply } from 'fastify';
import { JSONCodec, Subscription } from 'nats';
import { Logger } from 'pino';
import { NotificationRow, rowToView, toNotificationView } from '../notifications/dto/notification.response';
import { missedSql } from '../notifications/notification.sql';
import { NOTIFICATIONS_OPTIONS, NotificationsOptions } from '../notifications.config';

const codec = JSONCodec<NotificationEvent>();

/** Most notifications replayed to a stream reconnecting with Last-Event-ID. */
export const MAX_REPLAY = 500;

interface Stream {
  tenantId: string;
  userId: string;
  reply: FastifyReply;
  heartbeat: NodeJS.Timeout;
  /** Ids already sent (a notification replayed and arriving live goes out once). */
  sent: Set<string>;
  /** While the missed ones are replayed, live ones wait here (so the stream stays in creation order). */
  held: { id: string; view: object }[] | null;
}

/**
 * Live delivery of new notifications (Server-Sent Events). Every replica subscribes, on NATS
 * core, to the created events the outbox relays publish after commit, and writes each to the
 * streams of its person open on that replica: whichever replica made the notification, every
 * replica holding a stream of that person delivers it.
 */
@Injectable()
export class LiveStreams implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly byUser = new Map<string, Stream[]>();
  private sub?: Subscription;

  constructor(
    private readonly db: Db,
    private readonly nats: NatsClient,
    @Inject(LOGGER) private readonly log: Logger,
    @Inject(NOTIFICATIONS_OPTIONS) private readonly options: NotificationsOptions,
  ) {}

  onApplicationBootstrap(): void {
    this.sub = this.nats.nc.subscribe(this.nats.subjects.wire('evt.notifications.notification.created'), {
      callback: (err, msg) => {
        if (err) return void this.log.warn({ err }, 'live notifications subscription error');
        try {
          const event = codec.decode(msg.data);
          this.deliver(event.tenantId, event);
        } catch (e) {
          this.log.warn({ err: e }, 'unreadable live notification skipped');
        }
      },
    });
  }

  /** Before the HTTP server closes (it would wait for them): streams end, their clients reconnect to another replica with Last-Event-ID. */
  beforeApplicationShutdown(): void {
    this.sub?.unsubscribe();
    for (const streams of this.byUser.values()) for (const s of [...streams]) this.close(s);
  }

  /** Open streams on this replica (metrics, tests). */
  get size(): number {
    let n = 0;
    for (const streams of this.byUser.values()) n += streams.length;
    return n;
  }

  /**
   * Takes over the reply as an event stream of the person's new notifications in the tenant; with
   * `lastEventId` (a notification id), first replays the ones created after it.
   */
  async open(reply: FastifyReply, tenantId: string, userId: string, lastEventId: string | null): Promise<void> {
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // nginx (the k8s Ingress) must not buffer the stream.
      'x-accel-buffering': 'no',
      'x-request-id': String(reply.request.id),
    });
    raw.write(`retry: 3000\n\n`);
    const stream: Stream = {
      tenantId,
      userId,
      reply,
      sent: new Set(),
      held: lastEventId ? [] : null,
      heartbeat: setInterval(() => raw.write(`: heartbeat ${new Date().toISOString()}\n\n`), this.options.heartbeatMs),
    };
    const key = `${tenantId}:${userId}`;
    const streams = this.byUser.get(key) ?? [];
    streams.push(stream);
    this.byUser.set(key, streams);
    // At most N streams per person: the oldest goes.
    while (streams.length > this.options.maxStreamsPerUser) this.close(streams[0]);
    raw.on('close', () => this.forget(stream));
    if (lastEventId) {
      try {
        const now = new Date();
        const missed = await this.db.query<NotificationRow>(missedSql(tenantId, userId, lastEventId, MAX_REPLAY));
        for (const r of missed) this.write(stream, r.id, rowToView(r, now));
      } finally {
        const held = stream.held ?? [];
        stream.held = null;
        for (const x of held) this.write(stream, x.id, x.view);
      }
    }
  }

  private deliver(tenantId: string, event: NotificationEvent): void {
    const streams = this.byUser.get(`${tenantId}:${event.notification.userId}`);
    if (!streams?.length) return;
    const view = toNotificationView(tenantId, event.notification);
    for (const s of streams) {
      if (s.held) s.held.push({ id: view.id, view });
      else this.write(s, view.id, view);
    }
  }

  private write(s: Stream, id: string, view: object): void {
    if (s.sent.has(id)) return;
    s.sent.add(id);
    if (s.sent.size > 2 * MAX_REPLAY) s.sent.delete(s.sent.values().next().value as string);
    s.reply.raw.write(`id: ${id}\nevent: notification\ndata: ${JSON.stringify(view)}\n\n`);
  }

  private close(s: Stream): void {
    this.forget(s);
    s.reply.raw.end();
  }

  private forget(s: Stream): void {
    clearInterval(s.heartbeat);
    const key = `${s.tenantId}:${s.userId}`;
    const streams = this.byUser.get(key);
    if (!streams) return;
    const i = streams.indexOf(s);
    if (i >= 0) streams.splice(i, 1);
    if (!streams.length) this.byUser.delete(key);
  }
}
