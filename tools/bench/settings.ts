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
import { plainToInstance } from 'class-transformer';
import type { FastifyInstance } from 'fastify';
import { Client, Pool } from 'pg';
import { DEFAULT_GROUP_TYPES } from '../../apps/settings/src/group-types/group-type.rules';
import { ListPositionsQuery } from '../../apps/settings/src/positions/dto/list-positions.query';
import { POSITION_BY_ID_SQL, PositionListRow, PositionRow, positionListSql, toPositionView } from '../../apps/settings/src/positions/position.sql';
import { Ask, BenchContext, bearer, checkSame, failUnlessAll200, Impl, kindAndImpl, log, measureRounds, pageOf, printReport, REQUEST_TIMEOUT_MS, round2, Run, runsNote, runsTable, secondsSince, seedCaller, seedTenantWithRoles, serviceAndBare, serviceBench, ServiceBenchOptions, sleep, startOtlpSink, Target, uuidV7, versus, warmUp } from './lib';

const SIZES = { small: 1_000, large: 100_000 } as const;
type Size = keyof typeof SIZES;
const LIST_QUERY = 'status=ACTIVE&sortBy=positionName&limit=20';
const TARGETS = { get: 0.6, list: 0.8 } as const;
/** Sequential requests of each table-read probe, and the wait for Postgres's statistics to settle. */
const PROBE_REQUESTS = 200;
const STATS_SETTLE_MS = 11_000;

type Kind = 'get' | 'list' | 'small';
type Key = { kind: Kind; impl: Impl };
interface Options extends ServiceBenchOptions {
  tracing: boolean;
}

// ---------------------------------------------------------------------------------------------
// The bare handler (worker thread): same SQL, same mapping, no auth, no envelope, no validation.
// ---------------------------------------------------------------------------------------------

