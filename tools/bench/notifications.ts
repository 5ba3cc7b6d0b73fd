/**
 * npm run bench -- notifications [--notifications 1000000] [--users 10000] [--events 2000] [--sse 200]
 *                                [--duration 10] [--connections 16] [--warmup 3] [--keep]
 *
 * What the notifications service costs over the SQL it runs, and how fast it turns events into
 * notifications and delivers them live. In a scratch database (ddm_bench_notifications, dropped at
 * the end unless --keep) one tenant gets `--users` members (the notifications area's projection)
 * and `--notifications` notifications across them (set-based SQL, created over six months, a
 * third read): the HEAVY caller holds 10,000 of them, the LIGHT caller 100, the rest are spread
 * evenly. The built auth and notifications services run as child processes (NATS namespace
 * "benchnotifications"); a BARE handler, plain Fastify + a pg pool of 10 with no auth and no
 * envelope, runs in a worker thread and serves the very same statements (countSql and the list
 * builder's statement of notificationList, imported from apps/notifications) with the same mapping.
 *
 * Measured in one run, service and bare alternating, twice, the better run of each counting:
 *   count  GET /v1/notifications/count               (the heavy caller: 10,000 notifications)
 *   list   GET /v1/notifications?limit=20            (the heavy caller)
 *   light  GET /v1/notifications/count               (the light caller: 100), service only
 * Then: `--events` evt.actions.action.assigned events (one new assignee each) published at once,
 * the time until all have become notifications (events per second); and `--sse` notifications
 * created one at a time through the API for the heavy caller while their stream is open, the time
 * from sending each create to its arrival on the stream (p50/p95).
 * Targets: count and list service/bare >= 0.8; count p95 heavy/light <= 1.5. Prints a table and
 * one JSON line; exits 1 if a response was not a 200. Children, worker, database and streams are
 * removed in every case.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { Worker, parentPort } from 'node:worker_threads';
import { plainToInstance } from 'class-transformer';
import Fastify from 'fastify';
import { JSONCodec, connect } from 'nats';
import { Client, Pool } from 'pg';
import { Subjects } from '@ddm/contracts';
import { listSql, pageRows } from '@ddm/platform';
import { ListNotificationsQuery } from '../../apps/notifications/src/notifications/dto/notification-request.dto';
import { NotificationRow, rowToView } from '../../apps/notifications/src/notifications/dto/notification.response';
import { countSql, notificationList } from '../../apps/notifications/src/notifications/notification.sql';
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
  startService,
  Stats,
  summary,
  startBareWorker,
  keepAndCounts,
} from './lib';

const DATABASE = 'ddm_bench_notifications';
const NATS_NAMESPACE = 'benchnotifications';
const READY_TIMEOUT_MS = 120_000;
const POOL_SIZE = 10;
const USAGE = 'npm run bench -- notifications [--notifications <n>] [--users <n>] [--events <n>] [--sse <n>] [--duration <s>] [--connections <n>] [--warmup <s>] [--keep]';
const HEAVY = 10_000;
const LIGHT = 100;
const TARGETS = { count: 0.8, list: 0.8, flat: 1.5 } as const;
const LIST_QUERY = 'limit=20';

type Kind = 'count' | 'list' | 'light';
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
  notifications: number;
  users: number;
  events: number;
  sse: number;
  keep: boolean;
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
  app.get<{ Querystring: { tenantId: string; userId: string } }>('/bare/count', async (req) => {
    const { text, values } = countSql(req.query.tenantId, req.query.userId, 'all', new Date());
    const { rows } = await pool.query<{ unread: number; read: number; total: number }>(text, values as unknown[]);
    return { unread: rows[0].unread, read: rows[0].read, total: rows[0].total, timePeriod: 'all' };
  });
  app.get<{ Querystring: Record<string, string> }>('/bare/list', async (req) => {
    const { tenantId, userId, ...rest } = req.query;
    const q = plainToInstance(ListNotificationsQuery, rest);
    const now = new Date();
    const spec = notificationList(tenantId, userId, q, now);
    const { text, values } = listSql(spec);
    const { rows } = await pool.query<NotificationRow & { total: number; ord: unknown }>(text, values as unknown[]);
    const { items, total } = pageRows(rows, (r: NotificationRow) => rowToView(r, now));
    return { page: q.page, limit: q.limit, total, data: items };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  parentPort!.postMessage({ port: (app.server.address() as { port: number }).port });
}

// ---------------------------------------------------------------------------------------------
// Seed (set-based SQL).
// ---------------------------------------------------------------------------------------------

interface Seeded {
  tenantId: string;
  heavy: { userId: string; sub: string };
  light: { userId: string; sub: string };
  userIds: string[];
}

/** A second member of the tenant in auth (a Global User), besides seedCaller's admin. */
async function seedMember(db: Client, tenantId: string, roleId: string, email: string): Promise<{ userId: string; sub: string }> {
  const [u] = (
    await db.query<{ id: string; sub: string }>(
      `INSERT INTO auth.users (id, email, login_id, first_name, last_name, name, display_name, idp_user_id, active_tenant_id, display_language, date_format, last_login_date)
       VALUES (gen_random_uuid(), $1::text, $1::text, 'Bench', 'Light', 'Bench Light', 'Bench Light', 'bench|' || $1::text, $2, 'en', 'MM/DD/YYYY', now())
       RETURNING id, idp_user_id AS sub`,
      [email, tenantId],
    )
  ).rows;
  await db.query(`INSERT INTO auth.tenant_users (id, tenant_id, user_id, user_display_id, status) VALUES (gen_random_uuid(), $1, $2, '10001', 'ACTIVE')`, [tenantId, u.id]);
  await db.query(`INSERT INTO auth.user_roles (id, tenant_id, user_id, tenant_role_id) VALUES (gen_random_uuid(), $1, $2, $3)`, [tenantId, u.id, roleId]);
  await db.query(`UPDATE auth.display_id_counters SET last_value = 10001 WHERE tenant_id = $1 AND kind = 'user'`, [tenantId]);
  return { userId: u.id, sub: u.sub };
}

