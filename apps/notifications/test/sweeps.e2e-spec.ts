import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { delegationEvent, publishEvent, startHarness, until } from '@ddm/testing';
import { DigestSweep } from '../src/sweeps/digest.sweep';
import { ExpiringSweep } from '../src/sweeps/expiring.sweep';
import { RetentionSweep } from '../src/sweeps/retention.sweep';
import { notificationsApp, NotificationsHarness } from './fixtures/notifications-app';

const PATH = '/v1/notifications';

describe('retention, expiring-delegation and digest sweeps (e2e, real Postgres and NATS; mail to the development outbox)', () => {
  let h: NotificationsHarness;
  let mailDir: string;
  let sweeps: { retention(): Promise<number>; expiring(): Promise<number>; digests(): Promise<number> };
  const create = (userId: string, n: string) =>
    h.svc.http.post(PATH, { token: h.tokens.admin, body: { templateKey: 'DELEGATION_ISSUED', userId, placeholders: { delegationDisplayId: n }, actionUrl: `/delegations/${n}` } });

  beforeAll(async () => {
    mailDir = mkdtempSync(join(tmpdir(), 'ddm-digest-'));
    process.env.MAIL_DIR = mailDir;
    process.env.NOTIFICATIONS_RETENTION_DAYS = '180';
    h = await startHarness(notificationsApp);
    // One run of each sweep, by hand (ScheduledSweep keeps sweep() public for this).
    const { app } = h.svc;
    sweeps = { retention: () => app.get(RetentionSweep).sweep(), expiring: () => app.get(ExpiringSweep).sweep(), digests: () => app.get(DigestSweep).sweep() };
  });
  afterAll(async () => {
    await h?.close();
    rmSync(mailDir, { recursive: true, force: true });
    delete process.env.MAIL_DIR;
    delete process.env.NOTIFICATIONS_RETENTION_DAYS;
  });

  it('deletes read notifications older than the retention, never unread or recent ones', async () => {
    const userId = h.user('user@demo.test').id;
    const ids: string[] = [];
    for (const n of ['1', '2', '3', '4']) ids.push((await create(userId, n)).body.data.id);
    const [oldRead, oldUnread, recentRead, justInside] = ids;
    await h.db.query(`UPDATE notifications.notifications SET created_at = now() - interval '181 days', status = 'READ', read_at = now() WHERE id = $1`, [oldRead]);
    await h.db.query(`UPDATE notifications.notifications SET created_at = now() - interval '181 days' WHERE id = $1`, [oldUnread]);
    await h.db.query(`UPDATE notifications.notifications SET status = 'READ', read_at = now() WHERE id = $1`, [recentRead]);
    await h.db.query(`UPDATE notifications.notifications SET created_at = now() - interval '179 days', status = 'READ', read_at = now() WHERE id = $1`, [justInside]);
    expect(await sweeps.retention()).toBe(1);
    const left = (await h.db.query<{ id: string }>(`SELECT id FROM notifications.notifications WHERE id = ANY($1::uuid[])`, [ids])).map((r) => r.id).sort();
    expect(left).toEqual([oldUnread, recentRead, justInside].sort());
    expect(await sweeps.retention()).toBe(0);
    // The all-time counts follow the deletions.
    const [rows] = await h.db.query<{ unread: number; read: number }>(
      `SELECT count(*) FILTER (WHERE status = 'UNREAD')::int AS unread, count(*) FILTER (WHERE status = 'READ')::int AS read FROM notifications.notifications WHERE user_id = $1`,
      [userId],
    );
    const counted = (await h.svc.http.get(`${PATH}/count`, { token: h.tokens.user })).body.data;
    expect(counted).toEqual({ unread: rows.unread, read: rows.read, total: rows.unread + rows.read, timePeriod: 'all' });
    expect(counted.read).toBe(2);
  });

  it('mails a due digest of the unread notifications once, to those who chose one and have unread ones', async () => {
    const manager = h.user('manager@demo.test');
    const auditor = h.user('auditor@demo.test');
    await create(manager.id, '<77>');
    await create(manager.id, '78');
    expect((await h.svc.http.patch(`${PATH}/preferences`, { token: h.tokens.manager, body: { emailDigest: 'daily' } })).status).toBe(200);
    // The auditor chose a digest but has nothing unread: no mail.
    expect((await h.svc.http.patch(`${PATH}/preferences`, { token: h.tokens.auditor, body: { emailDigest: 'weekly' } })).status).toBe(200);
    expect(await sweeps.digests()).toBe(1);
    const files = readdirSync(mailDir);
    expect(files.length).toBe(1);
    expect(files[0]).toContain(manager.email);
    const eml = readFileSync(join(mailDir, files[0]), 'utf8');
    expect(eml).toMatch(/Subject: Your daily digest: You have 2 unread notifications\./);
    expect(eml).toContain('Delegation 78 issued to you');
    expect(eml).toContain('http://localhost:8080/delegations/78');
    expect(eml).toContain('&lt;77&gt;');
    expect(eml).not.toContain(auditor.email);
    // Not due again today, whichever replica asks.
    expect(await sweeps.digests()).toBe(0);
    await h.db.query(`UPDATE notifications.preferences SET last_digest_at = now() - interval '25 hours' WHERE user_id = $1`, [manager.id]);
    expect(await sweeps.digests()).toBe(1);
  });

  it('warns the recipient of a live delegation 7 days before it expires, once per expiration date', async () => {
    const recipient = h.user('user@demo.test').id;
    const inDays = (d: number) => new Date(Date.now() + d * 24 * 3600 * 1000).toISOString();
    const soon = delegationEvent(h.demo.id, { recipientUserId: recipient, status: 'ISSUED', version: 1, delegationDisplayId: '10500', expirationDate: inDays(3) });
    const later = delegationEvent(h.demo.id, { recipientUserId: recipient, status: 'ISSUED', version: 1, expirationDate: inDays(10) });
    const revoked = delegationEvent(h.demo.id, { recipientUserId: recipient, status: 'REVOKED', version: 2, expirationDate: inDays(2) });
    const draft = delegationEvent(h.demo.id, { recipientUserId: recipient, status: 'PENDING', version: 1, expirationDate: inDays(2) });
    await publishEvent(h.svc, 'evt.decision.delegation.issued', soon);
    await publishEvent(h.svc, 'evt.decision.delegation.issued', later);
    await publishEvent(h.svc, 'evt.decision.delegation.revoked', revoked);
    await publishEvent(h.svc, 'evt.decision.delegation.updated', draft);
    const ids = [soon, later, revoked, draft].map((e) => e.delegationId);
    await until(async () => (await h.db.query(`SELECT 1 FROM notifications.delegation_projection WHERE delegation_id = ANY($1::uuid[])`, [ids])).length === 4, 'the delegations projected');
    const warned = () =>
      h.db.query<{ entity_id: string; title: string; user_id: string }>(`SELECT entity_id, title, user_id FROM notifications.notifications WHERE template_key = 'DELEGATION_EXPIRING' ORDER BY created_at`);
    expect(await sweeps.expiring()).toBe(1);
    expect(await warned()).toEqual([{ entity_id: soon.delegationId, title: `Delegation 10500 expires on ${inDays(3).slice(0, 10)}`, user_id: recipient }]);
    expect(await sweeps.expiring()).toBe(0);
    // Extended, then coming close again: a new warning for the new date.
    await publishEvent(h.svc, 'evt.decision.delegation.updated', { ...soon, version: 2, expirationDate: inDays(5) });
    await until(async () => (await h.db.query(`SELECT 1 FROM notifications.delegation_projection WHERE delegation_id = $1 AND version = 2`, [soon.delegationId])).length === 1, 'the change projected');
    expect(await sweeps.expiring()).toBe(1);
    expect((await warned()).length).toBe(2);
  });
});
