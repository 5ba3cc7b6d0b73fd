import { Logger } from '@nestjs/common';
import { JSONCodec, NatsConnection, Subscription, headers as natsHeaders } from 'nats';
import { CallerChangedEvent, CallerResolveReply, CallerResolveRequest } from '../messaging/events';
import { HEADERS, Subjects } from '../messaging/subjects';
import { Lru } from './lru';

type Resolved = Extract<CallerResolveReply, { found: true }>;

interface Entry {
  value: CallerResolveReply;
  expires: number;
}

export interface CallerResolverOptions {
  /** How long an answer is kept, ms (default 30 s). Invalidation events drop entries sooner. */
  ttlMs?: number;
  max?: number;
  timeoutMs?: number;
}

const codec = JSONCodec();

/**
 * Resolves a token's subject + tenant to the caller (user id, membership, keys) by asking the
 * auth service over NATS (`auth.caller.resolve`). Answers are cached briefly; any
 * `auth.caller.changed` event drops the entries it names, so a revoked key stops working on
 * the very next request. A generation counter keeps an answer that was in flight during an
 * invalidation out of the cache.
 */
export class CallerResolver {
  private readonly cache: Lru<string, Entry>;
  private readonly inflight = new Map<string, { generation: number; promise: Promise<CallerResolveReply> }>();
  private readonly ttlMs: number;
  private readonly timeoutMs: number;
  private generation = 0;
  private sub?: Subscription;
  private readonly logger = new Logger('CallerResolver');

  constructor(
    private readonly nc: NatsConnection,
    private readonly subjects: Subjects,
    options: CallerResolverOptions = {},
  ) {
    this.cache = new Lru(options.max ?? 10_000);
    this.ttlMs = options.ttlMs ?? 30_000;
    this.timeoutMs = options.timeoutMs ?? 3_000;
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
    this.generation++;
    const all = !event.tenantId && !event.userIds?.length && !event.subs?.length;
    if (all) return this.cache.clear();
    const users = new Set(event.userIds ?? []);
    const subs = new Set(event.subs ?? []);
    for (const [key, entry] of [...this.cache.entries()]) {
      const [sub] = key.split('\u0000');
      const v = entry.value;
      const userId = v.found ? v.userId : undefined;
      const tenantId = v.found ? v.tenantId : undefined;
      if (subs.has(sub) || (userId && users.has(userId)) || (event.tenantId && (tenantId === event.tenantId || !v.found))) this.cache.delete(key);
    }
  }

  async resolve(request: CallerResolveRequest, requestId?: string): Promise<CallerResolveReply> {
    const key = `${request.sub}\u0000${request.tenantId ?? ''}`;
    const hit = this.cache.get(key);
    if (hit && hit.expires > Date.now()) return hit.value;
    const generation = this.generation;
    // A request asked before an invalidation may carry the old answer: only join one of this generation.
    const pending = this.inflight.get(key);
    if (pending && pending.generation === generation) return pending.promise;
    const promise: Promise<CallerResolveReply> = this.ask(request, requestId)
      .then((value) => {
        if (generation === this.generation) this.cache.set(key, { value, expires: Date.now() + this.ttlMs });
        return value;
      })
      .finally(() => {
        if (this.inflight.get(key)?.promise === promise) this.inflight.delete(key);
      });
    this.inflight.set(key, { generation, promise });
    return promise;
  }

  private async ask(request: CallerResolveRequest, requestId?: string): Promise<CallerResolveReply> {
    const h = natsHeaders();
    if (requestId) h.set(HEADERS.requestId, requestId);
    const msg = await this.nc.request(this.subjects.callerResolve, codec.encode(request), { timeout: this.timeoutMs, headers: h });
    const reply = codec.decode(msg.data) as CallerResolveReply;
    if (!reply.found && reply.unavailable) throw new Error(`auth could not resolve the caller: ${reply.reason}`);
    return reply;
  }
}

export type { Resolved as ResolvedCaller };
