/**
 * npm run bench -- auth [--duration 10] [--connections 8] [--warmup 3] [--term <search>] [--keep]
 *
 * Does the users list's search stay fast as a tenant grows? In a scratch database
 * (ddm_bench_auth, dropped at the end) two tenants get 1,000 and 100,000 users (set-based SQL,
 * generate_series). The built auth service (dist/apps/auth/src/main.js) runs as a child process
 * with NATS namespace "benchauth". GET /auth/v1/user?search=<term>&limit=20 is measured for a
 * caller of each tenant in the same run: warm-up, then small, large, small, large; the better run
 * of each counts. Prints a table, p95 of both, the ratio large/small (target: under 1.5) and one
 * JSON line. Exits 1 if a response was not a 200. The child, the database and the streams are
 * removed in every case (the database is kept with --keep, to look at query plans).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ALL_PERMISSION_KEYS, DEFAULT_ROLES } from '@ddm/contracts';
import { connect } from 'nats';
import { Client } from 'pg';
import { DEV_KEYS_DIR, ROOT, runtime } from '../lib/runtime';
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
type Autocannon = (opts: { url: string; connections: number; duration: number; pipelining?: number; headers?: Record<string, string> }) => AutocannonInstance;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon: Autocannon = require('autocannon');

const DATABASE = 'ddm_bench_auth';
const NATS_NAMESPACE = 'benchauth';
const READY_TIMEOUT_MS = 120_000;
const SIZES = { small: 1_000, large: 100_000 } as const;
type Size = keyof typeof SIZES;

interface Options {
  duration: number;
  connections: number;
  warmup: number;
  term: string;
  keep: boolean;
}

interface Run {
  tenant: Size;
  round: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  requests: number;
  non200: number;
  errors: number;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { duration: 10, connections: 8, warmup: 3, term: 'hopper', keep: false };
  const limits: Record<'duration' | 'connections' | 'warmup', [number, number]> = { duration: [1, 120], connections: [1, 256], warmup: [0, 60] };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    if (flag === '--keep') {
      opts.keep = true;
      continue;
    }
    const key = flag.replace(/^--/, '') as Exclude<keyof Options, 'keep'>;
    if (!flag.startsWith('--') || !(key in opts)) usage(`unknown option ${argv[i]}`);
    const raw = inline ?? argv[++i];
    if (key === 'term') {
      if (!raw || raw.length > 100) usage('--term must be 1 to 100 characters');
      opts.term = raw;
      continue;
    }
    const n = Number(raw);
    const [min, max] = limits[key];
    if (!Number.isInteger(n) || n < min || n > max) usage(`--${key} must be an integer from ${min} to ${max} (got "${raw}")`);
    opts[key] = n;
  }
  return opts;
}

function usage(msg: string): never {
  process.stderr.write(`${msg}\nusage: npm run bench -- auth [--duration <s>] [--connections <n>] [--warmup <s>] [--term <search>] [--keep]\n`);
  process.exit(2);
}

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(url: string, work: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: withDatabase(url, 'postgres') });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

let child: ChildProcess | undefined;
let stopping = false;

async function stopChild(): Promise<void> {
  stopping = true;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child?.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function waitReady(base: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) throw new Error('auth exited before it was ready');
    try {
      const res = await fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(1_000) });
      await res.body?.cancel();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`auth was not ready within ${READY_TIMEOUT_MS / 1000} s`);
}

const FIRST = ['Ada', 'Alan', 'Barbara', 'Claude', 'Donald', 'Edsger', 'Frances', 'Grace', 'Hedy', 'Ivan', 'John', 'Katherine', 'Leslie', 'Margaret', 'Niklaus', 'Radia', 'Shafi', 'Tim', 'Whitfield', 'Yukihiro'];
const LAST = [
  'Lovelace', 'Turing', 'Liskov', 'Shannon', 'Knuth', 'Dijkstra', 'Allen', 'Hopper', 'Lamarr', 'Sutherland', 'Backus', 'Johnson', 'Lamport', 'Hamilton', 'Wirth',
  'Perlman', 'Goldwasser', 'Berners-Lee', 'Diffie', 'Matsumoto', 'Ritchie', 'Thompson', 'Kernighan', 'Stroustrup', 'Torvalds', 'Wozniak', 'Cerf', 'Kahn', 'Hoare', 'Milner',
  'Codd', 'Gray', 'Stonebraker', 'Bachman', 'Engelbart', 'Kay', 'Minsky', 'McCarthy', 'Newell', 'Simon', 'Hartmanis', 'Stearns', 'Rabin', 'Scott', 'Cook',
  'Karp', 'Hellman', 'Rivest', 'Shamir', 'Adleman',
];

/** A tenant with its four default roles (as the auth service creates them) and `count` ACTIVE users, set-based. */
async function seedTenant(db: Client, name: string, domain: string, count: number): Promise<{ tenantId: string; callerSub: string }> {
  const [{ id: tenantId }] = (await db.query<{ id: string }>(`INSERT INTO auth.tenants (id, name) VALUES (gen_random_uuid(), $1) RETURNING id`, [name])).rows;
  for (const [i, role] of DEFAULT_ROLES.entries()) {
    const [{ id }] = (
      await db.query<{ id: string }>(
        `INSERT INTO auth.tenant_roles (id, tenant_id, role_display_id, role_name, description, is_custom, can_deactivate, system_key)
         VALUES (gen_random_uuid(), $1, $2, $3, $4, false, $5, $6) RETURNING id`,
        [tenantId, String(10000 + i), role.roleName, role.description, role.canDeactivate, role.key],
      )
    ).rows;
    await db.query(
      `INSERT INTO auth.role_mappings (role_id, relationship_key_name, is_enabled) SELECT $1, k, k = ANY($3::text[]) FROM unnest($2::text[]) AS k`,
      [id, ALL_PERMISSION_KEYS, role.keys],
    );
  }
  // Names cycle through 20 first and 50 last names: every name appears in both tenants, in proportion.
  await db.query(
    `INSERT INTO auth.users (id, email, login_id, first_name, last_name, name, display_name, idp_user_id, active_tenant_id,
                             display_language, date_format, created_on, updated_on, last_login_date)
     SELECT gen_random_uuid(), x.email, x.email, x.f, x.l, x.f || ' ' || x.l, x.f || ' ' || x.l, 'bench|' || x.email, $1,
            'en', 'MM/DD/YYYY', now() - x.i * interval '1 minute', now(), CASE WHEN x.i % 3 = 0 THEN NULL ELSE now() - (x.i % 5000) * interval '1 hour' END
       FROM (SELECT i, f, l, lower(f) || '.' || lower(replace(l, '-', '')) || '.' || i || '@' || $2 AS email
               FROM generate_series(1, $3::int) AS i,
                    LATERAL (SELECT ($4::text[])[1 + i % 20] AS f, ($5::text[])[1 + (i / 20) % 50] AS l) n) x`,
    [tenantId, domain, count, FIRST, LAST],
  );
  await db.query(
    `INSERT INTO auth.tenant_users (id, tenant_id, user_id, user_display_id, status, created_on, updated_on)
     SELECT gen_random_uuid(), $1, u.id, (9999 + row_number() OVER (ORDER BY u.created_on DESC, u.id))::text, 'ACTIVE', u.created_on, u.created_on
       FROM auth.users u WHERE u.active_tenant_id = $1`,
    [tenantId],
  );
  await db.query(
    `INSERT INTO auth.user_roles (id, tenant_id, user_id, tenant_role_id)
     SELECT gen_random_uuid(), $1, tu.user_id, (SELECT id FROM auth.tenant_roles WHERE tenant_id = $1 AND system_key = 'GLOBAL_USER')
       FROM auth.tenant_users tu WHERE tu.tenant_id = $1`,
    [tenantId],
  );
  await db.query(`INSERT INTO auth.display_id_counters (tenant_id, kind, last_value) VALUES ($1, 'user', $2), ($1, 'role', 10003)`, [tenantId, 9999 + count]);
  const [{ idp }] = (await db.query<{ idp: string }>(`SELECT u.idp_user_id AS idp FROM auth.users u WHERE u.active_tenant_id = $1 ORDER BY u.email LIMIT 1`, [tenantId])).rows;
  return { tenantId, callerSub: idp };
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const pad = (s: string | number, w: number) => String(s).padStart(w);

async function measure(tenant: Size, round: number, url: string, headers: Record<string, string>, connections: number, duration: number): Promise<Run> {
  let times = new Float64Array(1 << 15);
  let n = 0;
  const instance = autocannon({ url, connections, duration, pipelining: 1, headers });
  // autocannon's own percentiles are whole milliseconds; keep every latency for finer ones.
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
    tenant,
    round,
    rps: Math.round(result.requests.average),
    p50: round2(percentile(sorted, 50)),
    p95: round2(percentile(sorted, 95)),
    p99: round2(percentile(sorted, 99)),
    requests: answered,
    non200: answered - ok,
    errors: result.errors + result.timeouts,
  };
}