async function seed(db: Client, opts: Options): Promise<Seeded> {
  const { tenantId, roleIds } = await seedTenantWithRoles(db, 'Bench notifications');
  const heavy = await seedCaller(db, tenantId, roleIds.SYSTEM_ADMIN, 'heavy@bench.test');
  const light = await seedMember(db, tenantId, roleIds.GLOBAL_USER, 'light@bench.test');
  // The members as the auth area's events would have told the notifications area.
  await db.query(
    `INSERT INTO notifications.user_projection (tenant_id, id, email, name, status)
     SELECT $1, x.id, x.email, x.email, 'ACTIVE' FROM unnest($2::uuid[], $3::text[]) AS x(id, email)`,
    [tenantId, [heavy.userId, light.userId], ['heavy@bench.test', 'light@bench.test']],
  );
  const others = Math.max(opts.users - 2, 1);
  await db.query(
    `INSERT INTO notifications.user_projection (tenant_id, id, email, name, status)
     SELECT $1, gen_random_uuid(), 'member' || i || '@bench.test', 'Member ' || i, 'ACTIVE' FROM generate_series(1, $2::int) AS i`,
    [tenantId, others],
  );
  const userIds = (await db.query<{ id: string }>(`SELECT id FROM notifications.user_projection WHERE tenant_id = $1 AND id <> ALL($2::uuid[]) ORDER BY id`, [tenantId, [heavy.userId, light.userId]])).rows.map(
    (r) => r.id,
  );
  // Notifications: created over six months (ids time-ordered like the service's), a third read.
  const insert = (userSql: string, count: number, params: unknown[]) =>
    db.query(
      `INSERT INTO notifications.notifications (id, tenant_id, user_id, template_key, category, title, message, is_actionable, status, created_at, read_at, entity_type, entity_id, action_url)
       SELECT (lpad(to_hex((extract(epoch FROM x.created) * 1000)::bigint), 12, '0') || '7' || substr(md5(random()::text), 1, 3) || '8' || substr(md5(random()::text), 1, 15))::uuid,
              $1, ${userSql}, 'DELEGATION_ISSUED', 'DELEGATION', 'Delegation ' || (10000 + x.i) || ' issued to you',
              'Delegation <strong>' || (10000 + x.i) || '</strong> was issued to you.', false,
              CASE WHEN x.i % 3 = 0 THEN 'READ' ELSE 'UNREAD' END, x.created, CASE WHEN x.i % 3 = 0 THEN x.created + interval '1 hour' END,
              'delegation', gen_random_uuid()::text, '/delegations/' || x.i
         FROM (SELECT i, now() - random() * interval '180 days' AS created FROM generate_series(1, $2::int) AS i) x`,
      [tenantId, count, ...params],
    );
  await insert('$3::uuid', HEAVY, [heavy.userId]);
  await insert('$3::uuid', LIGHT, [light.userId]);
  const rest = Math.max(opts.notifications - HEAVY - LIGHT, 0);
  await insert('($3::uuid[])[1 + x.i % array_length($3::uuid[], 1)]', rest, [userIds]);
  return { tenantId, heavy, light, userIds };
}

