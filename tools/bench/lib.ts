/**
 * What the benchmarks of tools/bench/ share, so that each benchmark file holds only what is its
 * own (what it seeds, which requests it measures, its bare handler's routes, its targets, its
 * extra measurements and its report):
 *
 *   serviceBench({ name, service, defaults, bare, main, ... })  the whole life of a benchmark of a
 *       service: its options read, a scratch database (ddm_bench_<name>) and NATS namespace
 *       (bench<name>), auth and the service started as child processes, a pg client on the
 *       scratch database, `main` run with them (it may start the bare handler, a plain Fastify +
 *       pg worker thread serving `bare.routes`), then, whatever happened, the worker stopped, the
 *       children stopped, the database dropped (unless --keep) and the streams deleted.
 *   warmUp(targets, opts), measureRounds(targets, opts)  the targets measured in turn with
 *       autocannon: the warm-up, then two rounds (service and bare alternating when the targets
 *       alternate); each run is the target's key ({ kind, impl }, ...) with its round and figures.
 *   best / versus  the better of the runs (of service and bare, and their ratio);
 *       runsTable / printReport  the table of the runs, the report lines and the JSON line.
 *   checkSame, fetchJson, call  the checks before measuring (service and bare answer the same).
 *
 * Below them: the built services as child processes (started, awaited until ready, stopped in
 * every case), scratch databases, a tenant with its default roles seeded in SQL, autocannon runs
 * with fine percentiles, and a few formatting helpers.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { extname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import Fastify, { FastifyInstance } from 'fastify';
import { ALL_PERMISSION_KEYS, DEFAULT_ROLES, DefaultRoleKey } from '@ddm/contracts';
import { connect } from 'nats';
import { Client, Pool, PoolConfig } from 'pg';
import { ensureDevKeys } from '@ddm/platform';
import { DEV_KEYS_DIR, ROOT, asAppRole, runtime } from '../lib/runtime';
import { signDevToken } from '../lib/sign';

// autocannon ships no types; the little of its API used here.
interface AutocannonResult {
  requests: { average: number };
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}
interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTimeMs: number) => void): void;
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  pipelining?: number;
  headers?: Record<string, string>;
  setupClient?: (client: { pipelinedRequests: { addBody(data: Buffer): void } }) => void;
}) => AutocannonInstance;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon: Autocannon = require('autocannon');

export const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

/** How long a service may take to be ready (it applies its migrations first). */
export const READY_TIMEOUT_MS = 120_000;
/** The pg pool of the services (DB_POOL_SIZE) and of the bare handler. */
export const POOL_SIZE = 10;
/** No request of the checks may hang a benchmark. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** Where Postgres and NATS are (tools/lib/runtime). */
export interface Rt {
  databaseUrl: string;
  natsUrl: string;
}

// ---------------------------------------------------------------------------------------------
// Options.
// ---------------------------------------------------------------------------------------------

/** Prints `msg` and the usage line to stderr and exits 2. */
export function usage(msg: string, usageLine: string): never {
  process.stderr.write(`${msg}\nusage: ${usageLine}\n`);
  process.exit(2);
}

/** The options every benchmark takes: seconds per measured run, concurrent connections, seconds of warm-up per target. */
export interface BenchOptions {
  duration: number;
  connections: number;
  warmup: number;
}

/** Their defaults. */
export const BENCH_DEFAULTS: BenchOptions = { duration: 10, connections: 16, warmup: 3 };

/**
 * The options of a benchmark of a service: BenchOptions, `--keep` (keep the scratch database, to look
 * at query plans) and `--reuse` (measure again on a database an earlier run kept, without seeding it:
 * a benchmark that supports it reads what it needs of its seed back; it also implies --keep).
 */
export interface ServiceBenchOptions extends BenchOptions {
  keep: boolean;
  reuse: boolean;
}

const LIMITS: Record<keyof BenchOptions, [number, number]> = { duration: [1, 120], connections: [1, 256], warmup: [0, 60] };

/** A benchmark's own options, besides BenchOptions. */
export interface OwnOptions<O> {
  /** Integer options (`--size n`) within [min, max]. */
  counts?: Partial<Record<keyof O & string, [number, number]>>;
  /** Flags without a value (`--keep`): true when given. */
  flags?: (keyof O & string)[];
  /** Text options (`--term hopper`) of [min, max] characters. */
  texts?: Partial<Record<keyof O & string, [number, number]>>;
}

const own = <O>(table: Partial<Record<keyof O & string, [number, number]>> | undefined, name: string) =>
  table && Object.prototype.hasOwnProperty.call(table, name) ? table[name as keyof O & string] : undefined;

/**
 * Reads `--duration`, `--connections`, `--warmup` and the benchmark's own options (`--name n` or
 * `--name=n`) over `defaults`. Exits 2 with the usage line on anything else.
 */
