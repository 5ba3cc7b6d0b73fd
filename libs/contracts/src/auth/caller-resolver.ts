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
 */
export class CallerResolver {
  private readonly cache: LRUCache<string, CallerResolveReply, Load>;
  /** Keys being loaded, with how many loads (lru-cache does not list them): an invalidation drops them too. */
  private readonly loading = new Map<string, number>();
  private readonly timeoutMs: number;
  private readonly addHeaders?: (headers: MsgHdrs) => void;
  private sub?: Subscription;
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
        this.loading.set(key, (this.loading.get(key) ?? 0) + 1);
        try {
          return await this.ask(context.request, context.requestId);
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
  }

  stop(): void {
    this.sub?.unsubscribe();
  }

  invalidate(event: CallerChangedEvent): void {
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
    const reply = await this.cache.fetch(key, { context: { request, requestId } });
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
