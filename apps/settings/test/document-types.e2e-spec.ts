import { randomUUID } from 'node:crypto';
import { expectErrorBody, ISO, startHarness, until } from '@ddm/testing';
import { publishTenantCreated } from './fixtures/events';
import { settingsApp, SettingsHarness } from './fixtures/settings-app';
import { expectManageSettingsRequired } from './fixtures/expectations';

const PATH = '/settings/v1/document-types';
const FIELDS = ['createdAt', 'documentTypeIcon', 'documentTypeName', 'id', 'isDefault', 'isDeleted', 'status', 'tenantId', 'updatedAt'];
const DEFAULTS = ['Charter', 'Contract', 'Policy', 'Procedure', 'Resolution'];

describe('document types (e2e, real Postgres and NATS, auth as a child process)', () => {
  let h: SettingsHarness;
  const create = (body: object, token = h.tokens.admin) => h.svc.http.post(PATH, { token, body });
  const patch = (id: string, body: object, token = h.tokens.admin) => h.svc.http.patch(`${PATH}/${id}`, { token, body });
  const list = (query = '', token = h.tokens.admin) => h.svc.http.get(`${PATH}${query ? `?${query}` : ''}`, { token });
  const names = async (query = '', token = h.tokens.admin) => (await list(query, token)).body.data.data.map((t: { documentTypeName: string }) => t.documentTypeName);
  const namesOf = async (tenantId: string) =>
    (await h.db.query<{ document_type_name: string }>(`SELECT document_type_name FROM settings.document_types WHERE tenant_id = $1 AND NOT is_deleted ORDER BY 1`, [tenantId])).map(
      (r) => r.document_type_name,
    );
  const eventsOf = (id: string) =>
    h.db.query<{ subject: string; payload: Record<string, any> }>(`SELECT subject, payload FROM settings.outbox WHERE payload->'documentType'->>'id' = $1 ORDER BY created_at, id`, [id]);

  beforeAll(async () => {
    h = await startHarness(settingsApp);
  });
  afterAll(() => h?.close());

  it('every tenant starts with Policy, Procedure, Charter, Resolution and Contract (the tenant-created consumer), once however often the event comes', async () => {
    await until(async () => (await namesOf(h.demo.id)).length === 5, "Demo Co's document types");
    expect(await namesOf(h.demo.id)).toEqual(DEFAULTS);
    const tenantId = randomUUID();
    await publishTenantCreated(h.svc, tenantId);
    await publishTenantCreated(h.svc, tenantId);
    await until(async () => (await namesOf(tenantId)).length === 5, 'the new tenant’s document types');
    await until(
      async () => Number((await h.db.query<{ n: string }>(`SELECT count(*) AS n FROM settings.processed_messages WHERE consumer = 'settings-tenant-defaults'`))[0].n) >= 4,
      'both events processed',
    );
    expect(await namesOf(tenantId)).toEqual(DEFAULTS);
    const created = await h.db.query(`SELECT 1 FROM settings.outbox WHERE subject = 'evt.settings.document-type.created' AND payload->>'tenantId' = $1`, [tenantId]);
    expect(created.length).toBe(5);
  });

  it('lists them paged, each field with its type, sorted by name', async () => {
    const res = await list('', h.tokens.user);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ statusCode: 200, timestamp: expect.stringMatching(ISO), message: 'Document types list retrieved successfully', data: { page: 1, limit: 10, total: 5, data: expect.any(Array) } });
    for (const t of res.body.data.data) expect(Object.keys(t).sort()).toEqual(FIELDS);
    expect(res.body.data.data[0]).toEqual({
      id: expect.any(String),
      tenantId: h.demo.id,
      documentTypeName: 'Charter',
      documentTypeIcon: null,
      status: 'ACTIVE',
      isDefault: true,
      isDeleted: false,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(await names('sortOrder=desc&limit=2')).toEqual(['Resolution', 'Procedure']);
    expect(await names('search=pol')).toEqual(['Policy']);
    expect((await list('limit=101')).status).toBe(400);
    expect((await list('sortBy=status')).status).toBe(400);
  });

  it('creates, renames and deletes the tenant’s own types (manage:settings), publishing each change; defaults are never deleted', async () => {
    await expectManageSettingsRequired((token) => create({ documentTypeName: 'Guideline' }, token), [h.tokens.user, h.tokens.manager]);
    const res = await create({ documentTypeName: 'Guideline', documentTypeIcon: 'book' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ documentTypeName: 'Guideline', documentTypeIcon: 'book', isDefault: false, status: 'ACTIVE' });
    const id = res.body.data.id;
    expect((await create({ documentTypeName: 'guideline' })).status).toBe(409);
    expectErrorBody(await create({ documentTypeName: '' }), 400, PATH);
    expectErrorBody(await create({ documentTypeName: 'X', isDefault: true }), 400, PATH);

    const renamed = await patch(id, { documentTypeName: 'Guidelines', documentTypeIcon: null });
    expect(renamed.body.data).toMatchObject({ documentTypeName: 'Guidelines', documentTypeIcon: null });
    expectErrorBody(await patch(id, {}), 400);
    expectErrorBody(await patch(id, { documentTypeName: 'Taken over' }, h.tokens.otherAdmin), 404);
    const policy = (await list('search=Policy')).body.data.data[0];
    expectErrorBody(await patch(policy.id, { isDeleted: true }), 409);
    expect((await patch(id, { isDeleted: true })).status).toBe(200);
    expectErrorBody(await patch(id, { status: 'INACTIVE' }), 404);

    expect((await eventsOf(id)).map((e) => [e.subject, e.payload.documentType.documentTypeName])).toEqual([
      ['evt.settings.document-type.created', 'Guideline'],
      ['evt.settings.document-type.updated', 'Guidelines'],
      ['evt.settings.document-type.deleted', 'Guidelines'],
    ]);
  });
});
