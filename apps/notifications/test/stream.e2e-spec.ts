import { expectErrorBody, startHarness, startTestService, TestService, until } from '@ddm/testing';
import { NotificationsModule } from '../src/notifications.module';
import { notificationsDataSource } from '../src/data-source';
import { LiveStreams } from '../src/stream/live-streams';
import { notificationsApp, NotificationsHarness } from './fixtures/notifications-app';
import { openStream, SseClient } from './fixtures/sse';

const PATH = '/v1/notifications';

describe('live notifications (SSE) across two replicas (e2e, real Postgres and NATS)', () => {
  let h: NotificationsHarness;
  let replica: TestService['app'];
  let replicaUrl: string;
  let userId: string;
  const streams: SseClient[] = [];

  beforeAll(async () => {
    process.env.NOTIFICATIONS_SSE_HEARTBEAT_MS = '300';
    h = await startHarness(notificationsApp);
    userId = h.user('user@demo.test').id;
    // A second replica: the same database and namespace, its own process state.
    const second = await startTestService(NotificationsModule, { area: 'notifications', dataSource: notificationsDataSource }, { db: h.svc.db, ns: h.svc.ns });
    replica = second.app;
    replicaUrl = second.url;
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await replica?.close();
    await h?.close();
    delete process.env.NOTIFICATIONS_SSE_HEARTBEAT_MS;
  });

  const open = async (url: string, token: string, lastEventId?: string) => {
    const s = await openStream(url, token, lastEventId);
    streams.push(s);
    return s;
  };
  const createVia = (base: string, n: string) =>
    fetch(`${base}${PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.tokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ templateKey: 'DELEGATION_ISSUED', userId, placeholders: { delegationDisplayId: n } }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data: { id: string } } }));

  it('a stream opened on one replica gets the notification created through the other, with its id; heartbeats keep it', async () => {
    const s = await open(`${h.svc.url}${PATH}/stream`, h.tokens.user);
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(s.headers.get('x-accel-buffering')).toBe('no');
    await until(() => h.svc.app.get(LiveStreams).size === 1, 'the stream registered');
    const created = await createVia(replicaUrl, '20001');
    expect(created.status).toBe(200);
    const id = created.body.data.id;
    const got = await until(() => s.events.find((e) => e.id === id), 'the notification on the stream', 3_000);
    expect(got.event).toBe('notification');
    expect(JSON.parse(got.data!)).toMatchObject({ id, userId, tenantId: h.demo.id, title: 'Delegation 20001 issued to you', status: 'UNREAD', relativeTime: 'just now' });
    await until(() => s.comments.some((c) => c.startsWith('heartbeat')), 'a heartbeat', 3_000);
    // Another person's stream gets nothing of it.
    const theirs = await open(`${replicaUrl}${PATH}/stream`, h.tokens.manager);
    const second = await createVia(h.svc.url, '20002');
    await until(() => s.events.some((e) => e.id === second.body.data.id), 'the second notification');
    expect(theirs.events).toEqual([]);
  });

  it('a reconnect with Last-Event-ID replays the notifications created since, then goes on live', async () => {
    const first = await open(`${h.svc.url}${PATH}/stream`, h.tokens.user);
    const a = await createVia(h.svc.url, '30001');
    await until(() => first.events.some((e) => e.id === a.body.data.id), 'the first one live');
    first.close();
    const missed = [await createVia(replicaUrl, '30002'), await createVia(h.svc.url, '30003')].map((r) => r.body.data.id);
    const again = await open(`${replicaUrl}${PATH}/stream`, h.tokens.user, a.body.data.id);
    await until(() => missed.every((id) => again.events.some((e) => e.id === id)), 'the missed ones replayed');
    expect(again.events.slice(0, 2).map((e) => e.id)).toEqual(missed);
    const live = await createVia(h.svc.url, '30004');
    await until(() => again.events.some((e) => e.id === live.body.data.id), 'the next one live');
    expect(new Set(again.events.map((e) => e.id)).size).toBe(again.events.length);
  });

  it('at most 5 streams per person across the replicas: the sixth closes the oldest, wherever it is', async () => {
    const live = [h.svc.app.get(LiveStreams), replica.get(LiveStreams)];
    for (const s of streams) s.close();
    await until(() => live[0].size + live[1].size === 0, 'earlier streams gone');
    const mine: SseClient[] = [];
    // Three on the first replica (the oldest among them), then three on the second.
    for (let i = 0; i < 3; i++) mine.push(await open(`${h.svc.url}${PATH}/stream`, h.tokens.auditor));
    for (let i = 0; i < 3; i++) {
      await until(() => live[0].size === 3, 'three on the first replica');
      mine.push(await open(`${replicaUrl}${PATH}/stream`, h.tokens.auditor));
    }
    await mine[0].closed; // the oldest was ended by its replica
    await until(() => live[0].size === 2 && live[1].size === 3, 'two and three streams kept');
    // The others stay open: a new notification reaches all five.
    const auditorId = h.user('auditor@demo.test').id;
    const res = await fetch(`${h.svc.url}${PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.tokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ templateKey: 'DELEGATION_ISSUED', userId: auditorId, placeholders: { delegationDisplayId: '50001' } }),
    });
    const id = ((await res.json()) as { data: { id: string } }).data.id;
    await until(() => mine.slice(1).every((s) => s.events.some((e) => e.id === id)), 'the notification on the five streams');
  });

  it('needs a token; another tenant named is a 403', async () => {
    expectErrorBody(await h.svc.http.get(`${PATH}/stream`), 401);
    expectErrorBody(await h.svc.http.get(`${PATH}/stream?tenantId=${h.other.id}`, { token: h.tokens.user }), 403);
  });

  it('a replica shutting down ends its streams at once (their clients reconnect elsewhere with Last-Event-ID)', async () => {
    // (the last test: it closes the second replica)
    const s = await open(`${replicaUrl}${PATH}/stream`, h.tokens.user);
    expect(s.status).toBe(200);
    const started = Date.now();
    const closing = replica.close();
    await s.closed;
    // Before the HTTP server closes (which would otherwise wait on the open stream for ever).
    expect(Date.now() - started).toBeLessThan(2_000);
    await closing;
  });
});
