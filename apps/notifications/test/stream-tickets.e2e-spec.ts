import { createHash } from 'node:crypto';
import { expectErrorBody, HttpResult, startHarness, startTestService, TestService, until } from '@ddm/testing';
import { NotificationsModule } from '../src/notifications.module';
import { notificationsDataSource } from '../src/data-source';
import { LiveStreams } from '../src/stream/live-streams';
import { StreamTicketSweep } from '../src/sweeps/stream-ticket.sweep';
import { notificationsApp, NotificationsHarness } from './fixtures/notifications-app';
import { openStream, SseClient } from './fixtures/sse';

const PATH = '/v1/notifications';
const ORIGIN = 'https://app.ddm.test';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

interface Ticket {
  ticket: string;
  expiresAt: string;
}

/**
 * One-time stream tickets (e2e, real Postgres and NATS, two replicas): what a browser, whose
 * EventSource sends no Authorization header, opens the notifications stream with.
 */
describe('stream tickets: POST /v1/notifications/stream-tickets and GET /v1/notifications/stream?ticket=', () => {
  let h: NotificationsHarness;
  let replica: TestService['app'];
  let replicaUrl: string;
  let userId: string;
  const streams: SseClient[] = [];

  beforeAll(async () => {
    h = await startHarness(notificationsApp);
    userId = h.user('user@demo.test').id;
    // A second replica (same database and namespace) that allows a browser origin.
    const second = await startTestService(NotificationsModule, { area: 'notifications', dataSource: notificationsDataSource }, { db: h.svc.db, ns: h.svc.ns, env: { CORS_ORIGINS: ORIGIN } });
    replica = second.app;
    replicaUrl = second.url;
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await replica?.close();
    await h?.close();
  });

  const issue = async (token: string, base = h.svc.url, headers: Record<string, string> = {}): Promise<Ticket> => {
    const res = await fetch(`${base}${PATH}/stream-tickets`, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...headers } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: Ticket }).data;
  };
  const open = async (url: string, token: string | null = null, more: Record<string, string> = {}) => {
    const s = await openStream(url, token, undefined, more);
    streams.push(s);
    return s;
  };
  const create = async (forUserId: string, n: string) => {
    const res = await h.svc.http.post(PATH, { token: h.tokens.admin, body: { templateKey: 'DELEGATION_ISSUED', userId: forUserId, placeholders: { delegationDisplayId: n } } });
    expect(res.status).toBe(200);
    return res.body.data.id as string;
  };

  it('needs a bearer token (401); answers a ticket and when it expires, at most 60 s on; only its hash is stored', async () => {
    expectErrorBody(await h.svc.http.post(`${PATH}/stream-tickets`), 401, `${PATH}/stream-tickets`);
    expectErrorBody(await h.svc.http.post(`${PATH}/stream-tickets`, { token: 'not.a.token' }), 401);
    const before = Date.now();
    const res = await h.svc.http.post(`${PATH}/stream-tickets`, { token: h.tokens.user });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ statusCode: 200, message: expect.any(String), data: { ticket: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expiresAt: expect.any(String) } });
    const { ticket, expiresAt } = res.body.data as Ticket;
    const ttl = Date.parse(expiresAt) - before;
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000 + 1_000);
    const rows = await h.query<{ ticket_hash: string; tenant_id: string; user_id: string }>(`SELECT ticket_hash, tenant_id, user_id FROM notifications.stream_tickets`);
    expect(rows).toContainEqual({ ticket_hash: sha256(ticket), tenant_id: h.demo.id, user_id: userId });
    expect(JSON.stringify(rows)).not.toContain(ticket);
    // Not in the audit trail either.
    expect(JSON.stringify(await h.query(`SELECT * FROM notifications.audit_log`))).not.toContain(sha256(ticket));
  });

  it('opens the caller’s stream without a bearer token, once: a used ticket is a 401', async () => {
    const { ticket } = await issue(h.tokens.user);
    const s = await open(`${h.svc.url}${PATH}/stream?ticket=${ticket}`);
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const id = await create(userId, '70001');
    const got = await until(() => s.events.find((e) => e.id === id), 'the notification on the ticket’s stream');
    expect(JSON.parse(got.data!)).toMatchObject({ id, userId, tenantId: h.demo.id });
    // Used: refused on this replica and on the other.
    for (const base of [h.svc.url, replicaUrl]) {
      const again = await fetchJson(`${base}${PATH}/stream?ticket=${ticket}`);
      expectErrorBody(again, 401, `${PATH}/stream`);
      expect(again.body.message).toBe('The ticket is unknown, used or expired');
    }
  });

  it('single use across replicas: the same ticket sent to both at once opens one stream', async () => {
    const { ticket } = await issue(h.tokens.user);
    const [a, b] = await Promise.all([open(`${h.svc.url}${PATH}/stream?ticket=${ticket}`), open(`${replicaUrl}${PATH}/stream?ticket=${ticket}`)]);
    expect([a.status, b.status].sort()).toEqual([200, 401]);
  });

  it('an expired ticket is a 401 (its expiry set in the past in the database), and the sweep deletes the ones never used', async () => {
    const { ticket } = await issue(h.tokens.user);
    await h.query(`UPDATE notifications.stream_tickets SET expires_at = now() - interval '1 second' WHERE ticket_hash = $1`, [sha256(ticket)]);
    const res = await fetchJson(`${h.svc.url}${PATH}/stream?ticket=${ticket}`);
    expectErrorBody(res, 401);
    expect(res.body.message).toMatch(/unknown, used or expired/);
    const stale = await issue(h.tokens.manager);
    await h.query(`UPDATE notifications.stream_tickets SET expires_at = now() - interval '1 second' WHERE ticket_hash = $1`, [sha256(stale.ticket)]);
    expect(await h.svc.app.get(StreamTicketSweep).sweep()).toBeGreaterThanOrEqual(1);
    expect(await h.query(`SELECT 1 FROM notifications.stream_tickets WHERE expires_at < now()`)).toEqual([]);
  });

  it('a ticket of tenant A cannot be used as another caller: another person’s or tenant’s token, or another tenant named, is a 403, and the ticket is gone', async () => {
    // Other Co's admin with their own token, showing Demo Co's user's ticket.
    const first = await issue(h.tokens.user);
    const other = await fetchJson(`${h.svc.url}${PATH}/stream?ticket=${first.ticket}`, h.tokens.otherAdmin);
    expectErrorBody(other, 403);
    expect(other.body.message).toMatch(/another caller/);
    expectErrorBody(await fetchJson(`${h.svc.url}${PATH}/stream?ticket=${first.ticket}`), 401);
    // Another person of the same tenant.
    const second = await issue(h.tokens.user);
    expectErrorBody(await fetchJson(`${h.svc.url}${PATH}/stream?ticket=${second.ticket}`, h.tokens.manager), 403);
    // The ticket alone, naming another tenant.
    const third = await issue(h.tokens.user);
    const named = await fetchJson(`${h.svc.url}${PATH}/stream?ticket=${third.ticket}&tenantId=${h.other.id}`);
    expectErrorBody(named, 403);
    expect(named.body.message).toMatch(/another tenant/);
    // With the caller's own token, the ticket is accepted.
    const own = await issue(h.tokens.user);
    const s = await open(`${h.svc.url}${PATH}/stream?ticket=${own.ticket}`, h.tokens.user);
    expect(s.status).toBe(200);
  });

  it('the stream opened by a ticket gets only its holder’s notifications', async () => {
    const { ticket } = await issue(h.tokens.manager);
    const s = await open(`${h.svc.url}${PATH}/stream?ticket=${ticket}`);
    expect(s.status).toBe(200);
    await until(() => h.svc.app.get(LiveStreams).size > 0, 'the stream registered');
    const theirs = await create(userId, '70002');
    const mine = await create(h.user('manager@demo.test').id, '70003');
    await until(() => s.events.some((e) => e.id === mine), 'the manager’s notification');
    expect(s.events.map((e) => e.id)).not.toContain(theirs);
  });

  it('refuses what is not a ticket, and ?access_token= stays refused', async () => {
    expectErrorBody(await fetchJson(`${h.svc.url}${PATH}/stream?ticket=nonsense`), 401);
    expectErrorBody(await fetchJson(`${h.svc.url}${PATH}/stream?ticket=${'A'.repeat(43)}`), 401);
    expectErrorBody(await fetchJson(`${h.svc.url}${PATH}/stream?access_token=${h.tokens.user}`), 401);
    expectErrorBody(await fetchJson(`${h.svc.url}${PATH}/stream`), 401);
  });

  it('an Idempotency-Key does not keep the answer (it holds a ticket): each request issues a new one', async () => {
    const headers = { 'idempotency-key': 'stream-ticket-1' };
    const a = await fetch(`${h.svc.url}${PATH}/stream-tickets`, { method: 'POST', headers: { authorization: `Bearer ${h.tokens.user}`, ...headers } });
    const b = await fetch(`${h.svc.url}${PATH}/stream-tickets`, { method: 'POST', headers: { authorization: `Bearer ${h.tokens.user}`, ...headers } });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    const [x, y] = [((await a.json()) as { data: Ticket }).data.ticket, ((await b.json()) as { data: Ticket }).data.ticket];
    expect(x).not.toBe(y);
    expect(JSON.stringify(await h.query(`SELECT * FROM notifications.idempotency_keys`))).not.toContain(x);
  });

  it('CORS: an allowed origin gets its headers on the ticket request and on the stream itself; another origin gets none', async () => {
    const preflight = await fetch(`${replicaUrl}${PATH}/stream-tickets`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const { ticket } = await issue(h.tokens.user, replicaUrl, { origin: ORIGIN });
    const s = await open(`${replicaUrl}${PATH}/stream?ticket=${ticket}`, null, { origin: ORIGIN });
    expect(s.status).toBe(200);
    expect(s.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(s.headers.get('x-request-id')).toBeTruthy();
    const foreign = await issue(h.tokens.user, replicaUrl);
    const f = await open(`${replicaUrl}${PATH}/stream?ticket=${foreign.ticket}`, null, { origin: 'https://evil.example' });
    expect(f.headers.get('access-control-allow-origin')).toBeNull();
  });
});

/** A GET answered as JSON (an error: a stream would never end), with an optional bearer token. */
async function fetchJson(url: string, token?: string): Promise<HttpResult> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
}
