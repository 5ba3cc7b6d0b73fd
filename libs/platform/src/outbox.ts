import { HEADERS, MAX_EVENT_BYTES, validateEvent } from '@ddm/contracts';
import { SpanKind } from '@opentelemetry/api';
import { JSONCodec, MsgHdrs, headers as natsHeaders } from 'nats';
import { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import { DataSource } from 'typeorm';
import type { Queryable } from './queryable';
import { NatsClient } from './nats';
import { currentRequestId } from './request-context';
import { currentTraceContext, inSpan, setTraceHeaders, untraced } from './tracing';

const codec = JSONCodec();

/** The payload as it is stored: checked by the event registry and bounded in size. */
function outboxJson(subject: string, payload: object): string {
  const problems = validateEvent(subject, payload);
  if (problems.length) throw new Error(`invalid ${subject} event: ${problems.join('; ')}`);
  const json = JSON.stringify(payload);
  if (Buffer.byteLength(json) > MAX_EVENT_BYTES) throw new Error(`${subject} event is larger than ${MAX_EVENT_BYTES} bytes`);
  return json;
}

/** What an outbox row carries of the work that wrote it: its request id and trace context (null when tracing is off). */
function origin(): [string | null, string | null, string | null] {
  const { traceparent, tracestate } = currentTraceContext();
  return [currentRequestId() ?? null, traceparent ?? null, tracestate ?? null];
}

/**
 * Writes an event into the outbox inside the caller's transaction: the state change and its
 * event commit together, or neither does. The subject is logical (`evt.auth.user.updated`).
 * `changeId` names the change (the transaction) it belongs to, which the message carries on
 * (consistency.ts). Services call `tx.publish`; this is its implementation.
 */
export async function addToOutbox(q: Queryable, schema: string, subject: string, payload: object, changeId: string | null = null): Promise<string> {
  const json = outboxJson(subject, payload);
  const id = uuidv7();
  await q.query(`INSERT INTO "${schema}".outbox (id, subject, payload, request_id, traceparent, tracestate, change_id) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
    id,
    subject,
    json,
    ...origin(),
    changeId,
  ]);
  return id;
}

/**
 * Writes several events of one subject into the outbox in one statement (a bulk change's events),
 * inside the caller's transaction. Each payload is checked as `addToOutbox` checks one.
 */
export async function addManyToOutbox(q: Queryable, schema: string, subject: string, payloads: readonly object[], changeId: string | null = null): Promise<string[]> {
  if (!payloads.length) return [];
  const jsons = payloads.map((p) => outboxJson(subject, p));
  const ids = payloads.map(() => uuidv7());
  // ids are time-ordered (v7) and the relay sends in (created_at, id) order, so the events keep the payloads' order.
  const [requestId, traceparent, tracestate] = origin();
  await q.query(
    `INSERT INTO "${schema}".outbox (id, subject, payload, request_id, traceparent, tracestate, change_id)
     SELECT x.id, $1, x.payload::jsonb, $2, $3, $4, $7 FROM unnest($5::uuid[], $6::text[]) AS x(id, payload)`,
    [subject, requestId, traceparent, tracestate, ids, jsons, changeId],
  );
  return ids;
}

interface OutboxRow {
  id: string;
  subject: string;
  payload: unknown;
  request_id: string | null;
  traceparent: string | null;
  tracestate: string | null;
  change_id: string | null;
}

/**
 * Publishes committed outbox rows to JetStream with `Nats-Msg-Id` = outbox id (the stream drops
 * duplicates) and `Ddm-Change-Id` = the row's change, then marks them sent. Woken right after a commit and also polls, so a row left by
 * a crash is sent on the next start. One replica at a time relays a schema (a transaction-level
 * advisory lock), so events leave in commit order. A row that fails stays first in line (order is
 * kept, nothing is skipped) and carries its attempts and last error for the operator. While NATS is
 * disconnected the relay only waits (polling), so requests keep the whole pool; a row is marked sent
 * only after JetStream acknowledged it, so an event is never lost, and one sent twice (an ack lost
 * on the way) is dropped by the stream's duplicate window and by the consumers' processed-message record.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running = false;
  private again = false;
  private stopped = true;
  private idle: Promise<void> = Promise.resolve();
  private lastCleanup = 0;

  constructor(
    private readonly ds: DataSource,
    private readonly schema: string,
    private readonly nats: NatsClient,
    private readonly log: Logger,
    private readonly pollMs = 1_000,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops taking new batches and waits for the one in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.idle;
  }

  /** Publish now (called after a commit that wrote outbox rows). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    // A batch is the relay's own work, not the request's that woke it: each row's publish span joins its own row's trace.
    this.timer = untraced(() => setTimeout(() => void this.run(), ms));
  }

  private async run(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = true;
    let resolveIdle!: () => void;
    this.idle = new Promise((r) => (resolveIdle = r));
    let more = false;
    try {
      // NATS down: the rows wait in the outbox, and no transaction holds a pooled connection on a publish that cannot succeed.
      if (this.nats.connected) more = (await this.publishBatch(200)) === 200;
      if (Date.now() - this.lastCleanup > 10 * 60_000) await this.cleanup();
    } catch (err) {
      this.log.warn({ err }, 'outbox relay: publish failed; will retry');
    } finally {
      this.running = false;
      resolveIdle();
      const soon = more || this.again;
      this.again = false;
      this.schedule(soon ? 0 : this.pollMs);
    }
  }

  /** Publishes up to `max` rows in order; returns how many were sent. */
  async publishBatch(max: number): Promise<number> {
    let failed: { id: string; error: string } | undefined;
    const sent = await this.ds.transaction(async (m) => {
      const [{ leader }] = await m.query(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS leader`, [`ddm:outbox:${this.schema}`]);
      if (!leader) return 0;
      const rows: OutboxRow[] = await m.query(
        `SELECT id, subject, payload, request_id, traceparent, tracestate, change_id FROM "${this.schema}".outbox
         WHERE published_at IS NULL ORDER BY created_at, id LIMIT $1`,
        [max],
      );
      const done: string[] = [];
      for (const row of rows) {
        const h = natsHeaders();
        if (row.request_id) h.set(HEADERS.requestId, row.request_id);
        if (row.change_id) h.set(HEADERS.changeId, row.change_id);
        try {
          await this.publish(row, h);
        } catch (err) {
          failed = { id: row.id, error: (err as Error).message };
          break;
        }
        done.push(row.id);
      }
      if (done.length) await m.query(`UPDATE "${this.schema}".outbox SET published_at = now() WHERE id = ANY($1::uuid[])`, [done]);
      return done.length;
    });
    if (failed) {
      await this.ds.query(`UPDATE "${this.schema}".outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1`, [failed.id, failed.error.slice(0, 500)]);
      throw new Error(`outbox row ${failed.id} could not be published: ${failed.error}`);
    }
    return sent;
  }

  /**
   * A row written with a trace context is published in a span of that trace, whose context the
   * message carries on (the consumer's span is its child); one written with tracing off, plainly.
   */
  private async publish(row: OutboxRow, h: MsgHdrs): Promise<void> {
    const subject = this.nats.subjects.wire(row.subject);
    const send = () => this.nats.js.publish(subject, codec.encode(row.payload), { msgID: row.id, headers: h });
    if (!row.traceparent) {
      await send();
      return;
    }
    const parent = { traceparent: row.traceparent, tracestate: row.tracestate ?? undefined };
    const attributes = { 'messaging.system': 'nats', 'messaging.operation.type': 'send', 'messaging.destination.name': subject, 'messaging.message.id': row.id };
    await inSpan(`publish ${row.subject}`, SpanKind.PRODUCER, parent, attributes, async () => {
      setTraceHeaders(h, currentTraceContext());
      await send();
    });
  }

  /** Sent rows are kept a day for inspection, then removed; processed-message records once no redelivery can come. */
  private async cleanup(): Promise<void> {
    this.lastCleanup = Date.now();
    await this.ds.query(`DELETE FROM "${this.schema}".outbox WHERE published_at < now() - interval '1 day'`);
    // EVENTS keeps messages 7 days, so an older message can no longer be redelivered.
    await this.ds.query(`DELETE FROM "${this.schema}".processed_messages WHERE processed_at < now() - interval '8 days'`);
  }
}
