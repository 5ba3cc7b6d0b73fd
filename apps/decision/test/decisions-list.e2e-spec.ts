import { expectErrorBody, HttpResult, ISO, startHarness, until } from '@ddm/testing';
import { decisionApp, DecisionHarness } from './fixtures/decision-app';
import { approvalLimit } from './fixtures/limits';

const PATH = '/decision/v1/decisions';
const SEARCH_PATH = `${PATH}/global-search`;

/** Every fixture of this file has it in its name, so `search` isolates them. */
const PREFIX = 'Qlx';
const ALPHA = 'Qlx Alpha';
const BRAVO = 'Qlx bravo'; // lower case: the name sort is case-insensitive
const CHARLIE = 'Qlx Charlie';
const DELTA = 'Qlx Delta';
const ECHO = 'Qlx Echo';
const FOXTROT = 'Qlx Foxtrot'; // deleted
const ALL = [ALPHA, BRAVO, CHARLIE, DELTA, ECHO];

/** A filter value as the body of global-search takes it; the list's query string encodes it. */
type FilterValue = string | number | boolean | string[] | Record<string, unknown>[];
type Filters = Record<string, FilterValue>;

interface Item {
  id: string;
  name: string;
  decisionDisplayId: string;
  createdAt: string;
  updatedAt: string;
  [field: string]: unknown;
}

/** A query string of the list: lists comma-separated, the limit filters JSON-encoded. */
function queryString(filters: Filters): string {
  return Object.entries(filters)
    .map(([k, v]) => {
      const text = Array.isArray(v) ? (v.some((x) => typeof x === 'object') ? JSON.stringify(v) : v.join(',')) : String(v);
      return `${encodeURIComponent(k)}=${encodeURIComponent(text)}`;
    })
    .join('&');
}

function fieldsOf(res: HttpResult): string[] {
  return (res.body.errors ?? []).map((e: { field: string }) => e.field);
}

