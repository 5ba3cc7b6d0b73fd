/**
 * What the benchmarks of tools/bench/ share: their common options, the built services as child
 * processes (started, awaited until ready, stopped in every case), a scratch database and NATS
 * namespace (created, and removed in every case), a tenant with its default roles seeded in SQL,
 * autocannon runs with fine percentiles, and a few formatting helpers.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Worker, isMainThread, workerData } from 'node:worker_threads';
import { ALL_PERMISSION_KEYS, DEFAULT_ROLES, DefaultRoleKey } from '@ddm/contracts';
import { connect } from 'nats';
import { Client } from 'pg';
import { ensureDevKeys } from '@ddm/platform';
import { DEV_KEYS_DIR, ROOT, asAppRole, runtime } from '../lib/runtime';

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

const LIMITS: Record<keyof BenchOptions, [number, number]> = { duration: [1, 120], connections: [1, 256], warmup: [0, 60] };

/**
 * Reads `--duration`, `--connections` and `--warmup` (`--name n` or `--name=n`) over `defaults`.
 * `extra` sees every flag first and returns true for one it took itself; `value()` gives that
 * flag's value (inline or the next argument). Exits 2 with the usage line on anything else.
 */
export function parseArgs<T extends BenchOptions>(
  argv: string[],
  defaults: T,
  usageLine: string,
  extra?: (flag: string, value: () => string | undefined, opts: T) => boolean,
): T {
  const opts = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    if (extra?.(flag, () => inline ?? argv[++i], opts)) continue;
    const key = flag.replace(/^--/, '') as keyof BenchOptions;
    if (!flag.startsWith('--') || !(key in LIMITS)) usage(`unknown option ${argv[i]}`, usageLine);
    const raw = inline ?? argv[++i];
    const n = Number(raw);
    const [min, max] = LIMITS[key];
    if (!Number.isInteger(n) || n < min || n > max) usage(`--${key} must be an integer from ${min} to ${max} (got "${raw}")`, usageLine);
    opts[key] = n;
  }
  return opts;
}

export async function freePort(): Promise<number> {
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

/** Runs `script` (relative to the repository root) with node, as a child that stopChildren() stops. Its stderr, and its stdout unless piped, go to this process's stderr. */
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

export function spawnScript(script: string, env: Record<string, string>, stdout: 'pipe' | 2 = 2): ChildProcess {
  const child = spawn(process.execPath, [join(ROOT, script)], { env: { ...process.env, ...env }, stdio: ['ignore', stdout, 2] });
  children.push(child);
  return child;
}

/** Starts a service (spawnScript) and says so if it exits before stopChildren(). */
export function start(name: string, script: string, env: Record<string, string>): ChildProcess {
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

/** `url` naming another database. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs `work` on a connection to the server's `postgres` database (to create and drop databases). */
export async function admin<T>(url: string, work: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: withDatabase(url, 'postgres') });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

/** Creates the scratch database `name` afresh (dropped first if a previous run left it) and answers its URL. */
export async function createScratchDatabase(url: string, name: string): Promise<string> {
  log(`scratch database ${name} (${url.replace(/\/\/[^@]*@/, '//').replace(/\/[^/]*$/, '')})`);
  await admin(url, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${name}"`);
  });
  return withDatabase(url, name);
}

/**
 * What a benchmark leaves behind, removed: the children stopped, the scratch database dropped
 * (unless `keep`, to look at query plans) and the namespace's streams deleted. Never throws.
 */
