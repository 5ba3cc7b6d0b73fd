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
import { Client } from 'pg';
import { asAppRole, DEV_KEYS_DIR, runtime } from '../lib/runtime';
import { signDevToken } from '../lib/sign';
import {
  BenchOptions,
  Stats,
  createScratchDatabase,
  failUnlessAll200,
  freePort,
  log,
  measure,
  pad,
  parseArgs,
  removeScratch,
  runBench,
  seedTenantWithRoles,
  start,
  summary,
  usage,
  waitReady,
} from './lib';

const DATABASE = 'ddm_bench_auth';
const NATS_NAMESPACE = 'benchauth';
const READY_TIMEOUT_MS = 120_000;
const USAGE = 'npm run bench -- auth [--duration <s>] [--connections <n>] [--warmup <s>] [--term <search>] [--keep]';
const SIZES = { small: 1_000, large: 100_000 } as const;
type Size = keyof typeof SIZES;

interface Options extends BenchOptions {
  term: string;
  keep: boolean;
}

interface Run extends Stats {
  tenant: Size;
  round: number;
}

function parseOptions(argv: string[]): Options {
  return parseArgs<Options>(argv, { duration: 10, connections: 8, warmup: 3, term: 'hopper', keep: false }, USAGE, (flag, value, opts) => {
    if (flag === '--keep') {
      opts.keep = true;
      return true;
    }
    if (flag !== '--term') return false;
    const raw = value();
    if (!raw || raw.length > 100) usage('--term must be 1 to 100 characters', USAGE);
    opts.term = raw;
    return true;
  });
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
  const { tenantId } = await seedTenantWithRoles(db, name);
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
  await db.query(`INSERT INTO auth.display_id_counters (tenant_id, kind, last_value) VALUES ($1, 'user', $2)`, [tenantId, 9999 + count]);
  const [{ idp }] = (await db.query<{ idp: string }>(`SELECT u.idp_user_id AS idp FROM auth.users u WHERE u.active_tenant_id = $1 ORDER BY u.email LIMIT 1`, [tenantId])).rows;
  return { tenantId, callerSub: idp };
}

async function run(tenant: Size, round: number, url: string, headers: Record<string, string>, connections: number, duration: number): Promise<Run> {
  return { tenant, round, ...(await measure(url, headers, connections, duration)) };
}

async function main(opts: Options, rt: { databaseUrl: string; natsUrl: string }): Promise<void> {
  const url = await createScratchDatabase(rt.databaseUrl, DATABASE);

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  log(`starting auth on ${port} (it applies the migrations)`);
  const auth = start('auth', 'dist/apps/auth/src/main.js', {
    DATABASE_URL: asAppRole(url),
    MIGRATION_DATABASE_URL: url,
    NATS_URL: rt.natsUrl,
    NATS_NAMESPACE,
    AUTH_DEV_KEYS: 'true',
    DEV_KEYS_DIR,
    LOG_LEVEL: 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
    DB_POOL_SIZE: '10',
  });
  await waitReady('auth', auth, base, READY_TIMEOUT_MS);

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
    for (const size of ['small', 'large'] as const) warmups.push(await run(size, 0, target(size).url, target(size).headers, opts.connections, opts.warmup));
  }
  const runs: Run[] = [];
  for (const [round, size] of [[1, 'small'], [1, 'large'], [2, 'small'], [2, 'large']] as const) {
    log(`${size} run ${round}: ${opts.connections} connections, ${opts.duration} s`);
    runs.push(await run(size, round, target(size).url, target(size).headers, opts.connections, opts.duration));
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
  failUnlessAll200([...warmups, ...runs], (r) => `${r.tenant}#${r.round}`);
}

const rt = runtime();
const options = parseOptions(process.argv.slice(2));
runBench(
  () => main(options, rt),
  () => removeScratch(rt, DATABASE, NATS_NAMESPACE, options.keep),
);
