import type { Type } from '@nestjs/common';
import type { AreaName } from '@ddm/contracts';
import { Db, ServiceDefinition } from '@ddm/platform';
import { Pool } from 'pg';
import { TestDatabase, createTestDatabase } from './database';
import { publishEvent, until } from './events';
import { HttpClient, httpClient } from './http';
import { TestNamespace, createTestNamespace } from './nats';
import { RunningProcess, SeededTenants, freePort, runSeed, spawnBuilt } from './processes';
import { TestService, allTenants, startTestService, testEnv } from './service';
import { seededTokens } from './tokens';

/*
 * The one harness of the apps' e2e specs: an app under test on its own database and NATS namespace,
 * the areas it builds on beside it as built child processes (as in production), the seed, and the
 * app's own wait for what it needs of the seed. What differs between apps is said by the app (an
 * AppUnderTest, written on the spec side: libs never import apps).
 */

/** A tenant of the seed's answer (Demo Co, Other Co) with its users. */
export type SeededTenant = SeededTenants['tenants'][number];
export type Seeded = ReturnType<typeof runSeed>;
export type SeededTokens = ReturnType<typeof seededTokens>;

/** One statement against the test database, answering its rows. */
export type Query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;

/** What a harness has once the seed ran, in process or not. */
export interface SeededHarness {
  /** The environment of the child processes and the seed (the test database as the app role, the namespace). */
  env: Record<string, string>;
  /** A statement on the test database, across tenants. */
  query: Query;
  seeded: Seeded;
  demo: SeededTenant;
  other: SeededTenant;
  /** Tokens of the seeded users: Demo Co's admin, manager, user and auditor, and Other Co's admin. */
  tokens: SeededTokens;
}

/** The app under test run in the spec's process (startHarness). */
export interface Harness<P extends AreaName = AreaName> extends SeededHarness {
  /** The app under test, in this process. */
  svc: TestService;
  /** Its Db, across tenants (allTenants). */
  db: Db;
  /** The built services of the other areas, as child processes, by area. */
  processes: Record<P, RunningProcess>;
  /** Publishes an event of another area (as its outbox relay would) and waits until `applied` holds. */
  publish(subject: string, payload: object, applied: () => Promise<boolean>, what: string): Promise<void>;
  /** Stops the app under test and starts it again on the same database and namespace (svc and db are new). */
  restart(): Promise<void>;
  /** Stops everything, drops the database and the namespace's streams. */
  close(): Promise<void>;
}

/** What genuinely differs between the apps' harnesses. */
export interface AppUnderTest<X extends object = object, P extends AreaName = AreaName> {
  /** The app's module and service definition. */
  module: Type<unknown>;
  definition: Omit<ServiceDefinition, 'env'>;
  /** The areas started before it, in this order, as built child processes on the same database and namespace (auth resolves callers). */
  processes: readonly P[];
  /** What the seed makes (SEED_AREAS): ['auth'] for the tenants and users only, ['settings'] for those and the settings records. */
  seed: readonly string[];
  /** More environment of the app under test. */
  env?: Record<string, string>;
  /** After the seed: waits until the app holds what it needs of it (its projections caught up); answers the app's own fields of the harness. */
  ready?: (h: Harness<P>) => Promise<X>;
}

/** The harness type of an app: `HarnessOf<typeof decisionApp>`. */
export type HarnessOf<A> = A extends AppUnderTest<infer X, infer P> ? Harness<P> & X : never;

/** Names an app under test, keeping its process areas' names and its own fields in the type. */
export function appUnderTest<X extends object = object, const P extends AreaName = never>(app: AppUnderTest<X, P>): AppUnderTest<X, P> {
  return app;
}

/** The database, namespace and environment of one harness; what to undo when it ends. */
interface Ground {
  database: TestDatabase;
  ns: TestNamespace;
  env: Record<string, string>;
  running: RunningProcess[];
  spawn(area: AreaName): Promise<RunningProcess>;
}

async function prepare(env: Record<string, string> = {}): Promise<Ground> {
  const database = await createTestDatabase();
  const ns = createTestNamespace();
  const processEnv = testEnv(database, ns, { DB_POOL_SIZE: '3', ...env });
  const running: RunningProcess[] = [];
  return {
    database,
    ns,
    env: processEnv,
    running,
    spawn: async (area) => {
      const p = await spawnBuilt(`apps/${area}/src/main.js`, { ...processEnv, PORT: String(await freePort()) });
      running.push(p);
      return p;
    },
  };
}

/** The seed's answer with Demo Co and Other Co picked out, and the seeded users' tokens. */
function seededFields(seeded: Seeded, query: Query, env: Record<string, string>): SeededHarness {
  const tenant = (name: string) => {
    const t = seeded.tenants.find((x) => x.name === name);
    if (!t) throw new Error(`seed made no tenant "${name}"`);
    return t;
  };
  return { env, query, seeded, demo: tenant('Demo Co'), other: tenant('Other Co'), tokens: seededTokens() };
}

