import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Db, NatsClient } from '@ddm/platform';
import { ALL_PERMISSION_KEYS } from '@ddm/contracts';
import { AckPolicy, DeliverPolicy, JSONCodec } from 'nats';
import { allTenants, expectErrorBody, mintToken, startTestService, TEST_KEYS_DIR, TestService, tokenFor, until } from '@ddm/testing';
import { sign } from 'jsonwebtoken';
import { ROLE_FIELDS, USER_FIELDS } from './fixtures/fields';
import { expectNullRefused } from './fixtures/nulls';
import { AuthWithProbeModule } from './fixtures/probe.module';
import { authDataSource } from '../src/data-source';
import { SeedResult, seedAuth } from '../src/seed';
import { TenantsService } from '../src/tenants/tenants.service';


/** Where a JSON schema in `node` is typed `object` without saying what it holds (properties, additionalProperties or a reference). */
function untypedObjects(node: unknown, path = '$'): string[] {
  if (!node || typeof node !== 'object') return [];
  if (Array.isArray(node)) return node.flatMap((item, i) => untypedObjects(item, `${path}[${i}]`));
  const o = node as Record<string, unknown>;
  const said = ['additionalProperties', '$ref', 'allOf', 'oneOf', 'anyOf'].some((k) => k in o) || (typeof o.properties === 'object' && Object.keys(o.properties as object).length > 0);
  const here = o.type === 'object' && !said ? [path] : [];
  return [...here, ...Object.entries(o).flatMap(([k, v]) => untypedObjects(v, `${path}.${k}`))];
}

