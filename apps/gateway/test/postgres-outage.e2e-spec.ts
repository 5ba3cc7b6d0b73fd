import {
  PrivatePostgres,
  RunningSystem,
  exclusive,
  TestNamespace,
  createTestNamespace,
  loadCounts,
  runSeed,
  startLoad,
  startPrivatePostgres,
  startSystem,
  tokenFor,
  until,
  withDatabase,
} from '@ddm/testing';
import { Client } from 'pg';
import { describeOutcomes, outageMix, sleep, systemErrors } from './fixtures/outage';

/**
 * Postgres stopped for 10 s under 50 requests a second through the gateway (a PostgreSQL server of
 * this spec, never the shared one): the requests answer 503 with Retry-After while it is down and
 * never 500, the services recover by themselves within 5 s of its return, and every write that was
 * answered 200 is in the database.
 */
describe('Postgres outage: 10 s without the database under load through the gateway', () => {
  let pg: PrivatePostgres;
  let ns: TestNamespace;
  let system: RunningSystem;
  let databaseUrl: string;

  let release: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    // One outage spec at a time: each drives its own system at 50 requests a second, two at once starve each other.
    release = await exclusive('outage-spec');
    pg = await startPrivatePostgres();
    const admin = new Client({ connectionString: pg.url });
    await admin.connect();
    await admin.query('CREATE DATABASE ddm');
    await admin.end();
    databaseUrl = withDatabase(pg.url, 'ddm');
    ns = createTestNamespace();
    // The services migrate the empty database as they start (each its own schema, under its lock).
    system = await startSystem({ name: 'ddm', url: databaseUrl, drop: async () => undefined }, ns, { areas: ['auth', 'settings', 'decision'], env: { LOG_LEVEL: 'error', DB_POOL_SIZE: '5' } });
    runSeed(system.env, ['settings']);
  }, 180_000);

  afterAll(async () => {
    // A service that ended during the spec (whatever step failed): what it said last.
    const report = system ? systemErrors(system) : '';
    if (report.includes('(exited:')) process.stdout.write(`a process of the system exited during the spec:\n${report}\n`);
    await system?.stop();
    await ns?.cleanup();
    await pg?.stop();
    await release?.();
  });

  it('answers 503 with Retry-After (never 500) while it is down, recovers within 5 s, and keeps every acknowledged write', async () => {
    const settings = system.services.get('settings')!;
    const load = startLoad(system.gateway.url, tokenFor('admin@demo.test'), 50, outageMix('PG outage'));
    await sleep(3_000);

    const down = Date.now();
    await pg.stopServer();
    await sleep(5_000);
    const readyWhileDown = await fetch(`${settings.url}/health/ready`);
    await sleep(Math.max(0, down + 10_000 - Date.now()));
    await pg.startServer();
    const up = Date.now();
    await sleep(8_000);
    const outcomes = await load.stop();
    const readyAfter = await fetch(`${settings.url}/health/ready`);

    const writes = outcomes.filter((o) => o.kind === 'write');
    const acknowledged = writes.filter((o) => o.status === 200).map((o) => o.id!);
    const check = new Client({ connectionString: databaseUrl });
    await check.connect();
    let stored: number;
    let allRows: number;
    let projected: number;
    let applied: number;
    try {
      [{ stored }] = (await check.query(`SELECT count(*)::int AS stored FROM settings.decision_sections WHERE id = ANY($1::uuid[])`, [acknowledged])).rows;
      [{ allRows }] = (await check.query(`SELECT count(*)::int AS "allRows" FROM settings.decision_sections WHERE section_name LIKE 'PG outage %'`)).rows;
      // The consumers held what came while the database was away: every acknowledged section reaches the decision area, once.
      const projectedCount = async () =>
        (await check.query(`SELECT count(*)::int AS n FROM decision.section_projection WHERE id = ANY($1::uuid[])`, [acknowledged])).rows[0].n as number;
      await until(async () => (await projectedCount()) === acknowledged.length, "every acknowledged section in the decision area's projection", 30_000).catch(() => undefined);
      projected = await projectedCount();
      [{ applied }] = (
        await check.query(
          `SELECT count(*)::int AS applied FROM decision.processed_messages WHERE consumer = 'decision-settings-sections'
             AND message_id IN (SELECT id::text FROM settings.outbox WHERE payload->'decisionSection'->>'id' = ANY($1::text[]))`,
          [acknowledged],
        )
      ).rows;
    } finally {
      await check.end();
    }
    const unavailable = outcomes.filter((o) => o.status === 503);
    const lastFailure = outcomes.filter((o) => o.status !== 200).reduce((t, o) => Math.max(t, o.at), 0);
    // Requests sent within 5 s of the restart may still fail; every one sent later must succeed.
    const afterRecovery = outcomes.filter((o) => o.at >= up + 5_000);
    process.stdout.write(
      `postgres outage: ${outcomes.length} requests in ${((outcomes.at(-1)!.at - outcomes[0].at) / 1000).toFixed(1)} s ${JSON.stringify(loadCounts(outcomes, true))}; ` +
        `503 with Retry-After ${unavailable.filter((o) => o.retryAfter).length}/${unavailable.length}; ` +
        `last failure sent ${lastFailure ? ((lastFailure - up) / 1000).toFixed(2) : '-'} s after the restart; ` +
        `writes answered 200: ${acknowledged.length}, of them in the database: ${stored}; rows the spec's writes left: ${allRows} ` +
        `(a write answered 503 may have committed before its answer was lost); in the decision projection ${projected}, applied once by its consumer ${applied}; ready while down: ${readyWhileDown.status}, after: ${readyAfter.status}\n`,
    );

    const unexpected = outcomes.filter((o) => o.status !== 200 && o.status !== 503);
    if (unexpected.length) process.stdout.write(`unexpected answers:\n${describeOutcomes(unexpected, down)}\n${systemErrors(system)}\n`);
    const late = afterRecovery.filter((o) => o.status !== 200);
    if (late.length || projected !== acknowledged.length) {
      // What the processes said, for a failure's report (a service that stopped listening answers the gateway's 503).
      process.stdout.write(`failed after the recovery window (first 20 of ${late.length}):\n${describeOutcomes(late.slice(0, 20), down)}\n${systemErrors(system)}\n`);
    }
    expect(unexpected).toEqual([]);
    expect(unavailable.length).toBeGreaterThan(0);
    expect(unavailable.filter((o) => o.retryAfter !== '5')).toEqual([]);
    expect(afterRecovery.length).toBeGreaterThan(100);
    expect(afterRecovery.filter((o) => o.status !== 200)).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(100);
    expect(stored).toBe(acknowledged.length);
    expect(projected).toBe(acknowledged.length);
    expect(applied).toBe(acknowledged.length);
    expect(readyWhileDown.status).toBe(503);
    expect(readyWhileDown.headers.get('retry-after')).toBe('5');
    expect(readyAfter.status).toBe(200);
  }, 60_000);
});