function bareRoutes(app: FastifyInstance, pool: Pool): void {
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
// Probes.
// ---------------------------------------------------------------------------------------------

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
async function probeReads(db: Client, targets: Target<Key>[]): Promise<PerRequest[]> {
  const out: PerRequest[] = [];
  let before = await tableReads(db);
  for (const t of targets) {
    for (let i = 0; i < PROBE_REQUESTS; i++) {
      const res = await fetch(t.url, { headers: t.headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${t.key.impl} ${t.key.kind}: probe request answered ${res.status}`);
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

const KINDS: Kind[] = ['get', 'list', 'small'];
const LABEL: Record<Kind, string> = {
  get: `GET /settings/v1/positions/{id}, ${SIZES.large.toLocaleString('en')} positions`,
  list: `GET /settings/v1/positions?${LIST_QUERY}, ${SIZES.large.toLocaleString('en')} positions`,
  small: `the same list, ${SIZES.small.toLocaleString('en')} positions`,
};

let otlpSink: { url: string; stop(): Promise<number> } | undefined;

/** The services' environment: with --tracing, they export their spans to a sink that discards them (empty, tracing off, otherwise). */
async function withTracing(env: Record<string, string>, opts: Options): Promise<Record<string, string>> {
  if (!opts.tracing) return env;
  otlpSink = await startOtlpSink();
  log(`tracing on: the services export their spans to a sink that discards them (${otlpSink.url})`);
  return { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: otlpSink.url };
}

async function main({ opts, db, svc, startBare }: BenchContext<Options, object>): Promise<void> {
  const tenants = {} as Record<Size, SeededTenant>;
  for (const size of ['small', 'large'] as const) {
    const started = Date.now();
    tenants[size] = await seedTenant(db, size);
    log(`${size} tenant: ${SIZES[size].toLocaleString('en')} positions seeded in ${secondsSince(started)} s`);
  }
  // Vacuumed as a table in use would be (visibility map set for index-only scans), so autovacuum does not start mid-run.
  await db.query('VACUUM (ANALYZE)');
  // Position 50,025 of the large tenant: INACTIVE, in a department and a location, received one delegation.
  const [{ id: positionId }] = (
    await db.query<{ id: string }>(`SELECT id FROM settings.positions WHERE tenant_id = $1 AND position_display_id = $2`, [tenants.large.tenantId, String(9999 + 50_025)])
  ).rows;

  const bare = await startBare({});
  const tenantOf: Record<Kind, Size> = { get: 'large', list: 'large', small: 'small' };
  const sides = {} as Record<Kind, { service: Ask; bare: Ask }>;
  for (const kind of KINDS) {
    const size = tenantOf[kind];
    const path = kind === 'get' ? `/positions/${positionId}` : `/positions?${LIST_QUERY}`;
    sides[kind] = {
      service: { url: `${svc}/settings/v1${path}`, headers: bearer(tenants[size].callerSub) },
      bare: { url: `${bare}/bare${path}${path.includes('?') ? '&' : '?'}tenantId=${tenants[size].tenantId}`, headers: {} },
    };
  }
  const matches = {} as Record<Kind, number>;
  for (const kind of KINDS) matches[kind] = ((await checkSame(kind, sides[kind].service, sides[kind].bare, kind === 'get' ? undefined : pageOf)) as { total?: number }).total ?? 1;
  log(`service and bare answer the same data; the list matches ${matches.list} of ${SIZES.large} and ${matches.small} of ${SIZES.small} positions`);

  const targets = serviceAndBare(KINDS, (kind) => sides[kind]);
  const warmups = await warmUp(targets, opts);

  log(`counting table reads per request (${PROBE_REQUESTS} sequential requests to each of 4 targets, ${STATS_SETTLE_MS / 1000} s for the statistics between them)`);
  const [getService, getBare, listService, listBare] = await probeReads(db, targets.filter((t) => t.key.kind !== 'small'));
  const perRequest = { get: { service: getService, bare: getBare }, list: { service: listService, bare: listBare } };

  const runs = await measureRounds(targets, opts);
  report(opts, runs, matches, perRequest);
  failUnlessAll200([...warmups, ...runs], (r) => `${r.kind} ${r.impl}#${r.round}`);
}

function report(opts: Options, runs: Run<Key>[], matches: Record<Kind, number>, perRequest: Record<'get' | 'list', Record<Impl, PerRequest>>): void {
  const [get, list, small] = KINDS.map((kind) => versus(runs, { kind }));
  const bests = new Set([get, list, small].flatMap((v) => [v.service, v.bare]));
  const verdict = (r: number, target: number) => `target >= ${target}, ${r >= target ? 'met' : 'NOT met'}`;
  printReport(
    [
      `settings positions: service (NestJS, token + caller caches warm, envelope${opts.tracing ? ', TRACING ON' : ''}) vs bare (Fastify + pg, same SQL) — ${runsNote(opts)} (*)`,
      ...KINDS.map((k) => `  ${k.padEnd(5)} ${LABEL[k]}`),
      '',
      ...runsTable(runs, kindAndImpl(6), bests),
      '',
      `get-by-id: service/bare ${get.ratio.toFixed(2)} (${get.service.rps} / ${get.bare.rps} req/s; ${verdict(get.ratio, TARGETS.get)})`,
      `list:      service/bare ${list.ratio.toFixed(2)} (${list.service.rps} / ${list.bare.rps} req/s; ${verdict(list.ratio, TARGETS.list)})`,
      `list p95 (service): ${small.service.p95.toFixed(2)} ms at ${SIZES.small.toLocaleString('en')} positions, ${list.service.p95.toFixed(2)} ms at ${SIZES.large.toLocaleString('en')} ` +
        `(bare: ${small.bare.p95.toFixed(2)} / ${list.bare.p95.toFixed(2)} ms); the list matches ${matches.small} and ${matches.list} positions`,
      ...(['get', 'list'] as const).map((k) => {
        const { service, bare } = perRequest[k];
        return (
          `${`${k}:`.padEnd(10)} statements per request: service ${service.statements.toFixed(2)}, bare ${bare.statements.toFixed(2)}; ` +
          `settings table scans per request: service ${service.settings.toFixed(2)}, bare ${bare.settings.toFixed(2)} (row-level security may change the plan); ` +
          `auth table reads per request ${service.auth.toFixed(2)} (caller resolutions when the 30 s caller cache lapses)`
        );
      }),
    ],
    {
      bench: 'settings',
      tracing: opts.tracing,
      connections: opts.connections,
      durationSec: opts.duration,
      positions: SIZES,
      get: { path: '/settings/v1/positions/{id}', ...get.pair, ratio: round2(get.ratio), target: TARGETS.get, met: get.ratio >= TARGETS.get },
      list: { path: `/settings/v1/positions?${LIST_QUERY}`, matches: matches.list, ...list.pair, ratio: round2(list.ratio), target: TARGETS.list, met: list.ratio >= TARGETS.list },
      listSmall: { matches: matches.small, ...small.pair, ratio: round2(small.ratio) },
      listP95: { small: small.service.p95, large: list.service.p95 },
      tableReadsPerRequest: perRequest,
      runs,
    },
  );
}

serviceBench<Options>({
  name: 'settings',
  service: 'settings',
  usage: 'npm run bench -- settings [--duration <s>] [--connections <n>] [--warmup <s>] [--keep] [--tracing]',
  defaults: { tracing: false },
  options: { flags: ['tracing'] },
  env: withTracing,
  bare: { routes: bareRoutes },
  main,
  // After the services: they send their last spans as they stop.
  after: async () => otlpSink?.stop(),
});