describe('auth service (e2e, real Postgres and NATS)', () => {
  let svc: TestService;
  let seed: SeedResult;
  let demo: SeedResult['tenants'][number];
  let other: SeedResult['tenants'][number];
  const admin = tokenFor('admin@demo.test');
  const detailsPath = () => `/auth/v1/user/tenant/${demo.id}/details`;
  const rolesPath = (tenantId = demo.id) => `/auth/v1/tenants/${tenantId}/roles/list`;

  beforeAll(async () => {
    svc = await startTestService(AuthWithProbeModule, { area: 'auth', dataSource: authDataSource });
    seed = await seedAuth(svc.app.get(TenantsService), allTenants(svc.app.get(Db)));
    [demo, other] = seed.tenants;
  });
  afterAll(() => svc?.close());

  describe('GET /auth/v1/user/tenant/{tenantId}/details', () => {
    it('answers the caller as a user of the tenant, in the envelope, with every field of §2.4', async () => {
      const res = await svc.http.get(detailsPath(), { token: admin });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ statusCode: 200, timestamp: expect.any(String), message: expect.any(String), data: expect.any(Object) });
      const user = res.body.data;
      expect(Object.keys(user).sort()).toEqual([...USER_FIELDS].sort());
      expect(user).toMatchObject({ email: 'admin@demo.test', idpUserId: 'dev|admin@demo.test', status: 'ACTIVE', userId: '10000', isDeleted: false });
      expect(user.userRoles).toEqual([expect.objectContaining({ roleName: 'System Admin', tenantId: demo.id })]);
      expect(user.id).toBe(demo.users[0].id);
    });

    it('gives each user their own record and display id', async () => {
      const res = await svc.http.get(detailsPath(), { token: tokenFor('auditor@demo.test') });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ email: 'auditor@demo.test', userId: '10003' });
      expect(res.body.data.userRoles.map((r: { roleName: string }) => r.roleName)).toEqual(['Auditor']);
    });

    it('echoes the x-request-id it was given', async () => {
      const res = await svc.http.get(detailsPath(), { token: admin, headers: { 'x-request-id': 'req-abc.123' } });
      expect(res.headers.get('x-request-id')).toBe('req-abc.123');
    });

    it('makes up a request id when none is given', async () => {
      const res = await svc.http.get(detailsPath(), { token: admin });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('401 for every token that must not pass', () => {
    const keys = () => ({
      privatePem: readFileSync(join(TEST_KEYS_DIR, 'private.pem'), 'utf8'),
      publicPem: readFileSync(join(TEST_KEYS_DIR, 'public.pem'), 'utf8'),
    });
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = () => Math.floor(Date.now() / 1000);
    const cases: [string, () => string | undefined, RegExp][] = [
      ['no token', () => undefined, /missing bearer token/i],
      ['a malformed token', () => 'not.a.jwt', /invalid token/i],
      ['alg none', () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'dev|admin@demo.test', iss: 'ddm-dev', aud: 'ddm-api', exp: now() + 600 })}.`, /invalid token|not accepted/i],
      ['HS256 signed with the public key', () => sign({ sub: 'dev|admin@demo.test' }, keys().publicPem, { algorithm: 'HS256', issuer: 'ddm-dev', audience: 'ddm-api', expiresIn: 600 }), /invalid token|not accepted/i],
      ['a wrong iss', () => mintToken('dev|admin@demo.test', { issuer: 'someone-else' }), /issuer/i],
      ['a wrong aud', () => mintToken('dev|admin@demo.test', { audience: 'another-api' }), /audience/i],
      ['an expired token (past the 30 s skew)', () => mintToken('dev|admin@demo.test', { expiresIn: -120 }), /expired/i],
      ['nbf in the future (past the 30 s skew)', () => mintToken('dev|admin@demo.test', { notBefore: 300 }), /not valid yet/i],
      ['an unknown kid', () => mintToken('dev|admin@demo.test', { kid: 'no-such-key' }), /unknown signing key/i],
      [
        'a token signed by another key under our kid',
        () => {
          const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
          const kid = (JSON.parse(Buffer.from(mintToken('x').split('.')[0], 'base64url').toString()) as { kid: string }).kid;
          return sign({ sub: 'dev|admin@demo.test' }, privateKey, { algorithm: 'RS256', keyid: kid, issuer: 'ddm-dev', audience: 'ddm-api', expiresIn: 600 });
        },
        /invalid signature/i,
      ],
      ['a Basic credential', () => 'Basic', /missing bearer token/i],
    ];
    it.each(cases)('401 for %s', async (_name, make, message) => {
      const token = make();
      const headers: Record<string, string> = {};
      if (token === 'Basic') headers.authorization = 'Basic YWRtaW46YWRtaW4=';
      else if (token !== undefined) headers.authorization = `Bearer ${token}`;
      const res = await svc.http.get(detailsPath(), { headers });
      expectErrorBody(res, 401, detailsPath());
      expect(res.body.error).toBe('Unauthorized');
      expect(res.body.message).toMatch(message);
    });

    it('accepts a token expired by less than the allowed skew', async () => {
      const res = await svc.http.get(detailsPath(), { token: mintToken('dev|admin@demo.test', { expiresIn: -5 }) });
      expect(res.status).toBe(200);
    });
  });

  describe('403 and 404', () => {
    it('403 for a tenant the caller is not a member of', async () => {
      const res = await svc.http.get(`/auth/v1/user/tenant/${other.id}/details`, { token: admin });
      expectErrorBody(res, 403);
      expect(res.body.message).toMatch(/not a member/i);
    });

    it('403 for a tenant that does not exist', async () => {
      const res = await svc.http.get(rolesPath('0190a000-0000-7000-8000-000000000000'), { token: admin });
      expectErrorBody(res, 403);
    });

    it('403 for a valid token whose subject is no user', async () => {
      const res = await svc.http.get(detailsPath(), { token: mintToken('idp|stranger') });
      expectErrorBody(res, 403);
      expect(res.body.message).toMatch(/no user/i);
    });

    it('403 naming the key when the caller lacks the route\'s permission', async () => {
      const res = await svc.http.get('/auth/v1/__probe', { token: tokenFor('auditor@demo.test') });
      expectErrorBody(res, 403, '/auth/v1/__probe');
      expect(res.body.message).toBe('Missing permission "manage:users"');
      const ok = await svc.http.get('/auth/v1/__probe', { token: admin });
      expect(ok.status).toBe(200);
      expect(ok.body.data).toEqual({ userId: demo.users[0].id, tenantId: demo.id });
    });

    it('acts in the token\'s tid when the request names no tenant, and 403 when that is not a membership', async () => {
      const own = await svc.http.get('/auth/v1/__probe', { token: tokenFor('admin@demo.test', { tenantId: demo.id }) });
      expect(own.body.data.tenantId).toBe(demo.id);
      expectErrorBody(await svc.http.get('/auth/v1/__probe', { token: tokenFor('admin@demo.test', { tenantId: other.id }) }), 403);
    });

    it('400 when a request names two different tenants', async () => {
      const res = await svc.http.get(`${rolesPath()}?tenantId=${other.id}`, { token: admin });
      expectErrorBody(res, 400);
      expect(res.body.errors).toEqual([{ field: 'tenantId', message: expect.stringMatching(/same tenant/) }]);
      expect((await svc.http.get(`${rolesPath()}?tenantId=${demo.id}`, { token: admin })).status).toBe(200);
    });

    it('403 for the members of a tenant that is no longer active', async () => {
      const nats = svc.app.get(NatsClient);
      const db = allTenants(svc.app.get(Db));
      const otherAdmin = tokenFor('admin@other.test');
      expect((await svc.http.get(rolesPath(other.id), { token: otherAdmin })).status).toBe(200);
      const rolesAnswer = () => svc.http.get(rolesPath(other.id), { token: otherAdmin });
      const callerChanged = async () => {
        nats.nc.publish(svc.ns.subjects.callerChanged, JSONCodec().encode({ tenantId: other.id }));
        await nats.nc.flush();
      };
      await db.query(`UPDATE auth.tenants SET status = 'SUSPENDED' WHERE id = $1`, [other.id]);
      try {
        await callerChanged();
        const refused = await until(async () => {
          const res = await rolesAnswer();
          return res.status === 403 && res;
        }, 'the cached caller to be dropped');
        expectErrorBody(refused, 403);
      } finally {
        await db.query(`UPDATE auth.tenants SET status = 'ACTIVE' WHERE id = $1`, [other.id]);
        await callerChanged();
      }
      await until(async () => (await rolesAnswer()).status === 200, 'the tenant to be active again');
      expect((await rolesAnswer()).status).toBe(200);
    });

    it("404 for another tenant's role id", async () => {
      const otherRoles = await svc.http.get(rolesPath(other.id), { token: tokenFor('admin@other.test') });
      expect(otherRoles.status).toBe(200);
      const otherRoleId = otherRoles.body.data.data[0].id;
      const res = await svc.http.get(`/auth/v1/tenants/${demo.id}/roles/${otherRoleId}`, { token: admin });
      expectErrorBody(res, 404);
      const own = await svc.http.get(`/auth/v1/tenants/${other.id}/roles/${otherRoleId}`, { token: tokenFor('admin@other.test') });
      expect(own.status).toBe(200);
    });

    it('404 in the error body for an unknown route', async () => {
      const res = await svc.http.get('/auth/v1/nowhere', { token: admin });
      expectErrorBody(res, 404, '/auth/v1/nowhere');
    });
  });

  describe('400, 413 and 415', () => {
    it('lists every bad query field: unknown field, limit 0, page 0', async () => {
      const res = await svc.http.get(`${rolesPath()}?limit=0&page=0&colour=red`, { token: admin });
      expectErrorBody(res, 400);
      expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['colour', 'limit', 'page']);
    });

    it('400 for a page past the cap (the offset would be unbounded)', async () => {
      for (const page of ['100001', '1e20']) {
        const res = await svc.http.get(`${rolesPath()}?page=${page}`, { token: admin });
        expectErrorBody(res, 400);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['page']);
      }
    });

    it('400 for a preferences change that changes nothing', async () => {
      const res = await svc.http.patch('/auth/v1/user/preferences', { token: admin, body: {} });
      expectErrorBody(res, 400);
      expect(res.body.message).toMatch(/nothing to change/i);
    });

    it('400 for limit 101', async () => {
      const res = await svc.http.get(`${rolesPath()}?limit=101`, { token: admin });
      expectErrorBody(res, 400);
      expect(res.body.errors).toEqual([{ field: 'limit', message: expect.stringMatching(/100/) }]);
    });

    it('400 for an unknown enum value and a non-boolean flag', async () => {
      const res = await svc.http.get(`${rolesPath()}?sortBy=colour&isCustom=maybe&status=GONE`, { token: admin });
      expectErrorBody(res, 400);
      expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['isCustom', 'sortBy', 'status']);
    });

    it('400 for a path id that is not a UUID', async () => {
      const res = await svc.http.get(`/auth/v1/tenants/${demo.id}/roles/12`, { token: admin });
      expectErrorBody(res, 400);
      expect(res.body.errors).toEqual([{ field: 'roleId', message: 'must be a UUID' }]);
    });

    it('400 listing every bad body field, nested ones by dotted path', async () => {
      const res = await svc.http.patch('/auth/v1/user/preferences', {
        token: admin,
        body: { displayLanguage: 'x'.repeat(21), isAdmin: true, dashboardData: [{ x: 1, y: 1, w: 1, h: 1, i: 'a' }, { x: -1, y: 1, w: 1, h: 1, i: 'b' }] },
      });
      expectErrorBody(res, 400);
      expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['dashboardData.1.x', 'displayLanguage', 'isAdmin']);
    });

    it('400 for a body that is not valid JSON', async () => {
      const res = await svc.http.patch('/auth/v1/user/preferences', { token: admin, raw: '{"displayLanguage":' });
      expectErrorBody(res, 400);
    });

    it('415 for a body that is not JSON', async () => {
      const res = await svc.http.patch('/auth/v1/user/preferences', { token: admin, raw: 'displayLanguage=fr', contentType: 'text/plain' });
      expectErrorBody(res, 415);
      const form = await svc.http.patch('/auth/v1/user/preferences', { token: admin, raw: 'displayLanguage=fr', contentType: 'application/x-www-form-urlencoded' });
      expectErrorBody(form, 415);
    });

    it('413 past 1 MiB', async () => {
      const res = await svc.http.patch('/auth/v1/user/preferences', { token: admin, raw: JSON.stringify({ displayLanguage: 'x'.repeat(1024 * 1024) }) });
      expectErrorBody(res, 413);
    });
  });

  describe('GET /auth/v1/tenants/{id}/roles/list', () => {
    it('pages the four default roles with users counts and every relationship key', async () => {
      const res = await svc.http.get(rolesPath(), { token: admin });
      expect(res.status).toBe(200);
      const page = res.body.data;
      expect(page).toMatchObject({ page: 1, limit: 10, total: 4 });
      expect(page.data.map((r: { roleName: string }) => r.roleName)).toEqual(['Auditor', 'Global Authority Manager', 'Global User', 'System Admin']);
      expect(page.data.reduce((n: number, r: { usersCount: number }) => n + r.usersCount, 0)).toBe(50);
      // The seed spreads Demo Co's 50 users over the four roles (one role each).
      expect(demo.users).toHaveLength(50);
      for (const role of page.data) {
        expect(Object.keys(role).sort()).toEqual([...ROLE_FIELDS].sort());
        expect(role.usersCount).toBe(demo.users.filter((u) => u.role === role.roleName).length);
        expect(role.usersCount).toBeGreaterThanOrEqual(1);
        expect(role.relationshipMappings).toHaveLength(ALL_PERMISSION_KEYS.length);
        expect(role.roleId).toMatch(/^1\d{4}$/);
      }
      const sysAdmin = page.data.find((r: { roleName: string }) => r.roleName === 'System Admin');
      expect(sysAdmin.canDeactivate).toBe(false);
      expect(sysAdmin.relationshipMappings.every((m: { isEnabled: boolean }) => m.isEnabled)).toBe(true);
      const auditor = page.data.find((r: { roleName: string }) => r.roleName === 'Auditor');
      expect(auditor.relationshipMappings.filter((m: { isEnabled: boolean }) => m.isEnabled).map((m: { relationshipKeyName: string }) => m.relationshipKeyName).sort()).toEqual(['view:audit', 'view:decisions']);
    });

    it('filters by search over name and description, status, isCustom and isDeactivated', async () => {
      const get = async (q: string) => (await svc.http.get(`${rolesPath()}?${q}`, { token: admin })).body.data;
      expect((await get('search=audit')).data.map((r: { roleName: string }) => r.roleName)).toEqual(['Auditor']);
      expect((await get('search=changes%20nothing')).total).toBe(1);
      expect((await get('search=%25')).total).toBe(0);
      expect((await get('status=ACTIVE')).total).toBe(4);
      expect((await get('status=INACTIVE')).total).toBe(0);
      expect((await get('isCustom=false')).total).toBe(4);
      expect((await get('isCustom=true')).total).toBe(0);
      expect((await get('isDeactivated=false')).total).toBe(4);
      expect((await get('isDeactivated=true')).total).toBe(0);
    });

    it('sorts and pages', async () => {
      const desc = await svc.http.get(`${rolesPath()}?sortBy=roleName&sortOrder=desc`, { token: admin });
      expect(desc.body.data.data[0].roleName).toBe('System Admin');
      const p2 = await svc.http.get(`${rolesPath()}?limit=3&page=2`, { token: admin });
      expect(p2.body.data).toMatchObject({ page: 2, limit: 3, total: 4 });
      expect(p2.body.data.data).toHaveLength(1);
      const beyond = await svc.http.get(`${rolesPath()}?limit=3&page=9`, { token: admin });
      expect(beyond.body.data).toMatchObject({ page: 9, total: 4, data: [] });
    });

    it('sorts by createdOn and updatedOn, both ways', async () => {
      const db = allTenants(svc.app.get(Db));
      // Default roles are created in one transaction (one timestamp); spread them out to see the order.
      await db.query(
        `UPDATE auth.tenant_roles SET created_on = now() - (CASE role_name WHEN 'Global User' THEN 4 WHEN 'System Admin' THEN 3 WHEN 'Auditor' THEN 2 ELSE 1 END) * interval '1 hour',
                                      updated_on = now() - (CASE role_name WHEN 'Auditor' THEN 4 WHEN 'Global Authority Manager' THEN 3 WHEN 'Global User' THEN 2 ELSE 1 END) * interval '1 hour'
          WHERE tenant_id = $1`,
        [demo.id],
      );
      const names = async (q: string) => (await svc.http.get(`${rolesPath()}?${q}`, { token: admin })).body.data.data.map((r: { roleName: string }) => r.roleName);
      expect(await names('sortBy=createdOn')).toEqual(['Global User', 'System Admin', 'Auditor', 'Global Authority Manager']);
      expect(await names('sortBy=createdOn&sortOrder=desc')).toEqual(['Global Authority Manager', 'Auditor', 'System Admin', 'Global User']);
      expect(await names('sortBy=updatedOn')).toEqual(['Auditor', 'Global Authority Manager', 'Global User', 'System Admin']);
      expect(await names('sortBy=updatedOn&sortOrder=desc&limit=2&page=2')).toEqual(['Global Authority Manager', 'Auditor']);
    });

    it('keeps tenants apart', async () => {
      const res = await svc.http.get(rolesPath(other.id), { token: tokenFor('admin@other.test') });
      expect(res.body.data.data.every((r: { tenantId: string }) => r.tenantId === other.id)).toBe(true);
      expect(res.body.data.data.find((r: { roleName: string }) => r.roleName === 'System Admin').usersCount).toBe(1);
    });
  });

  describe('PATCH /auth/v1/user/preferences', () => {
    it('400 naming the field for null, which no preference takes', async () => {
      for (const field of ['columnViewSettings', 'dashboardData', 'displayLanguage', 'dateFormat']) {
        expectNullRefused(await svc.http.patch('/auth/v1/user/preferences', { token: admin, body: { [field]: null } }), field);
      }
    });

    it('400 for columnViewSettings that is not an object with columns (an array included)', async () => {
      for (const columnViewSettings of [[], ['name'], 'name']) {
        const res = await svc.http.patch('/auth/v1/user/preferences', { token: admin, body: { columnViewSettings } });
        expectErrorBody(res, 400);
        expect(res.body.errors).toContainEqual({ field: 'columnViewSettings', message: 'must be an object' });
      }
      const empty = await svc.http.patch('/auth/v1/user/preferences', { token: admin, body: { columnViewSettings: {} } });
      expectErrorBody(empty, 400);
      expect([...new Set(empty.body.errors.map((e: { field: string }) => e.field))]).toEqual(['columnViewSettings.columns']);
    });

    it('takes back what it answers: the preferences a user reads, written back unchanged, are accepted and kept', async () => {
      const token = tokenFor('staff05@demo.test');
      const before = (await svc.http.get(detailsPath(), { token })).body.data;
      expect(before.columnViewSettings).toEqual({ columns: [] });
      expect(before.dashboardData).toEqual([]);
      const { displayLanguage, dateFormat, columnViewSettings, dashboardData } = before;
      const res = await svc.http.patch('/auth/v1/user/preferences', { token, body: { displayLanguage, dateFormat, columnViewSettings, dashboardData } });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ displayLanguage, dateFormat, columnViewSettings, dashboardData });
      const set = await svc.http.patch('/auth/v1/user/preferences', { token, body: { columnViewSettings: { columns: ['email'] }, dashboardData: [{ x: 1, y: 2, w: 3.5, h: 4, i: 'c' }] } });
      const again = await svc.http.patch('/auth/v1/user/preferences', { token, body: { columnViewSettings: set.body.data.columnViewSettings, dashboardData: set.body.data.dashboardData } });
      expect(again.status).toBe(200);
      expect(again.body.data).toMatchObject({ columnViewSettings: { columns: ['email'] }, dashboardData: [{ x: 1, y: 2, w: 3.5, h: 4, i: 'c' }] });
    });

    it('publishes evt.auth.user.updated through the outbox, carrying the request id', async () => {
      const nats = svc.app.get(NatsClient);
      await nats.jsm.consumers.add(svc.ns.subjects.eventsStream, {
        durable_name: 'prefs_probe',
        ack_policy: AckPolicy.None,
        deliver_policy: DeliverPolicy.New,
        filter_subject: svc.ns.subjects.wire('evt.auth.user.updated'),
      });
      const consumer = await nats.js.consumers.get(svc.ns.subjects.eventsStream, 'prefs_probe');
      const res = await svc.http.patch('/auth/v1/user/preferences', { token: tokenFor('manager@demo.test'), body: { displayLanguage: 'de' }, headers: { 'x-request-id': 'prefs-42' } });
      expect(res.status).toBe(200);
      let found: { data: Record<string, any>; requestId?: string } | undefined;
      const deadline = Date.now() + 5_000;
      while (!found && Date.now() < deadline) {
        const msg = await consumer.next({ expires: 1_000 });
        if (!msg) continue;
        const data = JSONCodec<Record<string, any>>().decode(msg.data);
        if (data.user?.email === 'manager@demo.test') found = { data, requestId: msg.headers?.get('x-request-id') };
      }
      expect(found).toBeDefined();
      expect(found!.data).toMatchObject({ tenantId: demo.id, user: { id: demo.users[1].id, email: 'manager@demo.test' } });
      expect(found!.requestId).toBe('prefs-42');
    });

    it("changes the caller's preferences and answers the user", async () => {
      const res = await svc.http.patch('/auth/v1/user/preferences', {
        token: tokenFor('user@demo.test'),
        body: { displayLanguage: 'fr', dateFormat: 'DD/MM/YYYY', columnViewSettings: { columns: ['name', 'email'] }, dashboardData: [{ x: 0, y: 0, w: 4, h: 2, i: 'a' }] },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        email: 'user@demo.test',
        displayLanguage: 'fr',
        dateFormat: 'DD/MM/YYYY',
        columnViewSettings: { columns: ['name', 'email'] },
        dashboardData: [{ x: 0, y: 0, w: 4, h: 2, i: 'a' }],
      });
    });
  });

  it('serves its OpenAPI document with the bearer scheme accessToken', async () => {
    const res = await svc.http.get('/auth/docs-json');
    expect(res.status).toBe(200);
    expect(res.body.components.securitySchemes.accessToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/auth/v1/user/tenant/{tenantId}/details', '/auth/v1/tenants/{id}/roles/list']));
  });

  it('types every schema of its OpenAPI document: no object without properties, except the free ones that say so', async () => {
    const doc = (await svc.http.get('/auth/docs-json')).body;
    expect(untypedObjects(doc)).toEqual([]);
    const user = doc.components.schemas.UserView.properties;
    expect(user.displayName).toMatchObject({ type: 'string', nullable: true });
    expect(user.customAttributes).toMatchObject({ type: 'object', additionalProperties: true });
    expect(doc.components.schemas.ManagerView.properties.managerName).toMatchObject({ type: 'string', nullable: true });
    // Both lists answer pages of their views.
    const page = (path: string) => doc.paths[path].get.responses['200'].content['application/json'].schema.properties.data.properties.data.items.$ref;
    expect(page('/auth/v1/user')).toBe('#/components/schemas/UserView');
    expect(page('/auth/v1/tenants/{id}/roles/list')).toBe('#/components/schemas/TenantRoleView');
  });

  it('answers health and metrics without a token', async () => {
    expect((await svc.http.get('/health/live')).status).toBe(200);
    const ready = await svc.http.get('/health/ready');
    expect(ready.body).toEqual({ status: 'ok', checks: { postgres: 'up', nats: 'up', migrations: 'up' } });
    const metrics = await svc.http.get('/metrics');
    expect(metrics.text).toContain('http_request_duration_seconds');
  });
});
