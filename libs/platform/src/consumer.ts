import { EventMessageOf, EventSubject, HEADERS, isDependencyDown, readEvent } from '@ddm/contracts';
import { SpanKind } from '@opentelemetry/api';
import { AckPolicy, ConsumerEvents, ConsumerMessages, DeliverPolicy, JSONCodec, JsMsg, nanos } from 'nats';
import { Logger } from 'pino';
import { Db } from './db';
import type { Tx } from './queryable';
import { NatsClient } from './nats';
import { countConsumerRestart } from './observability';
import { requestContext } from './request-context';
import { inSpan, traceContextOf } from './tracing';

const codec = JSONCodec();

/** A message taken from a stream: its subject and payload (discriminated by subject), its id and delivery. */
export type ConsumedMessage<S extends EventSubject> = EventMessageOf<S> & {
  messageId: string;
  requestId?: string;
  /** The change (the publishing transaction) the event belongs to, when its publisher named one (`Ddm-Change-Id`). */
  changeId?: string;
  deliveryCount: number;
};

/** A consumer `Consumers.start` runs on the EVENTS stream: what the service follows, each message applied once and recorded. */
export interface FollowedConsumer {
  name: string;
  subjects: readonly string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What every consumer declares. */
interface SubscriptionSpec<S extends EventSubject> {
  /** Durable name, unique per service and purpose (e.g. `settings-decision-delegations`). */
  name: string;
  /** Registered subjects (no wildcards): the handler gets exactly these, each with its payload type. */
  subjects: readonly S[];
  /** Deliveries before a failing message is given up as poison (default 5). */
  maxDeliver?: number;
  /** How long a delivery may go without an ack or a `working()` before it is redelivered (default 30 s). */
  ackWaitMs?: number;
}

/** The most messages a consumer applies at once (`ConsumerSpec.concurrency`): at most its prefetch. */
export const MAX_CONSUMER_CONCURRENCY = 16;

/** A consumer that runs its work in several transactions (`Consumers.startLongRunning`). */
export interface LongRunningSpec<S extends EventSubject> extends SubscriptionSpec<S> {
  /** The work; `working()` tells the stream the message is still being handled. Throwing retries the message. */
  run(message: ConsumedMessage<S>, working: () => void): Promise<void>;
}

export interface ConsumerSpec<S extends EventSubject> extends SubscriptionSpec<S> {
  /**
   * Applies the message inside the transaction that records it as processed: what it writes and
   * what it publishes (`tx.publish`, through the outbox) commit together, once.
   */
  handle(message: ConsumedMessage<S>, tx: Tx): Promise<unknown>;
  /**
   * How many messages are applied at once, each in its own transaction (default 1: one after the
   * other, in the stream's order). More only for messages independent of one another, whose
   * order does not matter (each makes rows of its own, as notifications do): their commits then
   * overlap instead of queueing. At most MAX_CONSUMER_CONCURRENCY.
   */
  concurrency?: number;
}

/**
 * The one filter subject of a consumer (NATS servers before 2.10 take a single filter): the
 * subject itself, or the narrowest wildcard covering all (`evt.decision.delegation.*`). Messages
 * the wildcard lets through that are not among `subjects` are acknowledged and skipped.
 */
export function filterSubject(subjects: readonly string[]): string {
  if (!subjects.length) throw new Error('a consumer needs at least one subject');
  if (subjects.length === 1) return subjects[0];
  const split = subjects.map((s) => s.split('.'));
  const length = split[0].length;
  if (split.every((t) => t.length === length)) return split[0].map((token, i) => (split.every((t) => t[i] === token) ? token : '*')).join('.');
  const common: string[] = [];
  for (let i = 0; split.every((t) => i < t.length - 1 && t[i] === split[0][i]); i++) common.push(split[0][i]);
  return [...common, '>'].join('.');
}

/** The stream of the subjects: JOBS for job.*, EVENTS for the rest (events and auth.caller.changed). */
export function streamOf(subjects: readonly string[]): 'EVENTS' | 'JOBS' {
  const jobs = subjects.filter((s) => s.startsWith('job.')).length;
  if (jobs && jobs !== subjects.length) throw new Error('a consumer reads either jobs or events, not both');
  return jobs ? 'JOBS' : 'EVENTS';
}

/** The longest wait between two restarts of a consumer loop (and between reopen attempts). */
export const MAX_RESTART_DELAY_MS = 30_000;

/** Wait before the `n`th (0-based) consecutive restart of a consumer loop: 1 s, 2 s, 4 s ... up to 30 s. */
export function restartDelayMs(n: number): number {
  return Math.min(1_000 * 2 ** n, MAX_RESTART_DELAY_MS);
}

/** A consumer's loop, kept running until `stopAll`. */
interface RunningConsumer {
  name: string;
  messages: ConsumerMessages;
  loop: Promise<void>;
  stopped: boolean;
  /** Ends a wait (restart back-off, waiting for the database) at once when the consumer stops. */
  stop: AbortController;
}

/** Waits `ms`, or less if `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

/**
 * Keeps `loop` running until `stopped`: whenever it ends (the message iterator closed, or it
 * threw), the restart is counted and logged, and `reopen` is tried after a back-off (1 s doubling
 * to 30 s; a loop that ran longer than that starts the back-off over) until it succeeds.
 */
export async function superviseLoop(options: {
  name: string;
  loop: () => Promise<void>;
  reopen: () => Promise<void>;
  stopped: () => boolean;
  signal: AbortSignal;
  log: Logger;
  onRestart?: (name: string) => void;
}): Promise<void> {
  const { name, log } = options;
  let consecutive = 0;
  while (!options.stopped()) {
    const began = Date.now();
    let err: unknown;
    try {
      await options.loop();
    } catch (e) {
      err = e ?? new Error('consumer loop failed');
    }
    if (options.stopped()) return;
    if (Date.now() - began > MAX_RESTART_DELAY_MS) consecutive = 0;
    (options.onRestart ?? countConsumerRestart)(name);
    log.error({ err, consumer: name }, err ? 'consumer loop failed; restarting it' : 'consumer loop ended; restarting it');
    for (;;) {
      await pause(restartDelayMs(consecutive++), options.signal);
      if (options.stopped()) return;
      try {
        await options.reopen();
        log.warn({ consumer: name }, 'consumer restarted');
        break;
      } catch (e) {
        log.warn({ err: e, consumer: name }, 'consumer could not be restarted yet; will retry');
      }
    }
  }
}

/**
 * Durable, explicit-ack JetStream consumers that apply each message once: the handler's writes
 * and the processed-message record commit together, so a redelivery after a crash is skipped.
 * A payload the registry refuses is poison (terminated and logged); a failing handler is retried
 * with back-off up to `maxDeliver` times, then terminated and logged. A handler failing because
 * Postgres is unreachable is not the message's fault: the consumer waits for the database and
 * tries again, without spending a delivery. A loop that ends for any reason is started again
 * (`superviseLoop`, counted in `ddm_consumer_restarts_total{consumer}`).
 */
export class Consumers {
  private readonly running: RunningConsumer[] = [];
  private readonly followedConsumers: FollowedConsumer[] = [];

