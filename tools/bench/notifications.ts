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
import { plainToInstance } from 'class-transformer';
import type { FastifyInstance } from 'fastify';
import { JSONCodec, connect } from 'nats';
import { Client, Pool } from 'pg';
import { Subjects } from '@ddm/contracts';
import { listSql, pageRows } from '@ddm/platform';
import { ListNotificationsQuery } from '../../apps/notifications/src/notifications/dto/notification-request.dto';
import { NotificationRow, rowToView } from '../../apps/notifications/src/notifications/dto/notification.response';
import { countSql, notificationList } from '../../apps/notifications/src/notifications/notification.sql';
import { Ask, BenchContext, bearer, best, checkSame, failUnlessAll200, Impl, kindAndImpl, log, measureRounds, pct, printReport, round2, Run, runsNote, runsTable, secondsSince, seedCaller, seedTenantWithRoles, serviceAndBare, serviceBench, ServiceBenchOptions, sleep, uuidV7, verdict, versus, warmUp } from './lib';

const HEAVY = 10_000;
const LIGHT = 100;
const TARGETS = { count: 0.8, list: 0.8, flat: 1.5 } as const;
const LIST_QUERY = 'limit=20';

type Kind = 'count' | 'list' | 'light';
const KINDS: Kind[] = ['count', 'list', 'light'];
interface Options extends ServiceBenchOptions {
  notifications: number;
  users: number;
  events: number;
  sse: number;
}

// ---------------------------------------------------------------------------------------------
// The bare handler (worker thread): same SQL, same mapping, no auth, no envelope, no validation.
// ---------------------------------------------------------------------------------------------

