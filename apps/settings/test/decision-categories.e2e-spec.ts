import { randomUUID } from 'node:crypto';
import { expectErrorBody, ISO, startHarness } from '@ddm/testing';
import { settingsApp, SettingsHarness } from './fixtures/settings-app';
import { expectManageSettingsRequired, expectOneWins, expectRefusedParameters } from './fixtures/expectations';

const PATH = '/settings/v1/decision-categories';
const SECTIONS = '/settings/v1/decision-sections';
/** Every field of a category: the product's, with its section's name and updatedAt. */
const CATEGORY_FIELDS = ['categoryName', 'createdAt', 'id', 'isDeleted', 'section', 'sectionId', 'sectionName', 'tenantId', 'updatedAt'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Category {
  id: string;
  tenantId: string;
  categoryName: string;
  sectionId: string | null;
  sectionName: string | null;
  section: { id: string; tenantId: string; sectionName: string; isDeleted: boolean } | null;
  isDeleted: boolean;
  createdAt: string;
  updatedAt: string;
}

describe('decision categories (e2e, real Postgres and NATS, auth as a child process)', () => {
  let h: SettingsHarness;
  let adminId: string;
  const sections: Record<string, string> = {};
  const create = (body: object, token = h.tokens.admin) => h.svc.http.post(PATH, { token, body });
  const patch = (id: string, body: object, token = h.tokens.admin) => h.svc.http.patch(`${PATH}/${id}`, { token, body });
  const list = (query = '', token = h.tokens.admin) => h.svc.http.get(`${PATH}${query ? `?${query}` : ''}`, { token });
  const names = async (query: string) => {
    const res = await list(query);
    expect(res.status).toBe(200);
    return res.body.data.data.map((c: Category) => c.categoryName);
  };
  const made = async (categoryName: string, sectionId: string | null = null, token = h.tokens.admin): Promise<Category> => {
    const res = await create({ categoryName, sectionId }, token);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const section = async (sectionName: string, token = h.tokens.admin): Promise<string> => {
    const res = await h.svc.http.post(SECTIONS, { token, body: { sectionName } });
    expect(res.status).toBe(200);
    return res.body.data.id;
  };
  const eventsOf = (id: string) =>
    h.db.query<{ subject: string; payload: Record<string, unknown> }>(
      `SELECT subject, payload FROM settings.outbox WHERE payload->'decisionCategory'->>'id' = $1 ORDER BY created_at, id`,
      [id],
    );

  beforeAll(async () => {
    h = await startHarness(settingsApp);
    adminId = h.demo.users.find((u) => u.email === 'admin@demo.test')!.id;
    sections.finance = await section('Finance');
    sections.people = await section('People');
    sections.foreign = await section('Finance', h.tokens.otherAdmin);
  });
  afterAll(() => h?.close());

  describe('GET /settings/v1/decision-categories', () => {
    const created: Category[] = [];
    beforeAll(async () => {
      for (const [name, s] of [
        ['treasury', sections.finance],
        ['Procurement', sections.finance],
        ['Hiring', sections.people],
        ['10% Rebates', null],
        ['Travel_Expenses', sections.finance],
      ] as const) {
        created.push(await made(name, s));
      }
      await made('Treasury', sections.foreign, h.tokens.otherAdmin);
    });

    it('answers the paged envelope, sorted by category name (case-insensitive), every field with its type', async () => {
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        statusCode: 200,
        timestamp: expect.stringMatching(ISO),
        message: 'Decision categories list retrieved successfully',
        data: { page: 1, limit: 10, total: 5, data: expect.any(Array) },
      });
      expect(res.body.data.data.map((c: Category) => c.categoryName)).toEqual(['10% Rebates', 'Hiring', 'Procurement', 'Travel_Expenses', 'treasury']);
      for (const c of res.body.data.data) expect(Object.keys(c).sort()).toEqual(CATEGORY_FIELDS);
      const [rebates, hiring] = res.body.data.data as Category[];
      expect(hiring).toEqual({
        id: created[2].id,
        tenantId: h.demo.id,
        categoryName: 'Hiring',
        sectionId: sections.people,
        sectionName: 'People',
        section: { id: sections.people, tenantId: h.demo.id, sectionName: 'People', isDeleted: false },
        isDeleted: false,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      expect(rebates).toMatchObject({ categoryName: '10% Rebates', sectionId: null, sectionName: null, section: null });
    });

    it('pages: limit and page, total of all matches; a page past the end is empty with the total', async () => {
      const res = await list('limit=2&page=2');
      expect(res.body.data).toMatchObject({ page: 2, limit: 2, total: 5 });
      expect(res.body.data.data.map((c: Category) => c.categoryName)).toEqual(['Procurement', 'Travel_Expenses']);
      expect((await list('limit=2&page=4')).body.data).toEqual({ page: 4, limit: 2, total: 5, data: [] });
    });

    it('search narrows by category name, case-insensitively, LIKE wildcards taken literally', async () => {
      expect(await names('search=TREAS')).toEqual(['treasury']);
      expect(await names(`search=${encodeURIComponent('10%')}`)).toEqual(['10% Rebates']);
      expect(await names('search=_')).toEqual(['Travel_Expenses']);
      expect(await names('search=r')).toEqual(['10% Rebates', 'Hiring', 'Procurement', 'Travel_Expenses', 'treasury']);
    });

    it('sectionIds narrows to the categories in those sections; categoryIds to those categories; together, both', async () => {
      expect(await names(`sectionIds=${sections.finance}`)).toEqual(['Procurement', 'Travel_Expenses', 'treasury']);
      expect(await names(`sectionIds=${sections.people},${sections.finance}&limit=2`)).toEqual(['Hiring', 'Procurement']);
      expect(await names(`sectionIds=${sections.foreign}`)).toEqual([]);
      expect(await names(`categoryIds=${created[3].id},${created[0].id}`)).toEqual(['10% Rebates', 'treasury']);
      expect(await names(`categoryIds=${created[3].id},${created[0].id}&sectionIds=${sections.finance}`)).toEqual(['treasury']);
      expect(await names(`categoryIds=${randomUUID()}`)).toEqual([]);
    });

    it('sorts by categoryName and createdAt, both ways', async () => {
      expect(await names('sortBy=categoryName&sortOrder=desc')).toEqual(['treasury', 'Travel_Expenses', 'Procurement', 'Hiring', '10% Rebates']);
      expect(await names('sortBy=createdAt')).toEqual(created.map((c) => c.categoryName));
      expect(await names('sortBy=createdAt&sortOrder=desc')).toEqual(created.map((c) => c.categoryName).reverse());
    });

    it("keeps tenants apart: Other Co sees its own category only; naming Demo Co's tenant is a 403 for its admin", async () => {
      const res = await list('', h.tokens.otherAdmin);
      expect(res.body.data.total).toBe(1);
      expect(res.body.data.data[0]).toMatchObject({ tenantId: h.other.id, categoryName: 'Treasury', sectionId: sections.foreign, sectionName: 'Finance' });
      expectErrorBody(await list(`tenantId=${h.demo.id}`, h.tokens.otherAdmin), 403);
      expect((await list(`tenantId=${h.demo.id}`)).body.data.total).toBe(5);
    });

    it('reading needs membership only: the auditor, the manager and a plain user may list; no token is a 401', async () => {
      for (const token of [h.tokens.auditor, h.tokens.manager, h.tokens.user]) expect((await list('', token)).body.data.total).toBe(5);
      expectErrorBody(await h.svc.http.get(PATH), 401);
    });

    it('400 naming the parameter: limit 101, an unknown sort, a malformed id in a list, an unknown parameter, a malformed tenantId', async () => {
      await expectRefusedParameters((query) => list(query), [
        ['limit=101', 'limit'],
        ['sortBy=sectionName', 'sortBy'],
        ['sortOrder=sideways', 'sortOrder'],
        [`categoryIds=${created[0].id},x`, 'categoryIds'],
        ['sectionIds=finance', 'sectionIds'],
        ['section=finance', 'section'],
        ['tenantId=demo', 'tenantId'],
      ]);
    });
  });

  describe('POST /settings/v1/decision-categories', () => {
    it('creates a category in a section: 200, every field, created by the caller, evt.settings.decision-category.created', async () => {
      const res = await create({ tenantId: h.demo.id, categoryName: ' Capital Expenditure ', sectionId: sections.finance });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'Decision category created successfully', timestamp: expect.stringMatching(ISO) });
      const c = res.body.data as Category;
      expect(Object.keys(c).sort()).toEqual(CATEGORY_FIELDS);
      expect(c).toEqual({
        id: expect.stringMatching(UUID),
        tenantId: h.demo.id,
        categoryName: 'Capital Expenditure',
        sectionId: sections.finance,
        sectionName: 'Finance',
        section: { id: sections.finance, tenantId: h.demo.id, sectionName: 'Finance', isDeleted: false },
        isDeleted: false,
        createdAt: expect.stringMatching(ISO),
        updatedAt: c.createdAt,
      });
      const [row] = await h.db.query<{ created_by: string; updated_by: string }>(`SELECT created_by, updated_by FROM settings.decision_categories WHERE id = $1`, [c.id]);
      expect(row).toEqual({ created_by: adminId, updated_by: adminId });
      expect(await eventsOf(c.id)).toEqual([
        {
          subject: 'evt.settings.decision-category.created',
          payload: { tenantId: h.demo.id, decisionCategory: { id: c.id, categoryName: 'Capital Expenditure', sectionId: sections.finance, isDeleted: false } },
        },
      ]);
      // The section answers it among its categories.
      const [finance] = (await h.svc.http.get(`${SECTIONS}?sectionIds=${sections.finance}`, { token: h.tokens.admin })).body.data.data;
      expect(finance.categories.map((x: { categoryName: string }) => x.categoryName)).toContain('Capital Expenditure');
    });

    it('creates a category in no section (sectionId absent or null); its event says sectionId null', async () => {
      const loose = await made('Sundry');
      expect(loose).toMatchObject({ sectionId: null, sectionName: null, section: null });
      expect((await eventsOf(loose.id))[0].payload).toEqual({ tenantId: h.demo.id, decisionCategory: { id: loose.id, categoryName: 'Sundry', sectionId: null, isDeleted: false } });
      expect((await create({ categoryName: 'Sundry Two' })).body.data.sectionId).toBeNull();
    });

    it("404 naming sectionId for an unknown section or another tenant's; nothing is written", async () => {
      for (const sectionId of [randomUUID(), sections.foreign]) {
        const res = await create({ categoryName: 'Nowhere', sectionId });
        expectErrorBody(res, 404);
        expect(res.body.message).toBe(`Decision section ${sectionId} not found`);
        expect(res.body.errors).toEqual([{ field: 'sectionId', message: `Decision section ${sectionId} not found` }]);
      }
      expect((await h.db.query(`SELECT 1 FROM settings.decision_categories WHERE category_name = 'Nowhere'`)).length).toBe(0);
    });

    it('409 for a name the tenant already has, in any case (in any section); nothing is published', async () => {
      const before = (await h.db.query<{ n: string }>(`SELECT count(*) AS n FROM settings.outbox`))[0].n;
      const res = await create({ categoryName: 'CAPITAL expenditure', sectionId: sections.people });
      expectErrorBody(res, 409);
      expect(res.body.message).toBe('A decision category named "CAPITAL expenditure" already exists in this tenant');
      expect((await h.db.query<{ n: string }>(`SELECT count(*) AS n FROM settings.outbox`))[0].n).toBe(before);
    });

    it('two concurrent creates of one name: exactly one 200, the other the same 409 as the check', async () => {
      await expectOneWins([create({ categoryName: 'Race Category' }), create({ categoryName: 'RACE CATEGORY', sectionId: sections.people })], /^A decision category named "(Race Category|RACE CATEGORY)" already exists in this tenant$/);
      expect((await h.db.query(`SELECT 1 FROM settings.decision_categories WHERE lower(category_name) = 'race category'`)).length).toBe(1);
    });

    it('400 listing the bad fields: a name of 51 characters, blank or missing, a malformed sectionId or tenantId, an unknown field', async () => {
      const bad = await create({ categoryName: 'x'.repeat(51), sectionId: 'finance', isDeleted: false });
      expectErrorBody(bad, 400);
      expect([...new Set(bad.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual(['categoryName', 'isDeleted', 'sectionId']);
      expect((await create({ categoryName: 'y'.repeat(50) })).status).toBe(200);
      for (const body of [{}, { categoryName: ' ' }, { categoryName: null }, { categoryName: 'A', tenantId: 'demo' }]) expectErrorBody(await create(body), 400);
    });

    it('403 for the auditor, the manager and a Global User, and in a tenant the caller is not a member of', async () => {
      await expectManageSettingsRequired((token) => create({ categoryName: 'Not allowed' }, token), [h.tokens.auditor, h.tokens.manager, h.tokens.user]);
      expectErrorBody(await create({ tenantId: h.other.id, categoryName: 'Not allowed' }), 403);
      expect((await h.db.query(`SELECT 1 FROM settings.decision_categories WHERE category_name = 'Not allowed'`)).length).toBe(0);
    });
  });

  describe('PATCH /settings/v1/decision-categories/{id}', () => {
    it('renames and moves to another section: 200, the category, updated by the caller, evt.settings.decision-category.updated', async () => {
      const c = await made('Bonuses', sections.finance);
      const res = await patch(c.id, { categoryName: 'Bonus Schemes', sectionId: sections.people });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'Decision category updated successfully' });
      expect(res.body.data).toEqual({
        ...c,
        categoryName: 'Bonus Schemes',
        sectionId: sections.people,
        sectionName: 'People',
        section: { id: sections.people, tenantId: h.demo.id, sectionName: 'People', isDeleted: false },
        updatedAt: expect.stringMatching(ISO),
      });
      const [row] = await h.db.query<{ updated_by: string; updated_on: Date; created_on: Date }>(
        `SELECT updated_by, updated_on, created_on FROM settings.decision_categories WHERE id = $1`,
        [c.id],
      );
      expect(row.updated_by).toBe(adminId);
      expect(row.updated_on.getTime()).toBeGreaterThan(row.created_on.getTime());
      const events = await eventsOf(c.id);
      expect(events.map((e) => e.subject)).toEqual(['evt.settings.decision-category.created', 'evt.settings.decision-category.updated']);
      expect(events[1].payload).toEqual({ tenantId: h.demo.id, decisionCategory: { id: c.id, categoryName: 'Bonus Schemes', sectionId: sections.people, isDeleted: false } });
      // Its own name in another case is no conflict.
      expect((await patch(c.id, { categoryName: 'BONUS SCHEMES' })).body.data).toMatchObject({ categoryName: 'BONUS SCHEMES', sectionId: sections.people });
    });

    it('sectionId: null takes it out of its section (its event says so); the name stays', async () => {
      const c = await made('Pensions', sections.people);
      const res = await patch(c.id, { sectionId: null });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ categoryName: 'Pensions', sectionId: null, sectionName: null, section: null });
      expect((await eventsOf(c.id)).at(-1)).toEqual({
        subject: 'evt.settings.decision-category.updated',
        payload: { tenantId: h.demo.id, decisionCategory: { id: c.id, categoryName: 'Pensions', sectionId: null, isDeleted: false } },
      });
      expect(await names(`sectionIds=${sections.people}&search=pensions`)).toEqual([]);
    });

    it("404 naming sectionId when moving into an unknown or another tenant's section; the category stays where it was", async () => {
      const c = await made('Grants', sections.finance);
      for (const sectionId of [randomUUID(), sections.foreign]) {
        const res = await patch(c.id, { sectionId });
        expectErrorBody(res, 404);
        expect(res.body.errors).toEqual([{ field: 'sectionId', message: `Decision section ${sectionId} not found` }]);
      }
      expect((await list(`categoryIds=${c.id}`)).body.data.data).toEqual([c]);
    });

    it('isDeleted true deletes softly: 200 with isDeleted, the deleted event, gone from lists and its section, then 404; the name is free again', async () => {
      const c = await made('Temporary', sections.finance);
      const res = await patch(c.id, { isDeleted: 'true' });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ ...c, isDeleted: true, updatedAt: expect.stringMatching(ISO) });
      const [row] = await h.db.query<{ deleted_on: Date | null; deleted_by: string | null }>(`SELECT deleted_on, deleted_by FROM settings.decision_categories WHERE id = $1`, [c.id]);
      expect(row).toEqual({ deleted_on: expect.any(Date), deleted_by: adminId });
      expect((await eventsOf(c.id)).at(-1)).toEqual({
        subject: 'evt.settings.decision-category.deleted',
        payload: { tenantId: h.demo.id, decisionCategory: { id: c.id, categoryName: 'Temporary', sectionId: sections.finance, isDeleted: true } },
      });
      expect(await names('search=temporary')).toEqual([]);
      const [finance] = (await h.svc.http.get(`${SECTIONS}?sectionIds=${sections.finance}`, { token: h.tokens.admin })).body.data.data;
      expect(finance.categories.map((x: { id: string }) => x.id)).not.toContain(c.id);
      const again = await patch(c.id, { categoryName: 'Back' });
      expectErrorBody(again, 404);
      expect(again.body.message).toBe(`Decision category ${c.id} not found`);
      expect((await eventsOf(c.id)).length).toBe(2);
      expect((await made('temporary')).id).not.toBe(c.id);
    });

    it('409 onto a name another live category has; 400 for {}, isDeleted false alone, tenantId alone, a long name, an unknown field, a malformed id', async () => {
      const c = await made('Delegated Spend');
      const taken = await patch(c.id, { categoryName: 'hiring' });
      expectErrorBody(taken, 409);
      expect(taken.body.message).toBe('A decision category named "hiring" already exists in this tenant');
      for (const body of [{}, { isDeleted: false }, { tenantId: h.demo.id }]) {
        const res = await patch(c.id, body);
        expectErrorBody(res, 400);
        expect(res.body.message).toBe('Nothing to change: send at least one of categoryName, sectionId, isDeleted');
      }
      const bad = await patch(c.id, { categoryName: 'y'.repeat(51), isDeleted: 'maybe', sectionName: 'Finance' });
      expectErrorBody(bad, 400);
      expect([...new Set(bad.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual(['categoryName', 'isDeleted', 'sectionName']);
      const malformed = await patch('12', { categoryName: 'X' });
      expectErrorBody(malformed, 400);
      expect(malformed.body.errors).toEqual([{ field: 'id', message: 'must be a UUID' }]);
      expect((await eventsOf(c.id)).length).toBe(1);
      expect((await list(`categoryIds=${c.id}`)).body.data.data).toEqual([c]);
    });

    it("404 for Other Co's category (named from Demo Co), which stays unchanged", async () => {
      const foreign = (await list('', h.tokens.otherAdmin)).body.data.data[0] as Category;
      expectErrorBody(await patch(foreign.id, { categoryName: 'Mine now' }), 404);
      expectErrorBody(await patch(foreign.id, { isDeleted: true }), 404);
      expect((await list('', h.tokens.otherAdmin)).body.data.data[0]).toEqual(foreign);
    });

    it('403 for the auditor and a Global User; the category is unchanged', async () => {
      const c = await made('Custody');
      await expectManageSettingsRequired((token) => patch(c.id, { isDeleted: true }, token), [h.tokens.auditor, h.tokens.user]);
      expect((await list(`categoryIds=${c.id}`)).body.data.data).toEqual([c]);
      expect((await eventsOf(c.id)).map((e) => e.subject)).toEqual(['evt.settings.decision-category.created']);
    });
  });
});