export async function removeScratch(rt: { databaseUrl: string; natsUrl: string }, database: string, natsNamespace: string, keep: boolean): Promise<void> {
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
 * One user of the tenant holding `roleId` (a System Admin, say): user, ACTIVE membership (display
 * id 10000), role, the user counter at 10000. Answers the user id and the token subject (idp_user_id).
 */
export async function seedCaller(db: Client, tenantId: string, roleId: string, email: string): Promise<{ userId: string; sub: string }> {
  const [u] = (
    await db.query<{ id: string; sub: string }>(
      `INSERT INTO auth.users (id, email, login_id, first_name, last_name, name, display_name, idp_user_id, active_tenant_id,
                               display_language, date_format, last_login_date)
       VALUES (gen_random_uuid(), $1::text, $1::text, 'Bench', 'Admin', 'Bench Admin', 'Bench Admin', 'bench|' || $1::text, $2, 'en', 'MM/DD/YYYY', now())
       RETURNING id, idp_user_id AS sub`,
      [email, tenantId],
    )
  ).rows;
  await db.query(`INSERT INTO auth.tenant_users (id, tenant_id, user_id, user_display_id, status) VALUES (gen_random_uuid(), $1, $2, '10000', 'ACTIVE')`, [tenantId, u.id]);
  await db.query(`INSERT INTO auth.user_roles (id, tenant_id, user_id, tenant_role_id) VALUES (gen_random_uuid(), $1, $2, $3)`, [tenantId, u.id, roleId]);
  await db.query(`INSERT INTO auth.display_id_counters (tenant_id, kind, last_value) VALUES ($1, 'user', 10000)`, [tenantId]);
  return { userId: u.id, sub: u.sub };
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

/** Starts `script` as a child on a free port (`note` says what it does first) and waits until it answers: the child and its base URL. */
export async function startService(name: string, script: string, env: Record<string, string>, timeoutMs: number, note = ''): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  log(`starting ${name} on ${port}${note ? ` (${note})` : ''}`);
  const child = start(name, script, { ...env, PORT: String(port) });
  await waitReady(name, child, base, timeoutMs);
  return { child, base };
}

/** Polls `${base}/health/ready` until it answers 2xx; throws if the child exits first or after `timeoutMs`. */
export async function waitReady(name: string, child: ChildProcess, base: string, timeoutMs: number): Promise<void> {
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
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${name} was not ready within ${timeoutMs / 1000} s (${base}/health/ready)`);
}

/**
 * Runs `main`; on failure logs it and sets exit code 1. `cleanup` runs afterwards in every case,
 * and on SIGINT or SIGTERM (then the process exits 130).
 */
export function runBench(main: () => Promise<void>, cleanup: () => Promise<void>): void {
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

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const round2 = (x: number) => Math.round(x * 100) / 100;
export const pad = (s: string | number, w: number) => String(s).padStart(w);

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

/**
 * Starts the bare handler of a benchmark in a worker thread of `script` (the benchmark's own file,
 * run with `config` as its workerData): its own event loop, so it does not share one with
 * autocannon. The worker posts `{ port }` once listening.
 */
export async function startBareWorker(script: string, config: unknown): Promise<{ worker: Worker; base: string }> {
  const worker = new Worker(script, { workerData: config });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', (m: { port: number }) => resolve(m.port));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the bare handler exited (code ${code}) before listening`)));
  });
  worker.on('error', (err) => log(`bare handler failed: ${err.message}`));
  return { worker, base: `http://127.0.0.1:${port}` };
}

/**
 * A benchmark's scratch database (created anew) and the environment its services start with: the
 * dev key trusted (made on first use, as `npm run token` does; the callers' tokens are signed with
 * it), quiet logs, loopback only, the given pool, and tracing off for the measured runs whatever
 * the shell exports. `APP_URL` only when the benchmark compares links.
 */
export async function scratchServiceEnv(
  rt: { databaseUrl: string; natsUrl: string },
  database: string,
  natsNamespace: string,
  poolSize: number,
  appUrl?: string,
): Promise<{ url: string; env: Record<string, string> }> {
  const url = await createScratchDatabase(rt.databaseUrl, database);
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
    DB_POOL_SIZE: String(poolSize),
    OTEL_EXPORTER_OTLP_ENDPOINT: '',
    ...BENCH_RATE_LIMITS,
    ...(appUrl ? { APP_URL: appUrl } : {}),
  };
  return { url, env };
}

/**
 * The entry of a benchmark with a bare handler, at the end of its file. In the main thread: reads
 * the options, runs `main`, then (whatever happened) stops the bare worker, removes the scratch
 * database and streams (unless --keep) and runs `after`. In the bare handler's worker thread (the
 * same file, see startBareWorker): serves with the worker's config.
 */
export function benchEntry<O extends BenchOptions & { keep: boolean }, C>(bench: {
  database: string;
  natsNamespace: string;
  parse: (argv: string[]) => O;
  main: (opts: O, rt: { databaseUrl: string; natsUrl: string }) => Promise<void>;
  serveBare: (config: C) => Promise<void>;
  bareWorker: () => Worker | undefined;
  after?: () => Promise<unknown>;
}): void {
  if (!isMainThread) {
    void bench.serveBare(workerData as C);
    return;
  }
  const rt = runtime();
  const options = bench.parse(process.argv.slice(2));
  runBench(
    () => bench.main(options, rt),
    async () => {
      await bench.bareWorker()?.terminate();
      await removeScratch(rt, bench.database, bench.natsNamespace, options.keep);
      await bench.after?.();
    },
  );
}

/**
 * parseArgs' `extra` for a benchmark's own options: `--keep` (keep the scratch database and
 * streams) and one integer flag per entry of `ranges` (`--size n`, within [min, max]).
 */
export function keepAndCounts<T extends BenchOptions & { keep: boolean }>(ranges: Partial<Record<keyof T & string, [number, number]>>, usageLine: string) {
  return (flag: string, value: () => string | undefined, opts: T): boolean => {
    if (flag === '--keep') return (opts.keep = true);
    const name = flag.replace(/^--/, '') as keyof T & string;
    const range = Object.prototype.hasOwnProperty.call(ranges, name) ? ranges[name] : undefined;
    if (!range) return false;
    const raw = value();
    const n = Number(raw);
    if (!Number.isInteger(n) || n < range[0] || n > range[1]) usage(`${flag} must be an integer from ${range[0]} to ${range[1]} (got "${raw}")`, usageLine);
    (opts as Record<string, unknown>)[name] = n;
    return true;
  };
}