  constructor(
    private readonly db: Db,
    private readonly nats: NatsClient,
    private readonly log: Logger,
  ) {}

  /**
   * A consumer whose handler applies each message in one transaction, once (events, projections).
   * The processed-message record keeps the message's change id, so Freshness can count how much of
   * a change this service has applied; a consumer of the EVENTS stream is listed in `followed()`.
   */
  start<S extends EventSubject>(spec: ConsumerSpec<S>): Promise<void> {
    const processed = `INSERT INTO "${this.db.schema}".processed_messages (consumer, message_id, change_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1`;
    const concurrency = spec.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONSUMER_CONCURRENCY) {
      throw new Error(`consumer ${spec.name}: concurrency must be an integer from 1 to ${MAX_CONSUMER_CONCURRENCY}`);
    }
    // Listed before it runs: no request is answered before every consumer has started (the app listens after), so the list is whole by then.
    if (streamOf(spec.subjects) === 'EVENTS') this.followedConsumers.push({ name: spec.name, subjects: [...spec.subjects] });
    return this.subscribe(spec, concurrency, async (message, _working) => {
      const record = [spec.name, message.messageId, message.changeId ?? null];
      try {
        await this.db.transaction(async (tx) => {
          const fresh = await tx.query(processed, record);
          if (!fresh.length) return; // applied before (redelivery after a crash or a duplicate publish)
          await spec.handle(message, tx);
        });
      } catch (err) {
        if (!refusedByTenantIsolation(err)) throw err;
        // The event names a record of another tenant (a known id under another tenant id): row-level
        // security refused the write, so nothing of it applied. Done with it, not retried.
        this.log.warn({ consumer: spec.name, subject: message.subject, messageId: message.messageId }, "event names another tenant's record: ignored");
        await this.db.transaction((tx) => tx.query(processed, record));
      }
    });
  }

