import { randomUUID } from 'node:crypto';
import { Db } from '@ddm/platform';
import { allTenants, expectErrorBody, startTestService, TestService, tokenFor } from '@ddm/testing';
import { AuthModule } from '../src/auth.module';
import { authDataSource } from '../src/data-source';
import { SeedResult, seedAuth } from '../src/seed';
import { TenantsService } from '../src/tenants/tenants.service';
import { group, position, projectSettings, publishEvent, until } from './fixtures/events';
import { ISO, USER_GROUP_FIELDS, USER_POSITION_FIELDS, USER_ROLE_FIELDS } from './fixtures/fields';

type Tenant = SeedResult['tenants'][number];

/**
 * The product's "current user" reads (GET /auth/v1/user/roles|positions|groups) and the tenant's
 * currencies (GET /auth/v1/user/tenant/{tenantId}/currencies): fields, and 401 / 403 / 400.
 */
describe("the caller's own memberships and the tenant's currencies (e2e, real Postgres and NATS)", () => {
  let svc: TestService;
  let db: Db;
  let demo: Tenant;
  let other: Tenant;
  const admin = tokenFor('admin@demo.test');
  const user = tokenFor('user@demo.test'); // Global User: no manage:* key, still reads their own
  const otherAdmin = tokenFor('admin@other.test');
  const idOf = (email: string) => demo.users.find((u) => u.email === email)!.id;

  const positions = { treasurer: position({ positionName: 'Treasurer', externalId: 'ext-tr' }), analyst: position({ positionName: 'Analyst' }) };
  const groups = {
    finance: group({ groupName: 'Finance', baseCurrency: 'GBP' }),
    ops: group({ groupName: 'Operations', baseCurrency: 'EUR' }),
    foreign: group({ groupName: 'Group of Other Co', baseCurrency: 'SEK' }),
  };

  beforeAll(async () => {
    svc = await startTestService(AuthModule, { area: 'auth', dataSource: authDataSource });
    db = allTenants(svc.app.get(Db));
    [demo, other] = (await seedAuth(svc.app.get(TenantsService), db)).tenants;
    await projectSettings(svc, demo.id, { positions: [positions.treasurer, positions.analyst], groups: [groups.finance, groups.ops] });
    await projectSettings(svc, other.id, { groups: [groups.foreign] });
    const linked = await svc.http.patch(`/auth/v1/user/update-entities/${idOf('user@demo.test')}`, {
      token: admin,
      body: { positionIds: [positions.treasurer.id, positions.analyst.id], groups: [{ groupId: groups.ops.id, isPrimaryOrg: true }, { groupId: groups.finance.id }] },
    });
    expect(linked.status).toBe(200);
  });
  afterAll(() => svc?.close());

  describe('GET /auth/v1/user/roles | positions | groups', () => {
    it("answers the caller's roles in the active tenant, each with the fields of §2.4 userRoles", async () => {
      const res = await svc.http.get('/auth/v1/user/roles', { token: user });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'User roles retrieved successfully' });
      expect(res.body.data).toHaveLength(1);
      expect(Object.keys(res.body.data[0]).sort()).toEqual(USER_ROLE_FIELDS);
      expect(res.body.data[0]).toMatchObject({ tenantId: demo.id, roleName: 'Global User', deletedOn: null, createdOn: expect.stringMatching(ISO) });
    });

    it("answers the caller's positions, named by the settings projection, each with the fields of §2.4 userPositions", async () => {
      const res = await svc.http.get('/auth/v1/user/positions', { token: user });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('User positions retrieved successfully');
      for (const p of res.body.data) expect(Object.keys(p).sort()).toEqual(USER_POSITION_FIELDS);
      expect(res.body.data.map((p: { positionName: string }) => p.positionName)).toEqual(['Analyst', 'Treasurer']);
      expect(res.body.data[1]).toMatchObject({ userId: idOf('user@demo.test'), tenantId: demo.id, positionsId: positions.treasurer.id, externalId: 'ext-tr', isDeleted: false });
    });

    it("answers the caller's groups, the primary organisation first, each with the fields of §2.4 userGroups", async () => {
      const res = await svc.http.get('/auth/v1/user/groups', { token: user });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('User groups retrieved successfully');
      for (const g of res.body.data) expect(Object.keys(g).sort()).toEqual(USER_GROUP_FIELDS);
      expect(res.body.data.map((g: { groupId: string; isPrimaryOrg: boolean }) => [g.groupId, g.isPrimaryOrg])).toEqual([
        [groups.ops.id, true],
        [groups.finance.id, false],
      ]);
    });

    it('an empty array for a member without any; the named tenantId is used (a membership)', async () => {
      for (const kind of ['positions', 'groups']) {
        const res = await svc.http.get(`/auth/v1/user/${kind}`, { token: tokenFor('auditor@demo.test') });
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual([]);
      }
      const named = await svc.http.get(`/auth/v1/user/roles?tenantId=${other.id}`, { token: otherAdmin });
      expect(named.body.data).toEqual([expect.objectContaining({ tenantId: other.id, roleName: 'System Admin' })]);
    });

    it('401 without a token; 403 for a tenant the caller is not a member of (another one or an unknown one); 400 for a malformed tenantId', async () => {
      for (const kind of ['roles', 'positions', 'groups']) {
        expectErrorBody(await svc.http.get(`/auth/v1/user/${kind}`), 401);
        const foreign = await svc.http.get(`/auth/v1/user/${kind}?tenantId=${other.id}`, { token: user });
        expectErrorBody(foreign, 403);
        expect(foreign.body.message).toMatch(/not a member/);
        expectErrorBody(await svc.http.get(`/auth/v1/user/${kind}?tenantId=${randomUUID()}`, { token: user }), 403);
        expectErrorBody(await svc.http.get(`/auth/v1/user/${kind}?tenantId=nope`, { token: user }), 400);
      }
    });
  });

  describe('GET /auth/v1/user/tenant/{tenantId}/currencies', () => {
    const currencies = (tenantId: string, token = user) => svc.http.get(`/auth/v1/user/tenant/${tenantId}/currencies`, { token });

    it("the tenant's base currency first, then its groups' base currencies, then those with a rate, each once with its name", async () => {
      const before = await currencies(demo.id);
      expect(before.status).toBe(200);
      expect(before.body).toMatchObject({ statusCode: 200, message: 'Default currency list fetched successfully' });
      expect(before.body.data).toEqual([
        { currency: 'US Dollar', currencyCode: 'USD' },
        { currency: 'Euro', currencyCode: 'EUR' },
        { currency: 'British Pound', currencyCode: 'GBP' },
      ]);

      expect((await svc.http.patch(`/auth/v1/tenants/${demo.id}/settings`, { token: admin, body: { baseCurrency: 'EUR' } })).status).toBe(200);
      await publishEvent(svc, 'evt.decision.currency-rates.replaced', { tenantId: demo.id, currencies: ['CHF', 'GBP', 'JPY'], version: 2 });
      await until(async () => (await currencies(demo.id)).body.data.length === 4, 'the currency rates projection');
      expect((await currencies(demo.id)).body.data).toEqual([
        { currency: 'Euro', currencyCode: 'EUR' },
        { currency: 'British Pound', currencyCode: 'GBP' },
        { currency: 'Swiss Franc', currencyCode: 'CHF' },
        { currency: 'Japanese Yen', currencyCode: 'JPY' },
      ]);
      // An older replacement arriving late changes nothing; a newer one replaces the list whole.
      await publishEvent(svc, 'evt.decision.currency-rates.replaced', { tenantId: demo.id, currencies: ['AUD'], version: 1 });
      await publishEvent(svc, 'evt.decision.currency-rates.replaced', { tenantId: demo.id, currencies: ['CAD'], version: 3 });
      await until(async () => (await currencies(demo.id)).body.data.some((c: { currencyCode: string }) => c.currencyCode === 'CAD'), 'the newer rates');
      expect((await currencies(demo.id)).body.data.map((c: { currencyCode: string }) => c.currencyCode)).toEqual(['EUR', 'GBP', 'CAD']);
    });

    it("never shows another tenant's currencies", async () => {
      const res = await currencies(other.id, otherAdmin);
      expect(res.status).toBe(200);
      expect(res.body.data.map((c: { currencyCode: string }) => c.currencyCode)).toEqual(['USD', 'SEK']);
    });

    it('401 without a token; 403 for another tenant or an unknown one; 400 for a malformed tenantId', async () => {
      expectErrorBody(await svc.http.get(`/auth/v1/user/tenant/${demo.id}/currencies`), 401);
      const foreign = await currencies(other.id);
      expectErrorBody(foreign, 403);
      expect(foreign.body.message).toMatch(/not a member/);
      expectErrorBody(await currencies(randomUUID()), 403);
      const bad = await currencies('not-a-uuid');
      expectErrorBody(bad, 400);
    });
  });

  describe('select on the auth lists (users, tenant roles)', () => {
    it('only the named keys per item; an unknown name is a 400 listing every field', async () => {
      for (const [path, pick, some] of [
        ['/auth/v1/user', ['id', 'email', 'userRoles'], 'userGroups'],
        [`/auth/v1/tenants/${demo.id}/roles/list`, ['id', 'roleName'], 'relationshipMappings'],
      ] as const) {
        const full = await svc.http.get(path, { token: admin });
        const res = await svc.http.get(`${path}?select=${pick.join(',')}`, { token: admin });
        expect(res.status).toBe(200);
        expect(res.body.data.total).toBe(full.body.data.total);
        expect(res.body.data.data).toEqual(full.body.data.data.map((item: Record<string, unknown>) => Object.fromEntries(pick.map((k) => [k, item[k]]))));
        const bad = await svc.http.get(`${path}?select=id,nope`, { token: admin });
        expectErrorBody(bad, 400);
        expect(bad.body.errors).toEqual([{ field: 'select', message: expect.any(String), allowed: expect.arrayContaining([...pick, some]) }]);
      }
    });
  });
});
