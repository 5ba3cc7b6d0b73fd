import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Db } from '@ddm/platform';
import { allTenants, expectErrorBody, startTestService, TestService, tokenFor } from '@ddm/testing';
import { AuthModule } from '../src/auth.module';
import { authDataSource } from '../src/data-source';
import { SeedResult, seedAuth } from '../src/seed';
import { TenantsService } from '../src/tenants/tenants.service';
import { collect, until } from './fixtures/events';
import { ISO } from './fixtures/fields';
import { expectNullRefused } from './fixtures/nulls';

process.env.MAIL_DIR = mkdtempSync(join(tmpdir(), 'ddm-tenant-settings-mail-'));
delete process.env.SMTP_URL;

type Tenant = SeedResult['tenants'][number];

const SUBJECT = 'evt.auth.tenant.settings-updated';
const FIELDS = ['baseCurrency', 'delegationAcceptanceRequired', 'delegationApprovalRequired', 'tenantId', 'updatedAt', 'updatedBy'];

describe('tenant delegation settings (e2e, real Postgres and NATS)', () => {
  let svc: TestService;
  let db: Db;
  let demo: Tenant;
  let other: Tenant;
  const admin = tokenFor('admin@demo.test'); // System Admin: manage:settings
  const plain = tokenFor('user@demo.test'); // Global User: no manage:settings
  const auditor = tokenFor('auditor@demo.test');
  const otherAdmin = tokenFor('admin@other.test');
  const path = (tenantId = demo.id) => `/auth/v1/tenants/${tenantId}/settings`;
  const aliasPath = (tenantId = demo.id) => `/auth/v1/tenants/${tenantId}/get-settings`;
  const patch = (body: unknown, token = admin, tenantId = demo.id) => svc.http.patch(path(tenantId), { token, body });
  const outboxRows = async (tenantId: string) =>
    (await db.query<{ n: string }>(`SELECT count(*) AS n FROM auth.outbox WHERE subject = $1 AND payload->>'tenantId' = $2`, [SUBJECT, tenantId]))[0].n;

  beforeAll(async () => {
    svc = await startTestService(AuthModule, { area: 'auth', dataSource: authDataSource });
    db = allTenants(svc.app.get(Db));
    [demo, other] = (await seedAuth(svc.app.get(TenantsService), db)).tenants;
  });
  afterAll(() => svc?.close());

  it('a tenant that never changed its settings answers the defaults, on both paths, to any member', async () => {
    const expected = { tenantId: demo.id, delegationAcceptanceRequired: false, delegationApprovalRequired: false, baseCurrency: 'USD', updatedAt: null, updatedBy: null };
    for (const [p, token] of [
      [path(), admin],
      [aliasPath(), admin],
      [path(), plain],
      [aliasPath(), auditor],
    ]) {
      const res = await svc.http.get(p, { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ statusCode: 200, timestamp: expect.stringMatching(ISO), message: 'Tenant settings fetched successfully', data: expected });
    }
    expect(await db.query(`SELECT 1 FROM auth.tenant_settings WHERE tenant_id = $1`, [demo.id])).toEqual([]);
  });

  it('PATCH sets the fields sent, keeps the others, and GET and the alias answer the change; one event per change, its version increasing', async () => {
    const events = await collect(svc, SUBJECT);
    try {
      const first = await patch({ delegationAcceptanceRequired: true });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ statusCode: 200, message: 'Tenant settings updated successfully' });
      expect(Object.keys(first.body.data).sort()).toEqual(FIELDS);
      expect(first.body.data).toEqual({
        tenantId: demo.id,
        delegationAcceptanceRequired: true,
        delegationApprovalRequired: false,
        baseCurrency: 'USD',
        updatedAt: expect.stringMatching(ISO),
        updatedBy: 'Ada Admin',
      });

      const second = await patch({ delegationApprovalRequired: true, baseCurrency: 'EUR' });
      expect(second.status).toBe(200);
      const changed = { tenantId: demo.id, delegationAcceptanceRequired: true, delegationApprovalRequired: true, baseCurrency: 'EUR', updatedAt: expect.stringMatching(ISO), updatedBy: 'Ada Admin' };
      expect(second.body.data).toEqual(changed);
      expect(Date.parse(second.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(first.body.data.updatedAt));

      for (const p of [path(), aliasPath()]) {
        const res = await svc.http.get(p, { token: plain });
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({ ...changed, updatedAt: second.body.data.updatedAt });
      }

      const third = await patch({ delegationAcceptanceRequired: false });
      expect(third.body.data).toMatchObject({ delegationAcceptanceRequired: false, delegationApprovalRequired: true, baseCurrency: 'EUR' });

      // The third change's event is the barrier: the relay publishes in order, so the ones before it have arrived.
      await until(() => events.messages.some((m) => m.data.version === 3), `${SUBJECT} version 3`);
      expect(events.messages.map((m) => [m.subject, m.data])).toEqual([
        [SUBJECT, { tenantId: demo.id, delegationAcceptanceRequired: true, delegationApprovalRequired: false, baseCurrency: 'USD', version: 1 }],
        [SUBJECT, { tenantId: demo.id, delegationAcceptanceRequired: true, delegationApprovalRequired: true, baseCurrency: 'EUR', version: 2 }],
        [SUBJECT, { tenantId: demo.id, delegationAcceptanceRequired: false, delegationApprovalRequired: true, baseCurrency: 'EUR', version: 3 }],
      ]);
      // Reads published nothing: three changes, three rows in the outbox.
      expect(await outboxRows(demo.id)).toBe('3');
    } finally {
      events.stop();
    }
  });

  it("versions count per tenant: another tenant's first change is its version 1", async () => {
    const events = await collect(svc, SUBJECT);
    try {
      const res = await patch({ baseCurrency: 'JPY' }, otherAdmin, other.id);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ tenantId: other.id, delegationAcceptanceRequired: false, delegationApprovalRequired: false, baseCurrency: 'JPY', updatedBy: 'Olga Other' });
      const event = await until(() => events.messages.find((m) => m.data.tenantId === other.id), `${SUBJECT} of Other Co`);
      expect(event.data).toEqual({ tenantId: other.id, delegationAcceptanceRequired: false, delegationApprovalRequired: false, baseCurrency: 'JPY', version: 1 });
      // Demo Co's settings did not move.
      expect((await svc.http.get(path(), { token: admin })).body.data).toMatchObject({ baseCurrency: 'EUR', delegationApprovalRequired: true });
    } finally {
      events.stop();
    }
  });

  it('400 for a bad currency, a non-boolean, null, an empty body or an unknown field; nothing changes and nothing is published', async () => {
    const before = (await svc.http.get(path(), { token: admin })).body.data;
    const rows = await outboxRows(demo.id);

    for (const baseCurrency of ['XYZ', 'eur', 'EURO', '', 840]) {
      const res = await patch({ baseCurrency });
      expectErrorBody(res, 400);
      // The field takes one of a list: every accepted code is in `allowed`.
      expect(res.body.errors).toEqual([{ field: 'baseCurrency', message: expect.stringMatching(/ISO 4217/), allowed: Intl.supportedValuesOf('currency') }]);
    }
    for (const value of ['yes', 1, 'true', {}]) {
      const res = await patch({ delegationApprovalRequired: value });
      expectErrorBody(res, 400);
      expect(res.body.errors).toEqual([{ field: 'delegationApprovalRequired', message: expect.stringMatching(/boolean/) }]);
    }
    expectNullRefused(await patch({ delegationAcceptanceRequired: null }), 'delegationAcceptanceRequired');
    expectNullRefused(await patch({ baseCurrency: null }), 'baseCurrency');

    const empty = await patch({});
    expectErrorBody(empty, 400);
    expect(empty.body.message).toBe('Nothing to change: send at least one of delegationAcceptanceRequired, delegationApprovalRequired, baseCurrency');
    expectErrorBody(await patch({ tenantName: 'Demo' }), 400);
    expectErrorBody(await patch({ baseCurrency: 'EUR', version: 9 }), 400);
    expectErrorBody(await svc.http.get(path('not-a-uuid'), { token: admin }), 400);
    expectErrorBody(await patch({ baseCurrency: 'EUR' }, admin, 'not-a-uuid'), 400);

    expect((await svc.http.get(path(), { token: admin })).body.data).toEqual(before);
    expect(await outboxRows(demo.id)).toBe(rows);
  });

  it('403 for a member without manage:settings (Global User, Auditor); the settings stay', async () => {
    const before = (await svc.http.get(path(), { token: admin })).body.data;
    for (const token of [plain, auditor]) {
      const res = await patch({ baseCurrency: 'GBP' }, token);
      expectErrorBody(res, 403);
      expect(res.body.message).toBe('Missing permission "manage:settings"');
    }
    expect((await svc.http.get(path(), { token: admin })).body.data).toEqual(before);
  });

  it("404 for another tenant's id (read, alias and change) and for a tenant that does not exist", async () => {
    const before = (await svc.http.get(path(other.id), { token: otherAdmin })).body.data;
    expectErrorBody(await svc.http.get(path(other.id), { token: admin }), 404);
    expectErrorBody(await svc.http.get(aliasPath(other.id), { token: plain }), 404);
    expectErrorBody(await patch({ baseCurrency: 'GBP' }, admin, other.id), 404);
    expectErrorBody(await svc.http.get(path(demo.id), { token: otherAdmin }), 404);
    expectErrorBody(await patch({ delegationApprovalRequired: false }, otherAdmin, demo.id), 404);
    const nowhere = '0190a000-0000-7000-8000-000000000000';
    expectErrorBody(await svc.http.get(path(nowhere), { token: admin }), 404);
    expectErrorBody(await patch({ baseCurrency: 'GBP' }, admin, nowhere), 404);
    expect((await svc.http.get(path(other.id), { token: otherAdmin })).body.data).toEqual(before);
    expect((await svc.http.get(path(), { token: admin })).body.data).toMatchObject({ baseCurrency: 'EUR' });
  });

  it('concurrent changes of a tenant without a row each get their own version, and each is published once', async () => {
    const tenants = svc.app.get(TenantsService);
    const third = await tenants.create('Concurrent Co');
    await tenants.addMember(third.id, { email: 'admin@concurrent.test', firstName: 'Cora', lastName: 'Current', roles: ['SYSTEM_ADMIN'], idpUserId: 'dev|admin@concurrent.test' });
    const token = tokenFor('admin@concurrent.test');
    const events = await collect(svc, SUBJECT);
    try {
      const changes = [{ delegationAcceptanceRequired: true }, { delegationApprovalRequired: true }, { baseCurrency: 'CHF' }, { baseCurrency: 'CHF' }, { delegationApprovalRequired: true }];
      const answers = await Promise.all(changes.map((body) => patch(body, token, third.id)));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      const mine = () => events.messages.filter((m) => m.data.tenantId === third.id);
      await until(() => mine().length >= changes.length, `${changes.length} events of Concurrent Co`);
      expect(mine().map((m) => m.data.version).sort()).toEqual([1, 2, 3, 4, 5]);
      // The last change's event holds every change (none lost to another).
      expect(mine().find((m) => m.data.version === 5)!.data).toEqual({
        tenantId: third.id,
        delegationAcceptanceRequired: true,
        delegationApprovalRequired: true,
        baseCurrency: 'CHF',
        version: 5,
      });
      expect(await outboxRows(third.id)).toBe('5');
      expect((await svc.http.get(path(third.id), { token })).body.data).toMatchObject({ delegationAcceptanceRequired: true, delegationApprovalRequired: true, baseCurrency: 'CHF' });
    } finally {
      events.stop();
    }
  });

  it("a member of two tenants reads the one the request names (active tenant, token tid or query tenantId); the other's id is a 404", async () => {
    const third = (await svc.app.get(TenantsService).findByName('Concurrent Co'))!;
    await svc.app.get(TenantsService).addMember(third.id, { email: 'admin@demo.test', firstName: 'Ada', lastName: 'Admin', roles: ['AUDITOR'] });
    // Active tenant Demo Co: Concurrent Co's id is not the request's tenant.
    expectErrorBody(await svc.http.get(path(third.id), { token: admin }), 404);
    const named = await svc.http.get(`${path(third.id)}?tenantId=${third.id}`, { token: admin });
    expect(named.status).toBe(200);
    expect(named.body.data).toMatchObject({ tenantId: third.id, baseCurrency: 'CHF' });
    expect((await svc.http.get(aliasPath(third.id), { token: tokenFor('admin@demo.test', { tenantId: third.id }) })).body.data).toEqual(named.body.data);
    // Naming a tenant the caller is no member of is the guard's 403, as everywhere.
    expectErrorBody(await svc.http.get(`${path(other.id)}?tenantId=${other.id}`, { token: admin }), 403);
    // Auditor there: no manage:settings in Concurrent Co.
    expectErrorBody(await svc.http.patch(`${path(third.id)}?tenantId=${third.id}`, { token: admin, body: { baseCurrency: 'USD' } }), 403);
  });
});
