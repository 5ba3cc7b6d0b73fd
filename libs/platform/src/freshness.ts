import { unavailable } from '@ddm/contracts';
import type { MsgRequest } from 'nats';
import { Logger } from 'pino';
import { ConsistencyDto, changeTime, changesOf } from './consistency';
import { Consumers, FollowedConsumer } from './consumer';
import { Db } from './db';
import { NatsClient } from './nats';
import type { CommittedChange } from './request-context';

/** EVENTS keeps a message 7 days: a change older than that can no longer arrive, so it counts as applied (processed messages are kept 8). */
export const CHANGE_HORIZON_MS = 7 * 24 * 3600 * 1000;
/** The consistentAsOf answered may be this old before it is asked of JetStream again (in the background). */
export const FRESHNESS_REFRESH_MS = 250;
/** Seconds a 503 tells the client to wait before asking again. */
const RETRY_AFTER_SECONDS = 1;
/** The polling back-off while waiting: from 10 ms, growing to 50 ms. */
const FIRST_POLL_MS = 10;
const MAX_POLL_MS = 50;

/** How many events of a change one consumer must have applied. */
export interface ExpectedApplication {
  consumer: string;
  changeId: string;
  expected: number;
}

/**
 * The counting rule: for each change (once, however many tokens name it) and each consumer, the
 * events it must have applied are the change's counts of the subjects it follows. None is expected
 * of a change older than the stream keeps (CHANGE_HORIZON_MS), of a subject nobody here follows
 * (another area's events, this area's own: its own writes are answered from its own tables), or of
 * a consumer that follows none of the change's subjects.
 */
export function expectedApplications(changes: readonly CommittedChange[], consumers: readonly FollowedConsumer[], now = Date.now()): ExpectedApplication[] {
  const out = new Map<string, ExpectedApplication>();
  for (const change of changes) {
    if (changeTime(change.changeId) < now - CHANGE_HORIZON_MS) continue;
    for (const consumer of consumers) {
      const expected = consumer.subjects.reduce((n, subject) => n + (change.counts[subject] ?? 0), 0);
      if (expected <= 0) continue;
      const key = `${consumer.name}|${change.changeId}`;
      // The same change named twice (a header and a body): the larger count, never the sum.
      if ((out.get(key)?.expected ?? 0) < expected) out.set(key, { consumer: consumer.name, changeId: change.changeId, expected });
    }
  }
  return [...out.values()];
}

/** What a read that waits may be given: the header's changes (ConsistencyHeader) or a body's `consistency`. */
export type FreshnessRequirement = readonly CommittedChange[] | ConsistencyDto | null | undefined;

/**
 * How fresh this service's answers are, and waiting until they are fresh enough
 * (consistency.ts). A service follows other areas' events with the consumers `Consumers.start`
 * runs on the EVENTS stream; each message is applied in a transaction that records it, with its
 * change id, in processed_messages.
 *
 * - `applied(changes)`: a change is applied here once every consumer has recorded as many of its
 *   events as the change published of the subjects that consumer follows (expectedApplications),
 *   read in one indexed statement.
 * - `consistentAsOf()`: an instant up to which every followed event published to the stream has
 *   been applied, from JetStream's view of the same consumers: one with nothing pending or
 *   unacknowledged is consistent as of the moment it was asked; otherwise as of the time of the
 *   first message of its filter above its ack floor (every one of its messages before it is
 *   acknowledged, so applied: a consumer acknowledges after its transaction commits); the earliest
 *   over the consumers. Kept and asked again in the background at most every
 *   FRESHNESS_REFRESH_MS (one refresh at a time): an older value is still a true lower bound, so
 *   no answer waits on NATS but the very first.
 * - `waitFor(...)`: waits for the changes named (at once in the common case: one statement; then
 *   polling with a short back-off, up to CONSISTENCY_WAIT_MS, past which a 503 with Retry-After).
 * - `ready(...)`: what a read that says how fresh it is calls before it reads: `waitFor`, then the
 *   consistentAsOf the answer may claim, taken before the answer's own statements run.
 */
export class Freshness {
  private cached?: { asOf: number; at: number };
  private refreshing?: { started: number; done: Promise<number> };
  private failing = false;

  constructor(
    private readonly consumers: Consumers,
    private readonly db: Db,
    private readonly nats: NatsClient,
    private readonly log: Logger,
    private readonly waitMs: number,
  ) {}

  /**
   * Waits until every change the requirements name is applied here (503 past the bound), then
   * answers the instant (ISO) the answer is consistent as of. Call before reading the answer.
   */
  async ready(...requirements: FreshnessRequirement[]): Promise<string> {
    const waited = await this.waitFor(...requirements);
    let asOf: number;
    if (waited) {
      // The kept instant may be from before the change arrived: asked again (unless it is later already), so the answer does not look older than it is.
      const kept = this.cached?.asOf ?? 0;
      asOf = kept >= waited.newest ? kept : await this.refreshStartedAfter(Date.now()).catch(() => this.consistentAsOf());
    } else {
      asOf = await this.consistentAsOf();
    }
    return new Date(asOf).toISOString();
  }

