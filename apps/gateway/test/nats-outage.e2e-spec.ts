import { Subjects } from '@ddm/contracts';
import {
  PrivateNats,
  RunningSystem,
  TestDatabase,
  exclusive,
  createTestDatabase,
  createTestNamespace,
  loadCounts,
  runSeed,
  startLoad,
  startPrivateNats,
  startSystem,
  tokenFor,
  until,
} from '@ddm/testing';
import { connect } from 'nats';
import { Pool } from 'pg';
import { describeOutcomes, outageMix, sleep, systemErrors } from './fixtures/outage';

const CREATED = 'evt.settings.decision-section.created';
/** The decision area's consumer of the settings sections (apps/decision/src/consumers/section.projection.ts). */
const SECTIONS_CONSUMER = 'decision-settings-sections';

/**
 * NATS stopped for 10 s under 50 requests a second through the gateway (a NATS server of this
 * spec, never the shared one): requests keep succeeding, the events of the writes wait in the
 * outbox and each reaches the stream and the decision area's consumer exactly once afterwards.
 * The callers' cache lives 2 s here, so every cached answer expires during the outage: a caller
 * seen before keeps their last answer while auth cannot be asked.
 */
describe('NATS outage: 10 s without NATS under load through the gateway', () => {
  let nats: PrivateNats;
  let dbx: TestDatabase;
  let system: RunningSystem;
  let pool: Pool;
  let subjects: Subjects;
  const query = async <T>(text: string, params?: unknown[]) => (await pool.query(text, params)).rows as T[];

  let release: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    // One outage spec at a time: each drives its own system at 50 requests a second, two at once starve each other.
    release = await exclusive('outage-spec');
    nats = await startPrivateNats();
    dbx = await createTestDatabase();
    const ns = createTestNamespace(); // its streams live on the private server, removed with it
    subjects = ns.subjects;
    system = await startSystem(dbx, ns, { areas: ['auth', 'settings', 'decision'], env: { NATS_URL: nats.url, CALLER_CACHE_TTL_MS: '2000', LOG_LEVEL: 'error', DB_POOL_SIZE: '5' } });
    runSeed(system.env, ['settings']);
    pool = new Pool({ connectionString: dbx.url, max: 2 });
  }, 180_000);

  afterAll(async () => {
    await system?.stop();
    await pool?.end();
    await dbx?.drop();
    await nats?.stop();
    await release?.();
  });

  it('keeps answering while NATS is down; the events wait in the outbox and each arrives exactly once afterwards', async () => {
    const load = startLoad(system.gateway.url, tokenFor('admin@demo.test'), 50, outageMix('NATS outage'));
    await sleep(3_000);

    await nats.kill();
    const down = Date.now();
    await sleep(5_000);
    // A caller no service has asked about yet: auth cannot be asked, so a 503 with Retry-After, at once.
    const unseenAt = Date.now();
    const unseen = await fetch(`${system.gateway.url}/settings/v1/decision-sections?limit=1`, { headers: { authorization: `Bearer ${tokenFor('auditor@demo.test')}` }, signal: AbortSignal.timeout(10_000) });
    const unseenMs = Date.now() - unseenAt;
    const [{ waiting }] = await query<{ waiting: number }>(`SELECT count(*)::int AS waiting FROM settings.outbox WHERE published_at IS NULL AND subject = $1`, [CREATED]);
    await sleep(Math.max(0, down + 10_000 - Date.now()));
    await nats.start();
    await sleep(8_000);
    const outcomes = await load.stop();
    const unseenAfter = await fetch(`${system.gateway.url}/settings/v1/decision-sections?limit=1`, { headers: { authorization: `Bearer ${tokenFor('auditor@demo.test')}` } });

    const acknowledged = outcomes.filter((o) => o.kind === 'write' && o.status === 200).map((o) => o.id!);
    const duringOutage = outcomes.filter((o) => o.at >= down && o.at < down + 10_000);
    // Every event of the spec's writes is published once the outbox drains, and applied by the decision area's consumer.
    await until(async () => (await query(`SELECT 1 FROM settings.outbox WHERE published_at IS NULL LIMIT 1`)).length === 0, 'the settings outbox to drain', 30_000);
    const events = await query<{ id: string }>(`SELECT id FROM settings.outbox WHERE subject = $1 AND payload->'decisionSection'->>'id' = ANY($2::text[])`, [CREATED, acknowledged]);
    await until(
      async () => (await query<{ n: number }>(`SELECT count(*)::int AS n FROM decision.section_projection WHERE id = ANY($1::uuid[])`, [acknowledged]))[0].n === acknowledged.length,
      "every acknowledged section in the decision area's projection",
      30_000,
    );
    const [{ applied }] = await query<{ applied: number }>(`SELECT count(*)::int AS applied FROM decision.processed_messages WHERE consumer = $1 AND message_id = ANY($2::text[])`, [
      SECTIONS_CONSUMER,
      events.map((e) => e.id),
    ]);

    // What the stream holds: every created event, read back message by message and counted by message id.
    const nc = await connect({ servers: nats.url });
    const received = new Map<string, number>();
    try {
      const jsm = await nc.jetstreamManager();
      const { state } = await jsm.streams.info(subjects.eventsStream);
      for (let seq = state.first_seq; seq <= state.last_seq; seq++) {
        const m = await jsm.streams.getMessage(subjects.eventsStream, { seq });
        if (m.subject !== subjects.wire(CREATED)) continue;
        const id = m.header.get('Nats-Msg-Id');
        received.set(id, (received.get(id) ?? 0) + 1);
      }
    } finally {
      await nc.close();
    }
    const ours = events.map((e) => received.get(e.id) ?? 0);
    const metrics = await (await fetch(`${system.services.get('decision')!.url}/metrics`)).text();
    const restarts = metrics.split('\n').filter((l) => l.startsWith('ddm_consumer_restarts_total'));

    process.stdout.write(
      `nats outage: ${outcomes.length} requests in ${((outcomes.at(-1)!.at - outcomes[0].at) / 1000).toFixed(1)} s ${JSON.stringify(loadCounts(outcomes, true))}; ` +
        `during the 10 s outage ${duringOutage.length} requests, ${duringOutage.filter((o) => o.status === 200).length} answered 200, slowest ${Math.max(...duringOutage.map((o) => o.ms))} ms; ` +
        `writes answered 200: ${acknowledged.length}; events waiting in the outbox 5 s into the outage: ${waiting}; events of the writes: ${events.length}, ` +
        `in the stream once: ${ours.filter((n) => n === 1).length}, more than once: ${ours.filter((n) => n > 1).length}, missing: ${ours.filter((n) => n === 0).length}; ` +
        `applied by ${SECTIONS_CONSUMER}: ${applied}; unseen caller during the outage: ${unseen.status} in ${unseenMs} ms, after: ${unseenAfter.status}; ` +
        `decision consumer restarts: ${restarts.length ? restarts.join(', ') : 'none'}\n`,
    );

    const unexpected = outcomes.filter((o) => o.status !== 200);
    if (unexpected.length) process.stdout.write(`unexpected answers:\n${describeOutcomes(unexpected, down)}\n${systemErrors(system)}\n`);
    expect(unexpected).toEqual([]);
    expect(duringOutage.length).toBeGreaterThan(400);
    expect(waiting).toBeGreaterThan(0);
    expect(events).toHaveLength(acknowledged.length);
    expect(ours.filter((n) => n !== 1)).toEqual([]);
    expect([...received.values()].filter((n) => n !== 1)).toEqual([]);
    expect(applied).toBe(acknowledged.length);
    expect(unseen.status).toBe(503);
    expect(unseen.headers.get('retry-after')).toBe('5');
    expect(unseenAfter.status).toBe(200);
  }, 80_000);

  it("restarts a consumer whose loop ended (its durable consumer deleted), counted in ddm_consumer_restarts_total, and it goes on applying events", async () => {
    const restarts = async () => {
      const text = await (await fetch(`${system.services.get('decision')!.url}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith(`ddm_consumer_restarts_total{consumer="${SECTIONS_CONSUMER}"}`));
      return line ? Number(line.split(' ').at(-1)) : 0;
    };
    const before = await restarts();
    const nc = await connect({ servers: nats.url });
    try {
      await (await nc.jetstreamManager()).consumers.delete(subjects.eventsStream, subjects.durable(SECTIONS_CONSUMER));
    } finally {
      await nc.close();
    }
    await until(async () => (await restarts()) > before, `${SECTIONS_CONSUMER} to be restarted`, 15_000);
    const res = await fetch(`${system.gateway.url}/settings/v1/decision-sections`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenFor('admin@demo.test')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sectionName: 'After the restart' }),
    });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { id: string } };
    await until(async () => (await query(`SELECT 1 FROM decision.section_projection WHERE id = $1`, [data.id])).length === 1, 'the new section in the decision projection', 15_000);
    process.stdout.write(`consumer restart: ${SECTIONS_CONSUMER} restarts ${before} -> ${await restarts()}\n`);
  }, 40_000);
});
