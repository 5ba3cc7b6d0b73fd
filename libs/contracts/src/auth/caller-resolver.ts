import { Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { JSONCodec, MsgHdrs, NatsConnection, Subscription, headers as natsHeaders } from 'nats';
import { CallerChangedEvent } from '../events/auth.events';
import { CallerResolveReply, CallerResolveRequest } from '../messaging/caller';
import { HEADERS, Subjects } from '../messaging/subjects';

type Resolved = Extract<CallerResolveReply, { found: true }>;

export interface CallerResolverOptions {
  /** How long an answer is kept, ms (default 30 s). Invalidation events drop entries sooner. */
  ttlMs?: number;
  max?: number;
  timeoutMs?: number;
  /** Adds headers to each request (the platform puts the caller's trace context there). */
  headers?: (headers: MsgHdrs) => void;
}

interface Load {
  request: CallerResolveRequest;
  requestId?: string;
}

const codec = JSONCodec();

/**
 * Resolves a token's subject + tenant to the caller (user id, membership, keys) by asking the
 * auth service over NATS (`auth.caller.resolve`). Answers are cached briefly (lru-cache: bounded,
 * per-entry TTL, one load per key however many requests wait for it); any `auth.caller.changed`
 * event drops the entries it names, so a revoked key stops working on the very next request.
 * An invalidation also drops every load in flight: it still answers the requests waiting for it,
 * but its (possibly old) answer is not kept, and the next request asks again.
 *
 * NATS down: a caller asked about before keeps their last answer, even past its TTL, while auth
 * cannot be asked (no connection, timeout, auth unavailable); a caller never asked about is refused
 * (the guard answers 503), at once while the connection is down. That answer missed no invalidation
 * that reached this process (every invalidation also drops the expired entries); after a reconnection
 * every answer is asked for again before it is used (the events of the outage may have been missed),
 * the old one serving only while auth still cannot answer.
 */
export class CallerResolver {
  private readonly cache: LRUCache<string, CallerResolveReply, Load>;
  /** Keys being loaded, with how many loads (lru-cache does not list them): an invalidation drops them too. */
  private readonly loading = new Map<string, number>();
  private readonly timeoutMs: number;
  private readonly addHeaders?: (headers: MsgHdrs) => void;
  private sub?: Subscription;
  private connected = true;
  /** Counts reconnections to NATS; each answer remembers the one it was given in. */
  private connection = 0;
  private readonly givenIn = new WeakMap<CallerResolveReply, number>();
  private readonly logger = new Logger('CallerResolver');

  constructor(
    private readonly nc: NatsConnection,
    private readonly subjects: Subjects,
    options: CallerResolverOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 3_000;
    this.addHeaders = options.headers;
    this.cache = new LRUCache<string, CallerResolveReply, Load>({
      max: options.max ?? 10_000,
      ttl: options.ttlMs ?? 30_000,
      // A load dropped by an invalidation still answers its waiters; its answer is just not stored.
      ignoreFetchAbort: true,
      fetchMethod: async (key, _stale, { context }) => {
        if (!this.connected) throw new Error('NATS is disconnected');
        this.loading.set(key, (this.loading.get(key) ?? 0) + 1);
        try {
          const connection = this.connection;
          const reply = await this.ask(context.request, context.requestId);
          this.givenIn.set(reply, connection);
          return reply;
        } finally {
          const left = (this.loading.get(key) ?? 1) - 1;
          if (left) this.loading.set(key, left);
          else this.loading.delete(key);
        }
      },
    });
  }

  /** Subscribes to invalidations. Resolves once the subscription is registered with the server. */
  async start(): Promise<void> {
    this.sub = this.nc.subscribe(this.subjects.callerChanged, {
      callback: (err, msg) => {
        if (err) return this.logger.error(err);
        try {
          this.invalidate(codec.decode(msg.data) as CallerChangedEvent);
        } catch (e) {
          this.logger.warn(`bad ${this.subjects.callerChanged} payload: ${(e as Error).message}`);
          this.invalidate({});
        }
      },
    });
    await this.nc.flush();
    void this.watchConnection();
  }

  private async watchConnection(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === 'disconnect') this.connected = false;
      if (status.type === 'reconnect') {
        this.connected = true;
        this.connection++; // invalidations sent while we were away never reached us: every answer is asked again
      }
    }
  }

  stop(): void {
    this.sub?.unsubscribe();
  }

  invalidate(event: CallerChangedEvent): void {
    this.cache.purgeStale(); // kept past their TTL only for an outage; never past an invalidation
    for (const key of [...this.loading.keys()]) this.cache.delete(key);
    const all = !event.tenantId && !event.userIds?.length && !event.subs?.length;
    if (all) return this.cache.clear();
    const users = new Set(event.userIds ?? []);
    const subs = new Set(event.subs ?? []);
    for (const [key, v] of [...this.cache.entries()]) {
      const [sub] = key.split('\u0000');
      const userId = v.found ? v.userId : undefined;
      const tenantId = v.found ? v.tenantId : undefined;
      if (subs.has(sub) || (userId && users.has(userId)) || (event.tenantId && (tenantId === event.tenantId || !v.found))) this.cache.delete(key);
    }
  }

  async resolve(request: CallerResolveRequest, requestId?: string): Promise<CallerResolveReply> {
    const key = `${request.sub}\u0000${request.tenantId ?? ''}`;
    const cached = this.cache.peek(key, { allowStale: true });
    const forceRefresh = cached !== undefined && this.givenIn.get(cached) !== this.connection;
    // Auth cannot be asked (NATS down, timeout, auth unavailable): the last answer, if there is one, is used and kept.
    const reply = await this.cache.fetch(key, { context: { request, requestId }, forceRefresh, allowStaleOnFetchRejection: cached !== undefined });
    if (!reply) throw new Error('auth could not resolve the caller');
    return reply;
  }

  private async ask(request: CallerResolveRequest, requestId?: string): Promise<CallerResolveReply> {
    const h = natsHeaders();
    if (requestId) h.set(HEADERS.requestId, requestId);
    this.addHeaders?.(h);
    const msg = await this.nc.request(this.subjects.callerResolve, codec.encode(request), { timeout: this.timeoutMs, headers: h });
    const reply = codec.decode(msg.data) as CallerResolveReply;
    if (!reply.found && reply.unavailable) throw new Error(`auth could not resolve the caller: ${reply.reason}`);
    return reply;
  }
}

export type { Resolved as ResolvedCaller };