export function parseArgs<O extends BenchOptions>(argv: string[], usageLine: string, defaults: O, options: OwnOptions<O> = {}): O {
  const opts = { ...defaults } as O & Record<string, unknown>;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const name = flag.replace(/^--/, '');
    if (!flag.startsWith('--')) usage(`unknown option ${argv[i]}`, usageLine);
    if ((options.flags as string[] | undefined)?.includes(name)) {
      (opts as Record<string, unknown>)[name] = true;
      continue;
    }
    const text = own<O>(options.texts, name);
    const range = own<O>(options.counts, name) ?? own<BenchOptions>(LIMITS, name);
    if (!text && !range) usage(`unknown option ${argv[i]}`, usageLine);
    const raw = inline ?? argv[++i];
    if (text) {
      if (!raw || raw.length < text[0] || raw.length > text[1]) usage(`${flag} must be ${text[0]} to ${text[1]} characters`, usageLine);
      (opts as Record<string, unknown>)[name] = raw;
      continue;
    }
    const n = Number(raw);
    const [min, max] = range!;
    if (!Number.isInteger(n) || n < min || n > max) usage(`${flag} must be an integer from ${min} to ${max} (got "${raw}")`, usageLine);
    (opts as Record<string, unknown>)[name] = n;
  }
  return opts;
}

// ---------------------------------------------------------------------------------------------
// Child processes.
// ---------------------------------------------------------------------------------------------

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

const children: ChildProcess[] = [];
let stopping = false;
/** Children stopped on purpose by stopChild() before the end (their exit is not "early"). */
const stoppedOnPurpose = new WeakSet<ChildProcess>();

/**
 * A bench fires thousands of requests a second with one token: the abuse limits stay on (their
 * cost is part of what is measured, counted in memory) but at their ceiling, so nothing is refused.
 */
export const BENCH_RATE_LIMITS: Record<string, string> = {
  RATE_LIMIT_CALLER_MAX: '10000000',
  RATE_LIMIT_TENANT_MAX: '10000000',
  RATE_LIMIT_BULK_MAX: '10000000',
  RATE_LIMIT_INVITE_MAX: '10000000',
  RATE_LIMIT_SHARED_MAX: '10000000',
  REDIS_URL: '',
};

/**
 * Runs `script` (relative to the repository root) with node, as a child that stopChildren() stops. Its stderr, and its stdout unless piped, go to this process's stderr.
 * BENCH_PROF=<folder> in the environment: each child writes a V8 CPU profile there when it stops (node refuses --cpu-prof in NODE_OPTIONS).
 */
export function spawnScript(script: string, env: Record<string, string>, stdout: 'pipe' | 2 = 2): ChildProcess {
  const profile = process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, join(ROOT, script)], { env: { ...process.env, ...env }, stdio: ['ignore', stdout, 2] });
  children.push(child);
  return child;
}

/** Starts a service (spawnScript) and says so if it exits before stopChildren(). */
function start(name: string, script: string, env: Record<string, string>): ChildProcess {
  const child = spawnScript(script, env);
  child.once('exit', (code, signal) => {
    if (!stopping && !stoppedOnPurpose.has(child)) log(`${name} exited early (code ${code}, signal ${signal})`);
  });
  return child;
}

async function stop(child: ChildProcess, killAfterMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  await exited;
  clearTimeout(timer);
}

/** SIGTERM to every child still running, SIGKILL after `killAfterMs`. */
export async function stopChildren(killAfterMs: number): Promise<void> {
  stopping = true;
  await Promise.all(children.map((child) => stop(child, killAfterMs)));
}

/** Stops one child before the end (to start the service again with another environment): SIGTERM, SIGKILL after `killAfterMs`. */
export async function stopChild(child: ChildProcess, killAfterMs: number): Promise<void> {
  stoppedOnPurpose.add(child);
  await stop(child, killAfterMs);
}

/** Starts `script` as a child on a free port (`note` says what it does first) and waits until it answers: the child and its base URL. */
export async function startService(name: string, script: string, env: Record<string, string>, timeoutMs = READY_TIMEOUT_MS, note = ''): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  log(`starting ${name} on ${port}${note ? ` (${note})` : ''}`);
  const child = start(name, script, { ...env, PORT: String(port) });
  await waitReady(name, child, base, timeoutMs);
  return { child, base };
}

