import { DataSource } from 'typeorm';
import { createDataSource, runMigrations } from '../src/database';
import { Db } from '../src/db';
import { prepared } from '../src/sql';
import { TestDatabase, createTestDatabase } from '@ddm/testing';
import { TENANT, widgetsDataSource } from './fixtures/widgets';

describe('migrations and display ids (real Postgres)', () => {
  let dbx: TestDatabase;
  const sources: DataSource[] = [];

  beforeAll(async () => {
    dbx = await createTestDatabase();
  });
  afterAll(async () => {
    for (const ds of sources) if (ds.isInitialized) await ds.destroy();
    await dbx?.drop();
  });

  it('migrates once when several replicas start together (advisory lock), and again is a no-op', async () => {
    for (let i = 0; i < 3; i++) sources.push(createDataSource(widgetsDataSource, dbx.url, 2));
    await Promise.all(sources.map((ds) => ds.initialize()));
    const applied = await Promise.all(sources.map((ds) => runMigrations(ds, widgetsDataSource)));
    expect(applied.flat()).toEqual(['WidgetsSchema1763800000000']);
    expect(await runMigrations(sources[0], widgetsDataSource)).toEqual([]);
    const [row] = await sources[0].query(`SELECT count(*) AS n FROM platform_test.migrations`);
    expect(Number(row.n)).toBe(1);
  });

  it('issues display ids from 10000, per tenant and kind, without duplicates under concurrency', async () => {
    const db = new Db(sources[0], 'platform_test', { kick: () => undefined });
    const issue = (tenant: string, kind: string) => db.transaction((tx) => tx.nextDisplayId(tenant, kind));
    const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => issue(TENANT, 'widget').then((id) => [i, id] as const)));
    const values = ids.map(([, id]) => Number(id)).sort((a, b) => a - b);
    expect(values).toEqual(Array.from({ length: 40 }, (_, i) => 10000 + i));
    expect(await issue(TENANT, 'gadget')).toBe('10000');
    expect(await issue('0190a000-0000-7000-8000-0000000000bb', 'widget')).toBe('10000');
  });

  it('does not use up a display id when the transaction that took it rolls back', async () => {
    const db = new Db(sources[0], 'platform_test', { kick: () => undefined });
    const kind = 'rolled-back';
    await expect(
      db.transaction(async (tx) => {
        await tx.nextDisplayId(TENANT, kind);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await db.transaction((tx) => tx.nextDisplayId(TENANT, kind))).toBe('10000');
  });

  it('survives a connection the server ends between two statements: the work fails, the next one gets a new connection', async () => {
    // pg says 'error' on a checked-out client whose server goes away while no statement runs; unheard, it ends the process.
    const db = new Db(sources[0], 'platform_test', { kick: () => undefined });
    const pidBefore = await db.transaction(async (tx) => {
      const [{ pid }] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      return pid;
    });
    await expect(
      db.transaction(async (tx) => {
        const [{ pid }] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        await sources[1].query('SELECT pg_terminate_backend($1)', [pid]);
        await new Promise((r) => setTimeout(r, 300)); // the termination arrives while no statement is running
        await tx.query('SELECT 1');
      }),
    ).rejects.toThrow();
    const [{ pid: after }] = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    expect(typeof after).toBe('number');
    expect(after).not.toBe(pidBefore);
  });

  it('runs a Prepared statement by name, with its one plan only when it asks for it: every other read, and every transaction, is planned for its values', async () => {
    const ds = createDataSource(widgetsDataSource, dbx.url, 1); // one connection: every statement below runs on it
    sources.push(ds);
    await ds.initialize();
    const db = new Db(ds, 'platform_test', { kick: () => undefined });
    const text = `SELECT current_setting('plan_cache_mode') AS mode, pg_backend_pid() AS pid`;
    const generic = prepared('test.generic', text, { genericPlan: true });
    const [first] = await db.query<{ mode: string; pid: number }>(generic);
    expect(first.mode).toBe('force_generic_plan');
    const [read] = await db.query<{ mode: string; pid: number }>(text);
    expect(read).toEqual({ mode: 'auto', pid: first.pid });
    expect((await db.query<{ mode: string }>(generic))[0].mode).toBe('force_generic_plan');
    // A transaction on the connection a generic read left: planned for its values, and the read after it generic again.
    expect((await db.transaction((tx) => tx.query<{ mode: string }>(generic)))[0].mode).toBe('auto');
    expect((await db.query<{ mode: string }>(generic))[0].mode).toBe('force_generic_plan');
    expect((await db.query<{ mode: string }>(prepared('test.auto', text)))[0].mode).toBe('auto');
    // Prepared once on the connection, by name.
    const named = await db.query<{ name: string }>(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'test.%' ORDER BY name`);
    expect(named.map((n) => n.name)).toEqual(['test.auto', 'test.generic']);
  });
});
