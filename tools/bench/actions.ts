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
import { plainToInstance } from 'class-transformer';
import type { FastifyInstance } from 'fastify';
import { Client, Pool } from 'pg';
import { DEFAULT_ROLES } from '@ddm/contracts';
import { listSql, pageRows } from '@ddm/platform';
import { defaultConfiguration } from '../../apps/actions/src/action-config/action-config.rules';
import { statusIdOf } from '../../apps/actions/src/core/configuration.rules';
import { INSERT_DEFAULT_PRIORITIES_SQL, INSERT_DEFAULT_STATUSES_SQL, INSERT_DEFAULT_TYPES_SQL } from '../../apps/actions/src/action-config/action-config.sql';
import { ACTION_BY_ID_SQL, ActionRow, actionList } from '../../apps/actions/src/actions/action.sql';
import { ListActionsQuery } from '../../apps/actions/src/actions/dto/list-actions.query';
import { toActionView } from '../../apps/actions/src/actions/dto/action.response';
import { Ask, BenchContext, bearer, checkSame, failUnlessAll200, Impl, kindAndImpl, log, measureRounds, pageOf, printReport, round2, Run, runsNote, runsTable, secondsSince, seedCaller, seedTenantWithRoles, serviceAndBare, serviceBench, ServiceBenchOptions, uuidV7, verdict, versus, warmUp } from './lib';

const APP_URL = 'http://localhost:8080';
const TARGETS = { get: 0.6, list: 0.8, p95Growth: 1.5 } as const;
/** People per action: each has about as many actions (owned or assigned) in a tenant of any size, as in a real one. */
const ACTIONS_PER_USER = 40;
/** The caller holds the Global User's keys (their permissions are computed as for any caller). */
const CALLER_KEYS = new Set(DEFAULT_ROLES.find((r) => r.key === 'GLOBAL_USER')!.keys);

type Kind = 'get' | 'list' | 'small';
const KINDS: Kind[] = ['get', 'list', 'small'];
interface Options extends ServiceBenchOptions {
  large: number;
  small: number;
}

// The bare handler (worker thread): same SQL, same mapping, no auth, no envelope, no validation.

function bareRoutes(app: FastifyInstance, pool: Pool): void {
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
}

// Seed (set-based SQL).

interface SeededTenant {
  tenantId: string;
  userId: string;
  callerSub: string;
  actionId: string;
}

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

// Main.

async function main({ opts, db, svc, startBare }: BenchContext<Options, object>): Promise<void> {
  const sizes = { small: opts.small, large: opts.large };
  const tenants = {} as Record<'small' | 'large', SeededTenant>;
  for (const size of ['small', 'large'] as const) {
    const started = Date.now();
    tenants[size] = await seedTenant(db, `Bench ${size}`, sizes[size]);
    log(`${size} tenant: ${sizes[size].toLocaleString('en')} actions seeded in ${secondsSince(started)} s`);
  }
  await db.query('VACUUM (ANALYZE)');
  const bare = await startBare({});

  const listQuery = (t: SeededTenant) => `onlyMine=true&actionStatusIds=${statusIdOf(t.tenantId, 'TODO')},${statusIdOf(t.tenantId, 'IN_PROGRESS')}&sortBy=dueDate&limit=20`;
  const tenantOf: Record<Kind, 'small' | 'large'> = { get: 'large', list: 'large', small: 'small' };
  const sides = {} as Record<Kind, { service: Ask; bare: Ask }>;
  for (const kind of KINDS) {
    const t = tenants[tenantOf[kind]];
    const path = kind === 'get' ? `/actions/${t.actionId}` : `/actions?${listQuery(t)}`;
    sides[kind] = {
      service: { url: `${svc}/actions/v1${path}`, headers: bearer(t.callerSub) },
      bare: { url: `${bare}/bare${path}${path.includes('?') ? '&' : '?'}tenantId=${t.tenantId}&userId=${t.userId}`, headers: {} },
    };
  }
  const matches = {} as Record<Kind, number>;
  for (const kind of KINDS) matches[kind] = ((await checkSame(kind, sides[kind].service, sides[kind].bare, kind === 'get' ? undefined : pageOf)) as { total?: number }).total ?? 1;
  log(`service and bare answer the same data; "my open actions" matches ${matches.list} of ${opts.large} and ${matches.small} of ${opts.small}`);

  const targets = serviceAndBare(KINDS, (kind) => sides[kind]);
  const warmups = await warmUp(targets, opts);
  const runs = await measureRounds(targets, opts);
  report(opts, runs, matches);
  failUnlessAll200([...warmups, ...runs], (r) => `${r.kind} ${r.impl}#${r.round}`);
}

function report(opts: Options, runs: Run<{ kind: Kind; impl: Impl }>[], matches: Record<Kind, number>): void {
  const [get, list, small] = KINDS.map((kind) => versus(runs, { kind }));
  const growth = list.service.p95 / small.service.p95;
  printReport(
    [
      `actions: service (NestJS, token + caller caches warm, envelope) vs bare (Fastify + pg, same SQL) — ${runsNote(opts)}`,
      `  get   GET /actions/v1/actions/{id}, ${opts.large.toLocaleString('en')} actions`,
      `  list  "my open actions" (onlyMine, To Do + In Progress, by due date, limit 20), ${opts.large.toLocaleString('en')} actions`,
      `  small the same list, ${opts.small.toLocaleString('en')} actions`,
      '',
      ...runsTable(runs, kindAndImpl(6)),
      '',
      `get-by-id: service/bare ${get.ratio.toFixed(2)} (${verdict(get.ratio >= TARGETS.get, `>= ${TARGETS.get}`)})`,
      `list:      service/bare ${list.ratio.toFixed(2)} (${verdict(list.ratio >= TARGETS.list, `>= ${TARGETS.list}`)})`,
      `list p95 (service): ${small.service.p95.toFixed(2)} ms at ${opts.small.toLocaleString('en')}, ${list.service.p95.toFixed(2)} ms at ${opts.large.toLocaleString('en')}: ` +
        `${growth.toFixed(2)} (${verdict(growth <= TARGETS.p95Growth, `<= ${TARGETS.p95Growth}`)}); the list matches ${matches.small} and ${matches.list} actions`,
    ],
    {
      bench: 'actions',
      connections: opts.connections,
      durationSec: opts.duration,
      actions: { small: opts.small, large: opts.large },
      get: { ...get.pair, ratio: round2(get.ratio), target: TARGETS.get },
      list: { matches: matches.list, ...list.pair, ratio: round2(list.ratio), target: TARGETS.list },
      listSmall: { matches: matches.small, ...small.pair },
      listP95Growth: { ratio: round2(growth), target: TARGETS.p95Growth },
      runs,
    },
  );
}

serviceBench<Options>({
  name: 'actions',
  service: 'actions',
  usage: 'npm run bench -- actions [--duration <s>] [--connections <n>] [--warmup <s>] [--large <n>] [--small <n>] [--keep]',
  defaults: { large: 200_000, small: 2_000 },
  options: { counts: { large: [100, 1_000_000], small: [100, 1_000_000] } },
  appUrl: APP_URL,
  bare: { routes: bareRoutes },
  main,
});