/** Polls `${base}/health/ready` until it answers 2xx; throws if the child exits first or after `timeoutMs`. */
async function waitReady(name: string, child: ChildProcess, base: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited before it was ready`);
    try {
      const res = await fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(1_000) });
      await res.body?.cancel();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`${name} was not ready within ${timeoutMs / 1000} s (${base}/health/ready)`);
}

/**
 * Runs `main`; on failure logs it and sets exit code 1. `cleanup` runs afterwards in every case,
 * and on SIGINT or SIGTERM (then the process exits 130).
 */
export function runBench(main: () => Promise<void>, cleanup: () => Promise<unknown>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  main()
    .catch((err) => {
      log(`failed: ${(err as Error).message}`);
      process.exitCode = 1;
    })
    .finally(() => cleanup());
}

// ---------------------------------------------------------------------------------------------
// Scratch database and streams.
// ---------------------------------------------------------------------------------------------

/** `url` naming another database. */
function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs `work` on a connection to the server's `postgres` database (to create and drop databases). */
async function admin<T>(url: string, work: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: withDatabase(url, 'postgres') });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

/** Creates the scratch database `name` afresh (dropped first if a previous run left it) and answers its URL. */
async function createScratchDatabase(url: string, name: string, reuse: boolean): Promise<string> {
  log(`scratch database ${name} (${url.replace(/\/\/[^@]*@/, '//').replace(/\/[^/]*$/, '')})${reuse ? ', reused' : ''}`);
  await admin(url, async (c) => {
    if (reuse) {
      const { rowCount } = await c.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name]);
      if (!rowCount) throw new Error(`--reuse: there is no database ${name} (run once with --keep first)`);
      return;
    }
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${name}"`);
  });
  return withDatabase(url, name);
}

/**
 * What a benchmark leaves behind, removed: the children stopped, the scratch database dropped
 * (unless `keep`, to look at query plans) and the namespace's streams deleted. Never throws.
 */
async function removeScratch(rt: Rt, database: string, natsNamespace: string, keep: boolean): Promise<void> {
  await stopChildren(10_000);
  if (keep) log(`kept database ${database}`);
  else await admin(rt.databaseUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)).catch((err) => log(`could not drop ${database}: ${(err as Error).message}`));
  const nc = await connect({ servers: rt.natsUrl }).catch(() => undefined);
  if (nc) {
    const jsm = await nc.jetstreamManager();
    for (const s of [`${natsNamespace}_EVENTS`, `${natsNamespace}_JOBS`]) await jsm.streams.delete(s).catch(() => undefined);
    await nc.close();
  }
}

/**
 * A benchmark's scratch database (created anew) and the environment its services start with: the
 * dev key trusted (made on first use, as `npm run token` does; the callers' tokens are signed with
 * it), quiet logs, loopback only, a pool of POOL_SIZE, and tracing off for the measured runs
 * whatever the shell exports. `APP_URL` only when the benchmark compares links.
 */
async function scratchServiceEnv(rt: Rt, database: string, natsNamespace: string, reuse: boolean, appUrl?: string): Promise<{ url: string; env: Record<string, string> }> {
  const url = await createScratchDatabase(rt.databaseUrl, database, reuse);
  ensureDevKeys(DEV_KEYS_DIR);
  const env: Record<string, string> = {
    // The services as the app role (row-level security applies, as in production); the owner migrates.
    DATABASE_URL: asAppRole(url),
    MIGRATION_DATABASE_URL: url,
    NATS_URL: rt.natsUrl,
    NATS_NAMESPACE: natsNamespace,
    AUTH_DEV_KEYS: 'true',
    DEV_KEYS_DIR,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DB_POOL_SIZE: String(POOL_SIZE),
    OTEL_EXPORTER_OTLP_ENDPOINT: '',
    ...BENCH_RATE_LIMITS,
    ...(appUrl ? { APP_URL: appUrl } : {}),
  };
  return { url, env };
}

// ---------------------------------------------------------------------------------------------
// The bare handler.
// ---------------------------------------------------------------------------------------------

/** What a bare handler's worker thread is given: the scratch database (as its owner) and the benchmark's own config. */
type BareData<C> = C & { databaseUrl: string };

/**
 * The bare handler of a benchmark, in its worker thread: plain Fastify (no logger) and a pg pool
 * of POOL_SIZE on the scratch database (`pool` adds options), serving `routes` on a free loopback
 * port; it posts `{ port }` to the main thread once listening.
 */
async function serveBare<C>({ databaseUrl, ...config }: BareData<C>, routes: (app: FastifyInstance, pool: Pool, config: C) => void, pool?: PoolConfig): Promise<void> {
  const db = new Pool({ connectionString: databaseUrl, max: POOL_SIZE, application_name: 'ddm-bench-bare', ...pool });
  const app = Fastify({ logger: false });
  routes(app, db, config as C);
  await app.listen({ port: 0, host: '127.0.0.1' });
  parentPort!.postMessage({ port: (app.server.address() as { port: number }).port });
}