// ---------------------------------------------------------------------------------------------
// Checks, events and streams.
// ---------------------------------------------------------------------------------------------

const REQUEST_TIMEOUT_MS = 10_000;

async function getJson(t: Target): Promise<unknown> {
  const res = await fetch(t.url, { headers: t.headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const body = (await res.json()) as unknown;
  if (res.status !== 200) throw new Error(`${t.impl} ${t.kind}: GET ${t.url} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/** Service and bare answer the same data (relativeTime aside, computed at each answer), or the comparison means nothing. */
async function checkSame(service: Target, bare: Target): Promise<void> {
  const strip = (x: unknown) => JSON.parse(JSON.stringify(x, (k, v) => (k === 'relativeTime' ? undefined : v)));
  const s = strip(((await getJson(service)) as { data: unknown }).data);
  const b = strip(await getJson(bare));
  if (!isDeepStrictEqual(s, b)) throw new Error(`${service.kind}: the service and the bare handler answer different data:\n service ${JSON.stringify(s).slice(0, 400)}\n bare    ${JSON.stringify(b).slice(0, 400)}`);
}

/** Publishes `count` evt.actions.action.assigned events (one new assignee each) at once; answers events per second until all are notifications. */
async function eventThroughput(db: Client, natsUrl: string, seeded: Seeded, count: number): Promise<{ events: number; seconds: number; perSecond: number }> {
  const nc = await connect({ servers: natsUrl });
  const js = nc.jetstream();
  const subjects = new Subjects(NATS_NAMESPACE);
  const codec = JSONCodec();
  const made = async () =>
    Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM notifications.notifications WHERE tenant_id = $1 AND template_key = 'ACTION_ASSIGNED'`, [seeded.tenantId])).rows[0].n);
  const before = await made();
  const started = Date.now();
  const acks: Promise<unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const assignee = seeded.userIds[i % seeded.userIds.length];
    const action = {
      id: randomUUID(), actionId: String(10000 + i), actionName: `Bench action ${i}`, ownerId: seeded.heavy.userId, assigneeIds: [assignee], actionStatusId: randomUUID(),
      statusKey: 'TODO', dueDate: null, isSystemGenerated: false, systemKind: null, decisionId: null, delegationId: null, documentId: null, isDeleted: false, version: 1,
    };
    acks.push(js.publish(subjects.wire('evt.actions.action.assigned'), codec.encode({ tenantId: seeded.tenantId, action, changedBy: seeded.heavy.userId, newAssigneeIds: [assignee] }), { msgID: randomUUID() }));
    if (acks.length >= 500) await Promise.all(acks.splice(0));
  }
  await Promise.all(acks);
  const deadline = Date.now() + 300_000;
  while ((await made()) - before < count) {
    if (Date.now() > deadline) throw new Error('the events did not all become notifications within 5 minutes');
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (Date.now() - started) / 1000;
  await nc.close();
  return { events: count, seconds: round2(seconds), perSecond: Math.round(count / seconds) };
}