async function cleanup(rt: { databaseUrl: string; natsUrl: string }, keep: boolean): Promise<void> {
  await stopChild();
  if (keep) log(`kept database ${DATABASE}`);
  else
    await admin(rt.databaseUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`)).catch((err) => log(`could not drop ${DATABASE}: ${(err as Error).message}`));
  const nc = await connect({ servers: rt.natsUrl }).catch(() => undefined);
  if (nc) {
    const jsm = await nc.jetstreamManager();
    for (const s of [`${NATS_NAMESPACE}_EVENTS`, `${NATS_NAMESPACE}_JOBS`]) await jsm.streams.delete(s).catch(() => undefined);
    await nc.close();
  }
}

async function main(opts: Options, rt: { databaseUrl: string; natsUrl: string }): Promise<void> {
  const url = withDatabase(rt.databaseUrl, DATABASE);
  log(`scratch database ${DATABASE} (${rt.databaseUrl.replace(/\/\/[^@]*@/, '//').replace(/\/[^/]*$/, '')})`);
  await admin(rt.databaseUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${DATABASE}"`);
  });

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  log(`starting auth on ${port} (it applies the migrations)`);
  child = spawn(process.execPath, [join(ROOT, 'dist/apps/auth/src/main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      NATS_URL: rt.natsUrl,
      NATS_NAMESPACE,
      AUTH_DEV_KEYS: 'true',
      DEV_KEYS_DIR,
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      DB_POOL_SIZE: '10',
    },
    stdio: ['ignore', 2, 2],
  });
  child.once('exit', (code, signal) => {
    if (!stopping) log(`auth exited early (code ${code}, signal ${signal})`);
  });
  await waitReady(base);

  const db = new Client({ connectionString: url });
  await db.connect();
  const tenants = {} as Record<Size, { tenantId: string; callerSub: string }>;
  try {
    for (const size of ['small', 'large'] as const) {
      const started = Date.now();
      tenants[size] = await seedTenant(db, `Bench ${size}`, `${size}.bench.test`, SIZES[size]);
      log(`${size} tenant: ${SIZES[size].toLocaleString('en')} users inserted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    await db.query('ANALYZE');
  } finally {
    await db.end();
  }

  const path = `/auth/v1/user?search=${encodeURIComponent(opts.term)}&limit=20`;
  const target = (size: Size) => ({
    url: `${base}${path}`,
    headers: { authorization: `Bearer ${signDevToken({ sub: tenants[size].callerSub }, DEV_KEYS_DIR, '2h')}` },
  });
  const matches = {} as Record<Size, number>;
  for (const size of ['small', 'large'] as const) {
    const t = target(size);
    const res = await fetch(t.url, { headers: t.headers });
    const body = (await res.json()) as { data?: { total: number } };
    if (res.status !== 200) throw new Error(`GET ${path} for the ${size} tenant answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    matches[size] = body.data?.total ?? 0;
  }
  log(`"${opts.term}" matches ${matches.small} of ${SIZES.small} and ${matches.large} of ${SIZES.large} users`);

  const warmups: Run[] = [];
  if (opts.warmup > 0) {
    log(`warming up (${opts.warmup} s each)`);
    for (const size of ['small', 'large'] as const) warmups.push(await measure(size, 0, target(size).url, target(size).headers, opts.connections, opts.warmup));
  }
  const runs: Run[] = [];
  for (const [round, size] of [[1, 'small'], [1, 'large'], [2, 'small'], [2, 'large']] as const) {
    log(`${size} run ${round}: ${opts.connections} connections, ${opts.duration} s`);
    runs.push(await measure(size, round, target(size).url, target(size).headers, opts.connections, opts.duration));
  }

  const best = (size: Size) => runs.filter((r) => r.tenant === size).reduce((a, b) => (b.p95 < a.p95 ? b : a));
  const small = best('small');
  const large = best('large');
  const ratio = large.p95 / small.p95;
  const lines = [
    `GET /auth/v1/user?search=${opts.term}&limit=20 — ${opts.connections} connections, ${opts.duration} s per run, better of 2 runs each`,
    '',
    `${'tenant'.padEnd(8)} ${pad('users', 8)} ${pad('matches', 7)} ${pad('round', 5)} ${pad('req/s', 7)} ${pad('p50 ms', 7)} ${pad('p95 ms', 7)} ${pad('p99 ms', 7)} ${pad('requests', 8)} ${pad('non-200', 7)}`,
    ...runs.map(
      (r) =>
        `${r.tenant.padEnd(8)} ${pad(SIZES[r.tenant], 8)} ${pad(matches[r.tenant], 7)} ${pad(r.round, 5)} ${pad(r.rps, 7)} ${pad(r.p50.toFixed(2), 7)} ${pad(r.p95.toFixed(2), 7)} ${pad(r.p99.toFixed(2), 7)} ${pad(r.requests, 8)} ${pad(r.non200 + r.errors, 7)}${r === small || r === large ? '  *' : ''}`,
    ),
    '',
    `p95 at ${SIZES.small.toLocaleString('en')} users: ${small.p95.toFixed(2)} ms; at ${SIZES.large.toLocaleString('en')} users: ${large.p95.toFixed(2)} ms; ratio ${ratio.toFixed(2)} (target < 1.5${ratio < 1.5 ? ', met' : ', NOT met'})`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  const summary = (r: Run) => ({ rps: r.rps, p50: r.p50, p95: r.p95, p99: r.p99 });
  process.stdout.write(
    JSON.stringify({
      bench: 'auth',
      path: '/auth/v1/user?search={term}&limit=20',
      term: opts.term,
      connections: opts.connections,
      durationSec: opts.duration,
      small: { users: SIZES.small, matches: matches.small, ...summary(small) },
      large: { users: SIZES.large, matches: matches.large, ...summary(large) },
      p95Ratio: Math.round(ratio * 100) / 100,
      runs,
    }) + '\n',
  );
  const bad = [...warmups, ...runs].filter((r) => r.non200 > 0 || r.errors > 0);
  if (bad.length) {
    log(`FAILED: not every response was a 200 (${bad.map((r) => `${r.tenant}#${r.round}: ${r.non200} non-200, ${r.errors} errors`).join('; ')})`);
    process.exitCode = 1;
  }
}

const rt = runtime();
const options = parseArgs(process.argv.slice(2));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    void cleanup(rt, options.keep).finally(() => process.exit(130));
  });
}

main(options, rt)
  .catch((err) => {
    log(`failed: ${(err as Error).message}`);
    process.exitCode = 1;
  })
  .finally(() => cleanup(rt, options.keep));