/**
 * Starts the bare handler of a benchmark in a worker thread of `script` (the benchmark's own file,
 * run with `data` as its workerData): its own event loop, so it does not share one with
 * autocannon. The worker posts `{ port }` once listening.
 */
async function startBareWorker(script: string, data: unknown): Promise<{ worker: Worker; base: string }> {
  const worker = new Worker(script, { workerData: data });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', (m: { port: number }) => resolve(m.port));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the bare handler exited (code ${code}) before listening`)));
  });
  worker.on('error', (err) => log(`bare handler failed: ${err.message}`));
  return { worker, base: `http://127.0.0.1:${port}` };
}

// ---------------------------------------------------------------------------------------------
// A benchmark of a service.
// ---------------------------------------------------------------------------------------------

/** What a benchmark's `main` is given. */
export interface BenchContext<O, C> {
  opts: O;
  rt: Rt;
  /** The services' environment (to start one again with more) and NATS namespace. */
  env: Record<string, string>;
  natsNamespace: string;
  /** A client on the scratch database, as its owner (seeds, statistics, checks); closed after `main`. */
  db: Client;
  /** The measured service: its base URL and its process. */
  svc: string;
  service: ChildProcess;
  /** Starts the bare handler (`bare.routes` in a worker thread, given `config`) and answers its base URL. */
  startBare(config: C): Promise<string>;
  /** Whether the database is one an earlier run kept (--reuse): seeded already. */
  reused: boolean;
}

/**
 * The entry of a benchmark of a service, at the end of its file. In the main thread: reads the
 * options (BENCH_DEFAULTS, `--keep` and the benchmark's own, over `defaults`), creates the scratch
 * database ddm_bench_<name> and the services' environment (NATS namespace bench<name>; `env` may
 * change it), starts auth, then the `service` measured (one after the other: each applies its own
 * migrations, and both create the pg_trgm extension), connects to the database and runs `main`.
 * Then, whatever happened (and on SIGINT or SIGTERM): the bare worker stopped, the services
 * stopped, the database dropped (unless --keep) and the streams deleted, `after` run. In the bare
 * handler's worker thread (the same file, see `startBare`): serves `bare.routes`.
 */
export function serviceBench<O extends ServiceBenchOptions, C extends object = object>(bench: {
  /** The file's name in tools/bench (the worker thread runs it) and of the scratch database and namespace. */
  name: string;
  /** The area measured (apps/<service>), started after auth unless it is auth. */
  service: string;
  usage: string;
  /** The defaults of its own options (and of the common ones it sets otherwise than BENCH_DEFAULTS). */
  defaults: Omit<O, keyof ServiceBenchOptions> & Partial<ServiceBenchOptions>;
  options?: OwnOptions<O>;
  /** The app URL the services answer links with, when the benchmark compares them. */
  appUrl?: string;
  /** The services' environment, changed (tracing on, say). */
  env?: (env: Record<string, string>, opts: O) => Record<string, string> | Promise<Record<string, string>>;
  bare?: { routes: (app: FastifyInstance, pool: Pool, config: C) => void; pool?: PoolConfig };
  /** Whether `main` can run on a kept database (ctx.reused: it reads its seed back instead of seeding). */
  reusable?: boolean;
  main: (ctx: BenchContext<O, C>) => Promise<void>;
  after?: () => Promise<unknown>;
}): void {
  if (!isMainThread) {
    if (bench.bare) void serveBare<C>(workerData as BareData<C>, bench.bare.routes, bench.bare.pool);
    return;
  }
  const database = `ddm_bench_${bench.name}`;
  const natsNamespace = `bench${bench.name}`;
  let rt: Rt | undefined;
  const defaults = { ...BENCH_DEFAULTS, keep: false, reuse: false, ...bench.defaults } as O;
  const opts = parseArgs<O>(process.argv.slice(2), bench.usage, defaults, { ...bench.options, flags: ['keep', 'reuse', ...(bench.options?.flags ?? [])] });
  if (opts.reuse && !bench.reusable) throw new Error(`${bench.name}: --reuse is not supported (it cannot read its seed back)`);
  let bareWorker: Worker | undefined;
  const main = async () => {
    rt = await runtime();
    const scratch = await scratchServiceEnv(rt, database, natsNamespace, opts.reuse, bench.appUrl);
    const env = bench.env ? await bench.env(scratch.env, opts) : scratch.env;
    let measured: { child: ChildProcess; base: string } | undefined;
    for (const area of bench.service === 'auth' ? ['auth'] : ['auth', bench.service])
      measured = await startService(area, `dist/apps/${area}/src/main.js`, env, READY_TIMEOUT_MS, `it applies the ${area} migrations`);
    const db = new Client({ connectionString: scratch.url });
    await db.connect();
    try {
      await bench.main({
        opts,
        rt,
        env,
        natsNamespace,
        db,
        svc: measured!.base,
        service: measured!.child,
        reused: opts.reuse,
        startBare: async (config) => {
          const bare = await startBareWorker(join(__dirname, `${bench.name}${extname(__filename)}`), { ...config, databaseUrl: scratch.url });
          bareWorker = bare.worker;
          log(`bare handler on ${bare.base} (worker thread, pg pool of ${POOL_SIZE})`);
          return bare.base;
        },
      });
    } finally {
      await db.end();
    }
  };
  runBench(main, async () => {
    await bareWorker?.terminate();
    if (rt) await removeScratch(rt, database, natsNamespace, opts.keep || opts.reuse);
    await bench.after?.();
  });
}