/** Opens the heavy caller's stream, creates `count` notifications for them one at a time, answers send-to-arrival latencies (ms). */
async function sseLatency(svc: string, token: string, userId: string, count: number): Promise<{ p50: number; p95: number; max: number }> {
  const controller = new AbortController();
  const res = await fetch(`${svc}/v1/notifications/stream`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  if (res.status !== 200 || !res.body) throw new Error(`stream answered ${res.status}`);
  const arrived = new Map<string, number>();
  const waiting = new Map<string, () => void>();
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        for (let m = /^id: (.+)$/m.exec(buffer); m; m = /^id: (.+)$/m.exec(buffer)) {
          arrived.set(m[1], performance.now());
          waiting.get(m[1])?.();
          buffer = buffer.slice(m.index + m[0].length);
        }
      }
    } catch {
      /* closed */
    }
  })();
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const sent = performance.now();
    const created = await fetch(`${svc}/v1/notifications`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ templateKey: 'DELEGATION_ISSUED', userId, placeholders: { delegationDisplayId: String(i) } }),
    });
    const body = (await created.json()) as { data: { id: string } };
    if (created.status !== 200) throw new Error(`create answered ${created.status}`);
    const id = body.data.id;
    if (!arrived.has(id)) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`notification ${id} not on the stream within 10 s`)), 10_000);
        waiting.set(id, () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    times.push(arrived.get(id)! - sent);
  }
  controller.abort();
  times.sort((a, b) => a - b);
  const at = (p: number) => round2(times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)]);
  return { p50: at(50), p95: at(95), max: round2(times[times.length - 1]) };
}

// ---------------------------------------------------------------------------------------------
// Main.
// ---------------------------------------------------------------------------------------------

function parseOptions(argv: string[]): Options {
  const defaults: Options = { duration: 10, connections: 16, warmup: 3, notifications: 1_000_000, users: 10_000, events: 2_000, sse: 200, keep: false };
  const ranges = { notifications: [HEAVY + LIGHT, 10_000_000], users: [3, 1_000_000], events: [1, 1_000_000], sse: [1, 100_000] } satisfies Partial<Record<keyof Options, [number, number]>>;
  return parseArgs<Options>(argv, defaults, USAGE, keepAndCounts<Options>(ranges, USAGE));
}

const KINDS: Kind[] = ['count', 'list', 'light'];
let bareWorker: Worker | undefined;

async function main(opts: Options, rt: { databaseUrl: string; natsUrl: string }): Promise<void> {
  const { url, env } = await scratchServiceEnv(rt, DATABASE, NATS_NAMESPACE, POOL_SIZE);
  await startService('auth', 'dist/apps/auth/src/main.js', env, READY_TIMEOUT_MS, 'it applies the auth migrations');
  const { base: svc } = await startService('notifications', 'dist/apps/notifications/src/main.js', env, READY_TIMEOUT_MS, 'it applies the notifications migrations');

  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const started = Date.now();
    const seeded = await seed(db, opts);
    log(`${opts.notifications.toLocaleString('en')} notifications over ${opts.users.toLocaleString('en')} people seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await db.query('VACUUM (ANALYZE)');

    const bare = await startBareWorker(__filename, { databaseUrl: url } satisfies BareConfig);
    bareWorker = bare.worker;
    const tokenOf = (sub: string) => ({ authorization: `Bearer ${signDevToken({ sub }, DEV_KEYS_DIR, '2h')}` });
    const who = { count: seeded.heavy, list: seeded.heavy, light: seeded.light };
    const targets = {} as Record<Kind, Record<Impl, Target>>;
    for (const kind of KINDS) {
      const path = kind === 'list' ? `?${LIST_QUERY}` : '/count';
      const barePath = kind === 'list' ? `/list?${LIST_QUERY}&` : '/count?';
      targets[kind] = {
        service: { kind, impl: 'service', url: `${svc}/v1/notifications${path}`, headers: tokenOf(who[kind].sub) },
        bare: { kind, impl: 'bare', url: `${bare.base}/bare${barePath}tenantId=${seeded.tenantId}&userId=${who[kind].userId}`, headers: {} },
      };
    }
    for (const kind of KINDS) await checkSame(targets[kind].service, targets[kind].bare);
    log('service and bare answer the same data');

    const impls = (kind: Kind): Impl[] => (kind === 'light' ? ['service'] : ['service', 'bare']);
    const warmups: Run[] = [];
    if (opts.warmup > 0) {
      for (const kind of KINDS)
        for (const impl of impls(kind)) warmups.push({ kind, impl, round: 0, ...(await measure(targets[kind][impl].url, targets[kind][impl].headers, opts.connections, opts.warmup)) });
    }
    const runs: Run[] = [];
    for (const round of [1, 2])
      for (const kind of KINDS)
        for (const impl of impls(kind)) {
          log(`${kind} ${impl} run ${round}: ${opts.connections} connections, ${opts.duration} s`);
          runs.push({ kind, impl, round, ...(await measure(targets[kind][impl].url, targets[kind][impl].headers, opts.connections, opts.duration)) });
        }

    log(`publishing ${opts.events} evt.actions.action.assigned events`);
    const events = await eventThroughput(db, rt.natsUrl, seeded, opts.events);
    log(`creating ${opts.sse} notifications one at a time with the stream open`);
    const sse = await sseLatency(svc, signDevToken({ sub: seeded.heavy.sub }, DEV_KEYS_DIR, '2h'), seeded.heavy.userId, opts.sse);

    report(opts, runs, events, sse);
    failUnlessAll200([...warmups, ...runs], (r) => `${r.kind} ${r.impl}#${r.round}`);
  } finally {
    await db.end();
  }
}

