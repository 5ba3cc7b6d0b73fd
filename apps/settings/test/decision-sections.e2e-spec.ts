import { expectErrorBody, ISO, startHarness, until } from '@ddm/testing';
import { settingsApp, SettingsHarness } from './fixtures/settings-app';
import { expectManageSettingsRequired, expectOneWins, expectRefusedParameters } from './fixtures/expectations';

const PATH = '/settings/v1/decision-sections';
const CATEGORIES = '/settings/v1/decision-categories';
/** Every field of a section, as the product answers it (with createdAt/updatedAt). */
const SECTION_FIELDS = ['categories', 'createdAt', 'id', 'isDeleted', 'sectionName', 'tenantId', 'updatedAt'];
const SECTION_CATEGORY_FIELDS = ['categoryName', 'id', 'isDeleted', 'sectionId', 'tenantId'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface SectionCategory {
  id: string;
  tenantId: string;
  sectionId: string;
  categoryName: string;
  isDeleted: boolean;
}

interface Section {
  id: string;
  tenantId: string;
  sectionName: string;
  isDeleted: boolean;
  categories: SectionCategory[];
  createdAt: string;
  updatedAt: string;
}

interface Outboxed {
  subject: string;
  payload: Record<string, unknown>;
}

describe('decision sections (e2e, real Postgres and NATS, auth as a child process)', () => {
  let h: SettingsHarness;
  let adminId: string;
  const create = (body: object, token = h.tokens.admin) => h.svc.http.post(PATH, { token, body });
  const remove = (id: string, token = h.tokens.admin) => h.svc.http.delete(`${PATH}/${id}`, { token });
  const list = (query = '', token = h.tokens.admin) => h.svc.http.get(`${PATH}${query ? `?${query}` : ''}`, { token });
  const names = async (query: string) => {
    const res = await list(query);
    expect(res.status).toBe(200);
    return res.body.data.data.map((s: Section) => s.sectionName);
  };
  const made = async (sectionName: string, token = h.tokens.admin): Promise<Section> => {
    const res = await create({ sectionName }, token);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const category = async (categoryName: string, sectionId: string | null) => {
    const res = await h.svc.http.post(CATEGORIES, { token: h.tokens.admin, body: { categoryName, sectionId } });
    expect(res.status).toBe(200);
    return res.body.data as { id: string; sectionId: string | null };
  };
  const eventsOf = (key: 'decisionSection' | 'decisionCategory', ids: readonly string[]) =>
    h.db.query<Outboxed>(`SELECT subject, payload FROM settings.outbox WHERE payload->$1->>'id' = ANY($2::text[]) ORDER BY created_at, id`, [key, ids]);
  const outboxSize = async () => Number((await h.db.query<{ n: string }>(`SELECT count(*) AS n FROM settings.outbox`))[0].n);

  beforeAll(async () => {
    h = await startHarness(settingsApp);
    adminId = h.demo.users.find((u) => u.email === 'admin@demo.test')!.id;
  });
  afterAll(() => h?.close());

  describe('GET /settings/v1/decision-sections', () => {
    const created: Section[] = [];
    const cats: Record<string, { id: string }> = {};
    beforeAll(async () => {
      // Demo Co starts with no sections (the harness seeds auth only).
      for (const name of ['finance', 'Commercial', 'People', '50% Legal', 'Operations_2']) created.push(await made(name));
      cats.treasury = await category('Treasury', created[0].id);
      cats.procurement = await category('Procurement', created[0].id);
      cats.hiring = await category('Hiring', created[2].id);
      cats.loose = await category('Loose Ends', null);
      await made('Finance', h.tokens.otherAdmin);
    });

    it('answers the paged envelope, sorted by section name (case-insensitive), every field with its type, categories by name', async () => {
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        statusCode: 200,
        timestamp: expect.stringMatching(ISO),
        message: 'Decision sections list retrieved successfully',
        data: { page: 1, limit: 10, total: 5, data: expect.any(Array) },
      });
      expect(res.body.data.data.map((s: Section) => s.sectionName)).toEqual(['50% Legal', 'Commercial', 'finance', 'Operations_2', 'People']);
      for (const s of res.body.data.data) expect(Object.keys(s).sort()).toEqual(SECTION_FIELDS);
      const finance = res.body.data.data[2] as Section;
      expect(finance).toEqual({
        id: created[0].id,
        tenantId: h.demo.id,
        sectionName: 'finance',
        isDeleted: false,
        categories: [
          { id: cats.procurement.id, tenantId: h.demo.id, sectionId: created[0].id, categoryName: 'Procurement', isDeleted: false },
          { id: cats.treasury.id, tenantId: h.demo.id, sectionId: created[0].id, categoryName: 'Treasury', isDeleted: false },
        ],
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      for (const c of finance.categories) expect(Object.keys(c).sort()).toEqual(SECTION_CATEGORY_FIELDS);
      expect(finance.createdAt).toBe(created[0].createdAt);
      expect(res.body.data.data[1].categories).toEqual([]);
    });

    it('pages: limit and page, total of all matches; a page past the end is empty with the total', async () => {
      const res = await list('limit=2&page=2');
      expect(res.body.data).toMatchObject({ page: 2, limit: 2, total: 5 });
      expect(res.body.data.data.map((s: Section) => s.sectionName)).toEqual(['finance', 'Operations_2']);
      expect((await list('limit=2&page=4')).body.data).toEqual({ page: 4, limit: 2, total: 5, data: [] });
    });

    it('search narrows by section name, case-insensitively, LIKE wildcards taken literally', async () => {
      expect(await names('search=FIN')).toEqual(['finance']);
      expect(await names(`search=${encodeURIComponent('50%')}`)).toEqual(['50% Legal']);
      expect(await names('search=_')).toEqual(['Operations_2']);
      expect(await names('search=%25')).toEqual(['50% Legal']);
      expect(await names('search=nothing')).toEqual([]);
    });

    it('sectionIds narrows to those sections; categoryIds to the sections holding those categories; together, both', async () => {
      expect(await names(`sectionIds=${created[1].id},${created[2].id}`)).toEqual(['Commercial', 'People']);
      expect(await names(`sectionIds=${created[1].id}&sectionIds=${created[4].id}`)).toEqual(['Commercial', 'Operations_2']);
      expect(await names(`categoryIds=${cats.treasury.id}`)).toEqual(['finance']);
      expect(await names(`categoryIds=${cats.treasury.id}, ${cats.hiring.id},${cats.procurement.id}`)).toEqual(['finance', 'People']);
      expect(await names(`categoryIds=${cats.loose.id}`)).toEqual([]);
      expect(await names(`categoryIds=${cats.hiring.id}&sectionIds=${created[0].id}`)).toEqual([]);
      expect(await names(`categoryIds=${cats.hiring.id}&sectionIds=${created[2].id},${created[0].id}`)).toEqual(['People']);
    });

    it('sorts by sectionName and createdAt, both ways', async () => {
      expect(await names('sortBy=sectionName&sortOrder=desc')).toEqual(['People', 'Operations_2', 'finance', 'Commercial', '50% Legal']);
      expect(await names('sortBy=createdAt')).toEqual(created.map((s) => s.sectionName));
      expect(await names('sortBy=createdAt&sortOrder=desc')).toEqual(created.map((s) => s.sectionName).reverse());
      expect(await names('sortBy=createdAt&sortOrder=desc&limit=2&page=2')).toEqual(['People', 'Commercial']);
    });

    it("keeps tenants apart: Other Co sees its own section only; naming Demo Co's tenant is a 403 for its admin", async () => {
      const res = await list('', h.tokens.otherAdmin);
      expect(res.body.data.total).toBe(1);
      expect(res.body.data.data[0]).toMatchObject({ tenantId: h.other.id, sectionName: 'Finance', categories: [] });
      expectErrorBody(await list(`tenantId=${h.demo.id}`, h.tokens.otherAdmin), 403);
      expect((await list(`tenantId=${h.demo.id}`)).body.data.total).toBe(5);
      // Another tenant's ids narrow to nothing.
      expect(await names(`sectionIds=${res.body.data.data[0].id}`)).toEqual([]);
    });

    it('reading needs membership only: the auditor, the manager and a plain user may list; no token is a 401', async () => {
      for (const token of [h.tokens.auditor, h.tokens.manager, h.tokens.user]) expect((await list('', token)).body.data.total).toBe(5);
      expectErrorBody(await h.svc.http.get(PATH), 401);
    });

    it('400 naming the parameter: limit 101, page 0, an unknown sort or order, a malformed id in a list, an unknown parameter, a malformed tenantId', async () => {
      await expectRefusedParameters((query) => list(query), [
        ['limit=101', 'limit'],
        ['page=0', 'page'],
        ['sortBy=categoryName', 'sortBy'],
        ['sortOrder=up', 'sortOrder'],
        [`sectionIds=${created[0].id},nope`, 'sectionIds'],
        ['categoryIds=12', 'categoryIds'],
        ['status=ACTIVE', 'status'],
        ['tenantId=demo', 'tenantId'],
        [`search=${'s'.repeat(101)}`, 'search'],
      ]);
    });
  });

  describe('POST /settings/v1/decision-sections', () => {
    it('creates a section: 200, every field, the name trimmed, created by the caller, evt.settings.decision-section.created in the outbox', async () => {
      const res = await create({ tenantId: h.demo.id, sectionName: '  Treasury Ops ' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'Decision section created successfully', timestamp: expect.stringMatching(ISO) });
      const s = res.body.data as Section;
      expect(Object.keys(s).sort()).toEqual(SECTION_FIELDS);
      expect(s).toEqual({
        id: expect.stringMatching(UUID),
        tenantId: h.demo.id,
        sectionName: 'Treasury Ops',
        isDeleted: false,
        categories: [],
        createdAt: expect.stringMatching(ISO),
        updatedAt: s.createdAt,
      });
      const [row] = await h.db.query<{ created_by: string; updated_by: string }>(`SELECT created_by, updated_by FROM settings.decision_sections WHERE id = $1`, [s.id]);
      expect(row).toEqual({ created_by: adminId, updated_by: adminId });
      expect(await eventsOf('decisionSection', [s.id])).toEqual([
        { subject: 'evt.settings.decision-section.created', payload: { tenantId: h.demo.id, decisionSection: { id: s.id, sectionName: 'Treasury Ops', isDeleted: false } } },
      ]);
    });

    it('409 for a name the tenant already has, in any case; nothing is written or published; another tenant may have it', async () => {
      const before = await outboxSize();
      const res = await create({ sectionName: 'TREASURY OPS' });
      expectErrorBody(res, 409);
      expect(res.body.message).toBe('A decision section named "TREASURY OPS" already exists in this tenant');
      expect(await outboxSize()).toBe(before);
      expect((await create({ sectionName: 'Treasury Ops' }, h.tokens.otherAdmin)).status).toBe(200);
    });

    it('two concurrent creates of one name: exactly one 200, the other the same 409 as the check (the unique index catches the race)', async () => {
      await expectOneWins([create({ sectionName: 'Race Section' }), create({ sectionName: 'race section' })], /^A decision section named "(Race Section|race section)" already exists in this tenant$/);
      expect((await h.db.query(`SELECT 1 FROM settings.decision_sections WHERE lower(section_name) = 'race section'`)).length).toBe(1);
    });

    it('400 listing the bad fields: a name of 51 characters, missing, blank or not a string, an unknown field, a malformed tenantId', async () => {
      const long = await create({ sectionName: 'x'.repeat(51), categories: [] });
      expectErrorBody(long, 400);
      expect([...new Set(long.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual(['categories', 'sectionName']);
      expect(long.body.errors).toContainEqual({ field: 'categories', message: 'is not an accepted field' });
      expect((await create({ sectionName: 'x'.repeat(50) })).status).toBe(200);
      for (const body of [{}, { sectionName: '   ' }, { sectionName: 7 }, { sectionName: null }]) {
        const res = await create(body);
        expectErrorBody(res, 400);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('sectionName');
      }
      const tenant = await create({ sectionName: 'A', tenantId: 'demo' });
      expectErrorBody(tenant, 400);
      expect(tenant.body.errors).toEqual([{ field: 'tenantId', message: 'must be a UUID' }]);
    });

    it('403 for the auditor, the manager and a Global User (no manage:settings), and in a tenant the caller is not a member of', async () => {
      await expectManageSettingsRequired((token) => create({ sectionName: 'Not allowed' }, token), [h.tokens.auditor, h.tokens.manager, h.tokens.user]);
      expectErrorBody(await create({ tenantId: h.other.id, sectionName: 'Not allowed' }), 403);
      expect((await h.db.query(`SELECT 1 FROM settings.decision_sections WHERE section_name = 'Not allowed'`)).length).toBe(0);
    });
  });

  describe('DELETE /settings/v1/decision-sections/{id}', () => {
    it('deletes softly: 200 with isDeleted and no categories; its categories stay, in no section, each with its updated event after the section’s deleted event', async () => {
      const section = await made('Doomed');
      const a = await category('Doomed A', section.id);
      const b = await category('Doomed B', section.id);
      const gone = await category('Doomed Gone', section.id);
      expect((await h.svc.http.patch(`${CATEGORIES}/${gone.id}`, { token: h.tokens.admin, body: { isDeleted: true } })).status).toBe(200);
      const elsewhere = await category('Elsewhere', (await made('Survivor')).id);

      const res = await remove(section.id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'Decision section deleted successfully', timestamp: expect.stringMatching(ISO) });
      expect(res.body.data).toEqual({ ...section, isDeleted: true, categories: [], updatedAt: expect.stringMatching(ISO) });
      const [row] = await h.db.query<{ is_deleted: boolean; deleted_on: Date | null; deleted_by: string | null; updated_by: string }>(
        `SELECT is_deleted, deleted_on, deleted_by, updated_by FROM settings.decision_sections WHERE id = $1`,
        [section.id],
      );
      expect(row).toMatchObject({ is_deleted: true, deleted_on: expect.any(Date), deleted_by: adminId, updated_by: adminId });

      // The categories answer no section; the deleted category and the other section's are untouched.
      const listed = await h.svc.http.get(`${CATEGORIES}?search=doomed`, { token: h.tokens.admin });
      expect(listed.body.data.data.map((c: { id: string; sectionId: string | null; sectionName: string | null; section: unknown }) => [c.id, c.sectionId, c.sectionName, c.section])).toEqual([
        [a.id, null, null, null],
        [b.id, null, null, null],
      ]);
      const [moved] = await h.db.query<{ updated_by: string }>(`SELECT updated_by FROM settings.decision_categories WHERE id = $1`, [a.id]);
      expect(moved.updated_by).toBe(adminId);
      const [deletedOne] = await h.db.query<{ section_id: string }>(`SELECT section_id FROM settings.decision_categories WHERE id = $1`, [gone.id]);
      expect(deletedOne.section_id).toBe(section.id);

      const sectionEvents = await eventsOf('decisionSection', [section.id]);
      expect(sectionEvents.map((e) => e.subject)).toEqual(['evt.settings.decision-section.created', 'evt.settings.decision-section.deleted']);
      expect(sectionEvents[1].payload).toEqual({ tenantId: h.demo.id, decisionSection: { id: section.id, sectionName: 'Doomed', isDeleted: true } });
      const after = await h.db.query<Outboxed>(
        `SELECT subject, payload FROM settings.outbox WHERE (created_at, id) > (SELECT created_at, id FROM settings.outbox WHERE subject = 'evt.settings.decision-section.deleted' AND payload->'decisionSection'->>'id' = $1)
            AND subject LIKE 'evt.settings.decision-%'
          ORDER BY created_at, id`,
        [section.id],
      );
      expect(after).toEqual([
        { subject: 'evt.settings.decision-category.updated', payload: { tenantId: h.demo.id, decisionCategory: { id: a.id, categoryName: 'Doomed A', sectionId: null, isDeleted: false } } },
        { subject: 'evt.settings.decision-category.updated', payload: { tenantId: h.demo.id, decisionCategory: { id: b.id, categoryName: 'Doomed B', sectionId: null, isDeleted: false } } },
      ]);
      expect((await eventsOf('decisionCategory', [elsewhere.id])).map((e) => e.subject)).toEqual(['evt.settings.decision-category.created']);

      // Gone from the list; a second delete is a 404; the name is free again.
      expect(await names('search=doomed')).toEqual([]);
      const again = await remove(section.id);
      expectErrorBody(again, 404);
      expect(again.body.message).toBe(`Decision section ${section.id} not found`);
      const reborn = await made('doomed');
      expect(reborn.id).not.toBe(section.id);
    });

    it('a category cannot be put into a deleted section (404 naming it)', async () => {
      const section = await made('Short Lived');
      expect((await remove(section.id)).status).toBe(200);
      const res = await h.svc.http.post(CATEGORIES, { token: h.tokens.admin, body: { categoryName: 'Orphan', sectionId: section.id } });
      expectErrorBody(res, 404);
      expect(res.body.errors).toEqual([{ field: 'sectionId', message: `Decision section ${section.id} not found` }]);
    });

    it("404 for Other Co's section (named from Demo Co), which stays; 400 for a malformed id", async () => {
      const foreign = (await list('', h.tokens.otherAdmin)).body.data.data[0] as Section;
      expectErrorBody(await remove(foreign.id), 404);
      expect((await list('', h.tokens.otherAdmin)).body.data.data[0]).toEqual(foreign);
      const malformed = await remove('not-a-uuid');
      expectErrorBody(malformed, 400);
      expect(malformed.body.errors).toEqual([{ field: 'id', message: 'must be a UUID' }]);
    });

    it('403 for the auditor and a Global User; the section stays', async () => {
      const section = await made('Guarded');
      await expectManageSettingsRequired((token) => remove(section.id, token), [h.tokens.auditor, h.tokens.user]);
      expect(await names('search=guarded')).toEqual(['Guarded']);
      expect((await eventsOf('decisionSection', [section.id])).map((e) => e.subject)).toEqual(['evt.settings.decision-section.created']);
    });

    it('the outbox relay publishes the events (rows get published_at)', async () => {
      const section = await made('Relayed Section');
      await until(async () => {
        const [row] = await h.db.query<{ published_at: Date | null }>(`SELECT published_at FROM settings.outbox WHERE payload->'decisionSection'->>'id' = $1`, [section.id]);
        return row?.published_at;
      }, 'the relay to publish the event');
    });
  });
});