// ---------------------------------------------------------------------------------------------
// Seeds.
// ---------------------------------------------------------------------------------------------

/**
 * A tenant in the auth schema with its four default roles and their mappings, as the auth service
 * creates them (role display ids 10000..10003, the role counter at 10003). Answers the tenant id
 * and the role ids by default-role key.
 */
export async function seedTenantWithRoles(db: Client, name: string): Promise<{ tenantId: string; roleIds: Record<DefaultRoleKey, string> }> {
  const [{ id: tenantId }] = (await db.query<{ id: string }>(`INSERT INTO auth.tenants (id, name) VALUES (gen_random_uuid(), $1) RETURNING id`, [name])).rows;
  const roleIds = {} as Record<DefaultRoleKey, string>;
  for (const [i, role] of DEFAULT_ROLES.entries()) {
    const [{ id }] = (
      await db.query<{ id: string }>(
        `INSERT INTO auth.tenant_roles (id, tenant_id, role_display_id, role_name, description, is_custom, can_deactivate, system_key)
         VALUES (gen_random_uuid(), $1, $2, $3, $4, false, $5, $6) RETURNING id`,
        [tenantId, String(10000 + i), role.roleName, role.description, role.canDeactivate, role.key],
      )
    ).rows;
    await db.query(
      `INSERT INTO auth.role_mappings (role_id, tenant_id, relationship_key_name, is_enabled) SELECT $1, $4, k, k = ANY($3::text[]) FROM unnest($2::text[]) AS k`,
      [id, ALL_PERMISSION_KEYS, role.keys, tenantId],
    );
    roleIds[role.key] = id;
  }
  await db.query(`INSERT INTO auth.display_id_counters (tenant_id, kind, last_value) VALUES ($1, 'role', $2)`, [tenantId, 9999 + DEFAULT_ROLES.length]);
  return { tenantId, roleIds };
}

/**
 * One user of the tenant holding `roleId` (a System Admin, say): user ("Bench <lastName>"), ACTIVE
 * membership (display id 10000 + `n`), role, the user counter at that display id (set by the
 * first, n = 0; raised by the next). Answers the user id and the token subject (idp_user_id).
 */
export async function seedCaller(db: Client, tenantId: string, roleId: string, email: string, { n = 0, lastName = 'Admin' } = {}): Promise<{ userId: string; sub: string }> {
  const [u] = (
    await db.query<{ id: string; sub: string }>(
      `INSERT INTO auth.users (id, email, login_id, first_name, last_name, name, display_name, idp_user_id, active_tenant_id,
                               display_language, date_format, last_login_date)
       VALUES (gen_random_uuid(), $1::text, $1::text, 'Bench', $3::text, 'Bench ' || $3::text, 'Bench ' || $3::text, 'bench|' || $1::text, $2, 'en', 'MM/DD/YYYY', now())
       RETURNING id, idp_user_id AS sub`,
      [email, tenantId, lastName],
    )
  ).rows;
  const displayId = 10000 + n;
  await db.query(`INSERT INTO auth.tenant_users (id, tenant_id, user_id, user_display_id, status) VALUES (gen_random_uuid(), $1, $2, $3, 'ACTIVE')`, [tenantId, u.id, String(displayId)]);
  await db.query(`INSERT INTO auth.user_roles (id, tenant_id, user_id, tenant_role_id) VALUES (gen_random_uuid(), $1, $2, $3)`, [tenantId, u.id, roleId]);
  if (n === 0) await db.query(`INSERT INTO auth.display_id_counters (tenant_id, kind, last_value) VALUES ($1, 'user', $2)`, [tenantId, displayId]);
  else await db.query(`UPDATE auth.display_id_counters SET last_value = $2 WHERE tenant_id = $1 AND kind = 'user'`, [tenantId, displayId]);
  return { userId: u.id, sub: u.sub };
}