function report(opts: Options, runs: Run[], events: { events: number; seconds: number; perSecond: number }, sse: { p50: number; p95: number; max: number }): void {
  const best = (kind: Kind, impl: Impl) => runs.filter((r) => r.kind === kind && r.impl === impl).reduce((a, b) => (b.rps > a.rps ? b : a));
  const ratio = (kind: 'count' | 'list') => best(kind, 'service').rps / best(kind, 'bare').rps;
  const flat = best('count', 'service').p95 / best('light', 'service').p95;
  const verdict = (met: boolean, target: string) => `target ${target}, ${met ? 'met' : 'NOT met'}`;
  const lines = [
    `notifications: service (NestJS, token + caller caches warm, envelope) vs bare (Fastify + pg, same SQL): ${opts.notifications.toLocaleString('en')} notifications, ` +
      `${opts.users.toLocaleString('en')} people, ${opts.connections} connections, ${opts.duration} s per run, better of 2 runs each`,
    '',
    `${'target'.padEnd(6)} ${'impl'.padEnd(7)} ${pad('round', 5)} ${pad('req/s', 7)} ${pad('p50 ms', 7)} ${pad('p95 ms', 7)} ${pad('p99 ms', 7)} ${pad('requests', 8)} ${pad('non-200', 7)}`,
    ...runs.map(
      (r) =>
        `${r.kind.padEnd(6)} ${r.impl.padEnd(7)} ${pad(r.round, 5)} ${pad(r.rps, 7)} ${pad(r.p50.toFixed(2), 7)} ${pad(r.p95.toFixed(2), 7)} ${pad(r.p99.toFixed(2), 7)} ${pad(r.requests, 8)} ${pad(r.non200 + r.errors, 7)}`,
    ),
    '',
    `count (${HEAVY.toLocaleString('en')} notifications): service/bare ${ratio('count').toFixed(2)} (${verdict(ratio('count') >= TARGETS.count, `>= ${TARGETS.count}`)})`,
    `list limit 20:                service/bare ${ratio('list').toFixed(2)} (${verdict(ratio('list') >= TARGETS.list, `>= ${TARGETS.list}`)})`,
    `count p95 ${HEAVY.toLocaleString('en')} vs ${LIGHT} notifications: ${best('count', 'service').p95.toFixed(2)} / ${best('light', 'service').p95.toFixed(2)} ms = ${flat.toFixed(2)} (${verdict(flat <= TARGETS.flat, `<= ${TARGETS.flat}`)})`,
    `events to notifications: ${events.events} in ${events.seconds} s = ${events.perSecond} events/s`,
    `SSE delivery (send of the create to arrival on the stream): p50 ${sse.p50} ms, p95 ${sse.p95} ms, max ${sse.max} ms over ${opts.sse}`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  const pair = (kind: 'count' | 'list') => ({ service: summary(best(kind, 'service')), bare: summary(best(kind, 'bare')), ratio: round2(ratio(kind)), target: TARGETS[kind], met: ratio(kind) >= TARGETS[kind] });
  process.stdout.write(
    JSON.stringify({
      bench: 'notifications',
      notifications: opts.notifications,
      users: opts.users,
      connections: opts.connections,
      durationSec: opts.duration,
      count: pair('count'),
      list: pair('list'),
      countP95Flat: { heavy: best('count', 'service').p95, light: best('light', 'service').p95, ratio: round2(flat), target: TARGETS.flat, met: flat <= TARGETS.flat },
      events,
      sse,
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