  /**
   * Waits until every change the requirements name is applied here: at once in the common case
   * (one statement), else polling with a short back-off up to the bound, past which a 503 with
   * Retry-After. Answers, when it had to wait, the time of the newest change waited for.
   */
  async waitFor(...requirements: FreshnessRequirement[]): Promise<{ newest: number } | undefined> {
    const changes = requirements.flatMap((r) => (!r ? [] : Array.isArray(r) ? (r as readonly CommittedChange[]) : changesOf(r as ConsistencyDto)));
    const expected = changes.length ? expectedApplications(changes, this.consumers.followed()) : [];
    if (!expected.length || (await this.appliedAll(expected))) return undefined;
    await this.poll(expected);
    return { newest: Math.max(...expected.map((e) => changeTime(e.changeId))) };
  }

  /** Whether every change is applied here. */
  applied(changes: readonly CommittedChange[]): Promise<boolean> {
    return this.appliedAll(expectedApplications(changes, this.consumers.followed()));
  }

  /** The instant (ms) this service is consistent as of: kept, asked again in the background when older than FRESHNESS_REFRESH_MS. */
  async consistentAsOf(): Promise<number> {
    const kept = this.cached;
    if (!kept) {
      try {
        return await this.refresh();
      } catch (err) {
        this.log.warn({ err }, 'cannot tell yet how fresh this service is');
        throw unavailable('This service cannot tell yet how fresh its answers are (the message stream is unreachable); retry shortly', RETRY_AFTER_SECONDS);
      }
    }
    if (Date.now() - kept.at >= FRESHNESS_REFRESH_MS) this.refresh().catch(() => undefined);
    return kept.asOf;
  }

  private async appliedAll(expected: readonly ExpectedApplication[]): Promise<boolean> {
    if (!expected.length) return true;
    const [{ missing }] = await this.db.query<{ missing: number }>(
      `SELECT count(*)::int AS missing
         FROM unnest($1::text[], $2::uuid[], $3::int[]) AS e(consumer, change_id, expected)
        WHERE (SELECT count(*) FROM "${this.db.schema}".processed_messages p WHERE p.consumer = e.consumer AND p.change_id = e.change_id) < e.expected`,
      [expected.map((e) => e.consumer), expected.map((e) => e.changeId), expected.map((e) => e.expected)],
    );
    return missing === 0;
  }

  /** Polls until applied, 10 ms growing to 50 ms apart, up to the bound; then the 503. */
  private async poll(expected: readonly ExpectedApplication[]): Promise<void> {
    const deadline = Date.now() + this.waitMs;
    for (let pause = FIRST_POLL_MS; ; pause = Math.min(pause * 2, MAX_POLL_MS)) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw unavailable(
          `The change the consistency token names is not applied here yet (waited ${this.waitMs} ms); retry shortly`,
          RETRY_AFTER_SECONDS,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
      if (await this.appliedAll(expected)) return;
    }
  }

  /** One refresh at a time: a caller while one runs shares it. */
  private refresh(): Promise<number> {
    if (this.refreshing) return this.refreshing.done;
    const started = Date.now();
    const done = this.compute().then(
      (asOf) => {
        // Never back: a later answer saying less is also true, the earlier one still is.
        this.cached = { asOf: Math.max(asOf, this.cached?.asOf ?? 0), at: started };
        if (this.failing) this.log.info('consistentAsOf known again');
        this.failing = false;
        return this.cached.asOf;
      },
      (err: unknown) => {
        if (!this.failing) this.log.warn({ err }, 'consistentAsOf could not be asked of JetStream; the last one known is answered meanwhile');
        this.failing = true;
        throw err;
      },
    );
    this.refreshing = { started, done: done.finally(() => (this.refreshing = undefined)) };
    return this.refreshing.done;
  }

  /** A refresh that started at `t` or later (one running from before is waited out first). */
  private async refreshStartedAfter(t: number): Promise<number> {
    while (this.refreshing && this.refreshing.started < t) await this.refreshing.done.catch(() => undefined);
    return this.refresh();
  }

  /** The earliest instant over the followed consumers (see the class comment); now when there are none. */
  private async compute(): Promise<number> {
    const followed = this.consumers.followed();
    if (!followed.length) return Date.now();
    if (!this.nats.connected) throw new Error('NATS is disconnected');
    const s = this.nats.subjects;
    const each = await Promise.all(
      followed.map(async (c) => {
        const asked = Date.now();
        const info = await this.nats.jsm.consumers.info(s.eventsStream, s.durable(c.name));
        // Servers from 2.10 say when they made the answer, on the stream's clock; before that, the moment it was asked.
        if (info.num_pending === 0 && info.num_ack_pending === 0) return info.ts ? Date.parse(info.ts) : asked;
        try {
          // The first message of its filter above the ack floor (servers before 2.9 ignore next_by_subj and answer the message at that sequence: earlier, still true).
          const filter = info.config.filter_subject;
          const from = { seq: info.ack_floor.stream_seq + 1, ...(filter ? { next_by_subj: filter } : {}) } as MsgRequest;
          const next = await this.nats.jsm.streams.getMessage(s.eventsStream, from);
          return next.time.getTime();
        } catch (err) {
          if (!/no message found/i.test((err as Error).message)) throw err;
          // Gone from the stream (older than it keeps): nothing later can be vouched for by it.
          return 0;
        }
      }),
    );
    return Math.min(...each);
  }
}
