import { randomUUID } from 'node:crypto';
import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { NotificationEvent } from '@ddm/contracts';
import { LOGGER, NatsClient, heartbeat } from '@ddm/platform';
import type { FastifyReply } from 'fastify';
import { JSONCodec, Subscription } from 'nats';
import { Logger } from 'pino';
import { NOTIFICATIONS_OPTIONS, NotificationsOptions } from '../core/notifications.config';
import { NotificationView, toNotificationView } from '../core/notification.response';
import { StreamRegistry } from './stream.rules';

const events = JSONCodec<NotificationEvent>();
const announcements = JSONCodec<StreamAnnouncement>();

/** Most notifications replayed to a stream reconnecting with Last-Event-ID. */
export const MAX_REPLAY = 500;

/**
 * The notifications a reconnecting stream missed (created after its Last-Event-ID), oldest first,
 * at most `max`: the stream writes them before any live one.
 */
export type Replay = (max: number) => Promise<readonly NotificationView[]>;

/** Core NATS subject (namespaced, not a stream's) on which replicas tell each other of the streams they hold. */
export const STREAMS_SUBJECT = 'live.notifications.streams';

/** A replica's word about one of its streams: open (sent when it opens and with every heartbeat) or closed. */
interface StreamAnnouncement {
  kind: 'open' | 'closed';
  userId: string;
  streamId: string;
  openedAt: number;
}

interface Stream {
  id: string;
  openedAt: number;
  tenantId: string;
  userId: string;
  reply: FastifyReply;
  stopHeartbeat: () => void;
  /** Ids already sent (a notification replayed and arriving live goes out once). */
  sent: Set<string>;
  /** While the missed ones are replayed, live ones wait here (so the stream stays in creation order). */
  held: { id: string; view: object }[] | null;
}

/**
 * Live delivery of new notifications (Server-Sent Events). Every replica subscribes, on NATS
 * core, to the created events the outbox relays publish after commit, and writes each to the
 * streams of its person open on that replica: whichever replica made the notification, every
 * replica holding a stream of that person delivers it. Replicas also announce their streams to
 * each other, so a person has at most N open streams in all: the replica holding the oldest closes it.
 */
@Injectable()
export class LiveStreams implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly local = new Map<string, Stream>();
  /** The local streams by `${tenantId}:${userId}`: a created event finds its person's streams without a scan. */
  private readonly byPerson = new Map<string, Set<Stream>>();
  private readonly registry: StreamRegistry;
  private subs: Subscription[] = [];

  constructor(
    private readonly nats: NatsClient,
    @Inject(LOGGER) private readonly log: Logger,
    @Inject(NOTIFICATIONS_OPTIONS) private readonly options: NotificationsOptions,
  ) {
    // An announcement not repeated for three heartbeats is of a stream whose replica went away.
    this.registry = new StreamRegistry(options.maxStreamsPerUser, 3 * options.heartbeatMs);
  }

  onApplicationBootstrap(): void {
    const wire = (s: string) => this.nats.subjects.wire(s);
    this.subs.push(
      this.nats.nc.subscribe(wire('evt.notifications.notification.created'), {
        callback: (err, msg) => {
          if (err) return void this.log.warn({ err }, 'live notifications subscription error');
          try {
            const event = events.decode(msg.data);
            this.deliver(event.tenantId, event);
          } catch (e) {
            this.log.warn({ err: e }, 'unreadable live notification skipped');
          }
        },
      }),
      this.nats.nc.subscribe(wire(STREAMS_SUBJECT), {
        callback: (err, msg) => {
          if (err) return;
          try {
            const a = announcements.decode(msg.data);
            if (a.kind === 'closed') this.registry.remove(a.userId, a.streamId);
            else this.enforce(a.userId, this.registry.seen(a.userId, a.streamId, a.openedAt, Date.now()));
          } catch (e) {
            this.log.warn({ err: e }, 'unreadable stream announcement skipped');
          }
        },
      }),
    );
  }

  /** Before the HTTP server closes (it would wait for them): streams end, their clients reconnect to another replica with Last-Event-ID. */
  beforeApplicationShutdown(): void {
    for (const sub of this.subs) sub.unsubscribe();
    for (const s of [...this.local.values()]) this.close(s);
  }

  /** Open streams on this replica (metrics, tests). */
  get size(): number {
    return this.local.size;
  }

  /**
   * Takes over the reply as an event stream of the person's new notifications in the tenant; with
   * `replay` (a reconnect's Last-Event-ID), first writes the ones it answers, those created after it.
   */
  async open(reply: FastifyReply, tenantId: string, userId: string, replay: Replay | null): Promise<void> {
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      // What the hooks set so far (CORS for an allowed origin, the security headers): a hijacked reply sends only what is written here.
      ...(reply.getHeaders() as Record<string, string | string[] | number>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // nginx (the k8s Ingress) must not buffer the stream.
      'x-accel-buffering': 'no',
      'x-request-id': String(reply.request.id),
    });
    raw.write(`retry: 3000\n\n`);
    const stream: Stream = {
      id: randomUUID(),
      openedAt: Date.now(),
      tenantId,
      userId,
      reply,
      sent: new Set(),
      held: replay ? [] : null,
      stopHeartbeat: heartbeat(raw, this.options.heartbeatMs, () => {
        raw.write(`: heartbeat ${new Date().toISOString()}\n\n`);
        this.announce('open', stream);
      }),
    };
    this.local.set(stream.id, stream);
    const key = `${tenantId}:${userId}`;
    this.byPerson.set(key, (this.byPerson.get(key) ?? new Set()).add(stream));
    raw.on('close', () => this.forget(stream));
    this.enforce(userId, this.registry.seen(userId, stream.id, stream.openedAt, Date.now()));
    this.announce('open', stream);
    if (replay) {
      try {
        const missed = await replay(MAX_REPLAY);
        for (const view of missed) this.write(stream, view.id, view);
      } finally {
        const held = stream.held ?? [];
        stream.held = null;
        for (const x of held) this.write(stream, x.id, x.view);
      }
    }
  }

  /** Closes the streams of this replica that the registry says are over the person's limit (the oldest). */
  private enforce(userId: string, over: readonly string[]): void {
    for (const id of over) {
      const s = this.local.get(id);
      if (s && s.userId === userId) this.close(s);
    }
  }

  private announce(kind: StreamAnnouncement['kind'], s: Stream): void {
    try {
      this.nats.nc.publish(this.nats.subjects.wire(STREAMS_SUBJECT), announcements.encode({ kind, userId: s.userId, streamId: s.id, openedAt: s.openedAt }));
    } catch (err) {
      this.log.warn({ err }, 'stream announcement not sent');
    }
  }

  private deliver(tenantId: string, event: NotificationEvent): void {
    const streams = this.byPerson.get(`${tenantId}:${event.notification.userId}`);
    if (!streams) return;
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
    if (!this.local.delete(s.id)) return;
    const key = `${s.tenantId}:${s.userId}`;
    const mine = this.byPerson.get(key);
    mine?.delete(s);
    if (mine && !mine.size) this.byPerson.delete(key);
    s.stopHeartbeat();
    this.registry.remove(s.userId, s.id);
    this.announce('closed', s);
  }
}