/** A uuid v7 (time-ordered, like the services' ids) for a timestamp expression, in SQL. */
export const uuidV7 = (ts: string) =>
  `(lpad(to_hex((extract(epoch FROM ${ts}) * 1000)::bigint), 12, '0') || '7' || substr(md5(random()::text), 1, 3) || '8' || substr(md5(random()::text), 1, 15))::uuid`;

/** Seconds since `started` (a Date.now()), to one decimal, for the seeds' logs. */
export const secondsSince = (started: number) => ((Date.now() - started) / 1000).toFixed(1);

/** The Authorization header of a caller: a dev token for `sub`, valid two hours. */
export const bearer = (sub: string) => ({ authorization: `Bearer ${signDevToken({ sub }, DEV_KEYS_DIR, '2h')}` });

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// Requests and checks.
// ---------------------------------------------------------------------------------------------

/** A request: a GET of `url` unless `request` gives another method and a JSON body. */
export interface Ask {
  url: string;
  headers: Record<string, string>;
  request?: { method: 'POST' | 'PUT' | 'PATCH'; body: unknown };
}

/** Asks once; answers the JSON body, or throws naming `what` unless the answer is a 200. */
export async function fetchJson(what: string, ask: Ask, timeoutMs = REQUEST_TIMEOUT_MS): Promise<unknown> {
  const method = ask.request?.method ?? 'GET';
  const res = await fetch(ask.url, {
    method,
    headers: ask.request ? { ...ask.headers, 'content-type': 'application/json' } : ask.headers,
    body: ask.request ? JSON.stringify(ask.request.body) : undefined,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await res.json()) as unknown;
  if (res.status !== 200) throw new Error(`${what}: ${method} ${ask.url} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/** A page of a list as the service and the bare handler both answer it (its total and items). */
export const pageOf = (x: unknown) => ({ total: (x as { total: number }).total, data: (x as { data: unknown[] }).data });

/**
 * Service and bare must answer the same data (the service inside its envelope's `data`), as
 * `comparable` sees them, or the comparison means nothing. Answers the bare handler's body.
 */
export async function checkSame(what: string, service: Ask, bare: Ask, comparable: (x: unknown) => unknown = (x) => x, timeoutMs = REQUEST_TIMEOUT_MS): Promise<unknown> {
  const s = ((await fetchJson(`service ${what}`, service, timeoutMs)) as { data: unknown }).data;
  const b = await fetchJson(`bare ${what}`, bare, timeoutMs);
  if (!isDeepStrictEqual(comparable(s), comparable(b))) {
    throw new Error(`${what}: the service and the bare handler answer different data:\n service ${JSON.stringify(s).slice(0, 400)}\n bare    ${JSON.stringify(b).slice(0, 400)}`);
  }
  return b;
}

/** An answer of call(): its status, JSON body and time (ms, from sending to the body read). */
export interface Answer {
  status: number;
  body: { data?: unknown } & Record<string, unknown>;
  ms: number;
}

/** One request, timed, whatever its status (latencies one at a time, checks that expect another status). */
export async function call(method: 'GET' | 'POST' | 'PATCH', url: string, headers: Record<string, string>, body?: unknown, timeoutMs = 30_000): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(url, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const json = (await res.json()) as Answer['body'];
  return { status: res.status, body: json, ms: performance.now() - started };
}

// ---------------------------------------------------------------------------------------------
// Measuring.
// ---------------------------------------------------------------------------------------------

/** One measured run. */
export interface Stats {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  requests: number;
  non200: number;
  errors: number;
}

/** The p-th percentile of sorted values (NaN when there are none). */
function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const round2 = (x: number) => Math.round(x * 100) / 100;
export const pad = (s: string | number, w: number) => String(s).padStart(w);
/** The p-th percentile of sorted latencies, to two decimals. */
export const pct = (sorted: ArrayLike<number>, p: number) => round2(percentile(sorted, p));

/** GET `url` (or `request`: another method with a JSON body) with autocannon for `duration` seconds; latency percentiles in ms to two decimals. */
export async function measure(url: string, headers: Record<string, string>, connections: number, duration: number, request?: { method: 'POST' | 'PUT' | 'PATCH'; body: unknown }): Promise<Stats> {
  let times = new Float64Array(1 << 16);
  let n = 0;
  const instance = autocannon({
    url,
    connections,
    duration,
    pipelining: 1,
    headers: request ? { ...headers, 'content-type': 'application/json' } : headers,
    ...(request ? { method: request.method, body: JSON.stringify(request.body) } : {}),
    // autocannon decodes every body chunk to a string and appends it (kept for body checks this bench
    // does with fetch instead): for a 3.7 MB grid page that is more CPU in the client than the
    // service spends answering, on the same two cores. The bytes are still read and counted.
    setupClient: (client) => {
      client.pipelinedRequests.addBody = () => undefined;
    },
  });
  // autocannon's own percentiles are whole milliseconds; loopback latencies need finer ones.
  instance.on('response', (_client, _status, _bytes, ms) => {
    if (n === times.length) {
      const bigger = new Float64Array(times.length * 2);
      bigger.set(times);
      times = bigger;
    }
    times[n++] = ms;
  });
  const result = await instance;
  const sorted = times.slice(0, n).sort();
  const ok = result.statusCodeStats['200']?.count ?? 0;
  const answered = Object.values(result.statusCodeStats).reduce((sum, s) => sum + s.count, 0);
  return {
    rps: Math.round(result.requests.average),
    p50: round2(percentile(sorted, 50)),
    p95: round2(percentile(sorted, 95)),
    p99: round2(percentile(sorted, 99)),
    requests: answered,
    non200: answered - ok,
    errors: result.errors + result.timeouts,
  };
}

/** Which side of a comparison a target is: the service, or the bare handler running its SQL. */
export type Impl = 'service' | 'bare';

/** What is measured: a request (Ask), named in the runs by `key` ({ kind: 'list', impl: 'bare' }, say). */
export interface Target<K extends object> extends Ask {
  key: K;
  /** Names it in the progress log (by default the values of its key). */
  label?: string;
  /** Warmed up too (the default), or only measured. */
  warmup?: boolean;
  /** Runs after each of its measurements, warm-up too (to let the service settle before the next). */
  after?: () => Promise<unknown>;
}

/** One measured run of a target: its key, its round (0 for the warm-up) and its figures. */
export type Run<K extends object> = K & { round: number } & Stats;

async function measureTarget<K extends object>(t: Target<K>, round: number, connections: number, duration: number): Promise<Run<K>> {
  const run = { ...t.key, round, ...(await measure(t.url, t.headers, connections, duration, t.request)) } as Run<K>;
  await t.after?.();
  return run;
}

/** Each target (but those with `warmup: false`) for `opts.warmup` seconds, in order, unless it is 0: the warm-up runs (round 0). */
export async function warmUp<K extends object>(targets: Target<K>[], opts: BenchOptions): Promise<Run<K>[]> {
  const runs: Run<K>[] = [];
  if (opts.warmup <= 0) return runs;
  log(`warming up (${opts.warmup} s each)`);
  for (const t of targets) if (t.warmup !== false) runs.push(await measureTarget(t, 0, opts.connections, opts.warmup));
  return runs;
}

/** Two rounds over the targets in order (so service and bare alternate when they do in `targets`), `opts.duration` seconds each: the runs. */
export async function measureRounds<K extends object>(targets: Target<K>[], opts: BenchOptions): Promise<Run<K>[]> {
  const runs: Run<K>[] = [];
  for (const round of [1, 2])
    for (const t of targets) {
      log(`${t.label ?? Object.values(t.key).join(' ')} run ${round}: ${opts.connections} connections, ${opts.duration} s`);
      runs.push(await measureTarget(t, round, opts.connections, opts.duration));
    }
  return runs;
}

/** The targets of service and bare for each kind, alternating (service first); a kind without `bare` is measured on the service alone. */
export function serviceAndBare<Kind extends string>(kinds: readonly Kind[], of: (kind: Kind) => { service: Ask; bare?: Ask }): Target<{ kind: Kind; impl: Impl }>[] {
  return kinds.flatMap((kind) => {
    const { service, bare } = of(kind);
    return [{ ...service, key: { kind, impl: 'service' as Impl } }, ...(bare ? [{ ...bare, key: { kind, impl: 'bare' as Impl } }] : [])];
  });
}

/** The better of the runs that match `where`: more requests per second (with a fixed number of connections, also the lower mean latency), or the lower p95. */
export function best<R extends Stats>(runs: readonly R[], where: Partial<R>, by: 'rps' | 'p95' = 'rps'): R {
  return runs
    .filter((r) => Object.entries(where).every(([k, v]) => (r as Record<string, unknown>)[k] === v))
    .reduce((a, b) => ((by === 'rps' ? b.rps > a.rps : b.p95 < a.p95) ? b : a));
}

/** The better run of the service and of the bare handler (of the runs that match `where`), their ratio of requests per second and their summaries. */
export function versus<R extends Stats & { impl: Impl }>(runs: readonly R[], where: Partial<R> = {}) {
  const service = best(runs, { ...where, impl: 'service' });
  const bare = best(runs, { ...where, impl: 'bare' });
  return { service, bare, ratio: service.rps / bare.rps, pair: { service: summary(service), bare: summary(bare) } };
}

/** The figures of a run that a JSON summary line carries. */
export const summary = (r: Stats) => ({ rps: r.rps, p50: r.p50, p95: r.p95, p99: r.p99 });

/** Logs the runs with a non-200 answer or an error, named by `label`, and sets exit code 1 if there are any. */
export function failUnlessAll200<R extends Stats>(runs: R[], label: (r: R) => string): void {
  const bad = runs.filter((r) => r.non200 > 0 || r.errors > 0);
  if (bad.length) {
    log(`FAILED: not every response was a 200 (${bad.map((r) => `${label(r)}: ${r.non200} non-200, ${r.errors} errors`).join('; ')})`);
    process.exitCode = 1;
  }
}

// ---------------------------------------------------------------------------------------------
// Reports.
// ---------------------------------------------------------------------------------------------

/** A column of the runs table: its title, width and cell; text is left-aligned, `right` columns (numbers) right-aligned. */
export interface Column<R> {
  title: string;
  width: number;
  of: (r: R) => string | number;
  right?: boolean;
}

/** The figures of each run: round, req/s, p50, p95, p99 (ms), requests, and the non-200 answers and errors together. */
export const STAT_COLUMNS: Column<Run<object>>[] = [
  { title: 'round', width: 5, of: (r) => r.round, right: true },
  { title: 'req/s', width: 7, of: (r) => r.rps, right: true },
  { title: 'p50 ms', width: 7, of: (r) => r.p50.toFixed(2), right: true },
  { title: 'p95 ms', width: 7, of: (r) => r.p95.toFixed(2), right: true },
  { title: 'p99 ms', width: 7, of: (r) => r.p99.toFixed(2), right: true },
  { title: 'requests', width: 8, of: (r) => r.requests, right: true },
  { title: 'non-200', width: 7, of: (r) => r.non200 + r.errors, right: true },
];

/** The runs as a table: a header line, then a line per run of `columns` (then STAT_COLUMNS unless `stats` says otherwise), the `bests` marked with a star. */
export function runsTable<R extends Run<object>>(runs: readonly R[], columns: Column<R>[], bests?: ReadonlySet<R>, stats: Column<R>[] = STAT_COLUMNS): string[] {
  const all = [...columns, ...stats];
  const cell = (c: Column<R>, v: string | number) => (c.right ? pad(v, c.width) : String(v).padEnd(c.width));
  return [all.map((c) => cell(c, c.title)).join(' '), ...runs.map((r) => all.map((c) => cell(c, c.of(r))).join(' ') + (bests?.has(r) ? '  *' : ''))];
}

/** The common head of the target and impl columns of a table of service and bare runs. */
export const kindAndImpl = <R extends Run<{ kind: string; impl: Impl }>>(width: number): Column<R>[] => [
  { title: 'target', width, of: (r) => r.kind },
  { title: 'impl', width: 7, of: (r) => r.impl },
];

/** Service against bare, a line per comparison: the better runs' requests per second, their ratio and its target, and their p95s (ms). */
export function versusTable(nameWidth: number, rows: { name: string; service: Stats; bare: Stats; ratio: number; target: string }[]): string[] {
  return [
    `${pad('', nameWidth)}${pad('service rps', 13)}${pad('bare rps', 10)}${pad('ratio', 8)}${pad('target', 8)}${pad('svc p95 ms', 12)}${pad('bare p95', 10)}`,
    ...rows.map((r) => `${pad(r.name, nameWidth)}${pad(r.service.rps, 13)}${pad(r.bare.rps, 10)}${pad(r.ratio, 8)}${pad(r.target, 8)}${pad(r.service.p95, 12)}${pad(r.bare.p95, 10)}`),
  ];
}

/** How the runs were made, for a report's first line. */
export const runsNote = (opts: BenchOptions) => `${opts.connections} connections, ${opts.duration} s per run, better of 2 runs each`;

/** "target >= 0.8, met" (or "NOT met"). */
export const verdict = (met: boolean, target: string) => `target ${target}, ${met ? 'met' : 'NOT met'}`;

/** The report: its lines, then the one JSON line. */
export function printReport(lines: string[], json: object): void {
  process.stdout.write(lines.join('\n') + '\n');
  process.stdout.write(JSON.stringify(json) + '\n');
}

/**
 * An OTLP/HTTP endpoint that takes every export and discards it (an empty answer is a valid
 * protobuf response, the exporter's default encoding), so services can be measured with tracing
 * on (`OTEL_EXPORTER_OTLP_ENDPOINT` = its url) without a collector. It runs in a worker thread,
 * so receiving the spans does not share an event loop with autocannon. Stop it after the services
 * (they send their last spans as they stop).
 */
export async function startOtlpSink(): Promise<{ url: string; stop(): Promise<number> }> {
  const code = `
    const { createServer } = require('node:http');
    const { parentPort } = require('node:worker_threads');
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
    });
    server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));`;
  const worker = new Worker(code, { eval: true });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => worker.terminate() };
}