describe('decisions list and global search (e2e, real Postgres and NATS)', () => {
  let h: DecisionHarness;
  const fx: Record<string, Item> = {};
  let otherTenants: Item;

  const list = (filters: Filters, token = h.tokens.admin) => h.svc.http.get(`${PATH}?${queryString(filters)}`, { token });
  const search = (filters: Filters, token = h.tokens.admin) => h.svc.http.post(SEARCH_PATH, { token, body: filters });
  const names = (res: HttpResult): string[] => res.body.data.data.map((d: Item) => d.name);

  /**
   * The names the list answers for the filters (this file's fixtures, at most 100), asserting that
   * global-search answers exactly the same page for the same filters in a body.
   */
  async function matching(filters: Filters, token = h.tokens.admin): Promise<string[]> {
    const all: Filters = { search: PREFIX, limit: 100, ...filters };
    const [viaGet, viaPost] = await Promise.all([list(all, token), search(all, token)]);
    expect({ filters, status: viaGet.status, errors: viaGet.body.errors }).toEqual({ filters, status: 200, errors: undefined });
    expect({ filters, status: viaPost.status, errors: viaPost.body.errors }).toEqual({ filters, status: 200, errors: undefined });
    expect(viaPost.body.data).toEqual(viaGet.body.data);
    expect(viaGet.body.data.total).toBe(viaGet.body.data.data.length);
    return names(viaGet);
  }

  /** The same filters through both routes answer 400 naming `field`. */
  async function refused(filters: Filters, field: string): Promise<void> {
    for (const res of [await list(filters), await search(filters)]) {
      expectErrorBody(res, 400);
      expect({ filters, fields: fieldsOf(res) }).toEqual({ filters, fields: expect.arrayContaining([field]) });
    }
  }

  const signatory = (valueType: string, value: string | null, unit: string | null) => ({
    authorityTypeId: h.refs.authorityTypes.get('Signatory')!,
    authorityLimit: 'Primary',
    authorityLimitValueType: valueType,
    authorityLimitOperator: value === null ? null : '<=',
    authorityLimitValue: value,
    authorityLimitValueUnit: unit,
  });
  const made = async (body: Record<string, unknown>, token = h.tokens.admin): Promise<Item> => {
    const res = await h.svc.http.post(PATH, { token, body });
    expect({ name: body.name, status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({ name: body.name, status: 200, body: undefined });
    await clockPast(res.body.data.updatedAt);
    return res.body.data;
  };
  /** Waits until the clock is past `iso` by a few milliseconds, so each fixture has instants of its own (the date filters and sorts tell them apart). */
  const clockPast = (iso: string) => until(() => Date.now() > Date.parse(iso) + 2, `the clock past ${iso}`);
  const section = (name: string) => h.refs.sections.get(name)!;
  const category = (name: string) => h.refs.categories.get(name)!;
  const group = (name: string) => ({ groupId: h.refs.groups.get(name)! });
  const user = (email: string) => h.refs.users.get(email)!;

  beforeAll(async () => {
    h = await startHarness(decisionApp);
    // The display ids of the fixtures cross a digit boundary (99998 .. 100003): a text sort would put 100000 before 99998.
    await h.db.query(
      `INSERT INTO decision.display_id_counters (tenant_id, kind, last_value) VALUES ($1, 'decision', 99997)
       ON CONFLICT (tenant_id, kind) DO UPDATE SET last_value = EXCLUDED.last_value`,
      [h.demo.id],
    );
    fx.alpha = await made({
      name: ALPHA,
      description: 'Zephyr budget lines',
      sectionId: section('Finance'),
      categoryId: category('Procurement'),
      decisionGroups: [group('Finance')],
      status: 'PUBLISHED',
      decisionAuthorities: [approvalLimit(h, '1000')],
    });
    fx.bravo = await made({
      name: BRAVO,
      sectionId: section('Commercial'),
      categoryId: category('Sales Contracts'),
      decisionGroups: [group('Legal')],
      ownerId: user('manager@demo.test'),
      delegable: false,
      decisionAuthorities: [approvalLimit(h, '200000')],
    });
    fx.charlie = await made({
      name: CHARLIE,
      sectionId: section('People'),
      categoryId: category('Hiring'),
      decisionGroups: [group('People'), group('Finance')],
      ownerId: user('user@demo.test'),
      decisionAuthorities: [signatory('Currency', 'Unlimited', 'USD')],
    });
    fx.delta = await made({ name: DELTA, status: 'PUBLISHED', decisionAuthorities: [signatory('Authorized', null, null)] });
    fx.echo = await made({
      name: ECHO,
      description: 'Widget ZEPHYR rollout',
      sectionId: section('Operations'),
      categoryId: category('Facilities'),
      decisionAuthorities: [approvalLimit(h, '30000'), signatory('Percentage', '50', null)],
    });
    // Would match most filters below, were it not deleted.
    fx.foxtrot = await made({
      name: FOXTROT,
      description: 'Zephyr',
      sectionId: section('Finance'),
      categoryId: category('Procurement'),
      decisionGroups: [group('Finance'), group('Legal')],
      status: 'PUBLISHED',
      decisionAuthorities: [approvalLimit(h, '1500'), signatory('Authorized', null, null)],
    });
    expect((await h.svc.http.delete(`${PATH}/${fx.foxtrot.id}`, { token: h.tokens.admin })).status).toBe(200);
    // Charlie is the last one changed: DRAFT -> PUBLISHED -> ARCHIVED.
    for (const status of ['PUBLISHED', 'ARCHIVED']) {
      const res = await h.svc.http.patch(`${PATH}/${fx.charlie.id}`, { token: h.tokens.admin, body: { status } });
      expect(res.status).toBe(200);
      fx.charlie = res.body.data;
      await clockPast(fx.charlie.updatedAt);
    }
    otherTenants = await made({ name: 'Qlx Other tenant', description: 'Zephyr', status: 'PUBLISHED' }, h.tokens.otherAdmin);
  });
  afterAll(() => h?.close());

  describe('the page', () => {
    it('answers the paged envelope (page, limit, total, data) with whole decisions, sorted by name by default', async () => {
      const res = await list({ search: PREFIX });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ statusCode: 200, timestamp: expect.stringMatching(ISO), message: 'Decisions list retrieved successfully', data: expect.any(Object) });
      expect(Object.keys(res.body.data).sort()).toEqual(['data', 'limit', 'page', 'total']);
      expect(res.body.data).toMatchObject({ page: 1, limit: 10, total: ALL.length });
      expect(names(res)).toEqual(ALL);
      // An item is the decision as GET answers it.
      const alpha = res.body.data.data[0];
      expect(alpha).toEqual((await h.svc.http.get(`${PATH}/${fx.alpha.id}`, { token: h.tokens.admin })).body.data);
      expect(alpha).toMatchObject({ sectionName: 'Finance', categoryName: 'Procurement', link: expect.stringContaining(fx.alpha.id), permissions: expect.any(Array) });

      const viaPost = await search({ search: PREFIX });
      expect(viaPost.status).toBe(200);
      expect(viaPost.body).toMatchObject({ statusCode: 200, message: 'Decisions list retrieved successfully' });
      expect(viaPost.body.data).toEqual(res.body.data);
    });

    it('pages with page and limit; total counts every match; a page past the end is empty', async () => {
      const pages: [number, string[]][] = [
        [1, [ALPHA, BRAVO]],
        [2, [CHARLIE, DELTA]],
        [3, [ECHO]],
        [4, []],
      ];
      for (const [page, expected] of pages) {
        for (const res of [await list({ search: PREFIX, page, limit: 2 }), await search({ search: PREFIX, page, limit: 2 })]) {
          expect(res.status).toBe(200);
          expect(res.body.data).toMatchObject({ page, limit: 2, total: 5 });
          expect(names(res)).toEqual(expected);
        }
      }
      expect(names(await list({ search: PREFIX, limit: 1 }))).toEqual([ALPHA]);
      expect((await list({ search: PREFIX, limit: 100 })).body.data).toMatchObject({ limit: 100, total: 5 });
    });

    it('refuses a limit outside 1..100 and a page below 1 (400 naming the parameter)', async () => {
      for (const limit of [0, 101, -1, 1.5, 'ten']) await refused({ search: PREFIX, limit }, 'limit');
      for (const page of [0, -2, 'two']) await refused({ search: PREFIX, page }, 'page');
    });
  });

  describe('filters', () => {
    it('tenantId: the caller\'s tenant by default; naming it changes nothing; another tenant\'s decisions are never listed', async () => {
      expect(await matching({})).toEqual(ALL);
      expect(await matching({ tenantId: h.demo.id })).toEqual(ALL);
      expect(await matching({ search: 'zephyr' })).toEqual([ALPHA, ECHO]);
      // Other Co's admin sees Other Co's decision only, by default or naming the tenant.
      expect(await matching({}, h.tokens.otherAdmin)).toEqual([otherTenants.name]);
      expect(await matching({ tenantId: h.other.id }, h.tokens.otherAdmin)).toEqual([otherTenants.name]);
      // Naming a tenant the caller is not a member of is a 403; a malformed one a 400.
      expectErrorBody(await list({ tenantId: h.other.id }), 403);
      expectErrorBody(await search({ tenantId: h.other.id }), 403);
      await refused({ tenantId: 'not-a-uuid' }, 'tenantId');
    });

    it('search: the name, the description or the display id contains it, case-insensitive; wildcards are literal', async () => {
      expect(await matching({ search: 'qLX aLPHA' })).toEqual([ALPHA]);
      expect(await matching({ search: 'QLX BRAVO' })).toEqual([BRAVO]);
      // In the descriptions only.
      expect(await matching({ search: 'ZePhYr' })).toEqual([ALPHA, ECHO]);
      expect(await matching({ search: 'widget' })).toEqual([ECHO]);
      // The display id, whole or in part.
      expect(await matching({ search: fx.delta.decisionDisplayId })).toEqual([DELTA]);
      expect(await matching({ search: '9999' })).toEqual([ALPHA, BRAVO]);
      expect(await matching({ search: '10000' })).toEqual([CHARLIE, DELTA, ECHO]);
      expect(await matching({ search: 'Ql%' })).toEqual([]);
      expect(await matching({ search: 'Q_x' })).toEqual([]);
      expect(await matching({ search: 'no such decision' })).toEqual([]);
      await refused({ search: 'x'.repeat(201) }, 'search');
    });

    it('status: a comma list (an array in the body)', async () => {
      expect(await matching({ status: 'PUBLISHED' })).toEqual([ALPHA, DELTA]);
      expect(await matching({ status: ['ARCHIVED'] })).toEqual([CHARLIE]);
      expect(await matching({ status: ['DRAFT', 'ARCHIVED'] })).toEqual([BRAVO, CHARLIE, ECHO]);
      expect(await matching({ status: ['DRAFT', 'PUBLISHED', 'ARCHIVED'] })).toEqual(ALL);
      expect(names(await search({ search: PREFIX, status: 'DRAFT,ARCHIVED' }))).toEqual([BRAVO, CHARLIE, ECHO]);
      await refused({ status: 'BOGUS' }, 'status');
      await refused({ status: ['PUBLISHED', 'published'] }, 'status');
    });

    it('sectionIds, categoryIds, groupIds, ownerIds: any of the ids (upper-case ids are the same ids)', async () => {
      const cases: [Filters, string[]][] = [
        [{ sectionIds: [section('Finance')] }, [ALPHA]],
        [{ sectionIds: [section('Finance'), section('Commercial')] }, [ALPHA, BRAVO]],
        [{ sectionIds: [section('People').toUpperCase()] }, [CHARLIE]],
        [{ sectionIds: [section('Legal & Compliance')] }, []],
        [{ categoryIds: [category('Hiring')] }, [CHARLIE]],
        [{ categoryIds: [category('Procurement'), category('Facilities')] }, [ALPHA, ECHO]],
        [{ groupIds: [h.refs.groups.get('Finance')!] }, [ALPHA, CHARLIE]],
        [{ groupIds: [h.refs.groups.get('Legal')!] }, [BRAVO]],
        [{ groupIds: [h.refs.groups.get('Legal')!, h.refs.groups.get('People')!] }, [BRAVO, CHARLIE]],
        [{ ownerIds: [user('manager@demo.test')] }, [BRAVO]],
        [{ ownerIds: [user('user@demo.test'), user('manager@demo.test')] }, [BRAVO, CHARLIE]],
        [{ ownerIds: [user('admin@demo.test')] }, [ALPHA, DELTA, ECHO]],
        // Filters are ANDed.
        [{ sectionIds: [section('Finance'), section('Commercial')], status: ['DRAFT'] }, [BRAVO]],
        [{ groupIds: [h.refs.groups.get('Finance')!], ownerIds: [user('user@demo.test')] }, [CHARLIE]],
      ];
      for (const [filters, expected] of cases) expect({ filters, names: await matching(filters) }).toEqual({ filters, names: expected });
      for (const field of ['sectionIds', 'categoryIds', 'groupIds', 'ownerIds']) {
        await refused({ [field]: ['not-a-uuid'] }, field);
        await refused({ [field]: [section('Finance'), 'x'] }, field);
      }
    });

    it('delegable: true or false (also as strings in the body)', async () => {
      expect(await matching({ delegable: false })).toEqual([BRAVO]);
      expect(await matching({ delegable: true })).toEqual([ALPHA, CHARLIE, DELTA, ECHO]);
      expect(names(await search({ search: PREFIX, delegable: 'false' }))).toEqual([BRAVO]);
      await refused({ delegable: 'maybe' }, 'delegable');
    });

    it('authorityTypeIds and authorityLimitValueTypes: decisions with an authority of any of them', async () => {
      const approvalId = h.refs.authorityTypes.get('Approval')!;
      const signatoryId = h.refs.authorityTypes.get('Signatory')!;
      expect(await matching({ authorityTypeIds: [signatoryId] })).toEqual([CHARLIE, DELTA, ECHO]);
      expect(await matching({ authorityTypeIds: [approvalId] })).toEqual([ALPHA, BRAVO, ECHO]);
      expect(await matching({ authorityTypeIds: [approvalId, signatoryId] })).toEqual(ALL);
      expect(await matching({ authorityLimitValueTypes: ['Authorized'] })).toEqual([DELTA]);
      expect(await matching({ authorityLimitValueTypes: ['Percentage', 'Authorized'] })).toEqual([DELTA, ECHO]);
      expect(await matching({ authorityLimitValueTypes: ['Currency'] })).toEqual([ALPHA, BRAVO, CHARLIE, ECHO]);
      expect(await matching({ authorityLimitValueTypes: ['Time'] })).toEqual([]);
      await refused({ authorityTypeIds: ['nope'] }, 'authorityTypeIds');
      await refused({ authorityLimitValueTypes: ['Money'] }, 'authorityLimitValueTypes');
    });

    it('authorityLimitValueFilters: limits compared as numbers, "Unlimited" above every number; the filters ANDed', async () => {
      const currency = (minValue?: string | null, maxValue?: string | null) => ({ authorityLimitValueType: 'Currency', ...(minValue !== undefined ? { minValue } : {}), ...(maxValue !== undefined ? { maxValue } : {}) });
      const cases: [Record<string, unknown>[], string[]][] = [
        // Alpha 1000, Echo 30000, Bravo 200000, Charlie Unlimited. As text, "30000" > "200000" and Echo would be missing.
        [[currency('1000', '200000')], [ALPHA, BRAVO, ECHO]],
        // As text, "200000" < "5000" and Bravo would be missing.
        [[currency('5000', 'Unlimited')], [BRAVO, CHARLIE, ECHO]],
        [[currency('5000')], [BRAVO, CHARLIE, ECHO]],
        [[currency('5000', null)], [BRAVO, CHARLIE, ECHO]],
        // As text, "30000" > "100000".
        [[currency(undefined, '100000')], [ALPHA, ECHO]],
        [[currency(null, '999.99')], []],
        [[currency('1000', '1000')], [ALPHA]],
        [[currency('1000.000001', '200000')], [BRAVO, ECHO]],
        [[currency('Unlimited')], [CHARLIE]],
        [[currency('Unlimited', 'Unlimited')], [CHARLIE]],
        [[currency()], [ALPHA, BRAVO, CHARLIE, ECHO]],
        [[{ authorityLimitValueType: 'Percentage', minValue: '40', maxValue: '60' }], [ECHO]],
        [[{ authorityLimitValueType: 'Percentage', minValue: '60' }], []],
        [[{ authorityLimitValueType: 'Authorized' }], [DELTA]],
        [[currency('1000', '200000'), { authorityLimitValueType: 'Percentage', maxValue: '100' }], [ECHO]],
        [[currency('1000', '200000'), { authorityLimitValueType: 'Authorized' }], []],
      ];
      for (const [authorityLimitValueFilters, expected] of cases) {
        expect({ authorityLimitValueFilters, names: await matching({ authorityLimitValueFilters }) }).toEqual({ authorityLimitValueFilters, names: expected });
      }
      await refused({ authorityLimitValueFilters: [{ authorityLimitValueType: 'Money' }] }, 'authorityLimitValueFilters.0.authorityLimitValueType');
      await refused({ authorityLimitValueFilters: [currency('abc')] }, 'authorityLimitValueFilters.0.minValue');
      await refused({ authorityLimitValueFilters: [currency('1', '-5')] }, 'authorityLimitValueFilters.0.maxValue');
      await refused({ authorityLimitValueFilters: [{ ...currency('1'), colour: 'red' }] }, 'authorityLimitValueFilters.0.colour');
      await refused({ authorityLimitValueFilters: 'not json' }, 'authorityLimitValueFilters');
      await refused({ authorityLimitValueFilters: Array.from({ length: 11 }, () => currency('1')) }, 'authorityLimitValueFilters');
    });

    it('createdAtStart/End and updatedAtStart/End: inclusive bounds, to the millisecond the views show', async () => {
      const { alpha, bravo, charlie, delta, echo } = fx;
      expect(await matching({ createdAtStart: charlie.createdAt })).toEqual([CHARLIE, DELTA, ECHO]);
      expect(await matching({ createdAtEnd: bravo.createdAt })).toEqual([ALPHA, BRAVO]);
      expect(await matching({ createdAtStart: bravo.createdAt, createdAtEnd: delta.createdAt })).toEqual([BRAVO, CHARLIE, DELTA]);
      expect(await matching({ createdAtStart: alpha.createdAt, createdAtEnd: alpha.createdAt })).toEqual([ALPHA]);
      // Charlie was changed last.
      expect(await matching({ updatedAtStart: charlie.updatedAt })).toEqual([CHARLIE]);
      expect(await matching({ updatedAtEnd: echo.updatedAt })).toEqual([ALPHA, BRAVO, DELTA, ECHO]);
      expect(await matching({ createdAtEnd: charlie.createdAt, updatedAtStart: echo.updatedAt })).toEqual([CHARLIE]);
      // Another offset, the same instant.
      const plusTwo = new Date(Date.parse(charlie.createdAt) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
      expect(await matching({ createdAtStart: plusTwo })).toEqual([CHARLIE, DELTA, ECHO]);
      expect(await matching({ createdAtStart: '2999-01-01T00:00:00.000Z' })).toEqual([]);
      for (const field of ['createdAtStart', 'createdAtEnd', 'updatedAtStart', 'updatedAtEnd']) {
        await refused({ [field]: 'yesterday' }, field);
        await refused({ [field]: '2021-02-30T00:00:00.000Z' }, field);
      }
    });

    it('selectedDecisionIds: only these (a deleted or another tenant\'s id matches nothing)', async () => {
      expect(await matching({ selectedDecisionIds: [fx.alpha.id, fx.charlie.id] })).toEqual([ALPHA, CHARLIE]);
      expect(await matching({ selectedDecisionIds: [fx.echo.id.toUpperCase()] })).toEqual([ECHO]);
      expect(await matching({ selectedDecisionIds: [fx.foxtrot.id, otherTenants.id] })).toEqual([]);
      expect(await matching({ search: 'zephyr', selectedDecisionIds: [fx.alpha.id, fx.bravo.id] })).toEqual([ALPHA]);
      await refused({ selectedDecisionIds: ['x'] }, 'selectedDecisionIds');
    });

    it('never lists a deleted decision; a restored one comes back', async () => {
      expect(await matching({ search: FOXTROT })).toEqual([]);
      expect(await matching({ sectionIds: [section('Finance')], status: ['PUBLISHED'] })).toEqual([ALPHA]);
      const gone = await made({ name: 'Qlz Gone and back' });
      const only = { search: 'Qlz Gone' };
      expect(await matching(only)).toEqual(['Qlz Gone and back']);
      expect((await h.svc.http.patch(`${PATH}/bulk-delete`, { token: h.tokens.admin, body: { decisionIds: [gone.id] } })).body.data).toEqual({ deleteCount: 1 });
      expect(await matching(only)).toEqual([]);
      expect((await h.svc.http.patch(`${PATH}/bulk-restore`, { token: h.tokens.admin, body: { decisionIds: [gone.id] } })).body.data).toEqual({ updateCount: 1 });
      expect(await matching(only)).toEqual(['Qlz Gone and back']);
      expect((await h.svc.http.delete(`${PATH}/${gone.id}`, { token: h.tokens.admin })).status).toBe(200);
      expect(await matching(only)).toEqual([]);
    });

    it('is open to every member who may view decisions (an Auditor, a Global User)', async () => {
      expect(await matching({}, h.tokens.auditor)).toEqual(ALL);
      expect(await matching({}, h.tokens.user)).toEqual(ALL);
    });
  });

  describe('select', () => {
    it('answers only the named fields of each item', async () => {
      for (const res of [await list({ search: PREFIX, select: 'id,name,decisionDisplayId' }), await search({ search: PREFIX, select: ['id', 'name', 'decisionDisplayId'] })]) {
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ page: 1, limit: 10, total: 5 });
        expect(res.body.data.data).toEqual([fx.alpha, fx.bravo, fx.charlie, fx.delta, fx.echo].map((d) => ({ id: d.id, name: d.name, decisionDisplayId: d.decisionDisplayId })));
      }
      const computed = await list({ search: PREFIX, select: 'link,permissions,sectionName', limit: 1 });
      expect(computed.body.data.data).toEqual([{ link: expect.stringContaining(fx.alpha.id), permissions: expect.any(Array), sectionName: 'Finance' }]);
    });

    it('refuses an unknown field (400 naming select)', async () => {
      await refused({ select: ['id', 'colour'] }, 'select');
      await refused({ select: 'ID' }, 'select');
    });
  });

  describe('sortBy and sortOrder', () => {
    const ascending: [string, string[]][] = [
      ['name', [ALPHA, BRAVO, CHARLIE, DELTA, ECHO]],
      // 99998, 99999, 100000, 100001, 100002: numerically (as text, 100000 would come first).
      ['decisionDisplayId', [ALPHA, BRAVO, CHARLIE, DELTA, ECHO]],
      // ARCHIVED, DRAFT, PUBLISHED; by name within a status.
      ['status', [CHARLIE, BRAVO, ECHO, ALPHA, DELTA]],
      // Commercial, Finance, Operations, People, none.
      ['sectionName', [BRAVO, ALPHA, ECHO, CHARLIE, DELTA]],
      // Facilities, Hiring, Procurement, Sales Contracts, none.
      ['categoryName', [ECHO, CHARLIE, ALPHA, BRAVO, DELTA]],
      ['createdAt', [ALPHA, BRAVO, CHARLIE, DELTA, ECHO]],
      // Charlie was changed last.
      ['updatedAt', [ALPHA, BRAVO, DELTA, ECHO, CHARLIE]],
    ];

    it('the fixtures\' display ids cross a digit boundary', () => {
      expect([fx.alpha, fx.bravo, fx.charlie, fx.delta, fx.echo].map((d) => d.decisionDisplayId)).toEqual(['99998', '99999', '100000', '100001', '100002']);
    });

    it.each(ascending)('sortBy=%s, asc and desc (the exact reverse)', async (sortBy, expected) => {
      expect(await matching({ sortBy })).toEqual(expected);
      expect(await matching({ sortBy, sortOrder: 'asc' })).toEqual(expected);
      expect(await matching({ sortBy, sortOrder: 'desc' })).toEqual([...expected].reverse());
      // A page of a sorted list is that part of the order.
      expect(names(await list({ search: PREFIX, sortBy, sortOrder: 'desc', limit: 2, page: 2 }))).toEqual([...expected].reverse().slice(2, 4));
    });

    it('decisionDisplayId sorts numerically', async () => {
      const ids = (await list({ search: PREFIX, sortBy: 'decisionDisplayId', select: 'decisionDisplayId' })).body.data.data.map((d: Item) => Number(d.decisionDisplayId));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(ids).toEqual([99998, 99999, 100000, 100001, 100002]);
    });

    it('refuses an unknown sortBy or sortOrder (400 naming the parameter)', async () => {
      for (const sortBy of ['colour', 'ownerUsername', 'NAME', '']) await refused({ search: PREFIX, sortBy }, 'sortBy');
      for (const sortOrder of ['up', 'DESC', '']) await refused({ search: PREFIX, sortOrder }, 'sortOrder');
    });
  });

  describe('unknown parameters', () => {
    it('refuses an unknown query parameter or body field (400 naming it)', async () => {
      for (const field of ['colour', 'offset', 'fields', 'sort']) await refused({ search: PREFIX, [field]: 'x' }, field);
      // Both at once: each is named.
      const res = await list({ search: PREFIX, colour: 'red', limit: 0 });
      expectErrorBody(res, 400);
      expect(fieldsOf(res)).toEqual(expect.arrayContaining(['colour', 'limit']));
    });
  });
});
