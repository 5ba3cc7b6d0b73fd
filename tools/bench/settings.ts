/**
 * npm run bench -- settings [--duration 10] [--connections 16] [--warmup 3] [--keep] [--tracing]
 *
 * What the settings service costs over the SQL it runs. In a scratch database
 * (ddm_bench_settings, dropped at the end unless --keep) two tenants get 1,000 and 100,000
 * positions (set-based SQL: groups, position-group links, delegations of the projection). The
 * built auth and settings services run as child processes (NATS namespace "benchsettings"); a
 * BARE handler, plain Fastify + a pg pool of 10 with no auth and no envelope, runs in a worker
 * thread of this process and serves the very same statements, imported from
 * apps/settings/src/positions/position.sql.ts, mapped by the same toPositionView.
 *
 * Measured in one run, service and bare alternating, twice, the better run of each counting:
 *   get    GET /settings/v1/positions/{id}                                    (100,000 positions)
 *   list   GET /settings/v1/positions?status=ACTIVE&sortBy=positionName&limit=20 (100,000 positions)
 *   small  the same list in the tenant of 1,000 positions
 * Before the runs, a probe counts the table reads (pg_stat_user_tables scans) per request of each
 * side: equal settings reads = the service runs the one shared statement and nothing else; auth
 * reads stay near 0 while the guard's token and caller caches are warm. It takes about a minute.
 * Prints a table, the ratios service/bare of requests per second (targets: get >= 0.6,
 * list >= 0.8), the list's p95 at both sizes, the probe's figures and one JSON line. Exits 1 if a
 * response was not a 200. Children, worker, database and streams are removed in every case.
 *
 * --tracing runs both services with OpenTelemetry on (OTEL_EXPORTER_OTLP_ENDPOINT pointing at a
 * sink in a worker thread of this process that accepts and discards OTLP/HTTP), every request
 * sampled unless OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG say otherwise (the services inherit
 * this process's environment): the ratios then include what tracing costs.
 */
import 'reflect-metadata';
import { isDeepStrictEqual } from 'node:util';
import { Worker, parentPort } from 'node:worker_threads';
import { plainToInstance } from 'class-transformer';
import Fastify from 'fastify';
import { Client, Pool } from 'pg';
import { ensureDevKeys } from '@ddm/platform';
import { DEFAULT_GROUP_TYPES } from '../../apps/settings/src/group-types/group-type.rules';
import { ListPositionsQuery } from '../../apps/settings/src/positions/dto/list-positions.query';
import { POSITION_BY_ID_SQL, PositionListRow, PositionRow, positionListSql, toPositionView } from '../../apps/settings/src/positions/position.sql';
import { asAppRole, DEV_KEYS_DIR } from '../lib/runtime';
import { signDevToken } from '../lib/sign';
import { benchEntry, BenchOptions, createScratchDatabase, failUnlessAll200, log, measure, pad, parseArgs, round2, seedCaller, seedTenantWithRoles, startBareWorker, startOtlpSink, startService, Stats, summary, BENCH_RATE_LIMITS } from './lib';

const DATABASE = 'ddm_bench_settings';
const NATS_NAMESPACE = 'benchsettings';
const READY_TIMEOUT_MS = 120_000;
const POOL_SIZE = 10;
const USAGE = 'npm run bench -- settings [--duration <s>] [--connections <n>] [--warmup <s>] [--keep] [--tracing]';
const SIZES = { small: 1_000, large: 100_000 } as const;
type Size = keyof typeof SIZES;
const LIST_QUERY = 'status=ACTIVE&sortBy=positionName&limit=20';
const TARGETS = { get: 0.6, list: 0.8 } as const;
/** Sequential requests of each table-read probe, and the wait for Postgres's statistics to settle. */
const PROBE_REQUESTS = 200;
const STATS_SETTLE_MS = 11_000;