/**
 * Starts `app` in this process on a database and NATS namespace of its own, its `processes` beside
 * it (started first, in order), runs the seed and waits for the app's `ready`.
 */
export async function startHarness<X extends object, P extends AreaName>(app: AppUnderTest<X, P>): Promise<Harness<P> & X> {
  const g = await prepare();
  let svc: TestService | undefined;
  try {
    const processes = {} as Record<P, RunningProcess>;
    for (const area of app.processes) processes[area] = await g.spawn(area);
    const start = () => startTestService(app.module, app.definition, { db: g.database, ns: g.ns, env: app.env });
    svc = await start();
    const seeded = runSeed(g.env, [...app.seed]);
    const db = allTenants(svc.app.get(Db));
    const h: Harness<P> = {
      ...seededFields(seeded, (text, params) => h.db.query(text, params), g.env),
      svc,
      db,
      processes,
      publish: async (subject, payload, applied, what) => {
        await publishEvent(h.svc, subject, payload);
        await until(applied, what);
      },
      restart: async () => {
        await h.svc.app.close();
        h.svc = await start();
        h.db = allTenants(h.svc.app.get(Db));
      },
      close: async () => {
        await Promise.all(g.running.map((p) => p.stop()));
        await h.svc.close();
      },
    };
    return Object.assign(h, app.ready ? await app.ready(h) : ({} as X));
  } catch (err) {
    await Promise.all(g.running.map((p) => p.stop()));
    if (svc) await svc.close();
    else {
      await g.database.drop();
      await g.ns.cleanup();
    }
    throw err;
  }
}

/** The area under test as a built process of its own (startProcessHarness). */
export interface ProcessHarness<P extends AreaName = AreaName> extends SeededHarness {
  /** Every child process by area, the area under test's included (replaced by restart). */
  processes: Record<P, RunningProcess>;
  /** A client of the area under test. */
  http: HttpClient;
  /** Starts the area under test again on the same database and NATS (after the spec killed it). */
  restart(): Promise<void>;
  /** Stops every process, drops the database and the namespace's streams. */
  close(): Promise<void>;
}

export interface ProcessHarnessOptions<X extends object, P extends AreaName> {
  /** The area under test, started last. */
  area: P;
  /** The areas started before it, in this order. */
  processes: readonly P[];
  seed: readonly string[];
  /** More environment of every process and the seed (e.g. NATS_URL of a NATS server the spec restarts). */
  env?: Record<string, string>;
  ready?: (h: SeededHarness) => Promise<X>;
}

/**
 * The area under test as production runs it, a process of its own (so a spec can kill it), its
 * `processes` beside it, the seed and its `ready`. No service runs in the spec's process; `query`
 * goes through a pool of the spec's own.
 */
export async function startProcessHarness<X extends object, const P extends AreaName>(options: ProcessHarnessOptions<X, P>): Promise<ProcessHarness<P> & X> {
  const g = await prepare(options.env);
  const pool = new Pool({ connectionString: g.database.url, max: 2 });
  // pool.end() resolves before its sockets have closed; dropping the database then terminates a
  // backend still saying goodbye (57P01), which an idle client reports here. Anything else is real.
  pool.on('error', (err: Error & { code?: string }) => {
    if (err.code !== '57P01') throw err;
  });
  const close = async () => {
    await Promise.all(g.running.map((p) => p.stop()));
    await pool.end();
    await g.database.drop();
    await g.ns.cleanup();
  };
  try {
    const processes = {} as Record<P, RunningProcess>;
    for (const area of [...options.processes, options.area]) processes[area] = await g.spawn(area);
    const query: Query = async (text, params) => (await pool.query(text, params)).rows;
    const h: ProcessHarness<P> = {
      ...seededFields(runSeed(g.env, [...options.seed]), query, g.env),
      processes,
      http: httpClient(processes[options.area].url),
      restart: async () => {
        h.processes[options.area] = await g.spawn(options.area);
        h.http = httpClient(h.processes[options.area].url);
      },
      close,
    };
    return Object.assign(h, options.ready ? await options.ready(h) : ({} as X));
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Waits until every seeded tenant's users are in `table` (an area's user projection, e.g.
 * 'matrix.user_projection'); answers the projected rows (id, email).
 */
export async function untilSeededUsersProjected(h: SeededHarness, table: string, what: string, timeoutMs = 30_000): Promise<{ id: string; email: string }[]> {
  const tenantIds = h.seeded.tenants.map((t) => t.id);
  const users = h.seeded.tenants.reduce((n, t) => n + t.users.length, 0);
  await until(async () => {
    const [r] = await h.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = ANY($1::uuid[])`, [tenantIds]);
    return r.n >= users;
  }, what, timeoutMs);
  return h.query<{ id: string; email: string }>(`SELECT id, email FROM ${table} WHERE tenant_id = ANY($1::uuid[])`, [tenantIds]);
}