  /**
   * The consumers `start` runs on the EVENTS stream (not the jobs' nor the long-running ones): what
   * this service follows, each message recorded with its change id as it is applied.
   */
  followed(): readonly FollowedConsumer[] {
    return this.followedConsumers;
  }

  /**
   * A consumer whose work spans several transactions (a bulk job, batch by batch). The work must be
   * idempotent by itself (a redelivery resumes it); it calls `working()` between steps so the
   * message is not redelivered while it is still being handled (the ack wait starts again).
   */
  startLongRunning<S extends EventSubject>(spec: LongRunningSpec<S>): Promise<void> {
    // One message at a time: a message waiting in a prefetch buffer behind a long run would pass its ack wait.
    return this.subscribe(spec, 1, (message, working) => spec.run(message, working), 1);
  }

  private async subscribe<S extends EventSubject>(
    spec: SubscriptionSpec<S>,
    concurrency: number,
    work: (message: ConsumedMessage<S>, working: () => void) => Promise<void>,
    prefetch = 64,
  ): Promise<void> {
    const s = this.nats.subjects;
    const stream = streamOf(spec.subjects) === 'EVENTS' ? s.eventsStream : s.jobsStream;
    const durable = s.durable(spec.name);
    const config = {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      max_deliver: spec.maxDeliver ?? 5,
      ack_wait: nanos(spec.ackWaitMs ?? 30_000),
      filter_subject: s.wire(filterSubject(spec.subjects)),
    };
    // Creates or updates the durable consumer (again after a restart: it may have been deleted) and starts taking messages.
    const open = async (): Promise<ConsumerMessages> => {
      try {
        await this.nats.jsm.consumers.info(stream, durable);
        const { durable_name: _name, ack_policy: _ack, deliver_policy: _deliver, ...changeable } = config;
        await this.nats.jsm.consumers.update(stream, durable, changeable);
      } catch (err) {
        if (!/consumer not found/i.test((err as Error).message)) throw err;
        await this.nats.jsm.consumers.add(stream, config);
      }
      const consumer = await this.nats.js.consumers.get(stream, durable);
      const messages = await consumer.consume({ max_messages: prefetch });
      void this.endWhenGone(spec.name, messages);
      return messages;
    };
    const wanted = new Set<string>(spec.subjects);
    const r: RunningConsumer = { name: spec.name, messages: await open(), loop: Promise.resolve(), stopped: false, stop: new AbortController() };
    r.loop = superviseLoop({
      name: spec.name,
      loop: () => this.applyAll(r, concurrency, (msg) => this.process(spec, wanted, msg, work, r)),
      reopen: async () => {
        const messages = await open();
        if (r.stopped) await messages.close().catch(() => undefined);
        else r.messages = messages;
      },
      stopped: () => r.stopped,
      signal: r.stop.signal,
      log: this.log,
    });
    this.running.push(r);
  }

  /**
   * Applies the consumer's messages as they come, `concurrency` at a time (1: each after the
   * previous one). The loop ends with the iterator (or the first failure), once the messages in
   * hand are done.
   */
  private async applyAll(r: RunningConsumer, concurrency: number, apply: (msg: JsMsg) => Promise<void>): Promise<void> {
    if (concurrency === 1) {
      for await (const msg of r.messages) await apply(msg);
      return;
    }
    const inHand = new Set<Promise<void>>();
    let failure: { err: unknown } | undefined;
    try {
      for await (const msg of r.messages) {
        const applying: Promise<void> = apply(msg)
          .catch((err: unknown) => {
            failure ??= { err };
          })
          .finally(() => inHand.delete(applying));
        inHand.add(applying);
        if (inHand.size >= concurrency) await Promise.race(inHand);
        if (failure) throw failure.err;
      }
    } finally {
      await Promise.all(inHand);
    }
    if (failure) throw failure.err;
  }