type Kind = 'get' | 'list' | 'small';
type Impl = 'service' | 'bare';
interface Target {
  kind: Kind;
  impl: Impl;
  url: string;
  headers: Record<string, string>;
}
interface Run extends Stats {
  kind: Kind;
  impl: Impl;
  round: number;
}
interface Options extends BenchOptions {
  keep: boolean;
  tracing: boolean;
}

// ---------------------------------------------------------------------------------------------
// The bare handler (worker thread): same SQL, same mapping, no auth, no envelope, no validation.
// ---------------------------------------------------------------------------------------------

interface BareConfig {
  databaseUrl: string;
}

async function serveBare({ databaseUrl }: BareConfig): Promise<void> {
  const pool = new Pool({ connectionString: databaseUrl, max: POOL_SIZE, application_name: 'ddm-bench-bare' });
  const app = Fastify({ logger: false });
  app.get<{ Params: { id: string }; Querystring: { tenantId: string } }>('/bare/positions/:id', async (req, reply) => {
    const { rows } = await pool.query<PositionRow>(POSITION_BY_ID_SQL, [req.params.id, req.query.tenantId]);
    if (!rows.length) return reply.code(404).send({ message: 'not found' });
    return toPositionView(rows[0]);
  });
  app.get<{ Querystring: Record<string, string> }>('/bare/positions', async (req) => {
    // The query object the service's ValidationPipe builds (class-transformer, same defaults and comma lists).
    const q = plainToInstance(ListPositionsQuery, { ...req.query });
    const { text, values } = positionListSql(req.query.tenantId, q);
    const { rows } = await pool.query<PositionListRow>(text, values as unknown[]);
    const data = [];
    for (const r of rows) if (r.ord !== null) data.push(toPositionView(r));
    return { page: q.page, limit: q.limit, total: rows.length ? Number(rows[0].total) : 0, data };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  parentPort!.postMessage({ port: (app.server.address() as { port: number }).port });
}

// ---------------------------------------------------------------------------------------------
// Seed (set-based SQL).
// ---------------------------------------------------------------------------------------------

const TITLES = [
  'Accountant', 'Analyst', 'Architect', 'Auditor', 'Buyer', 'Compliance Officer', 'Controller', 'Counsel', 'Data Scientist', 'Designer',
  'Developer', 'Director', 'Engineer', 'Finance Manager', 'Planner', 'Product Manager', 'Recruiter', 'Risk Officer', 'Sales Lead', 'Treasurer',
];
const LOCATIONS = ['London', 'New York', 'Singapore', 'Berlin', 'Sydney'];
const DEPARTMENTS = ['Finance', 'Engineering', 'Sales', 'Marketing', 'Legal', 'People', 'Operations', 'Procurement', 'IT', 'Risk', 'Audit', 'Treasury'];

/** A uuid v7 (time-ordered, like the service's ids) for a timestamp expression, in SQL. */
const uuidV7 = (ts: string) =>
  `(lpad(to_hex((extract(epoch FROM ${ts}) * 1000)::bigint), 12, '0') || '7' || substr(md5(random()::text), 1, 3) || '8' || substr(md5(random()::text), 1, 15))::uuid`;

interface SeededTenant {
  tenantId: string;
  callerSub: string;
}

/**
 * The settings structure of a tenant: the default group types; an organization with 5 locations
 * and 12 departments under it; `count` positions named "<Title> <n>" (80 % ACTIVE, 25 % SCIM,
 * created over two years), each in one department and every third also in a location; every
 * 25th receives a delegation from the position before it (every 100th of those revoked).
 */
async function seedStructure(db: Client, tenantId: string, userId: string, name: string, count: number): Promise<void> {
  const types = (
    await db.query<{ id: string; key: string }>(
      `INSERT INTO settings.group_types (id, tenant_id, group_type_name, system_key, is_default, should_allow_enable_disable, address_enabled, created_by, updated_by)
       SELECT gen_random_uuid(), $1, x.name, x.key, true, x.allow, x.address, $2, $2
         FROM unnest($3::text[], $4::text[], $5::boolean[], $6::boolean[]) AS x(name, key, allow, address)
       RETURNING id, system_key AS key`,
      [
        tenantId,
        userId,
        DEFAULT_GROUP_TYPES.map((t) => t.groupTypeName),
        DEFAULT_GROUP_TYPES.map((t) => t.systemKey),
        DEFAULT_GROUP_TYPES.map((t) => t.shouldAllowEnableDisable),
        DEFAULT_GROUP_TYPES.map((t) => t.addressEnabled),
      ],
    )
  ).rows;
  const typeId = (key: string) => types.find((t) => t.key === key)!.id;
  const groups = [
    { name: `${name} Holdings`, type: typeId('ORGANIZATIONS') },
    ...LOCATIONS.map((n) => ({ name: n, type: typeId('LOCATIONS') })),
    ...DEPARTMENTS.map((n) => ({ name: n, type: typeId('DEPARTMENTS') })),
  ];
  const groupIds = (
    await db.query<{ id: string }>(
      `INSERT INTO settings.groups (id, tenant_id, group_code, tenant_group_type_id, group_name, display_name, created_by, updated_by)
       SELECT gen_random_uuid(), $1, 'B' || lpad(x.n::text, 5, '0'), x.type, x.name, x.name, $2, $2
         FROM unnest($3::text[], $4::uuid[]) WITH ORDINALITY AS x(name, type, n)
        ORDER BY x.n
       RETURNING id`,
      [tenantId, userId, groups.map((g) => g.name), groups.map((g) => g.type)],
    )
  ).rows.map((r) => r.id);
  const [org, locations, departments] = [groupIds[0], groupIds.slice(1, 1 + LOCATIONS.length), groupIds.slice(1 + LOCATIONS.length)];
  await db.query(
    `INSERT INTO settings.group_parents (id, tenant_id, group_id, parent_id) SELECT gen_random_uuid(), $1, g, $2 FROM unnest($3::uuid[]) AS g`,
    [tenantId, org, [...locations, ...departments]],
  );

  await db.query(
    `INSERT INTO settings.positions (id, tenant_id, position_display_id, position_name, status, is_scim_provisioned, external_id, instance_id,
                                     created_on, created_by, updated_on, updated_by)
     SELECT ${uuidV7('x.created')}, $1, (9999 + x.i)::text, ($3::text[])[1 + x.i % array_length($3::text[], 1)] || ' ' || x.i,
            CASE WHEN x.i % 5 = 0 THEN 'INACTIVE' ELSE 'ACTIVE' END, x.i % 4 = 0,
            CASE WHEN x.i % 4 = 0 THEN 'EXT-' || x.i END, CASE WHEN x.i % 4 = 0 THEN '6f1c2d9e-0000-4000-8000-00000000b5c1' END,
            x.created, $2, least(now(), x.created + (x.i % 30) * interval '1 day'), $2
       FROM (SELECT i, now() - (($4::int - i)::float8 / $4::int) * interval '730 days' AS created FROM generate_series(1, $4::int) AS i) x`,
    [tenantId, userId, TITLES, count],
  );
  await db.query(
    `INSERT INTO settings.position_groups (position_id, group_id, tenant_id, created_at, updated_at)
     SELECT p.id, g.id, $1, p.created_on, p.created_on
       FROM settings.positions p
       CROSS JOIN LATERAL (SELECT (position_display_id::int - 9999) AS i) n
       CROSS JOIN LATERAL (SELECT ($2::uuid[])[1 + n.i % array_length($2::uuid[], 1)] AS id
                           UNION ALL
                           SELECT ($3::uuid[])[1 + n.i % array_length($3::uuid[], 1)] WHERE n.i % 3 = 0) g
      WHERE p.tenant_id = $1`,
    [tenantId, departments, locations],
  );
  await db.query(
    `INSERT INTO settings.delegation_projection (delegation_id, tenant_id, decision_id, issuer_type, issuer_position_id, recipient_type,
                                                 recipient_position_id, pathways, group_ids, revoked_on)
     SELECT gen_random_uuid(), $1, gen_random_uuid(), CASE WHEN n.i % 50 = 0 THEN 'POSITION_ONLY' ELSE 'PERSONNEL_IN_POSITION' END, i.id,
            'POSITION_ONLY', r.id, CASE WHEN n.i % 50 = 0 THEN ARRAY['Matrix'] ELSE ARRAY['Functional'] END,
            ARRAY[($2::uuid[])[1 + n.i % array_length($2::uuid[], 1)]], CASE WHEN n.i % 2500 = 0 THEN now() END
       FROM settings.positions r
       CROSS JOIN LATERAL (SELECT (r.position_display_id::int - 9999) AS i) n
       JOIN settings.positions i ON i.tenant_id = $1 AND i.position_display_id = (9998 + n.i)::text
      WHERE r.tenant_id = $1 AND n.i % 25 = 0`,
    [tenantId, departments],
  );
  await db.query(`INSERT INTO settings.display_id_counters (tenant_id, kind, last_value) VALUES ($1, 'position', $2)`, [tenantId, 9999 + count]);
}

async function seedTenant(db: Client, size: Size): Promise<SeededTenant> {
  const name = `Bench ${size}`;
  const { tenantId, roleIds } = await seedTenantWithRoles(db, name);
  const caller = await seedCaller(db, tenantId, roleIds.SYSTEM_ADMIN, `admin@${size}.bench.test`);
  await seedStructure(db, tenantId, caller.userId, name, SIZES[size]);
  return { tenantId, callerSub: caller.sub };
}

// ---------------------------------------------------------------------------------------------
// Checks and probes.
// ---------------------------------------------------------------------------------------------

/** No request of the checks may hang the benchmark. */
const REQUEST_TIMEOUT_MS = 10_000;

async function getJson(t: Target): Promise<unknown> {
  const res = await fetch(t.url, { headers: t.headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const body = (await res.json()) as unknown;
  if (res.status !== 200) throw new Error(`${t.impl} ${t.kind}: GET ${t.url} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/** Service and bare must answer the same data (the service inside its envelope), or the comparison means nothing. */
async function checkSame(service: Target, bare: Target): Promise<unknown> {
  const s = ((await getJson(service)) as { data: unknown }).data;
  const b = await getJson(bare);
  const comparable = (x: unknown) => (service.kind === 'get' ? x : { total: (x as { total: number }).total, data: (x as { data: unknown[] }).data });
  if (!isDeepStrictEqual(comparable(s), comparable(b))) {
    throw new Error(`${service.kind}: the service and the bare handler answer different data:\n service ${JSON.stringify(s).slice(0, 400)}\n bare    ${JSON.stringify(b).slice(0, 400)}`);
  }
  return b;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Table reads of each schema's own tables (the outbox machinery left out): scans started, from pg_stat_user_tables. */
interface TableReads {
  settings: number;
  auth: number;
  /** Transactions of the database: a read outside a transaction is one statement and one transaction. */
  statements: number;
}

/**
 * The table reads so far. A backend that goes idle within a second of its last flush reports its
 * counters only after 10 s (PGSTAT_IDLE_INTERVAL), so this first waits STATS_SETTLE_MS.
 */
async function tableReads(db: Client): Promise<TableReads> {
  await sleep(STATS_SETTLE_MS);
  const { rows } = await db.query<{ schema: 'settings' | 'auth'; n: string }>(
    `SELECT schemaname AS schema, sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)) AS n FROM pg_stat_user_tables
      WHERE schemaname IN ('settings', 'auth') AND relname NOT IN ('outbox', 'processed_messages', 'migrations')
      GROUP BY schemaname`,
  );
  const of = (schema: string) => Number(rows.find((r) => r.schema === schema)?.n ?? 0);
  const [{ n }] = (await db.query<{ n: string }>(`SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()`)).rows;
  return { settings: of('settings'), auth: of('auth'), statements: Number(n) };
}

/** Probe result: table reads (settings and auth tables) and statements per request. */
type PerRequest = TableReads;

/**
 * Does the service run only the shared statement? PROBE_REQUESTS sequential requests to each
 * target, statements (transactions of the database: each read outside a transaction is one) and
 * table reads (scans) counted around each batch: the service runs as many statements per request
 * as the bare handler when it runs nothing else (a tenant switch of a pooled connection adds one),
 * and its auth reads stay at 0 while the guard's caches are warm (an expired caller costs one
 * resolution through the auth service). The scans of the one statement may differ: the service's
 * runs under row-level security (its tenant condition on every table can change the plan), the
 * bare handler's as the owner. Background work (outbox relays, consumers) adds a few statements.
 */
async function probeReads(db: Client, targets: Target[]): Promise<PerRequest[]> {
  const out: PerRequest[] = [];
  let before = await tableReads(db);
  for (const t of targets) {
    for (let i = 0; i < PROBE_REQUESTS; i++) {
      const res = await fetch(t.url, { headers: t.headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${t.impl} ${t.kind}: probe request answered ${res.status}`);
    }
    const after = await tableReads(db);
    const per = (k: keyof TableReads) => round2((after[k] - before[k]) / PROBE_REQUESTS);
    out.push({ settings: per('settings'), auth: per('auth'), statements: per('statements') });
    before = after;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Main.
// ---------------------------------------------------------------------------------------------

function parseOptions(argv: string[]): Options {
  return parseArgs<Options>(argv, { duration: 10, connections: 16, warmup: 3, keep: false, tracing: false }, USAGE, (flag, _value, opts) => {
    if (flag !== '--keep' && flag !== '--tracing') return false;
    opts[flag === '--keep' ? 'keep' : 'tracing'] = true;
    return true;
  });
}

const KINDS: Kind[] = ['get', 'list', 'small'];
const LABEL: Record<Kind, string> = {
  get: `GET /settings/v1/positions/{id}, ${SIZES.large.toLocaleString('en')} positions`,
  list: `GET /settings/v1/positions?${LIST_QUERY}, ${SIZES.large.toLocaleString('en')} positions`,
  small: `the same list, ${SIZES.small.toLocaleString('en')} positions`,
};

let bareWorker: Worker | undefined;
let otlpSink: { url: string; stop(): Promise<number> } | undefined;

async function main(opts: Options, rt: { databaseUrl: string; natsUrl: string }): Promise<void> {
  const url = await createScratchDatabase(rt.databaseUrl, DATABASE);
  // The services trust the dev key (made on first use, as `npm run token` does); the callers' tokens are signed with it.
  ensureDevKeys(DEV_KEYS_DIR);
  if (opts.tracing) {
    otlpSink = await startOtlpSink();
    log(`tracing on: the services export their spans to a sink that discards them (${otlpSink.url})`);
  }
  const env = {
    // The services as the app role (row-level security applies, as in production); the owner migrates.
    DATABASE_URL: asAppRole(url),
    MIGRATION_DATABASE_URL: url,
    NATS_URL: rt.natsUrl,
    NATS_NAMESPACE,
    AUTH_DEV_KEYS: 'true',
    DEV_KEYS_DIR,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DB_POOL_SIZE: String(POOL_SIZE),
    // Empty (tracing off) unless --tracing, whatever this shell exports.
    OTEL_EXPORTER_OTLP_ENDPOINT: otlpSink?.url ?? '',
    // The abuse limits on, at their ceiling (one token fires thousands of requests a second).
    ...BENCH_RATE_LIMITS,
  };
  // One after the other: each applies its own migrations, and both create the pg_trgm extension.
  await startService('auth', 'dist/apps/auth/src/main.js', env, READY_TIMEOUT_MS, 'it applies the auth migrations');
  const { base: svc } = await startService('settings', 'dist/apps/settings/src/main.js', env, READY_TIMEOUT_MS, 'it applies the settings migrations');

  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const tenants = {} as Record<Size, SeededTenant>;
    for (const size of ['small', 'large'] as const) {
      const started = Date.now();
      tenants[size] = await seedTenant(db, size);
      log(`${size} tenant: ${SIZES[size].toLocaleString('en')} positions seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    // Vacuumed as a table in use would be (visibility map set for index-only scans), so autovacuum does not start mid-run.
    await db.query('VACUUM (ANALYZE)');
    // Position 50,025 of the large tenant: INACTIVE, in a department and a location, received one delegation.
    const [{ id: positionId }] = (
      await db.query<{ id: string }>(`SELECT id FROM settings.positions WHERE tenant_id = $1 AND position_display_id = $2`, [tenants.large.tenantId, String(9999 + 50_025)])
    ).rows;

    const bare = await startBareWorker(__filename, { databaseUrl: url } satisfies BareConfig);
    bareWorker = bare.worker;
    log(`bare handler on ${bare.base} (worker thread, pg pool of ${POOL_SIZE})`);

    const authHeaders = (size: Size) => ({ authorization: `Bearer ${signDevToken({ sub: tenants[size].callerSub }, DEV_KEYS_DIR, '2h')}` });
    const tenantOf: Record<Kind, Size> = { get: 'large', list: 'large', small: 'small' };
    const targets = {} as Record<Kind, Record<Impl, Target>>;
    for (const kind of KINDS) {
      const size = tenantOf[kind];
      const path = kind === 'get' ? `/positions/${positionId}` : `/positions?${LIST_QUERY}`;
      targets[kind] = {
        service: { kind, impl: 'service', url: `${svc}/settings/v1${path}`, headers: authHeaders(size) },
        bare: { kind, impl: 'bare', url: `${bare.base}/bare${path}${path.includes('?') ? '&' : '?'}tenantId=${tenants[size].tenantId}`, headers: {} },
      };
    }
    const matches = {} as Record<Kind, number>;
    for (const kind of KINDS) {
      const body = (await checkSame(targets[kind].service, targets[kind].bare)) as { total?: number };
      matches[kind] = body.total ?? 1;
    }
    log(`service and bare answer the same data; the list matches ${matches.list} of ${SIZES.large} and ${matches.small} of ${SIZES.small} positions`);

    const warmups: Run[] = [];
    if (opts.warmup > 0) {
      log(`warming up (${opts.warmup} s each)`);
      for (const kind of KINDS)
        for (const impl of ['service', 'bare'] as const) warmups.push({ kind, impl, round: 0, ...(await measure(targets[kind][impl].url, targets[kind][impl].headers, opts.connections, opts.warmup)) });
    }

    log(`counting table reads per request (${PROBE_REQUESTS} sequential requests to each of 4 targets, ${STATS_SETTLE_MS / 1000} s for the statistics between them)`);
    const [getService, getBare, listService, listBare] = await probeReads(db, [targets.get.service, targets.get.bare, targets.list.service, targets.list.bare]);
    const perRequest = { get: { service: getService, bare: getBare }, list: { service: listService, bare: listBare } };

    const runs: Run[] = [];
    for (const round of [1, 2])
      for (const kind of KINDS)
        for (const impl of ['service', 'bare'] as const) {
          log(`${kind} ${impl} run ${round}: ${opts.connections} connections, ${opts.duration} s`);
          runs.push({ kind, impl, round, ...(await measure(targets[kind][impl].url, targets[kind][impl].headers, opts.connections, opts.duration)) });
        }

    report(opts, runs, matches, perRequest);
    failUnlessAll200([...warmups, ...runs], (r) => `${r.kind} ${r.impl}#${r.round}`);
  } finally {
    await db.end();
  }
}

function report(opts: Options, runs: Run[], matches: Record<Kind, number>, perRequest: Record<'get' | 'list', Record<Impl, PerRequest>>): void {
  // The better run: more requests per second (with a fixed number of connections, also the lower mean latency).
  const best = (kind: Kind, impl: Impl) => runs.filter((r) => r.kind === kind && r.impl === impl).reduce((a, b) => (b.rps > a.rps ? b : a));
  const bests = new Set(KINDS.flatMap((k) => [best(k, 'service'), best(k, 'bare')]));
  const ratio = (kind: Kind) => best(kind, 'service').rps / best(kind, 'bare').rps;
  const verdict = (r: number, target: number) => `target >= ${target}, ${r >= target ? 'met' : 'NOT met'}`;
  const lines = [
    `settings positions: service (NestJS, token + caller caches warm, envelope${opts.tracing ? ', TRACING ON' : ''}) vs bare (Fastify + pg, same SQL) — ${opts.connections} connections, ${opts.duration} s per run, better of 2 runs each (*)`,
    ...KINDS.map((k) => `  ${k.padEnd(5)} ${LABEL[k]}`),
    '',
    `${'target'.padEnd(6)} ${'impl'.padEnd(7)} ${pad('round', 5)} ${pad('req/s', 7)} ${pad('p50 ms', 7)} ${pad('p95 ms', 7)} ${pad('p99 ms', 7)} ${pad('requests', 8)} ${pad('non-200', 7)}`,
    ...runs.map(
      (r) =>
        `${r.kind.padEnd(6)} ${r.impl.padEnd(7)} ${pad(r.round, 5)} ${pad(r.rps, 7)} ${pad(r.p50.toFixed(2), 7)} ${pad(r.p95.toFixed(2), 7)} ${pad(r.p99.toFixed(2), 7)} ${pad(r.requests, 8)} ${pad(r.non200 + r.errors, 7)}${bests.has(r) ? '  *' : ''}`,
    ),
    '',
    `get-by-id: service/bare ${ratio('get').toFixed(2)} (${best('get', 'service').rps} / ${best('get', 'bare').rps} req/s; ${verdict(ratio('get'), TARGETS.get)})`,
    `list:      service/bare ${ratio('list').toFixed(2)} (${best('list', 'service').rps} / ${best('list', 'bare').rps} req/s; ${verdict(ratio('list'), TARGETS.list)})`,
    `list p95 (service): ${best('small', 'service').p95.toFixed(2)} ms at ${SIZES.small.toLocaleString('en')} positions, ${best('list', 'service').p95.toFixed(2)} ms at ${SIZES.large.toLocaleString('en')} ` +
      `(bare: ${best('small', 'bare').p95.toFixed(2)} / ${best('list', 'bare').p95.toFixed(2)} ms); the list matches ${matches.small} and ${matches.list} positions`,
    ...(['get', 'list'] as const).map((k) => {
      const { service, bare } = perRequest[k];
      return (
        `${`${k}:`.padEnd(10)} statements per request: service ${service.statements.toFixed(2)}, bare ${bare.statements.toFixed(2)}; ` +
        `settings table scans per request: service ${service.settings.toFixed(2)}, bare ${bare.settings.toFixed(2)} (row-level security may change the plan); ` +
        `auth table reads per request ${service.auth.toFixed(2)} (caller resolutions when the 30 s caller cache lapses)`
      );
    }),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  const pair = (kind: Kind) => ({ service: summary(best(kind, 'service')), bare: summary(best(kind, 'bare')) });
  process.stdout.write(
    JSON.stringify({
      bench: 'settings',
      tracing: opts.tracing,
      connections: opts.connections,
      durationSec: opts.duration,
      positions: SIZES,
      get: { path: '/settings/v1/positions/{id}', ...pair('get'), ratio: round2(ratio('get')), target: TARGETS.get, met: ratio('get') >= TARGETS.get },
      list: { path: `/settings/v1/positions?${LIST_QUERY}`, matches: matches.list, ...pair('list'), ratio: round2(ratio('list')), target: TARGETS.list, met: ratio('list') >= TARGETS.list },
      listSmall: { matches: matches.small, ...pair('small'), ratio: round2(ratio('small')) },
      listP95: { small: best('small', 'service').p95, large: best('list', 'service').p95 },
      tableReadsPerRequest: perRequest,
      runs,
    }) + '\n',
  );
}

benchEntry({
  database: DATABASE,
  natsNamespace: NATS_NAMESPACE,
  parse: parseOptions,
  main,
  serveBare,
  bareWorker: () => bareWorker,
  // After the services: they send their last spans as they stop.
  after: async () => otlpSink?.stop(),
});
