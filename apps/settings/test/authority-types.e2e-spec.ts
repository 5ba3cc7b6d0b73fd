import { randomUUID } from 'node:crypto';
import { inTenant } from '@ddm/platform';
import { expectErrorBody, ISO, startHarness, until } from '@ddm/testing';
import { AuthorityTypeRefs } from '../src/authority-types/authority-type-refs';
import { publishTenantCreated } from './fixtures/events';
import { settingsApp, SettingsHarness } from './fixtures/settings-app';
import { expectManageSettingsRequired, expectOneWins, expectRefusedParameters } from './fixtures/expectations';

const PATH = '/settings/v1/authority-types';
const AUTHORITY_TYPE_FIELDS = ['authorityType', 'authorityTypeIcon', 'authorityTypeOrder', 'createdAt', 'id', 'isDefault', 'isDeleted', 'status', 'tenantId', 'updatedAt'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface AuthorityType {
  id: string;
  tenantId: string;
  authorityType: string;
  authorityTypeIcon: string | null;
  authorityTypeOrder: number;
  status: string;
  isDefault: boolean;
  isDeleted: boolean;
  createdAt: string;
  updatedAt: string;
}

describe('authority types (e2e, real Postgres and NATS, auth as a child process)', () => {
  let h: SettingsHarness;
  let adminId: string;
  const create = (body: object, token = h.tokens.admin) => h.svc.http.post(PATH, { token, body });
  const patch = (id: string, body: object, token = h.tokens.admin) => h.svc.http.patch(`${PATH}/${id}`, { token, body });
  const list = (query = '', token = h.tokens.admin) => h.svc.http.get(`${PATH}${query ? `?${query}` : ''}`, { token });
  const names = async (query: string, token = h.tokens.admin) => {
    const res = await list(query, token);
    expect(res.status).toBe(200);
    return res.body.data.data.map((a: AuthorityType) => a.authorityType);
  };
  const made = async (body: object, token = h.tokens.admin): Promise<AuthorityType> => {
    const res = await create(body, token);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const typesOf = (tenantId: string) =>
    h.db.query<{ authority_type: string; authority_type_order: number; is_default: boolean }>(
      `SELECT authority_type, authority_type_order, is_default FROM settings.authority_types WHERE tenant_id = $1 AND NOT is_deleted ORDER BY authority_type_order, id`,
      [tenantId],
    );
  const eventsOf = (id: string) =>
    h.db.query<{ subject: string; payload: Record<string, unknown> }>(
      `SELECT subject, payload FROM settings.outbox WHERE payload->'authorityType'->>'id' = $1 ORDER BY created_at, id`,
      [id],
    );
  const createdEventsOf = async (tenantId: string) =>
    (
      await h.db.query<{ payload: { authorityType: { authorityType: string } } }>(
        `SELECT payload FROM settings.outbox WHERE subject = 'evt.settings.authority-type.created' AND payload->>'tenantId' = $1 ORDER BY created_at, id`,
        [tenantId],
      )
    ).map((r) => r.payload.authorityType);

  beforeAll(async () => {
    h = await startHarness(settingsApp);
    adminId = h.demo.users.find((u) => u.email === 'admin@demo.test')!.id;
  });
  afterAll(() => h?.close());

  describe('the two default types', () => {
    it('the evt.auth.tenant.created consumer gives each seeded tenant Approval (1) and Signatory (2), before any request', async () => {
      for (const tenant of [h.demo, h.other]) {
        const rows = await until(async () => {
          const r = await typesOf(tenant.id);
          return r.length === 2 && r;
        }, `default authority types of ${tenant.name}`);
        expect(rows).toEqual([
          { authority_type: 'Approval', authority_type_order: 1, is_default: true },
          { authority_type: 'Signatory', authority_type_order: 2, is_default: true },
        ]);
      }
    });

    it('a tenant created later gets them (with the group types, in the same consumer) once, even when the event comes twice; created events only for rows inserted', async () => {
      const tenantId = randomUUID();
      await publishTenantCreated(h.svc, tenantId);
      await until(async () => (await typesOf(tenantId)).length === 2, 'authority types of the new tenant');
      const groupTypes = await h.db.query(`SELECT 1 FROM settings.group_types WHERE tenant_id = $1`, [tenantId]);
      expect(groupTypes.length).toBe(3);
      await publishTenantCreated(h.svc, tenantId);
      await until(
        async () =>
          Number((await h.db.query<{ n: string }>(`SELECT count(*) AS n FROM settings.processed_messages WHERE consumer = 'settings-tenant-defaults'`))[0].n) >= 4,
        'the second event processed',
      );
      expect((await typesOf(tenantId)).length).toBe(2);
      const created = await createdEventsOf(tenantId);
      expect(created).toEqual([
        { id: expect.stringMatching(UUID), authorityType: 'Approval', authorityTypeIcon: null, authorityTypeOrder: 1, status: 'ACTIVE', isDefault: true, isDeleted: false },
        { id: expect.stringMatching(UUID), authorityType: 'Signatory', authorityTypeIcon: null, authorityTypeOrder: 2, status: 'ACTIVE', isDefault: true, isDeleted: false },
      ]);
    });

    it('a fresh tenant (Other Co) lists them: paged envelope, every field with its type; the lazy path adds nothing', async () => {
      const res = await list('', h.tokens.otherAdmin);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        statusCode: 200,
        timestamp: expect.stringMatching(ISO),
        message: 'Authority types list retrieved successfully',
        data: { page: 1, limit: 10, total: 2, data: expect.any(Array) },
      });
      for (const t of res.body.data.data) expect(Object.keys(t).sort()).toEqual(AUTHORITY_TYPE_FIELDS);
      const [approval, signatory] = res.body.data.data as AuthorityType[];
      expect(approval).toEqual({
        id: expect.stringMatching(UUID),
        tenantId: h.other.id,
        authorityType: 'Approval',
        authorityTypeIcon: null,
        authorityTypeOrder: 1,
        status: 'ACTIVE',
        isDefault: true,
        isDeleted: false,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      expect(signatory).toMatchObject({ authorityType: 'Signatory', authorityTypeOrder: 2, isDefault: true });
      expect((await createdEventsOf(h.other.id)).length).toBe(2);
    });

    it('the lazy path (before lists and creates) gives a tenant whose event was not handled the defaults, once however often it runs', async () => {
      const authorityTypes = h.svc.app.get(AuthorityTypeRefs);
      const tenantId = randomUUID();
      // As the service runs it: in the tenant's work (row-level security admits no other).
      await inTenant(tenantId, () => authorityTypes.ensureDefaults(tenantId));
      await h.db.transaction((tx) => authorityTypes.insertDefaults(tx, tenantId));
      expect((await typesOf(tenantId)).map((r) => r.authority_type)).toEqual(['Approval', 'Signatory']);
      expect((await createdEventsOf(tenantId)).length).toBe(2);
    });
  });

  describe('GET /settings/v1/authority-types', () => {
    const created: AuthorityType[] = [];
    beforeAll(async () => {
      created.push(await made({ authorityType: 'endorsement', authorityTypeIcon: 'pen' }));
      created.push(await made({ authorityType: 'Review_1', status: 'INACTIVE', authorityTypeOrder: 0 }));
      created.push(await made({ authorityType: '100% Sign-off' }));
    });

    it('sorted by authorityTypeOrder unless told; a type created without an order goes after the last', async () => {
      expect(created.map((t) => [t.authorityType, t.authorityTypeOrder])).toEqual([
        ['endorsement', 3],
        ['Review_1', 0],
        ['100% Sign-off', 4],
      ]);
      expect(await names('')).toEqual(['Review_1', 'Approval', 'Signatory', 'endorsement', '100% Sign-off']);
      expect((await list()).body.data.total).toBe(5);
    });

    it('sorts by authorityTypeOrder, authorityType (case-insensitive) and createdAt, both ways', async () => {
      expect(await names('sortBy=authorityTypeOrder&sortOrder=desc')).toEqual(['100% Sign-off', 'endorsement', 'Signatory', 'Approval', 'Review_1']);
      expect(await names('sortBy=authorityType')).toEqual(['100% Sign-off', 'Approval', 'endorsement', 'Review_1', 'Signatory']);
      expect(await names('sortBy=authorityType&sortOrder=desc')).toEqual(['Signatory', 'Review_1', 'endorsement', 'Approval', '100% Sign-off']);
      expect(await names('sortBy=createdAt')).toEqual(['Approval', 'Signatory', 'endorsement', 'Review_1', '100% Sign-off']);
      expect(await names('sortBy=createdAt&sortOrder=desc')).toEqual(['100% Sign-off', 'Review_1', 'endorsement', 'Signatory', 'Approval']);
    });

    it('search (LIKE wildcards taken literally) and status narrow; pages count all matches', async () => {
      expect(await names('search=SIGN')).toEqual(['Signatory', '100% Sign-off']);
      expect(await names(`search=${encodeURIComponent('100%')}`)).toEqual(['100% Sign-off']);
      expect(await names('search=_')).toEqual(['Review_1']);
      expect(await names('status=INACTIVE')).toEqual(['Review_1']);
      expect((await list('status=ACTIVE,INACTIVE')).body.data.total).toBe(5);
      const page = await list('status=ACTIVE&limit=2&page=2');
      expect(page.body.data).toMatchObject({ page: 2, limit: 2, total: 4 });
      expect(page.body.data.data.map((a: AuthorityType) => a.authorityType)).toEqual(['endorsement', '100% Sign-off']);
    });

    it("keeps tenants apart; naming Demo Co's tenant is a 403 for Other Co's admin; reading needs membership only", async () => {
      expect(await names('', h.tokens.otherAdmin)).toEqual(['Approval', 'Signatory']);
      expectErrorBody(await list(`tenantId=${h.demo.id}`, h.tokens.otherAdmin), 403);
      for (const token of [h.tokens.auditor, h.tokens.manager, h.tokens.user]) expect((await list(`tenantId=${h.demo.id}`, token)).body.data.total).toBe(5);
      expectErrorBody(await h.svc.http.get(PATH), 401);
    });

    it('400 naming the parameter: limit 0, an unknown sort or status, an unknown parameter, a malformed tenantId', async () => {
      await expectRefusedParameters((query) => list(query), [
        ['limit=0', 'limit'],
        ['sortBy=status', 'sortBy'],
        ['status=ON', 'status'],
        ['isDefault=true', 'isDefault'],
        ['tenantId=demo', 'tenantId'],
      ]);
    });
  });

  describe('POST /settings/v1/authority-types', () => {
    it('creates a type: 200, every field, created by the caller, evt.settings.authority-type.created', async () => {
      const res = await create({ tenantId: h.demo.id, authorityType: '  Attestation ', authorityTypeIcon: 'badge-check', authorityTypeOrder: 7 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'Authority type created successfully', timestamp: expect.stringMatching(ISO) });
      const t = res.body.data as AuthorityType;
      expect(Object.keys(t).sort()).toEqual(AUTHORITY_TYPE_FIELDS);
      expect(t).toEqual({
        id: expect.stringMatching(UUID),
        tenantId: h.demo.id,
        authorityType: 'Attestation',
        authorityTypeIcon: 'badge-check',
        authorityTypeOrder: 7,
        status: 'ACTIVE',
        isDefault: false,
        isDeleted: false,
        createdAt: expect.stringMatching(ISO),
        updatedAt: t.createdAt,
      });
      const [row] = await h.db.query<{ created_by: string; updated_by: string }>(`SELECT created_by, updated_by FROM settings.authority_types WHERE id = $1`, [t.id]);
      expect(row).toEqual({ created_by: adminId, updated_by: adminId });
      expect(await eventsOf(t.id)).toEqual([
        {
          subject: 'evt.settings.authority-type.created',
          payload: {
            tenantId: h.demo.id,
            authorityType: { id: t.id, authorityType: 'Attestation', authorityTypeIcon: 'badge-check', authorityTypeOrder: 7, status: 'ACTIVE', isDefault: false, isDeleted: false },
          },
        },
      ]);
      // The next one without an order goes after it.
      expect((await made({ authorityType: 'Countersign' })).authorityTypeOrder).toBe(8);
    });

    it('409 for a name the tenant already has, in any case (a default one included); nothing is published', async () => {
      const before = (await h.db.query<{ n: string }>(`SELECT count(*) AS n FROM settings.outbox`))[0].n;
      for (const name of ['ATTESTATION', 'approval']) {
        const res = await create({ authorityType: name });
        expectErrorBody(res, 409);
        expect(res.body.message).toBe(`An authority type named "${name}" already exists in this tenant`);
      }
      expect((await h.db.query<{ n: string }>(`SELECT count(*) AS n FROM settings.outbox`))[0].n).toBe(before);
    });

    it('two concurrent creates of one name: exactly one 200, the other the same 409 as the check', async () => {
      await expectOneWins([create({ authorityType: 'Race Type' }), create({ authorityType: 'race type' })], /^An authority type named "(Race Type|race type)" already exists in this tenant$/);
      expect((await h.db.query(`SELECT 1 FROM settings.authority_types WHERE lower(authority_type) = 'race type'`)).length).toBe(1);
    });

    it('two concurrent creates without an order each get their own place after the last', async () => {
      const [a, b] = await Promise.all([made({ authorityType: 'Parallel A' }), made({ authorityType: 'Parallel B' })]);
      expect(Math.abs(a.authorityTypeOrder - b.authorityTypeOrder)).toBe(1);
    });

    it('400 listing the bad fields: a name of 51 characters, an icon of 101, a negative or fractional order, status ON, an unknown field', async () => {
      const bad = await create({ authorityType: 'x'.repeat(51), authorityTypeIcon: 'i'.repeat(101), authorityTypeOrder: -1, status: 'ON', isDefault: true });
      expectErrorBody(bad, 400);
      expect([...new Set(bad.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual(['authorityType', 'authorityTypeIcon', 'authorityTypeOrder', 'isDefault', 'status']);
      expect((await create({ authorityType: 'x'.repeat(50), authorityTypeIcon: 'i'.repeat(100) })).status).toBe(200);
      for (const body of [{}, { authorityType: ' ' }, { authorityType: 'A', authorityTypeOrder: 1.5 }, { authorityType: 'A', authorityTypeOrder: '2' }, { authorityType: 'A', tenantId: 'x' }]) {
        expectErrorBody(await create(body), 400);
      }
    });

    it('403 for the auditor, the manager and a Global User, and in a tenant the caller is not a member of', async () => {
      await expectManageSettingsRequired((token) => create({ authorityType: 'Not allowed' }, token), [h.tokens.auditor, h.tokens.manager, h.tokens.user]);
      expectErrorBody(await create({ tenantId: h.other.id, authorityType: 'Not allowed' }), 403);
      expect((await h.db.query(`SELECT 1 FROM settings.authority_types WHERE authority_type = 'Not allowed'`)).length).toBe(0);
    });
  });

  describe('PATCH /settings/v1/authority-types/{id}', () => {
    const approvalOf = async () => ((await list('search=approv')).body.data.data as AuthorityType[]).find((t) => t.isDefault)!;

    it('a default type may be renamed, given an icon, reordered and deactivated: 200, updated by the caller, evt.settings.authority-type.updated', async () => {
      const approval = await approvalOf();
      const res = await patch(approval.id, { authorityType: 'Approval Right', authorityTypeIcon: 'thumbs-up', authorityTypeOrder: 10, status: 'INACTIVE' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'Authority type updated successfully' });
      expect(res.body.data).toEqual({
        ...approval,
        authorityType: 'Approval Right',
        authorityTypeIcon: 'thumbs-up',
        authorityTypeOrder: 10,
        status: 'INACTIVE',
        updatedAt: expect.stringMatching(ISO),
      });
      const [row] = await h.db.query<{ updated_by: string }>(`SELECT updated_by FROM settings.authority_types WHERE id = $1`, [approval.id]);
      expect(row.updated_by).toBe(adminId);
      expect((await eventsOf(approval.id)).at(-1)).toEqual({
        subject: 'evt.settings.authority-type.updated',
        payload: {
          tenantId: h.demo.id,
          authorityType: { id: approval.id, authorityType: 'Approval Right', authorityTypeIcon: 'thumbs-up', authorityTypeOrder: 10, status: 'INACTIVE', isDefault: true, isDeleted: false },
        },
      });
      // A null icon clears it; back to its name and order.
      const back = await patch(approval.id, { authorityType: 'Approval', authorityTypeIcon: null, authorityTypeOrder: 1, status: 'ACTIVE' });
      expect(back.body.data).toMatchObject({ authorityType: 'Approval', authorityTypeIcon: null, authorityTypeOrder: 1, status: 'ACTIVE', isDefault: true });
    });

    it('a default type cannot be deleted (409, unchanged, nothing published); the others are deleted softly, then 404, their name free', async () => {
      const approval = await approvalOf();
      const before = (await eventsOf(approval.id)).length;
      const refused = await patch(approval.id, { isDeleted: true });
      expectErrorBody(refused, 409);
      expect(refused.body.message).toBe('The authority type "Approval" is a default type and cannot be deleted');
      expect((await eventsOf(approval.id)).length).toBe(before);
      expect(await approvalOf()).toEqual(approval);

      const t = await made({ authorityType: 'Temporary Type', authorityTypeIcon: 'clock' });
      const res = await patch(t.id, { isDeleted: 'true' });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ ...t, isDeleted: true, updatedAt: expect.stringMatching(ISO) });
      const [row] = await h.db.query<{ deleted_on: Date | null; deleted_by: string | null }>(`SELECT deleted_on, deleted_by FROM settings.authority_types WHERE id = $1`, [t.id]);
      expect(row).toEqual({ deleted_on: expect.any(Date), deleted_by: adminId });
      expect((await eventsOf(t.id)).at(-1)).toEqual({
        subject: 'evt.settings.authority-type.deleted',
        payload: { tenantId: h.demo.id, authorityType: { ...eventFields(t), isDeleted: true } },
      });
      expect(await names('search=temporary')).toEqual([]);
      expectErrorBody(await patch(t.id, { status: 'ACTIVE' }), 404);
      expect((await made({ authorityType: 'temporary type' })).id).not.toBe(t.id);
    });

    it('409 onto a name another live type has; 400 for {}, isDeleted false alone, a long name, a bad order, an unknown field, a malformed id', async () => {
      const t = await made({ authorityType: 'Witness' });
      const taken = await patch(t.id, { authorityType: 'SIGNATORY' });
      expectErrorBody(taken, 409);
      expect(taken.body.message).toBe('An authority type named "SIGNATORY" already exists in this tenant');
      for (const body of [{}, { isDeleted: false }]) {
        const res = await patch(t.id, body);
        expectErrorBody(res, 400);
        expect(res.body.message).toBe('Nothing to change: send at least one of authorityType, authorityTypeIcon, authorityTypeOrder, status, isDeleted');
      }
      const bad = await patch(t.id, { authorityType: 'y'.repeat(51), authorityTypeOrder: -2, isDefault: false });
      expectErrorBody(bad, 400);
      expect([...new Set(bad.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual(['authorityType', 'authorityTypeOrder', 'isDefault']);
      const malformed = await patch('nope', { status: 'ACTIVE' });
      expectErrorBody(malformed, 400);
      expect(malformed.body.errors).toEqual([{ field: 'id', message: 'must be a UUID' }]);
      expect((await eventsOf(t.id)).length).toBe(1);
    });

    it("404 for Other Co's type (named from Demo Co), which stays unchanged", async () => {
      const [foreign] = (await list('', h.tokens.otherAdmin)).body.data.data as AuthorityType[];
      expectErrorBody(await patch(foreign.id, { authorityType: 'Mine now' }), 404);
      expect((await list('', h.tokens.otherAdmin)).body.data.data[0]).toEqual(foreign);
    });

    it('403 for the auditor and a Global User; the type is unchanged', async () => {
      const t = await made({ authorityType: 'Guarded Type' });
      await expectManageSettingsRequired((token) => patch(t.id, { status: 'INACTIVE' }, token), [h.tokens.auditor, h.tokens.user]);
      expect((await eventsOf(t.id)).map((e) => e.subject)).toEqual(['evt.settings.authority-type.created']);
    });
  });
});

/** The fields of a type its events carry. */
function eventFields(t: AuthorityType) {
  return {
    id: t.id,
    authorityType: t.authorityType,
    authorityTypeIcon: t.authorityTypeIcon,
    authorityTypeOrder: t.authorityTypeOrder,
    status: t.status,
    isDefault: t.isDefault,
    isDeleted: t.isDeleted,
  };
}
