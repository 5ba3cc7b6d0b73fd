/**
 * npm run bench -- actions [--duration 10] [--connections 16] [--warmup 3] [--large 200000] [--small 2000] [--keep]
 *
 * What the actions service costs over the SQL it runs. In a scratch database (ddm_bench_actions,
 * dropped at the end unless --keep) two tenants get --small and --large actions (set-based SQL:
 * people in the user projection, each action owned by one and assigned to one or two, due dates
 * over a year, a quarter of them settled, one person per 40 actions (at least 50), so each person's
 * own actions are about as many in either tenant). The built auth and actions services run as child
 * processes (NATS namespace "benchactions"); a BARE handler, plain Fastify + a pg pool of 10 with
 * no auth and no envelope, runs in a worker thread and serves the very same statements, imported
 * from apps/actions/src/actions/action.sql.ts, mapped by the same toActionView.
 *
 * Measured in one run, service and bare alternating, twice, the better run of each counting:
 *   get    GET /actions/v1/actions/{id}                                           (large tenant)
 *   list   "my open actions": onlyMine, To Do and In Progress, by due date, limit 20 (large tenant)
 *   small  the same list in the small tenant
 * Prints a table, the ratios service/bare of requests per second (targets: list >= 0.8, get >= 0.6),
 * the list's p95 at both sizes and their ratio (target <= 1.5), and one JSON line. Exits 1 if a
 * response was not a 200. Run it at a small size (--large 5000 --small 500) as a smoke check.
 */
import 'reflect-metadata';
import { isDeepStrictEqual } from 'node:util';
import { Worker, parentPort } from 'node:worker_threads';
import { plainToInstance } from 'class-transformer';
import Fastify from 'fastify';
import { Client, Pool } from 'pg';
import { DEFAULT_ROLES } from '@ddm/contracts';
import { listSql, pageRows } from '@ddm/platform';
import { defaultConfiguration, statusIdOf } from '../../apps/actions/src/action-config/action-config.rules';
import { INSERT_DEFAULT_PRIORITIES_SQL, INSERT_DEFAULT_STATUSES_SQL, INSERT_DEFAULT_TYPES_SQL } from '../../apps/actions/src/action-config/action-config.sql';
import { ACTION_BY_ID_SQL, ActionRow, actionList } from '../../apps/actions/src/actions/action.sql';
import { ListActionsQuery } from '../../apps/actions/src/actions/dto/list-actions.query';
import { toActionView } from '../../apps/actions/src/actions/dto/action.response';
import { DEV_KEYS_DIR } from '../lib/runtime';
import { signDevToken } from '../lib/sign';
import {
  benchEntry,
  BenchOptions,
  failUnlessAll200,
  log,
  measure,
  pad,
  parseArgs,
  round2,
  scratchServiceEnv,
  seedCaller,
  seedTenantWithRoles,
  startBareWorker,
  startService,
  Stats,
  summary,
  keepAndCounts,
} from './lib';

const DATABASE = 'ddm_bench_actions';
const NATS_NAMESPACE = 'benchactions';
const READY_TIMEOUT_MS = 120_000;
const POOL_SIZE = 10;
const APP_URL = 'http://localhost:8080';
const USAGE = 'npm run bench -- actions [--duration <s>] [--connections <n>] [--warmup <s>] [--large <n>] [--small <n>] [--keep]';
const TARGETS = { get: 0.6, list: 0.8, p95Growth: 1.5 } as const;
/** People per action: each has about as many actions (owned or assigned) in a tenant of any size, as in a real one. */
const ACTIONS_PER_USER = 40;
/** The caller holds the Global User's keys (their permissions are computed as for any caller). */
const CALLER_KEYS = new Set(DEFAULT_ROLES.find((r) => r.key === 'GLOBAL_USER')!.keys);

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
  large: number;
  small: number;
}

// The bare handler (worker thread): same SQL, same mapping, no auth, no envelope, no validation.

interface BareConfig {
  databaseUrl: string;
}

