import { once } from 'node:events';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { JSONCodec } from 'nats';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { ConsumedMessage, Consumers, MAX_CONSUMER_CONCURRENCY } from '../src/consumer';
import { Db } from '../src/db';
import { createLogger } from '../src/logger';
import { NatsClient } from '../src/nats';
import { OutboxRelay } from '../src/outbox';
import { changeTime } from '../src/consistency';
import { Freshness } from '../src/freshness';
import { WorkContext, inTenant, requestContext } from '../src/request-context';
import { NATS_URL, ROOT, TestDatabase, TestNamespace, until } from '@ddm/testing';
import { TENANT, WIDGET_CREATED, WidgetsPlatform, startWidgetsPlatform } from './fixtures/widgets';

const codec = JSONCodec();
const log = createLogger('platform-test', 'silent');

describe('transactional outbox, relay and consumers (real Postgres and NATS)', () => {
  let dbx: TestDatabase;
  let ns: TestNamespace;
  let ds: DataSource;
  let nats: NatsClient;
  let relay: OutboxRelay;
  let db: Db;
  let consumers: Consumers;
  let platform: WidgetsPlatform | undefined;
  const received: ConsumedMessage<typeof WIDGET_CREATED>[] = [];

  const count = async (sql: string, params: unknown[] = []) => Number((await ds.query(sql, params))[0].n);
  const createWidget = (name: string, fail = false) =>
    db.transaction(async (tx) => {
      const id = uuidv7();
      await tx.query(`INSERT INTO platform_test.widgets (id, tenant_id, name) VALUES ($1, $2, $3)`, [id, TENANT, name]);
      await tx.publish(WIDGET_CREATED, { tenantId: TENANT, name: id });
      if (fail) throw new Error('rolled back on purpose');
      return id;
    });

  beforeAll(async () => {
    platform = await startWidgetsPlatform('outbox-test', 4, log);
    ({ dbx, ns, ds, nats, relay, db, consumers } = platform);
    await consumers.start({
      name: 'widget-watcher',
      subjects: [WIDGET_CREATED],
      handle: async (m, tx) => {
        await tx.query(`INSERT INTO platform_test.applied (message_id, applied_by) VALUES ($1, 'watcher')`, [m.messageId]);
        received.push(m);
      },
    });
    relay.start();
  });

  afterAll(() => platform?.close());

  beforeEach(() => {
    received.length = 0;
  });

  it('commits a state change and its event together, and carries the request id to the consumer', async () => {
    const id = await requestContext.run({ requestId: 'req-outbox-1' }, () => createWidget('first'));
    await until(() => received.some((m) => m.payload.name === id), 'the widget event to arrive', 10_000);
    const m = received.find((x) => x.payload.name === id)!;
    expect(m).toMatchObject({ subject: WIDGET_CREATED, payload: { tenantId: TENANT, name: id }, requestId: 'req-outbox-1' });
    expect(await count(`SELECT count(*) AS n FROM platform_test.widgets WHERE id = $1`, [id])).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM platform_test.outbox WHERE published_at IS NULL`)).toBe(0);
  });

  it('with tracing off, writes no trace context: the outbox columns stay null and the message has no trace header', async () => {
    const sub = nats.nc.subscribe(nats.subjects.wire(WIDGET_CREATED));
    try {
      const id = await createWidget('untraced');
      const [row] = await ds.query(`SELECT traceparent, tracestate FROM platform_test.outbox WHERE payload->>'name' = $1`, [id]);
      expect(row).toEqual({ traceparent: null, tracestate: null });
      for await (const msg of sub) {
        if ((codec.decode(msg.data) as { name: string }).name !== id) continue;
        expect(msg.headers?.keys().filter((k) => /^trace(parent|state)$/i.test(k))).toEqual([]);
        break;
      }
      // Consumed here too, so it does not reach the next test's list.
      await until(() => received.some((m) => m.payload.name === id), 'the watcher to apply the untraced event', 10_000);
    } finally {
      sub.unsubscribe();
    }
  });

  it('publishes nothing for a rolled-back transaction', async () => {
    await expect(createWidget('doomed', true)).rejects.toThrow('rolled back on purpose');
    expect(await count(`SELECT count(*) AS n FROM platform_test.widgets WHERE name = 'doomed'`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM platform_test.outbox WHERE payload->>'name' NOT IN (SELECT id::text FROM platform_test.widgets)`)).toBe(0);
    // A barrier: events leave in commit order, so anything of the rolled-back one would arrive before this.
    const barrier = await createWidget('barrier');
    await until(() => received.some((m) => m.payload.name === barrier), 'the barrier event to arrive', 10_000);
    expect(received.map((m) => m.payload.name)).toEqual([barrier]);
  });

  it('publishMany writes a bulk change\'s events in one statement and delivers them in order, each once', async () => {
    const ids = await db.transaction(async (tx) => {
      const made = [uuidv7(), uuidv7(), uuidv7()];
      await tx.query(`INSERT INTO platform_test.widgets (id, tenant_id, name) SELECT unnest($1::uuid[]), $2, 'bulk'`, [made, TENANT]);
      await tx.publishMany(WIDGET_CREATED, made.map((name) => ({ tenantId: TENANT, name })));
      return made;
    });
    await until(() => ids.every((id) => received.some((m) => m.payload.name === id)), 'every bulk event to arrive', 10_000);
    expect(received.filter((m) => ids.includes(m.payload.name)).map((m) => m.payload.name)).toEqual(ids);
    // A bad payload anywhere in the batch refuses the whole transaction.
    await expect(
      db.transaction((tx) => tx.publishMany(WIDGET_CREATED, [{ tenantId: TENANT, name: 'ok' }, { name: 'no tenant' } as never])),
    ).rejects.toThrow(/tenantId/);
    await expect(db.transaction((tx) => tx.publishMany(WIDGET_CREATED, []))).resolves.toBeUndefined();
  });

  it("names each committed change in the work's context (a rolled-back one not), carries its id to the consumer's record, and Freshness sees it applied", async () => {
    const work: WorkContext = { requestId: 'req-changes', changes: [] };
    const first = await requestContext.run(work, () => createWidget('changed'));
    await expect(requestContext.run(work, () => createWidget('doomed', true))).rejects.toThrow('rolled back on purpose');
    // Work run for a tenant inside the request keeps adding to the request's changes.
    const second = await requestContext.run(work, () => inTenant(TENANT, () => createWidget('in a tenant')));
    expect(work.changes).toEqual([
      { changeId: expect.stringMatching(/^[0-9a-f-]{14}7/), counts: { [WIDGET_CREATED]: 1 } },
      { changeId: expect.stringMatching(/^[0-9a-f-]{14}7/), counts: { [WIDGET_CREATED]: 1 } },
    ]);
    const changes = work.changes!;
    const freshness = new Freshness(consumers, db, nats, log, 5_000);
    const asOf = await freshness.ready(changes);
    expect(await freshness.applied(changes)).toBe(true);
    expect(Date.parse(asOf)).toBeGreaterThanOrEqual(changeTime(changes[1].changeId));
    expect(received.filter((m) => [first, second].includes(m.payload.name)).map((m) => m.changeId)).toEqual(changes.map((c) => c.changeId));
    for (const { changeId } of changes) {
      expect(await count(`SELECT count(*) AS n FROM platform_test.processed_messages WHERE consumer = 'widget-watcher' AND change_id = $1`, [changeId])).toBe(1);
    }
    // A change this service has not applied (nobody published it): not applied, and a read waiting on it answers 503 at the bound.
    const unknown = { changeId: uuidv7(), counts: { [WIDGET_CREATED]: 1 } };
    expect(await freshness.applied([unknown])).toBe(false);
    const began = Date.now();
    await expect(new Freshness(consumers, db, nats, log, 200).ready([unknown])).rejects.toMatchObject({ status: 503, retryAfterSeconds: 1 });
    expect(Date.now() - began).toBeGreaterThanOrEqual(200);
    // Subjects no consumer here follows count as applied.
    expect(await freshness.applied([{ changeId: uuidv7(), counts: { 'evt.settings.document-type.created': 1 } }])).toBe(true);
  });

  it('refuses an event that breaks its contract, inside the transaction', async () => {
    await expect(db.transaction((tx) => tx.publish(WIDGET_CREATED, { name: 'x' } as never))).rejects.toThrow(/tenantId/);
  });

  it('with the relay stopped and restarted (after a crash between publish and mark), a durable consumer gets each event exactly once', async () => {
    await relay.stop();
    const ids = [await createWidget('a'), await createWidget('b'), await createWidget('c')];
    const pending: { id: string; subject: string; payload: object }[] = await ds.query(
      `SELECT id, subject, payload FROM platform_test.outbox WHERE published_at IS NULL ORDER BY created_at`,
    );
    expect(pending).toHaveLength(3);
    // A relay that died after publishing but before marking the rows sent:
    for (const row of pending) await nats.js.publish(nats.subjects.wire(row.subject), codec.encode(row.payload), { msgID: row.id });
    relay.start();
    await until(async () => (await count(`SELECT count(*) AS n FROM platform_test.outbox WHERE published_at IS NULL`)) === 0, 'the restarted relay to mark every row sent', 10_000);
    await until(() => received.length >= 3, 'the three events to arrive', 10_000);
    // A barrier after them: once it is applied, a second copy of any of them would have been too.
    const barrier = await createWidget('barrier');
    await until(() => received.some((m) => m.payload.name === barrier), 'the barrier event to arrive', 10_000);
    expect(received.map((m) => m.payload.name).filter((x) => x !== barrier).sort()).toEqual([...ids].sort());
    expect(await count(`SELECT count(*) AS n FROM platform_test.applied WHERE message_id = ANY($1)`, [pending.map((p) => p.id)])).toBe(3);
  });

  it('terminates a poison message (unreadable payload) and goes on with the next', async () => {
    await nats.js.publish(nats.subjects.wire(WIDGET_CREATED), codec.encode({ not: 'a widget event' }));
    const id = await createWidget('after-poison');
    await until(() => received.some((m) => m.payload.name === id), 'the event after the poison message', 10_000);
    expect(received).toHaveLength(1);
    // Terminated, not nak-looped: once nothing waits for an ack, nothing was redelivered.
    const durable = nats.subjects.durable('widget-watcher');
    await until(async () => (await nats.jsm.consumers.info(nats.subjects.eventsStream, durable)).num_ack_pending === 0, 'nothing pending an ack', 10_000);
    expect((await nats.jsm.consumers.info(nats.subjects.eventsStream, durable)).num_redelivered).toBe(0);
  });

  it('refuses a subject no stream carries and an oversized payload before they reach the outbox', async () => {
    await expect(db.transaction((tx) => tx.publish('evts.test.widget.created' as never, { tenantId: TENANT } as never))).rejects.toThrow(/is not evt/);
    await expect(db.transaction((tx) => tx.publish('evt.test.widget.created' as never, { tenantId: TENANT } as never))).rejects.toThrow(/not in the event registry/);
    await expect(db.transaction((tx) => tx.publish(WIDGET_CREATED, { tenantId: TENANT, name: 'big', blob: 'x'.repeat(600 * 1024) } as never))).rejects.toThrow(/larger than/);
  });

  it('gives up on a message whose handler keeps failing after maxDeliver attempts, then goes on', async () => {
    const attempts: string[] = [];
    const done: string[] = [];
    await consumers.start({
      name: 'picky',
      subjects: [WIDGET_CREATED],
      maxDeliver: 2,
      handle: async (m) => {
        if (m.payload.name === bad) {
          attempts.push(m.messageId);
          throw new Error('cannot apply this one');
        }
        done.push(m.payload.name);
      },
    });
    const bad = await createWidget('bad');
    const good = await createWidget('good');
    await until(() => done.includes(good), 'the good message to be applied', 15_000);
    // Given up: both deliveries were tried and nothing waits for an ack any more, so no third comes.
    await until(() => attempts.length >= 2, 'both deliveries of the failing message', 15_000);
    await until(async () => (await nats.jsm.consumers.info(nats.subjects.eventsStream, nats.subjects.durable('picky'))).num_ack_pending === 0, 'the failing message to be given up', 15_000);
    expect(attempts).toHaveLength(2);
    const [processed] = await ds.query(`SELECT count(*) AS n FROM platform_test.processed_messages WHERE consumer = 'picky' AND message_id = $1`, [attempts[0]]);
    expect(Number(processed.n)).toBe(0);
  });

  it('applies the messages of a consumer with concurrency several at once, each exactly once, and refuses a concurrency out of bounds', async () => {
    let active = 0;
    let most = 0;
    const applied: string[] = [];
    const overlapping = new Consumers(db, nats, log);
    await overlapping.start({
      name: 'overlapping',
      subjects: [WIDGET_CREATED],
      concurrency: 4,
      handle: async (m, tx) => {
        active++;
        most = Math.max(most, active);
        try {
          await tx.query(`SELECT pg_sleep(0.1)`);
          await tx.query(`INSERT INTO platform_test.applied (message_id, applied_by) VALUES ($1, 'overlapping')`, [m.messageId]);
          applied.push(m.payload.name);
        } finally {
          active--;
        }
      },
    });
    const ids = await db.transaction(async (tx) => {
      const made = Array.from({ length: 12 }, () => uuidv7());
      await tx.publishMany(WIDGET_CREATED, made.map((name) => ({ tenantId: TENANT, name })));
      return made;
    });
    await until(() => ids.every((id) => applied.includes(id)), 'the twelve messages to be applied', 15_000).finally(() => overlapping.stopAll());
    // Overlapping (12 x 100 ms one after the other would be 1.2 s), never more than 4 at once.
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(4);
    expect(applied.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
    const [{ n }] = await ds.query(`SELECT count(*) AS n FROM platform_test.applied WHERE applied_by = 'overlapping'`);
    expect(Number(n)).toBe(applied.length);
    for (const concurrency of [0, 1.5, MAX_CONSUMER_CONCURRENCY + 1]) {
      expect(() => consumers.start({ name: 'too-many', subjects: [WIDGET_CREATED], concurrency, handle: async () => undefined })).toThrow(/concurrency must be an integer/);
    }
  });

  describe.each([
    ['killed before its transaction committed', 'kill-before-commit', 1],
    ['killed after committing but before the ack', 'kill-before-ack', 0],
  ])('a consumer process %s', (_name, mode, parentApplies) => {
    it(`has the message redelivered and applied exactly once`, async () => {
      const child = spawn(process.execPath, [join(ROOT, 'dist/libs/platform/test/fixtures/consumer-child.js')], {
        env: { ...process.env, MODE: mode, DATABASE_URL: dbx.url, NATS_URL, NATS_NAMESPACE: ns.namespace },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = once(child, 'exit');
      await new Promise<void>((resolve) => child.stdout!.on('data', (d) => String(d).includes('ready') && resolve()));
      const id = await createWidget(`crash-${mode}`);
      const [, signal] = (await exited) as [number | null, string | null];
      expect(signal).toBe('SIGKILL');
      const [row] = await ds.query(`SELECT id FROM platform_test.outbox WHERE payload->>'name' = $1`, [id]);
      const msgId = row.id;

      const applied: string[] = [];
      const survivor = new Consumers(db, nats, log);
      await survivor.start({
        name: 'crashy',
        subjects: [WIDGET_CREATED],
        ackWaitMs: 1_000,
        handle: async (m, tx) => {
          await tx.query(`INSERT INTO platform_test.applied (message_id, applied_by) VALUES ($1, 'survivor')`, [m.messageId]);
          applied.push(m.payload.name);
        },
      });
      try {
        await until(async () => Number((await ds.query(`SELECT count(*) AS n FROM platform_test.processed_messages WHERE consumer = 'crashy' AND message_id = $1`, [msgId]))[0].n) === 1, 'the redelivered message to be applied once', 10_000);
        // Acknowledged: an acknowledged message is never delivered again.
        await until(async () => (await nats.jsm.consumers.info(nats.subjects.eventsStream, nats.subjects.durable('crashy'))).num_ack_pending === 0, 'the redelivered message to be acknowledged', 10_000);
      } finally {
        await survivor.stopAll();
      }
      expect(applied.filter((w) => w === id)).toHaveLength(parentApplies);
      const rows: { applied_by: string }[] = await ds.query(`SELECT applied_by FROM platform_test.applied WHERE message_id = $1 AND applied_by <> 'watcher'`, [msgId]);
      expect(rows.map((r) => r.applied_by)).toEqual([parentApplies ? 'survivor' : 'child']);
    });
  });
});
