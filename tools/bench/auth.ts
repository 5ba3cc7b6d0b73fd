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
import { BENCH_RATE_LIMITS, BenchContext, bearer, best, failUnlessAll200, fetchJson, log, measureRounds, printReport, round2, runsNote, runsTable, secondsSince, seedTenantWithRoles, serviceBench, ServiceBenchOptions, summary, Target, warmUp } from './lib';

const SIZES = { small: 1_000, large: 100_000 } as const;
type Size = keyof typeof SIZES;

interface Options extends ServiceBenchOptions {
  term: string;
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

async function main({ opts, db, svc }: BenchContext<Options, object>): Promise<void> {
  const tenants = {} as Record<Size, { tenantId: string; callerSub: string }>;
  for (const size of ['small', 'large'] as const) {
    const started = Date.now();
    tenants[size] = await seedTenant(db, `Bench ${size}`, `${size}.bench.test`, SIZES[size]);
    log(`${size} tenant: ${SIZES[size].toLocaleString('en')} users inserted in ${secondsSince(started)} s`);
  }
  await db.query('ANALYZE');

  const path = `/auth/v1/user?search=${encodeURIComponent(opts.term)}&limit=20`;
  const targets: Target<{ tenant: Size }>[] = (['small', 'large'] as const).map((size) => ({ key: { tenant: size }, url: `${svc}${path}`, headers: bearer(tenants[size].callerSub) }));
  const matches = {} as Record<Size, number>;
  for (const t of targets) matches[t.key.tenant] = ((await fetchJson(`the ${t.key.tenant} tenant`, t)) as { data?: { total: number } }).data?.total ?? 0;
  log(`"${opts.term}" matches ${matches.small} of ${SIZES.small} and ${matches.large} of ${SIZES.large} users`);

  const warmups = await warmUp(targets, opts);
  const runs = await measureRounds(targets, opts);

  // The better run here: the lower p95.
  const small = best(runs, { tenant: 'small' }, 'p95');
  const large = best(runs, { tenant: 'large' }, 'p95');
  const ratio = large.p95 / small.p95;
  printReport(
    [
      `GET /auth/v1/user?search=${opts.term}&limit=20 — ${runsNote(opts)}`,
      '',
      ...runsTable(
        runs,
        [
          { title: 'tenant', width: 8, of: (r) => r.tenant },
          { title: 'users', width: 8, of: (r) => SIZES[r.tenant], right: true },
          { title: 'matches', width: 7, of: (r) => matches[r.tenant], right: true },
        ],
        new Set([small, large]),
      ),
      '',
      `p95 at ${SIZES.small.toLocaleString('en')} users: ${small.p95.toFixed(2)} ms; at ${SIZES.large.toLocaleString('en')} users: ${large.p95.toFixed(2)} ms; ratio ${ratio.toFixed(2)} (target < 1.5${ratio < 1.5 ? ', met' : ', NOT met'})`,
    ],
    {
      bench: 'auth',
      path: '/auth/v1/user?search={term}&limit=20',
      term: opts.term,
      connections: opts.connections,
      durationSec: opts.duration,
      small: { users: SIZES.small, matches: matches.small, ...summary(small) },
      large: { users: SIZES.large, matches: matches.large, ...summary(large) },
      p95Ratio: round2(ratio),
      runs,
    },
  );
  failUnlessAll200([...warmups, ...runs], (r) => `${r.tenant}#${r.round}`);
}

serviceBench<Options>({
  name: 'auth',
  service: 'auth',
  usage: 'npm run bench -- auth [--duration <s>] [--connections <n>] [--warmup <s>] [--term <search>] [--keep]',
  defaults: { connections: 8, term: 'hopper' },
  options: { texts: { term: [1, 100] } },
  // As this benchmark has always run auth: with the service's own abuse limits and the shell's tracing setting.
  env: (env) => Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'OTEL_EXPORTER_OTLP_ENDPOINT' && !(k in BENCH_RATE_LIMITS))),
  main,
});
