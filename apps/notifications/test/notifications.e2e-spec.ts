import { randomUUID } from 'node:crypto';
import { expectErrorBody, ISO, startHarness } from '@ddm/testing';
import { notificationsApp, NotificationsHarness } from './fixtures/notifications-app';

const PATH = '/v1/notifications';
const FIELDS = ['actionUrl', 'category', 'createdAt', 'entityId', 'entityType', 'id', 'isActionable', 'message', 'payload', 'readAt', 'relativeTime', 'status', 'templateKey', 'tenantId', 'title', 'userId'];

describe('notifications (e2e, real Postgres and NATS, auth as a child process)', () => {
  let h: NotificationsHarness;
  let userId: string;
  let managerId: string;
  const create = (body: object, token = h.tokens.admin) => h.svc.http.post(PATH, { token, body });
  const issued = (to: string, extra: object = {}) => ({ templateKey: 'DELEGATION_ISSUED', userId: to, placeholders: { delegationDisplayId: '10001' }, ...extra });
  const count = (query = '', token = h.tokens.user) => h.svc.http.get(`${PATH}/count${query ? `?${query}` : ''}`, { token });
  const list = (query = '', token = h.tokens.user) => h.svc.http.get(`${PATH}${query ? `?${query}` : ''}`, { token });

  beforeAll(async () => {
    h = await startHarness(notificationsApp);
    userId = h.user('user@demo.test').id;
    managerId = h.user('manager@demo.test').id;
  });
  afterAll(() => h?.close());

  it('POST /v1/notifications answers 200 with the notification rendered from the template, every §2.14 field typed', async () => {
    const res = await create(
      issued(userId, {
        tenantId: h.demo.id,
        entityType: 'delegation',
        entityId: 'd-1',
        placeholders: { delegationDisplayId: '<b>10001</b>', unused: 'x' },
        actionUrl: '/delegations/d-1',
        payload: { delegationId: 'd-1', nested: { a: [1, 2] } },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ statusCode: 200, timestamp: expect.stringMatching(ISO), message: 'Notification created successfully', data: expect.any(Object) });
    const n = res.body.data;
    expect(Object.keys(n).sort()).toEqual(FIELDS);
    expect(n).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      tenantId: h.demo.id,
      templateKey: 'DELEGATION_ISSUED',
      category: 'DELEGATION',
      title: 'Delegation <b>10001</b> issued to you',
      message: 'Delegation <strong>&lt;b&gt;10001&lt;/b&gt;</strong> was issued to you.',
      isActionable: false,
      status: 'UNREAD',
      createdAt: expect.stringMatching(ISO),
      userId,
      entityType: 'delegation',
      entityId: 'd-1',
      relativeTime: 'just now',
      readAt: null,
      actionUrl: '/delegations/d-1',
      payload: { delegationId: 'd-1', nested: { a: [1, 2] } },
    });
    const [event] = await h.db.query<{ payload: any }>(`SELECT payload FROM notifications.outbox WHERE subject = 'evt.notifications.notification.created' AND payload->'notification'->>'id' = $1`, [n.id]);
    expect(event.payload).toMatchObject({ tenantId: h.demo.id, notification: { id: n.id, userId, status: 'UNREAD' } });
    // Optional fields left out: nulls; an https URL is a link too.
    const bare = await create({ templateKey: 'ACTION_ASSIGNED', userId, placeholders: { actionId: '10000', actionName: 'Sign' }, actionUrl: 'https://app.example.com/actions/1' });
    expect(bare.status).toBe(200);
    expect(bare.body.data).toMatchObject({ entityType: null, entityId: null, payload: null, category: 'ACTION', isActionable: true, actionUrl: 'https://app.example.com/actions/1' });
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const fieldsOf = (res: { body: { errors: { field: string }[] } }) => res.body.errors.map((e) => e.field);
    let res = await create(issued(userId, { templateKey: 'NO_SUCH_TEMPLATE' }));
    expectErrorBody(res, 400, PATH);
    expect(fieldsOf(res)).toEqual(['templateKey']);
    res = await create(issued(userId, { placeholders: {} }));
    expectErrorBody(res, 400, PATH);
    expect(fieldsOf(res)).toEqual(['placeholders.delegationDisplayId']);
    expect(res.body.message).toContain('delegationDisplayId');
    res = await create(issued(userId, { payload: { blob: 'x'.repeat(17 * 1024) } }));
    expectErrorBody(res, 400);
    expect(fieldsOf(res)).toEqual(['payload']);
    expect((await create(issued(userId, { payload: { blob: 'x'.repeat(15 * 1024) } }))).status).toBe(200);
    res = await create(issued(userId, { isRead: true }));
    expectErrorBody(res, 400);
    expect(fieldsOf(res)).toEqual(['isRead']);
    for (const actionUrl of ['javascript:alert(1)', 'data:text/html,x', '//evil.example.com/x', 'ftp://x.example.com/']) {
      res = await create(issued(userId, { actionUrl }));
      expectErrorBody(res, 400);
      expect(fieldsOf(res)).toEqual(['actionUrl']);
    }
    res = await create(issued(userId, { placeholders: { delegationDisplayId: 'x'.repeat(1001) } }));
    expect(fieldsOf(res)).toEqual(['placeholders']);
    res = await create(issued(userId, { placeholders: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }));
    expect(fieldsOf(res)).toEqual(['placeholders']);
    res = await create(issued(userId, { placeholders: { delegationDisplayId: 7 } }));
    expect(fieldsOf(res)).toEqual(['placeholders']);
    // A person of another tenant is not a member of this one.
    res = await create(issued(h.user('admin@other.test').id));
    expectErrorBody(res, 400);
    expect(fieldsOf(res)).toEqual(['userId']);
    res = await create(issued('not-a-uuid'));
    expect(fieldsOf(res)).toEqual(['userId']);
    expect(fieldsOf(await create({ userId }))).toEqual(['templateKey']);
  });

  it('needs create:notifications (the user and auditor lack it); another tenant named is a 403', async () => {
    // The default Global Authority Manager role holds every key but settings, users and roles (libs/contracts), this one included.
    for (const token of [h.tokens.user, h.tokens.auditor]) {
      const res = await create(issued(userId), token);
      expectErrorBody(res, 403);
      expect(res.body.message).toBe('Missing permission "create:notifications"');
    }
    expectErrorBody(await create(issued(userId, { tenantId: h.other.id })), 403);
    expectErrorBody(await h.svc.http.post(PATH, { body: issued(userId) }), 401);
  });

  it('GET /v1/notifications/count counts the caller’s notifications by period: 31 days old is in 3m, not in 1m', async () => {
    const mine = async () => (await count()).body.data;
    const before = await mine();
    expect(Object.keys(before).sort()).toEqual(['read', 'timePeriod', 'total', 'unread']);
    const old = (await create(issued(userId))).body.data.id;
    const older = (await create(issued(userId))).body.data.id;
    const ancient = (await create(issued(userId))).body.data.id;
    await h.db.query(`UPDATE notifications.notifications SET created_at = now() - interval '31 days' WHERE id = $1`, [old]);
    await h.db.query(`UPDATE notifications.notifications SET created_at = now() - interval '100 days' WHERE id = $1`, [older]);
    await h.db.query(`UPDATE notifications.notifications SET created_at = now() - interval '200 days', status = 'READ', read_at = now() WHERE id = $1`, [ancient]);
    const res = await count('timePeriod=all');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ statusCode: 200, timestamp: expect.stringMatching(ISO), message: 'Notification counts retrieved successfully', data: expect.any(Object) });
    const all = res.body.data;
    expect(all).toEqual({ unread: before.unread + 2, read: before.read + 1, total: before.total + 3, timePeriod: 'all' });
    const in1m = (await count('timePeriod=1m')).body.data;
    const in3m = (await count('timePeriod=3m')).body.data;
    const in6m = (await count('timePeriod=6m')).body.data;
    expect(in3m.total - in1m.total).toBe(1); // the 31-day-old one
    expect(in6m.total - in3m.total).toBe(1); // the 100-day-old one
    expect(all.total - in6m.total).toBe(1); // the 200-day-old one
    expect(in1m.timePeriod).toBe('1m');
    expect((await count(`tenantId=${h.demo.id}`)).body.data.timePeriod).toBe('all');
    const bad = await count('timePeriod=2m');
    expectErrorBody(bad, 400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['timePeriod']);
    expectErrorBody(await count(`tenantId=${h.other.id}`), 403);
    // Another person's count does not see these.
    expect((await count('', h.tokens.auditor)).body.data.total).toBe(0);
  });

  it('lists the caller’s own, paged, newest first, filtered; toggles read state; another person’s notification is a 404', async () => {
    await create({ templateKey: 'JOB_COMPLETED', userId, entityType: 'job', placeholders: { jobKind: 'bulk-duplicate', jobStatus: 'COMPLETED', total: '3', succeeded: '3', failed: '0' } });
    const res = await list('limit=2');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ statusCode: 200, timestamp: expect.stringMatching(ISO), message: 'Notifications retrieved successfully', data: { page: 1, limit: 2, total: expect.any(Number), data: expect.any(Array) } });
    const [first, second] = res.body.data.data;
    expect(first.templateKey).toBe('JOB_COMPLETED');
    expect(first.title).toBe('Your bulk-duplicate job ended: COMPLETED');
    expect(first.createdAt >= second.createdAt).toBe(true);
    for (const n of res.body.data.data) expect(Object.keys(n).sort()).toEqual(FIELDS);
    expect((await list('category=JOB')).body.data.data.map((n: { templateKey: string }) => n.templateKey)).toEqual(['JOB_COMPLETED']);
    expect((await list('entityType=job')).body.data.total).toBe(1);
    expect((await list('templateKey=ACTION_ASSIGNED')).body.data.total).toBe(1);
    const readOnes = (await list('status=READ')).body.data.data;
    expect(readOnes.every((n: { status: string }) => n.status === 'READ')).toBe(true);
    expect((await list('timePeriod=1m')).body.data.total).toBe((await count('timePeriod=1m')).body.data.total);
    expect((await list('sortOrder=asc&limit=1')).body.data.data[0].createdAt <= first.createdAt).toBe(true);
    for (const [query, field] of [['status=DONE', 'status'], ['category=X', 'category'], ['timePeriod=1y', 'timePeriod'], ['limit=101', 'limit'], ['foo=1', 'foo']]) {
      const bad = await list(query);
      expectErrorBody(bad, 400);
      expect(bad.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await list('', h.tokens.auditor)).body.data.total).toBe(0);

    const toggle = (id: string, status: string, token = h.tokens.user) => h.svc.http.patch(`${PATH}/${id}/toggle-status`, { token, body: { status } });
    const read = await toggle(first.id, 'READ');
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: first.id, status: 'READ', readAt: expect.stringMatching(ISO) });
    expect((await toggle(first.id, 'READ')).body.data.readAt).toBe(read.body.data.readAt);
    const unread = await toggle(first.id, 'UNREAD');
    expect(unread.body.data).toMatchObject({ status: 'UNREAD', readAt: null });
    const readEvents = await h.db.query<{ payload: any }>(`SELECT payload FROM notifications.outbox WHERE subject = 'evt.notifications.notification.read' AND payload->'notificationIds' ? $1`, [first.id]);
    expect(readEvents.map((e) => e.payload)).toEqual([{ tenantId: h.demo.id, userId, notificationIds: [first.id], readAt: read.body.data.readAt }]);
    expectErrorBody(await toggle(first.id, 'READ', h.tokens.auditor), 404);
    expectErrorBody(await toggle(first.id, 'READ', h.tokens.otherAdmin), 404);
    expectErrorBody(await toggle(randomUUID(), 'READ'), 404);
    expectErrorBody(await toggle('nope', 'READ'), 400);
    expectErrorBody(await toggle(first.id, 'SEEN'), 400);
  });

  it('POST /v1/notifications/mark-all-read answers 201 with the number changed, only the caller’s own in that tenant; a second call answers 0', async () => {
    await create(issued(managerId));
    const managerUnread = (await count('', h.tokens.manager)).body.data.unread;
    expect(managerUnread).toBeGreaterThan(0);
    const unread = (await count()).body.data.unread;
    expect(unread).toBeGreaterThan(0);
    const res = await h.svc.http.post(`${PATH}/mark-all-read`, { token: h.tokens.user });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ statusCode: 201, timestamp: expect.stringMatching(ISO), message: 'Notifications marked read successfully', data: { count: unread } });
    expect((await count()).body.data.unread).toBe(0);
    expect((await count('', h.tokens.manager)).body.data.unread).toBe(managerUnread);
    // One read event with the ids changed (ids only: a mark-all-read may cover thousands).
    const [marked] = await h.db.query<{ payload: any }>(
      `SELECT payload FROM notifications.outbox WHERE subject = 'evt.notifications.notification.read' AND payload->>'userId' = $1 ORDER BY created_at DESC, id DESC LIMIT 1`,
      [userId],
    );
    expect(marked.payload).toEqual({ tenantId: h.demo.id, userId, notificationIds: expect.any(Array), readAt: expect.stringMatching(ISO) });
    expect(marked.payload.notificationIds.length).toBe(unread);
    expect((await h.svc.http.post(`${PATH}/mark-all-read?tenantId=${h.demo.id}`, { token: h.tokens.user })).body.data).toEqual({ count: 0 });
    expectErrorBody(await h.svc.http.post(`${PATH}/mark-all-read?tenantId=${h.other.id}`, { token: h.tokens.user }), 403);
    // The all-time counts (kept by triggers) agree with the rows, after inserts, toggles, direct changes and mark-all-read.
    for (const [token, id] of [[h.tokens.user, userId], [h.tokens.manager, managerId]]) {
      const [rows] = await h.db.query<{ unread: number; read: number; total: number }>(
        `SELECT count(*) FILTER (WHERE status = 'UNREAD')::int AS unread, count(*) FILTER (WHERE status = 'READ')::int AS read, count(*)::int AS total FROM notifications.notifications WHERE tenant_id = $1 AND user_id = $2`,
        [h.demo.id, id],
      );
      expect((await count('', token)).body.data).toEqual({ ...rows, timePeriod: 'all' });
    }
  });

  it('lists the templates with their placeholders; a tenant changes its texts (manage:settings), which new notifications use', async () => {
    const res = await h.svc.http.get(`${PATH}/templates`, { token: h.tokens.user });
    expect(res.status).toBe(200);
    expect(res.body.data.map((t: { templateKey: string }) => t.templateKey)).toEqual([
      'DELEGATION_ISSUED',
      'DELEGATION_PENDING_ACCEPTANCE',
      'DELEGATION_ACCEPTED',
      'DELEGATION_REJECTED',
      'DELEGATION_REVOKED',
      'DELEGATION_SUSPENDED',
      'DELEGATION_EXPIRING',
      'DELEGATION_INVALIDATED',
      'ACTION_ASSIGNED',
      'ACTION_OVERDUE',
      'DOCUMENT_REVIEW_REQUESTED',
      'DOCUMENT_APPROVAL_REQUESTED',
      'JOB_COMPLETED',
    ]);
    expect(res.body.data[0]).toEqual({
      templateKey: 'DELEGATION_ISSUED',
      category: 'DELEGATION',
      titleTemplate: 'Delegation {{delegationDisplayId}} issued to you',
      messageTemplate: 'Delegation <strong>{{delegationDisplayId}}</strong> was issued to you.',
      placeholders: ['delegationDisplayId'],
      isActionable: false,
      isCustom: false,
    });
    const patch = (body: object, token = h.tokens.admin, key = 'DELEGATION_ISSUED') => h.svc.http.patch(`${PATH}/templates/${key}`, { token, body });
    const refused = await patch({ titleTemplate: 'Yours: {{delegationDisplayId}}' }, h.tokens.manager);
    expectErrorBody(refused, 403);
    expect(refused.body.message).toBe('Missing permission "manage:settings"');
    const unknown = await patch({ titleTemplate: 'Yours: {{secret}}' });
    expectErrorBody(unknown, 400);
    expect(unknown.body.errors.map((e: { field: string }) => e.field)).toEqual(['titleTemplate']);
    expectErrorBody(await patch({}), 400);
    expectErrorBody(await patch({ titleTemplate: 'x' }, h.tokens.admin, 'NOPE'), 400);
    const changed = await patch({ titleTemplate: 'Yours now: {{delegationDisplayId}}' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ titleTemplate: 'Yours now: {{delegationDisplayId}}', messageTemplate: 'Delegation <strong>{{delegationDisplayId}}</strong> was issued to you.', isCustom: true });
    expect((await create(issued(userId))).body.data.title).toBe('Yours now: 10001');
    // Other Co still has the default texts.
    const theirs = await h.svc.http.get(`${PATH}/templates`, { token: h.tokens.otherAdmin });
    expect(theirs.body.data[0]).toMatchObject({ titleTemplate: 'Delegation {{delegationDisplayId}} issued to you', isCustom: false });
  });

  it('keeps each person’s digest preference', async () => {
    const res = await h.svc.http.patch(`${PATH}/preferences`, { token: h.tokens.user, body: { emailDigest: 'daily' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ tenantId: h.demo.id, userId, emailDigest: 'daily' });
    expect((await h.svc.http.get(`${PATH}/preferences`, { token: h.tokens.user })).body.data.emailDigest).toBe('daily');
    expect((await h.svc.http.get(`${PATH}/preferences`, { token: h.tokens.manager })).body.data.emailDigest).toBe('off');
    expectErrorBody(await h.svc.http.patch(`${PATH}/preferences`, { token: h.tokens.user, body: { emailDigest: 'hourly' } }), 400);
  });
});