async function serveBare({ databaseUrl }: BareConfig): Promise<void> {
  const pool = new Pool({ connectionString: databaseUrl, max: POOL_SIZE, application_name: 'ddm-bench-bare' });
  const app = Fastify({ logger: false });
  app.get<{ Params: { id: string }; Querystring: { tenantId: string; userId: string } }>('/bare/actions/:id', async (req, reply) => {
    const { rows } = await pool.query<ActionRow>(ACTION_BY_ID_SQL, [req.params.id, req.query.tenantId]);
    if (!rows.length) return reply.code(404).send({ message: 'not found' });
    return toActionView(rows[0].view, { userId: req.query.userId, keys: CALLER_KEYS }, APP_URL);
  });
  app.get<{ Querystring: Record<string, string> }>('/bare/actions', async (req) => {
    const { tenantId, userId, ...query } = req.query;
    const q = plainToInstance(ListActionsQuery, query);
    const { text, values } = listSql(actionList(tenantId, userId, q));
    const { rows } = await pool.query<ActionRow & { total: number; ord: unknown }>(text, values as unknown[]);
    const { items, total } = pageRows(rows, (r: ActionRow) => toActionView(r.view, { userId, keys: CALLER_KEYS }, APP_URL));
    return { page: q.page, limit: q.limit, total, data: items };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  parentPort!.postMessage({ port: (app.server.address() as { port: number }).port });
}

// Seed (set-based SQL).

interface SeededTenant {
  tenantId: string;
  userId: string;
  callerSub: string;
  actionId: string;
}

/** A uuid v7 (time-ordered, like the service's ids) for a timestamp expression, in SQL. */
const uuidV7 = (ts: string) =>
  `(lpad(to_hex((extract(epoch FROM ${ts}) * 1000)::bigint), 12, '0') || '7' || substr(md5(random()::text), 1, 3) || '8' || substr(md5(random()::text), 1, 15))::uuid`;

async function seedTenant(db: Client, name: string, count: number): Promise<SeededTenant> {
  const { tenantId, roleIds } = await seedTenantWithRoles(db, name);
  const caller = await seedCaller(db, tenantId, roleIds.GLOBAL_USER, `user@${name.toLowerCase().replace(/\W+/g, '')}.bench.test`);
  const c = defaultConfiguration(tenantId);
  await db.query(INSERT_DEFAULT_STATUSES_SQL, [tenantId, c.statuses.map((s) => s.id), c.statuses.map((s) => s.key), c.statuses.map((s) => s.name), c.statuses.map((s) => s.position)]);
  await db.query(INSERT_DEFAULT_PRIORITIES_SQL, [tenantId, c.priorities.map((p) => p.id), c.priorities.map((p) => p.key), c.priorities.map((p) => p.name), c.priorities.map((p) => p.colorName), c.priorities.map((p) => p.position)]);
  await db.query(INSERT_DEFAULT_TYPES_SQL, [tenantId, c.types.map((t) => t.id), c.types.map((t) => t.type), c.types.map((t) => t.name), c.types.map((t) => t.typeIcon), c.types.map((t) => t.position)]);
  // The people: the caller and the others, in the user projection (as the auth area's events would leave them).
  const people = Math.max(50, Math.round(count / ACTIONS_PER_USER));
  const users = (
    await db.query<{ id: string }>(
      `INSERT INTO actions.user_projection (tenant_id, id, email, name, display_name, status, positions)
       SELECT $1, CASE WHEN i = 1 THEN $2::uuid ELSE gen_random_uuid() END, 'person' || i || '@bench.test', 'Person ' || i, 'Person ' || i, 'ACTIVE',
              jsonb_build_array(jsonb_build_object('id', gen_random_uuid(), 'positionName', 'Analyst ' || i, 'autoProvisioned', false))
         FROM generate_series(1, $3::int) AS i ORDER BY i
       RETURNING id`,
      [tenantId, caller.userId, people],
    )
  ).rows.map((r) => r.id);
  const statuses = c.statuses.map((s) => s.id);
  const keys = c.statuses.map((s) => s.key);
  await db.query(
    `INSERT INTO actions.actions (id, tenant_id, action_display_id, action_name, description, action_type_id, action_priority_id, action_status_id, status_key,
                                  status_rank, priority_rank, owner_id, due_date, created_on, created_by, updated_on, updated_by)
     SELECT ${uuidV7('x.created')}, $1, (9999 + x.i)::text, 'Action ' || x.i, 'Work item ' || x.i, ($2::uuid[])[1 + x.i % 5], ($3::uuid[])[1 + x.i % 4],
            ($4::uuid[])[x.s], ($5::text[])[x.s], x.s, 1 + x.i % 4, ($6::uuid[])[1 + x.i % $7::int], now() + ((x.i % 365) - 30) * interval '1 day',
            x.created, ($6::uuid[])[1 + x.i % $7::int], x.created, ($6::uuid[])[1 + x.i % $7::int]
       FROM (SELECT i, now() - ((($8::int - i)::float8 / $8::int) * interval '365 days') AS created,
                    CASE WHEN i % 4 = 0 THEN 3 WHEN i % 7 = 0 THEN 2 ELSE 1 END AS s
               FROM generate_series(1, $8::int) AS i) x`,
    [tenantId, c.types.map((t) => t.id), c.priorities.map((p) => p.id), statuses, keys, users, people, count],
  );
  await db.query(
    `INSERT INTO actions.action_assignees (id, tenant_id, action_id, assignee_id, action_status_id, position)
     SELECT gen_random_uuid(), a.tenant_id, a.id, ($2::uuid[])[1 + (n.i * 7 + k) % $3::int], a.action_status_id, k
       FROM actions.actions a CROSS JOIN LATERAL (SELECT a.action_display_id::int - 9999 AS i) n
       CROSS JOIN LATERAL generate_series(1, 1 + n.i % 2) AS k
      WHERE a.tenant_id = $1`,
    [tenantId, users, people],
  );
  await db.query(`INSERT INTO actions.display_id_counters (tenant_id, kind, last_value) VALUES ($1, 'action', $2)`, [tenantId, 9999 + count]);
  const [{ id: actionId }] = (
    await db.query<{ id: string }>(`SELECT id FROM actions.actions WHERE tenant_id = $1 AND action_display_id = $2`, [tenantId, String(9999 + Math.ceil(count / 2))])
  ).rows;
  return { tenantId, userId: caller.userId, callerSub: caller.sub, actionId };
}

// Checks.

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

// Main.

function parseOptions(argv: string[]): Options {
  return parseArgs<Options>(argv, { duration: 10, connections: 16, warmup: 3, keep: false, large: 200_000, small: 2_000 }, USAGE, keepAndCounts<Options>({ large: [100, 1_000_000], small: [100, 1_000_000] }, USAGE));
}

const KINDS: Kind[] = ['get', 'list', 'small'];

let bareWorker: Worker | undefined;

async function main(opts: Options, rt: { databaseUrl: string; natsUrl: string }): Promise<void> {
  const { url, env } = await scratchServiceEnv(rt, DATABASE, NATS_NAMESPACE, POOL_SIZE, APP_URL);
  await startService('auth', 'dist/apps/auth/src/main.js', env, READY_TIMEOUT_MS, 'it applies the auth migrations');
  const { base: svc } = await startService('actions', 'dist/apps/actions/src/main.js', env, READY_TIMEOUT_MS, 'it applies the actions migrations');

  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const sizes = { small: opts.small, large: opts.large };
    const tenants = {} as Record<'small' | 'large', SeededTenant>;
    for (const size of ['small', 'large'] as const) {
      const started = Date.now();
      tenants[size] = await seedTenant(db, `Bench ${size}`, sizes[size]);
      log(`${size} tenant: ${sizes[size].toLocaleString('en')} actions seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    await db.query('VACUUM (ANALYZE)');
    const bare = await startBareWorker(__filename, { databaseUrl: url } satisfies BareConfig);
    bareWorker = bare.worker;
    log(`bare handler on ${bare.base} (worker thread, pg pool of ${POOL_SIZE})`);

    const listQuery = (t: SeededTenant) => `onlyMine=true&actionStatusIds=${statusIdOf(t.tenantId, 'TODO')},${statusIdOf(t.tenantId, 'IN_PROGRESS')}&sortBy=dueDate&limit=20`;
    const tenantOf: Record<Kind, 'small' | 'large'> = { get: 'large', list: 'large', small: 'small' };
    const targets = {} as Record<Kind, Record<Impl, Target>>;
    for (const kind of KINDS) {
      const t = tenants[tenantOf[kind]];
      const path = kind === 'get' ? `/actions/${t.actionId}` : `/actions?${listQuery(t)}`;
      targets[kind] = {
        service: { kind, impl: 'service', url: `${svc}/actions/v1${path}`, headers: { authorization: `Bearer ${signDevToken({ sub: t.callerSub }, DEV_KEYS_DIR, '2h')}` } },
        bare: { kind, impl: 'bare', url: `${bare.base}/bare${path}${path.includes('?') ? '&' : '?'}tenantId=${t.tenantId}&userId=${t.userId}`, headers: {} },
      };
    }
    const matches = {} as Record<Kind, number>;
    for (const kind of KINDS) matches[kind] = ((await checkSame(targets[kind].service, targets[kind].bare)) as { total?: number }).total ?? 1;
    log(`service and bare answer the same data; "my open actions" matches ${matches.list} of ${opts.large} and ${matches.small} of ${opts.small}`);

    const warmups: Run[] = [];
    for (const kind of KINDS)
      for (const impl of ['service', 'bare'] as const)
        if (opts.warmup > 0) warmups.push({ kind, impl, round: 0, ...(await measure(targets[kind][impl].url, targets[kind][impl].headers, opts.connections, opts.warmup)) });
    const runs: Run[] = [];
    for (const round of [1, 2])
      for (const kind of KINDS)
        for (const impl of ['service', 'bare'] as const) {
          log(`${kind} ${impl} run ${round}: ${opts.connections} connections, ${opts.duration} s`);
          runs.push({ kind, impl, round, ...(await measure(targets[kind][impl].url, targets[kind][impl].headers, opts.connections, opts.duration)) });
        }
    report(opts, runs, matches);
    failUnlessAll200([...warmups, ...runs], (r) => `${r.kind} ${r.impl}#${r.round}`);
  } finally {
    await db.end();
  }
}

function report(opts: Options, runs: Run[], matches: Record<Kind, number>): void {
  const best = (kind: Kind, impl: Impl) => runs.filter((r) => r.kind === kind && r.impl === impl).reduce((a, b) => (b.rps > a.rps ? b : a));
  const ratio = (kind: Kind) => best(kind, 'service').rps / best(kind, 'bare').rps;
  const growth = best('list', 'service').p95 / best('small', 'service').p95;
  const verdict = (met: boolean, target: string) => `target ${target}, ${met ? 'met' : 'NOT met'}`;
  const lines = [
    `actions: service (NestJS, token + caller caches warm, envelope) vs bare (Fastify + pg, same SQL) — ${opts.connections} connections, ${opts.duration} s per run, better of 2 runs each`,
    `  get   GET /actions/v1/actions/{id}, ${opts.large.toLocaleString('en')} actions`,
    `  list  "my open actions" (onlyMine, To Do + In Progress, by due date, limit 20), ${opts.large.toLocaleString('en')} actions`,
    `  small the same list, ${opts.small.toLocaleString('en')} actions`,
    '',
    `${'target'.padEnd(6)} ${'impl'.padEnd(7)} ${pad('round', 5)} ${pad('req/s', 7)} ${pad('p50 ms', 7)} ${pad('p95 ms', 7)} ${pad('p99 ms', 7)} ${pad('requests', 8)} ${pad('non-200', 7)}`,
    ...runs.map(
      (r) =>
        `${r.kind.padEnd(6)} ${r.impl.padEnd(7)} ${pad(r.round, 5)} ${pad(r.rps, 7)} ${pad(r.p50.toFixed(2), 7)} ${pad(r.p95.toFixed(2), 7)} ${pad(r.p99.toFixed(2), 7)} ${pad(r.requests, 8)} ${pad(r.non200 + r.errors, 7)}`,
    ),
    '',
    `get-by-id: service/bare ${ratio('get').toFixed(2)} (${verdict(ratio('get') >= TARGETS.get, `>= ${TARGETS.get}`)})`,
    `list:      service/bare ${ratio('list').toFixed(2)} (${verdict(ratio('list') >= TARGETS.list, `>= ${TARGETS.list}`)})`,
    `list p95 (service): ${best('small', 'service').p95.toFixed(2)} ms at ${opts.small.toLocaleString('en')}, ${best('list', 'service').p95.toFixed(2)} ms at ${opts.large.toLocaleString('en')}: ` +
      `${growth.toFixed(2)} (${verdict(growth <= TARGETS.p95Growth, `<= ${TARGETS.p95Growth}`)}); the list matches ${matches.small} and ${matches.list} actions`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  const pair = (kind: Kind) => ({ service: summary(best(kind, 'service')), bare: summary(best(kind, 'bare')) });
  process.stdout.write(
    JSON.stringify({
      bench: 'actions',
      connections: opts.connections,
      durationSec: opts.duration,
      actions: { small: opts.small, large: opts.large },
      get: { ...pair('get'), ratio: round2(ratio('get')), target: TARGETS.get },
      list: { matches: matches.list, ...pair('list'), ratio: round2(ratio('list')), target: TARGETS.list },
      listSmall: { matches: matches.small, ...pair('small') },
      listP95Growth: { ratio: round2(growth), target: TARGETS.p95Growth },
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
});
