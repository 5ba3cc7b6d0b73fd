import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createDataSource, runMigrations } from '../src/database';
import { Db, withLiterals } from '../src/db';
import { inTenant } from '../src/request-context';
import { prepared, sql } from '../src/sql';
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
  it("a read on a connection that last served another tenant sets the tenant in the statement's own round trip: one query, values written in as literals that mean what the parameters meant", async () => {
    const ds = createDataSource(widgetsDataSource, dbx.url, 1); // one connection
    sources.push(ds);
    await ds.initialize();
    const db = new Db(ds, 'platform_test', { kick: () => undefined });
    const pool = (ds.driver as unknown as { master: { on(e: string, f: (c: { query: (...a: unknown[]) => unknown }) => void): void; connect(): Promise<{ query: (...a: unknown[]) => unknown; release(): void }> } }).master;
    // Count what the one connection is sent.
    const client = await pool.connect();
    const sent: string[] = [];
    const original = client.query.bind(client);
    client.query = (...args: unknown[]) => {
      sent.push(typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text);
      return original(...args);
    };
    client.release();
    const [A, B] = ['0190a000-0000-7000-8000-0000000000a1', '0190a000-0000-7000-8000-0000000000b2'];
    const tenantOf = () => db.query<{ tenant: string }>(sql`SELECT current_setting('app.tenant_id') AS tenant, ${'x'}::text AS x`);
    expect((await inTenant(A, tenantOf))[0].tenant).toBe(A);
    expect((await inTenant(A, tenantOf))[0].tenant).toBe(A);
    expect((await inTenant(B, tenantOf))[0].tenant).toBe(B);
    expect(sent).toHaveLength(3);
    // A statement that fails undoes its settings with it: the next read sets them again.
    await expect(inTenant(A, () => db.query(sql`SELECT 1 / ${0}::int`))).rejects.toThrow(/division by zero/);
    expect((await inTenant(B, tenantOf))[0].tenant).toBe(B);
    expect((await inTenant(A, tenantOf))[0].tenant).toBe(A);

    // Values written in as literals answer what the same values bound as parameters answer.
    const values: unknown[] = [
      "it's a \\ back'slash",
      'unicode ✓ ß',
      "'); DROP TABLE platform_test.migrations; --",
      42,
      -1.5,
      true,
      null,
      undefined,
      new Date('2026-01-02T03:04:05.678Z'),
      ['a', 'b,c', 'd"e', "f'g", null, 'h\\i'],
      [A, B],
      { nested: { list: [1, 'two'] }, quote: "o'k" },
      Buffer.from([0, 1, 2, 255]),
    ];
    const statement = sql`SELECT ${values[0]}::text AS a, ${values[1]}::text AS b, ${values[2]}::text AS c, ${values[3]}::int AS d, ${values[4]}::numeric AS e,
      ${values[5]}::boolean AS f, ${values[6]}::text AS g, ${values[7]}::text AS h, ${values[8]}::timestamptz AS i, ${values[9]}::text[] AS j,
      ${A} = ANY(${values[10]}::uuid[]) AS k, ${values[11]}::jsonb AS l, ${values[12]}::bytea AS m, 'x' LIKE ${'%x%'} AS n, ${'untyped'} AS o`;
    const direct = await ds.query(statement.text, statement.values as unknown[]);
    const inlined = await ds.query(withLiterals(statement, (t) => Client.prototype.escapeLiteral.call(null, t))!);
    expect(inlined).toEqual(direct);
    expect(direct[0]).toMatchObject({ a: values[0], c: values[2], d: 42, f: true, g: null, h: null, j: values[9], k: true, l: values[11], m: values[12], n: true, o: 'untyped' });
    // A NUL cannot be carried by a query's text: the statement goes with its parameters instead.
    expect(withLiterals(sql`SELECT ${'a\0b'}::text`, (t) => t)).toBeNull();
  });
});