  /**
   * The client keeps pulling from a durable consumer that was deleted, forever, without a message:
   * when the server says it is gone, the iterator is closed, so the loop ends and is restarted,
   * which creates the consumer again. (Not `abort_on_missing_resource`: that also ends it on a
   * passing "no responders".)
   */
  private async endWhenGone(name: string, messages: ConsumerMessages): Promise<void> {
    for await (const status of await messages.status()) {
      if (status.type === ConsumerEvents.ConsumerDeleted || status.type === ConsumerEvents.ConsumerNotFound) {
        this.log.warn({ consumer: name, status: status.type }, 'the durable consumer is gone from the stream; restarting the loop');
        await messages.close().catch(() => undefined);
        return;
      }
    }
  }

  async stopAll(): Promise<void> {
    for (const r of this.running) {
      r.stopped = true;
      r.stop.abort();
      await r.messages.close().catch(() => undefined);
    }
    await Promise.all(this.running.map((r) => r.loop));
    this.running.length = 0;
  }

  private async process<S extends EventSubject>(
    spec: SubscriptionSpec<S>,
    wanted: ReadonlySet<string>,
    msg: JsMsg,
    work: (message: ConsumedMessage<S>, working: () => void) => Promise<void>,
    running: RunningConsumer,
  ): Promise<void> {
    const subject = this.nats.subjects.logical(msg.subject);
    if (!wanted.has(subject)) {
      msg.ack(); // the filter's wildcard let through a subject this consumer does not take
      return;
    }
    const messageId = msg.headers?.get(HEADERS.msgId) || `${msg.info.stream}:${msg.seq}`;
    const requestId = msg.headers?.get(HEADERS.requestId) || undefined;
    // Recorded in a uuid column: anything else a publisher sent is no change id.
    const changeHeader = msg.headers?.get(HEADERS.changeId);
    const changeId = changeHeader && UUID.test(changeHeader) ? changeHeader.toLowerCase() : undefined;
    // The message's logger, made on its first line only (pino redacts a child's bindings as it makes it; most messages log nothing).
    let child: Logger | undefined;
    const log = () => (child ??= this.log.child({ consumer: spec.name, subject, messageId, requestId }));
    let payload: unknown;
    try {
      const read = readEvent(subject, codec.decode(msg.data));
      if (read.problems.length) throw new Error(read.problems.join('; '));
      payload = read.payload;
    } catch (err) {
      log().error({ err }, 'poison message (payload refused by the event registry): terminated');
      msg.term();
      return;
    }
    const message = { subject, payload, messageId, requestId, changeId, deliveryCount: msg.info.deliveryCount } as ConsumedMessage<S>;
    // The handler runs in a span of the publisher's trace (a child of the relay's publish span), so its statements join that trace.
    const attributes = {
      'messaging.system': 'nats',
      'messaging.operation.type': 'process',
      'messaging.destination.name': msg.subject,
      'messaging.consumer.group.name': spec.name,
      'messaging.message.id': messageId,
    };
    for (let waits = 0; ; waits++) {
      try {
        await inSpan(`process ${subject}`, SpanKind.CONSUMER, traceContextOf(msg.headers), attributes, () =>
          // The message's tenant is the handler's: its statements see that tenant's rows only.
          requestContext.run({ requestId: requestId ?? messageId, tenantId: (payload as { tenantId?: string }).tenantId }, () => work(message, () => msg.working())),
        );
        msg.ack();
        if (waits) log().info({ waits }, 'database reachable again; message applied');
        return;
      } catch (err) {
        if (isDependencyDown(err)) {
          if (running.stopped) {
            msg.nak(); // redelivered once a consumer runs again
            return;
          }
          // Postgres is unreachable: not the message's fault. Keep it (working() restarts its ack wait) and try again.
          if (!waits) log().warn({ err }, 'database unreachable; holding the message until it is back');
          msg.working();
          await pause(Math.min(500 * 2 ** waits, 5_000), running.stop.signal);
          continue;
        }
        const max = spec.maxDeliver ?? 5;
        if (msg.info.deliveryCount >= max) {
          log().error({ err, deliveries: msg.info.deliveryCount }, 'poison message (handler kept failing): terminated');
          msg.term();
        } else {
          log().warn({ err, deliveries: msg.info.deliveryCount }, 'message failed; will be redelivered');
          msg.nak(Math.min(1_000 * 2 ** (msg.info.deliveryCount - 1), 30_000));
        }
        return;
      }
    }
  }
}

/** A write that row-level security refused: the row belongs to another tenant (SQLSTATE 42501). */
export function refusedByTenantIsolation(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === '42501' && typeof e.message === 'string' && e.message.includes('row-level security');
}
