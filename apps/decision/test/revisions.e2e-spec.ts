import { expectErrorBody, HttpResult, ISO, startHarness, until } from '@ddm/testing';
import { decisionApp, DecisionHarness } from './fixtures/decision-app';
import { approvalLimit } from './fixtures/limits';

const PATH = '/decision/v1/decisions';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HISTORY_FIELDS = ['change', 'changedFields', 'historyDate', 'historyId', 'revisedBy', 'revisedByUsername'];

interface Decision {
  id: string;
  name: string;
  description: string | null;
  status: string;
  createdAt: string;
  updatedAt: string;
  decisionAuthorities: { authorityLimitValue: string | null }[];
  [field: string]: unknown;
}

interface HistoryEntry {
  historyId: string;
  historyDate: string;
  change: string;
  changedFields: string[];
  revisedBy: string | null;
  revisedByUsername: string | null;
}

/** `iso` moved by `ms` milliseconds, as the views write instants. */
const shift = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
/** An instant strictly between two, to the millisecond. */
const between = (a: string, b: string) => {
  const from = Date.parse(a);
  const to = Date.parse(b);
  expect(to - from).toBeGreaterThan(1);
  return new Date(Math.floor((from + to) / 2)).toISOString();
};

describe('decision revisions: history and the decision at an instant (e2e, real Postgres and NATS)', () => {
  let h: DecisionHarness;
  const create = async (body: Record<string, unknown>, token = h.tokens.admin): Promise<Decision> => {
    const res = await h.svc.http.post(PATH, { token, body });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const update = async (id: string, body: Record<string, unknown>, token = h.tokens.admin): Promise<Decision> => {
    const res = await h.svc.http.patch(`${PATH}/${id}`, { token, body });
    expect({ status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({ status: 200, body: undefined });
    return res.body.data;
  };
  const history = (id: string, qs = '', token = h.tokens.admin) => h.svc.http.get(`${PATH}/${id}/history${qs ? `?${qs}` : ''}`, { token });
  const entries = async (id: string): Promise<HistoryEntry[]> => {
    const res = await history(id, 'limit=100');
    expect(res.status).toBe(200);
    return res.body.data.data;
  };
  const at = (id: string, instant: string, token = h.tokens.admin) => h.svc.http.get(`${PATH}/${id}/${encodeURIComponent(instant)}`, { token });
  const asOf = async (id: string, instant: string): Promise<Decision & { historyId: string; historyDate: string }> => {
    const res: HttpResult = await at(id, instant);
    expect({ instant, status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({ instant, status: 200, body: undefined });
    return res.body.data;
  };
  /** Waits until the clock has moved past `iso` by a few milliseconds (so the next change is at a later instant). */
  const clockPast = (iso: string) => until(() => Date.now() > Date.parse(iso) + 3, `the clock past ${iso}`);
  const admin = () => h.refs.users.get('admin@demo.test')!;
  const manager = () => h.refs.users.get('manager@demo.test')!;
  /** The decision's view without what an as-of read adds. */
  const withoutRevision = (d: Record<string, unknown>) => {
    const { historyId, historyDate, ...rest } = d;
    void historyId;
    void historyDate;
    return rest;
  };

  beforeAll(async () => {
    h = await startHarness(decisionApp);
  });
  afterAll(() => h?.close());

  describe('GET /decisions/{id}/history', () => {
    it('lists every change newest first: when, by whom, what kind, which fields', async () => {
      const d = await create({ name: 'History one', description: 'first', decisionGroups: [{ groupId: h.refs.groups.get('Finance') }], decisionAuthorities: [approvalLimit(h, '1000')] });
      await clockPast(d.updatedAt);
      const u1 = await update(d.id, { description: 'second' });
      await clockPast(u1.updatedAt);
      const u2 = await update(d.id, { sectionId: h.refs.sections.get('Finance'), categoryId: h.refs.categories.get('Procurement') });
      await clockPast(u2.updatedAt);
      const u3 = await update(d.id, { decisionGroups: [{ groupId: h.refs.groups.get('Legal') }], decisionAuthorities: [approvalLimit(h, '1000')] }, h.tokens.manager);

      const res = await history(d.id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'Decision history retrieved successfully', timestamp: expect.stringMatching(ISO) });
      expect(Object.keys(res.body.data).sort()).toEqual(['data', 'limit', 'page', 'total']);
      expect(res.body.data).toMatchObject({ page: 1, limit: 10, total: 4 });
      const list: HistoryEntry[] = res.body.data.data;
      for (const entry of list) {
        expect(Object.keys(entry).sort()).toEqual(HISTORY_FIELDS);
        expect(entry.historyId).toMatch(UUID);
        expect(entry.historyDate).toMatch(ISO);
      }
      expect(new Set(list.map((e) => e.historyId)).size).toBe(4);
      expect(list.map(({ historyId, ...rest }) => (void historyId, rest))).toEqual([
        // An authority list sent again unchanged is not a change.
        { historyDate: u3.updatedAt, change: 'updated', changedFields: ['decisionGroups'], revisedBy: manager(), revisedByUsername: u3.updatedByUsername },
        { historyDate: u2.updatedAt, change: 'updated', changedFields: ['categoryId', 'categoryName', 'sectionId', 'sectionName'], revisedBy: admin(), revisedByUsername: d.createdByUsername },
        { historyDate: u1.updatedAt, change: 'updated', changedFields: ['description'], revisedBy: admin(), revisedByUsername: d.createdByUsername },
        { historyDate: d.createdAt, change: 'created', changedFields: [], revisedBy: admin(), revisedByUsername: d.createdByUsername },
      ]);
      expect(typeof u3.updatedByUsername).toBe('string');
      expect(u3.updatedByUsername).not.toBe(d.createdByUsername);

      // Paged.
      const page2 = await history(d.id, 'limit=3&page=2');
      expect(page2.body.data).toMatchObject({ page: 2, limit: 3, total: 4 });
      expect(page2.body.data.data).toEqual([list[3]]);
      expect((await history(d.id, 'limit=2&page=1')).body.data.data).toEqual(list.slice(0, 2));
      expect((await history(d.id, 'page=5')).body.data).toMatchObject({ page: 5, total: 4, data: [] });
      // Oldest first when asked; a bad order is a 400 naming it.
      expect((await history(d.id, 'sortOrder=asc')).body.data.data).toEqual([...list].reverse());
      expect((await history(d.id, 'sortOrder=desc')).body.data.data).toEqual(list);
      const badOrder = await history(d.id, 'sortOrder=newest');
      expectErrorBody(badOrder, 400);
      expect(badOrder.body.errors.map((e: { field: string }) => e.field)).toEqual(['sortOrder']);
      // Any member who may view decisions reads it.
      expect((await history(d.id, '', h.tokens.auditor)).body.data.data).toEqual(list);
    });

    it('shows a delete and a restore (single and bulk); while deleted, the decision has no history to show (404)', async () => {
      const d = await create({ name: 'Deleted and back' });
      await clockPast(d.updatedAt);
      expect((await h.svc.http.delete(`${PATH}/${d.id}`, { token: h.tokens.admin })).status).toBe(200);
      expectErrorBody(await history(d.id), 404);
      await clockPast(new Date().toISOString());
      expect((await h.svc.http.patch(`${PATH}/bulk-restore`, { token: h.tokens.admin, body: { decisionIds: [d.id] } })).body.data).toEqual({ updateCount: 1 });
      await clockPast(new Date().toISOString());
      expect((await h.svc.http.patch(`${PATH}/bulk-delete`, { token: h.tokens.manager, body: { decisionIds: [d.id] } })).body.data).toEqual({ deleteCount: 1 });
      await clockPast(new Date().toISOString());
      expect((await h.svc.http.patch(`${PATH}/bulk-restore`, { token: h.tokens.admin, body: { decisionIds: [d.id] } })).body.data).toEqual({ updateCount: 1 });

      const list = await entries(d.id);
      expect(list.map((e) => [e.change, e.changedFields, e.revisedBy])).toEqual([
        ['restored', [], admin()],
        ['deleted', [], manager()],
        ['restored', [], admin()],
        ['deleted', [], admin()],
        ['created', [], admin()],
      ]);
      const dates = list.map((e) => e.historyDate);
      expect(dates).toEqual([...dates].sort().reverse());
      expect(new Set(dates).size).toBe(5);
      const current = (await h.svc.http.get(`${PATH}/${d.id}`, { token: h.tokens.admin })).body.data;
      expect(list[0].historyDate).toBe(current.updatedAt);

      // As it stood: deleted between the delete and the restore, live again after it.
      const whileDeleted = await asOf(d.id, between(list[3].historyDate, list[2].historyDate));
      expect(whileDeleted).toMatchObject({ id: d.id, isDeleted: true, deletedBy: admin(), historyId: list[3].historyId, historyDate: list[3].historyDate });
      expect(whileDeleted.deletedOn).toMatch(ISO);
      expect(await asOf(d.id, list[2].historyDate)).toMatchObject({ isDeleted: false, deletedOn: null, deletedBy: null, historyId: list[2].historyId });
      expect(await asOf(d.id, list[1].historyDate)).toMatchObject({ isDeleted: true, deletedBy: manager(), historyId: list[1].historyId });
    });

    it('answers 404 for an unknown decision or another tenant\'s, 400 for a malformed id or page', async () => {
      const d = await create({ name: 'History elsewhere' });
      expectErrorBody(await history(d.id, '', h.tokens.otherAdmin), 404);
      expectErrorBody(await history('0190f5c4-0000-7000-8000-00000000dead'), 404);
      const bad = await history('not-a-uuid');
      expectErrorBody(bad, 400);
      expect(bad.body.errors).toEqual([{ field: 'id', message: expect.any(String) }]);
      for (const [qs, field] of [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['page=0', 'page'],
        ['colour=red', 'colour'],
      ]) {
        const res = await history(d.id, qs);
        expectErrorBody(res, 400);
        expect({ qs, fields: res.body.errors.map((e: { field: string }) => e.field) }).toEqual({ qs, fields: [field] });
      }
    });
  });

  describe('GET /decisions/{id}/{revisionDate}', () => {
    it('answers the decision as it stood at any instant: before a change the old values, after it the new', async () => {
      const created = await create({ name: 'As of one', description: 'original', decisionAuthorities: [approvalLimit(h, '1000')] });
      await clockPast(created.updatedAt);
      const first = await update(created.id, { name: 'As of two', description: 'first change', status: 'PUBLISHED', decisionAuthorities: [approvalLimit(h, '2000')] });
      expect(first.updatedAt > created.updatedAt).toBe(true);

      // Between the creation and the first change: as created.
      const old = await asOf(created.id, between(created.updatedAt, first.updatedAt));
      expect(old).toMatchObject({ id: created.id, name: 'As of one', description: 'original', status: 'DRAFT', updatedAt: created.updatedAt });
      expect(old.decisionAuthorities.map((a) => a.authorityLimitValue)).toEqual(['1000']);
      const [u1, c] = await entries(created.id);
      expect(old).toMatchObject({ historyId: c.historyId, historyDate: created.createdAt });
      // The whole view as it was (the creation answered it): only the revision's id and date are added.
      expect(withoutRevision(old)).toEqual(created);
      // Exactly at the creation, and the last millisecond before the change.
      expect((await asOf(created.id, created.createdAt)).historyId).toBe(c.historyId);
      expect((await asOf(created.id, shift(first.updatedAt, -1))).name).toBe('As of one');
      // At the change itself: the change.
      expect(await asOf(created.id, first.updatedAt)).toMatchObject({ name: 'As of two', historyId: u1.historyId, historyDate: first.updatedAt });

      await clockPast(first.updatedAt);
      const second = await update(created.id, { name: 'As of three', description: null, status: 'ARCHIVED' });

      // Between the two changes: the first change's values.
      const mid = await asOf(created.id, between(first.updatedAt, second.updatedAt));
      expect(withoutRevision(mid)).toEqual(first);
      expect(mid).toMatchObject({ name: 'As of two', description: 'first change', status: 'PUBLISHED', historyId: u1.historyId, historyDate: first.updatedAt });
      expect(mid.decisionAuthorities.map((a) => a.authorityLimitValue)).toEqual(['2000']);
      // Still the creation before the first change.
      expect((await asOf(created.id, between(created.updatedAt, first.updatedAt))).name).toBe('As of one');
      // From the second change on, and far in the future: as it is now.
      const now = (await h.svc.http.get(`${PATH}/${created.id}`, { token: h.tokens.admin })).body.data;
      expect(withoutRevision(await asOf(created.id, second.updatedAt))).toEqual(now);
      expect(withoutRevision(await asOf(created.id, '2999-12-31T23:59:59.999Z'))).toEqual(now);
      expect(now).toMatchObject({ name: 'As of three', description: null, status: 'ARCHIVED' });
    });

    it('takes any ISO 8601 date-time: another offset, no offset (UTC), no milliseconds, microseconds', async () => {
      const d = await create({ name: 'Instant forms' });
      await clockPast(d.updatedAt);
      const changed = await update(d.id, { description: 'changed' });
      const [, created] = await entries(d.id);
      const mid = Date.parse(between(d.updatedAt, changed.updatedAt));
      // The same instant written with a +02:00 offset and with -05:30.
      const offset = (ms: number, minutes: number) => {
        const local = new Date(ms + minutes * 60_000).toISOString().slice(0, -1);
        const sign = minutes < 0 ? '-' : '+';
        const abs = Math.abs(minutes);
        return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
      };
      expect((await asOf(d.id, offset(mid, 120))).historyId).toBe(created.historyId);
      expect((await asOf(d.id, offset(mid, -330))).historyId).toBe(created.historyId);
      expect((await asOf(d.id, offset(Date.parse(changed.updatedAt), 120))).description).toBe('changed');
      // Microseconds: what counts is the millisecond the views show. The change is shown at
      // changed.updatedAt (its microseconds are hidden): any instant in that millisecond finds it,
      // any instant in the millisecond before does not, however close.
      expect((await asOf(d.id, changed.updatedAt.replace('Z', '999Z'))).description).toBe('changed');
      expect((await asOf(d.id, changed.updatedAt.replace('Z', '000Z'))).description).toBe('changed');
      expect((await asOf(d.id, shift(changed.updatedAt, -1).replace('Z', '999Z'))).historyId).toBe(created.historyId);
      // Without an offset: UTC.
      expect((await asOf(d.id, changed.updatedAt.slice(0, -1))).description).toBe('changed');
      expect((await asOf(d.id, shift(changed.updatedAt, -1).slice(0, -1))).historyId).toBe(created.historyId);
      // Without milliseconds or seconds.
      expect((await asOf(d.id, '2999-01-01T00:00:00Z')).description).toBe('changed');
      expect((await asOf(d.id, '2999-01-01T00:00Z')).description).toBe('changed');
    });

    it('answers 404 for an instant before the creation, for an unknown or deleted decision and for another tenant\'s', async () => {
      const d = await create({ name: 'Not yet' });
      for (const instant of [shift(d.createdAt, -1), '2000-01-01T00:00:00.000Z', '2000-01-01T00:00:00-23:59']) {
        const res = await at(d.id, instant);
        expectErrorBody(res, 404);
      }
      expectErrorBody(await at(d.id, d.createdAt, h.tokens.otherAdmin), 404);
      expectErrorBody(await at('0190f5c4-0000-7000-8000-00000000dead', d.createdAt), 404);
      expect((await h.svc.http.delete(`${PATH}/${d.id}`, { token: h.tokens.admin })).status).toBe(200);
      expectErrorBody(await at(d.id, d.createdAt), 404);
    });

    it('answers 400 naming revisionDate for a malformed instant, and id for a malformed id', async () => {
      const d = await create({ name: 'Bad instants' });
      for (const instant of ['yesterday', '2021-02-30T00:00:00.000Z', '2026-13-01T00:00:00Z', '2026-01-01T25:00:00Z', '1700000000000', 'now']) {
        const res = await at(d.id, instant);
        expectErrorBody(res, 400);
        expect({ instant, errors: res.body.errors }).toEqual({ instant, errors: [{ field: 'revisionDate', message: expect.any(String) }] });
      }
      const res = await at('not-a-uuid', d.createdAt);
      expectErrorBody(res, 400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['id']);
    });
  });
});