function bareRoutes(app: FastifyInstance, pool: Pool): void {
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

async function seed(db: Client, opts: Options): Promise<Seeded> {
  const { tenantId, roleIds } = await seedTenantWithRoles(db, 'Bench notifications');
  const heavy = await seedCaller(db, tenantId, roleIds.SYSTEM_ADMIN, 'heavy@bench.test');
  const light = await seedCaller(db, tenantId, roleIds.GLOBAL_USER, 'light@bench.test', { n: 1, lastName: 'Light' });
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
       SELECT ${uuidV7('x.created')},
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
// Events and streams.
// ---------------------------------------------------------------------------------------------

/** What service and bare must answer alike: the data, relativeTime aside (computed at each answer). */
const withoutRelativeTime = (x: unknown) => JSON.parse(JSON.stringify(x, (k, v) => (k === 'relativeTime' ? undefined : v)));

/** Publishes `count` evt.actions.action.assigned events (one new assignee each) at once; answers events per second until all are notifications. */
async function eventThroughput(db: Client, natsUrl: string, natsNamespace: string, seeded: Seeded, count: number): Promise<{ events: number; seconds: number; perSecond: number }> {
  const nc = await connect({ servers: natsUrl });
  const js = nc.jetstream();
  const subjects = new Subjects(natsNamespace);
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
    await sleep(100);
  }
  const seconds = (Date.now() - started) / 1000;
  await nc.close();
  return { events: count, seconds: round2(seconds), perSecond: Math.round(count / seconds) };
}

/** Opens the heavy caller's stream, creates `count` notifications for them one at a time, answers send-to-arrival latencies (ms). */
async function sseLatency(svc: string, auth: Record<string, string>, userId: string, count: number): Promise<{ p50: number; p95: number; max: number }> {
  const controller = new AbortController();
  const res = await fetch(`${svc}/v1/notifications/stream`, { headers: auth, signal: controller.signal });
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
      headers: { ...auth, 'content-type': 'application/json' },
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
  return { p50: pct(times, 50), p95: pct(times, 95), max: pct(times, 100) };
}

// ---------------------------------------------------------------------------------------------
// Main.
// ---------------------------------------------------------------------------------------------

async function main({ opts, rt, natsNamespace, db, svc, startBare }: BenchContext<Options, object>): Promise<void> {
  const started = Date.now();
  const seeded = await seed(db, opts);
  log(`${opts.notifications.toLocaleString('en')} notifications over ${opts.users.toLocaleString('en')} people seeded in ${secondsSince(started)} s`);
  await db.query('VACUUM (ANALYZE)');

  const bare = await startBare({});
  const who = { count: seeded.heavy, list: seeded.heavy, light: seeded.light };
  const sides = {} as Record<Kind, { service: Ask; bare: Ask }>;
  for (const kind of KINDS) {
    const path = kind === 'list' ? `?${LIST_QUERY}` : '/count';
    const barePath = kind === 'list' ? `/list?${LIST_QUERY}&` : '/count?';
    sides[kind] = {
      service: { url: `${svc}/v1/notifications${path}`, headers: bearer(who[kind].sub) },
      bare: { url: `${bare}/bare${barePath}tenantId=${seeded.tenantId}&userId=${who[kind].userId}`, headers: {} },
    };
  }
  for (const kind of KINDS) await checkSame(kind, sides[kind].service, sides[kind].bare, withoutRelativeTime);
  log('service and bare answer the same data');

  // The light caller's count is measured on the service alone.
  const targets = serviceAndBare(KINDS, (kind) => (kind === 'light' ? { service: sides[kind].service } : sides[kind]));
  const warmups = await warmUp(targets, opts);
  const runs = await measureRounds(targets, opts);

  log(`publishing ${opts.events} evt.actions.action.assigned events`);
  const events = await eventThroughput(db, rt.natsUrl, natsNamespace, seeded, opts.events);
  log(`creating ${opts.sse} notifications one at a time with the stream open`);
  const sse = await sseLatency(svc, bearer(seeded.heavy.sub), seeded.heavy.userId, opts.sse);

  report(opts, runs, events, sse);
  failUnlessAll200([...warmups, ...runs], (r) => `${r.kind} ${r.impl}#${r.round}`);
}

function report(opts: Options, runs: Run<{ kind: Kind; impl: Impl }>[], events: { events: number; seconds: number; perSecond: number }, sse: { p50: number; p95: number; max: number }): void {
  const [count, list] = (['count', 'list'] as const).map((kind) => versus(runs, { kind }));
  const lightService = best(runs, { kind: 'light', impl: 'service' });
  const flat = count.service.p95 / lightService.p95;
  printReport(
    [
      `notifications: service (NestJS, token + caller caches warm, envelope) vs bare (Fastify + pg, same SQL): ${opts.notifications.toLocaleString('en')} notifications, ` +
        `${opts.users.toLocaleString('en')} people, ${runsNote(opts)}`,
      '',
      ...runsTable(runs, kindAndImpl(6)),
      '',
      `count (${HEAVY.toLocaleString('en')} notifications): service/bare ${count.ratio.toFixed(2)} (${verdict(count.ratio >= TARGETS.count, `>= ${TARGETS.count}`)})`,
      `list limit 20:                service/bare ${list.ratio.toFixed(2)} (${verdict(list.ratio >= TARGETS.list, `>= ${TARGETS.list}`)})`,
      `count p95 ${HEAVY.toLocaleString('en')} vs ${LIGHT} notifications: ${count.service.p95.toFixed(2)} / ${lightService.p95.toFixed(2)} ms = ${flat.toFixed(2)} (${verdict(flat <= TARGETS.flat, `<= ${TARGETS.flat}`)})`,
      `events to notifications: ${events.events} in ${events.seconds} s = ${events.perSecond} events/s`,
      `SSE delivery (send of the create to arrival on the stream): p50 ${sse.p50} ms, p95 ${sse.p95} ms, max ${sse.max} ms over ${opts.sse}`,
    ],
    {
      bench: 'notifications',
      notifications: opts.notifications,
      users: opts.users,
      connections: opts.connections,
      durationSec: opts.duration,
      count: { ...count.pair, ratio: round2(count.ratio), target: TARGETS.count, met: count.ratio >= TARGETS.count },
      list: { ...list.pair, ratio: round2(list.ratio), target: TARGETS.list, met: list.ratio >= TARGETS.list },
      countP95Flat: { heavy: count.service.p95, light: lightService.p95, ratio: round2(flat), target: TARGETS.flat, met: flat <= TARGETS.flat },
      events,
      sse,
      runs,
    },
  );
}

serviceBench<Options>({
  name: 'notifications',
  service: 'notifications',
  usage: 'npm run bench -- notifications [--notifications <n>] [--users <n>] [--events <n>] [--sse <n>] [--duration <s>] [--connections <n>] [--warmup <s>] [--keep]',
  defaults: { notifications: 1_000_000, users: 10_000, events: 2_000, sse: 200 },
  options: { counts: { notifications: [HEAVY + LIGHT, 10_000_000], users: [3, 1_000_000], events: [1, 1_000_000], sse: [1, 100_000] } },
  bare: { routes: bareRoutes },
  main,
});
