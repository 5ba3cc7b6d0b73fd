import { randomUUID } from 'node:crypto';
import { expectErrorBody, ISO, startHarness, until } from '@ddm/testing';
import { publishTenantCreated } from './fixtures/events';
import { settingsApp, SettingsHarness } from './fixtures/settings-app';

const PATH = '/settings/v1/document-versioning';
const FIELDS = ['createdAt', 'fieldName', 'fieldType', 'id', 'isDefault', 'isDeleted', 'status', 'tenantId', 'updatedAt'];
const DEFAULTS = ['Version Number', 'Effective Date', 'Review Date'];

type Field = Record<string, any>;

describe('document versioning fields (e2e, real Postgres and NATS, auth as a child process)', () => {
  let h: SettingsHarness;
  const list = (query = '', token: string | undefined = h.tokens.admin) => h.svc.http.get(`${PATH}${query ? `?${query}` : ''}`, { token });
  const namesOf = async (tenantId: string) =>
    (
      await h.db.query<{ field_name: string }>(`SELECT field_name FROM settings.document_versioning_fields WHERE tenant_id = $1 AND NOT is_deleted ORDER BY created_on, id`, [tenantId])
    ).map((r) => r.field_name);

  beforeAll(async () => {
    h = await startHarness(settingsApp);
  });
  afterAll(() => h?.close());

  it('every tenant starts with Version Number, Effective Date and Review Date (the tenant-created consumer), once however often the event comes', async () => {
    await until(async () => (await namesOf(h.demo.id)).length === 3, "Demo Co's versioning fields");
    expect(await namesOf(h.demo.id)).toEqual(DEFAULTS);
    const tenantId = randomUUID();
    await publishTenantCreated(h.svc, tenantId);
    await publishTenantCreated(h.svc, tenantId);
    await until(async () => (await namesOf(tenantId)).length === 3, "the new tenant's versioning fields");
    await until(
      async () => Number((await h.db.query<{ n: string }>(`SELECT count(*) AS n FROM settings.processed_messages WHERE consumer = 'settings-tenant-defaults'`))[0].n) >= 4,
      'both events processed',
    );
    expect(await namesOf(tenantId)).toEqual(DEFAULTS);
  });

  it('GET lists them paged with the product\'s fields (status a boolean), to any member of the tenant', async () => {
    const res = await list('', h.tokens.user);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      statusCode: 200,
      timestamp: expect.stringMatching(ISO),
      message: 'Document versioning fields list retrieved successfully',
      data: { page: 1, limit: 10, total: 3, data: expect.any(Array) },
    });
    for (const f of res.body.data.data) expect(Object.keys(f).sort()).toEqual(FIELDS);
    expect(res.body.data.data.map((f: Field) => [f.fieldName, f.fieldType])).toEqual([
      ['Version Number', 'string'],
      ['Effective Date', 'date'],
      ['Review Date', 'date'],
    ]);
    expect(res.body.data.data[0]).toEqual({
      id: expect.any(String),
      tenantId: h.demo.id,
      fieldName: 'Version Number',
      fieldType: 'string',
      status: true,
      isDefault: true,
      isDeleted: false,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
  });

  it('search, versioningFieldIds, sortBy/sortOrder, paging and select', async () => {
    const all: Field[] = (await list()).body.data.data;
    expect((await list('search=date&sortBy=fieldName')).body.data.data.map((f: Field) => f.fieldName)).toEqual(['Effective Date', 'Review Date']);
    expect((await list('sortBy=fieldName&sortOrder=desc')).body.data.data.map((f: Field) => f.fieldName)).toEqual(['Version Number', 'Review Date', 'Effective Date']);
    expect((await list('sortBy=fieldType&sortOrder=asc')).body.data.data.map((f: Field) => f.fieldName)).toEqual(['Effective Date', 'Review Date', 'Version Number']);
    const chosen = await list(`versioningFieldIds=${all[2].id},${all[0].id}`);
    expect(chosen.body.data.total).toBe(2);
    expect(chosen.body.data.data.map((f: Field) => f.id)).toEqual([all[0].id, all[2].id]);
    const page2 = await list('limit=2&page=2');
    expect(page2.body.data).toMatchObject({ page: 2, limit: 2, total: 3 });
    expect(page2.body.data.data.map((f: Field) => f.fieldName)).toEqual(['Review Date']);
    const selected = await list('select=id,fieldName');
    expect(selected.body.data.data).toEqual(all.map((f) => ({ id: f.id, fieldName: f.fieldName })));
  });

  it("GET /{id} answers one field; 404 for an unknown or another tenant's field, 400 for a malformed id", async () => {
    const [first] = (await list()).body.data.data;
    const one = await h.svc.http.get(`${PATH}/${first.id}`, { token: h.tokens.auditor });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ message: 'Document versioning field details retrieved successfully', data: first });
    const unknown = await h.svc.http.get(`${PATH}/${randomUUID()}`, { token: h.tokens.admin });
    expectErrorBody(unknown, 404);
    expect(unknown.body.errors).toEqual([{ field: 'id', message: expect.stringMatching(/not found/) }]);
    const othersId = (await list('', h.tokens.otherAdmin)).body.data.data[0].id;
    expectErrorBody(await h.svc.http.get(`${PATH}/${othersId}`, { token: h.tokens.admin }), 404);
    expectErrorBody(await h.svc.http.get(`${PATH}/nope`, { token: h.tokens.admin }), 400);
  });

  it("never lists another tenant's fields: Other Co sees its own", async () => {
    const own = (await list()).body.data.data.map((f: Field) => f.id);
    const others = await list('', h.tokens.otherAdmin);
    expect(others.body.data.total).toBe(3);
    for (const f of others.body.data.data) {
      expect(f.tenantId).toBe(h.other.id);
      expect(own).not.toContain(f.id);
    }
  });

  it('401 without a token; 403 for a tenant the caller is not a member of; 400 for bad parameters, the allowed values listed whole', async () => {
    expectErrorBody(await h.svc.http.get(PATH), 401);
    expectErrorBody(await h.svc.http.get(`${PATH}/${randomUUID()}`), 401);
    const foreign = await list(`tenantId=${h.other.id}`, h.tokens.user);
    expectErrorBody(foreign, 403);
    expect(foreign.body.message).toMatch(/not a member/);
    for (const q of ['limit=101', 'page=0', 'versioningFieldIds=nope', `search=${'x'.repeat(101)}`, 'colour=red']) expectErrorBody(await list(q), 400);
    const sort = await list('sortBy=nope');
    expectErrorBody(sort, 400);
    expect(sort.body.errors).toEqual([{ field: 'sortBy', message: expect.any(String), allowed: ['fieldName', 'fieldType', 'createdAt', 'updatedAt'] }]);
    const select = await list('select=id,nope');
    expect(select.body.errors).toEqual([{ field: 'select', message: expect.any(String), allowed: FIELDS_IN_ORDER }]);
  });
});

const FIELDS_IN_ORDER = ['id', 'tenantId', 'fieldName', 'fieldType', 'status', 'isDefault', 'isDeleted', 'createdAt', 'updatedAt'];
