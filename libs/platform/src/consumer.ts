import { HEADERS, validateEvent } from '@ddm/contracts';
import { AckPolicy, ConsumerMessages, DeliverPolicy, JSONCodec, JsMsg, nanos } from 'nats';
import { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';
import { NatsClient } from './nats';
import { requestContext } from './request-context';

const codec = JSONCodec();

export interface ConsumedMessage<T> {
  subject: string;
  payload: T;
  messageId: string;
  requestId?: string;
  deliveryCount: number;
}

export interface ConsumerSpec<T = unknown> {
  /** Durable name, unique per service and purpose (e.g. `settings-delegation-counts`). */
  name: string;
  stream: 'EVENTS' | 'JOBS';
  /** Logical subjects (wildcards allowed). */
  subjects: string[];
  /** Deliveries before a failing message is given up as poison (default 5). */
  maxDeliver?: number;
  ackWaitMs?: number;
  /** Applies the message; runs in the transaction that records the message as processed. */
  handle(message: ConsumedMessage<T>, manager: EntityManager): Promise<void>;
}

/**
 * Durable, explicit-ack JetStream consumers that apply each message once: the handler's writes
 * and the processed-message record commit together, so a redelivery after a crash is skipped.
 * A failing message is retried with back-off up to `maxDeliver` times, then terminated and logged.
 */
export class Consumers {
  private readonly running: { messages: ConsumerMessages; loop: Promise<void> }[] = [];

  constructor(
    private readonly ds: DataSource,
    private readonly schema: string,
    private readonly nats: NatsClient,
    private readonly log: Logger,
  ) {}

  async start<T>(spec: ConsumerSpec<T>): Promise<void> {
    const s = this.nats.subjects;
    const stream = spec.stream === 'EVENTS' ? s.eventsStream : s.jobsStream;
    const durable = s.durable(spec.name);
    const config = {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      max_deliver: spec.maxDeliver ?? 5,
      ack_wait: nanos(spec.ackWaitMs ?? 30_000),
      // One subject uses filter_subject, which NATS servers before 2.10 also understand.
      ...(spec.subjects.length === 1 ? { filter_subject: s.wire(spec.subjects[0]) } : { filter_subjects: spec.subjects.map((x) => s.wire(x)) }),
    };
    try {
      await this.nats.jsm.consumers.info(stream, durable);
      const { durable_name: _name, ack_policy: _ack, deliver_policy: _deliver, ...changeable } = config;
      await this.nats.jsm.consumers.update(stream, durable, changeable);
    } catch (err) {
      if (!/consumer not found/i.test((err as Error).message)) throw err;
      await this.nats.jsm.consumers.add(stream, config);
    }
    const consumer = await this.nats.js.consumers.get(stream, durable);
    const messages = await consumer.consume({ max_messages: 64 });
    const loop = (async () => {
      for await (const msg of messages) await this.process(spec, msg);
    })().catch((err) => this.log.error({ err, consumer: spec.name }, 'consumer loop ended'));
    this.running.push({ messages, loop });
  }

  async stopAll(): Promise<void> {
    for (const r of this.running) await r.messages.close().catch(() => undefined);
    await Promise.all(this.running.map((r) => r.loop));
    this.running.length = 0;
  }

  private async process<T>(spec: ConsumerSpec<T>, msg: JsMsg): Promise<void> {
    const subject = this.nats.subjects.logical(msg.subject);
    const messageId = msg.headers?.get(HEADERS.msgId) || `${msg.info.stream}:${msg.seq}`;
    const requestId = msg.headers?.get(HEADERS.requestId) || undefined;
    const log = this.log.child({ consumer: spec.name, subject, messageId, requestId });
    let payload: T;
    try {
      payload = codec.decode(msg.data) as T;
      const problems = validateEvent(subject, payload);
      if (problems.length) throw new Error(problems.join('; '));
    } catch (err) {
      log.error({ err }, 'poison message (unreadable payload): terminated');
      msg.term();
      return;
    }
    try {
      await requestContext.run({ requestId: requestId ?? messageId }, () =>
        this.ds.transaction(async (m) => {
          const fresh = await m.query(
            `INSERT INTO "${this.schema}".processed_messages (consumer, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1`,
            [spec.name, messageId],
          );
          if (!fresh.length) return; // applied before (redelivery after a crash or a duplicate publish)
          await spec.handle({ subject, payload, messageId, requestId, deliveryCount: msg.info.deliveryCount }, m);
        }),
      );
      msg.ack();
    } catch (err) {
      const max = spec.maxDeliver ?? 5;
      if (msg.info.deliveryCount >= max) {
        log.error({ err, deliveries: msg.info.deliveryCount }, 'poison message (handler kept failing): terminated');
        msg.term();
      } else {
        log.warn({ err, deliveries: msg.info.deliveryCount }, 'message failed; will be redelivered');
        msg.nak(Math.min(1_000 * 2 ** (msg.info.deliveryCount - 1), 30_000));
      }
    }
  }
}
