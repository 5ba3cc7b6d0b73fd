import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_PERMISSION_KEYS, CallerResolver, PERMISSION_KEYS } from '@ddm/contracts';
import { Db } from '@ddm/platform';
import { allTenants, expectErrorBody, NATS_URL, startTestService, TestService, tokenFor } from '@ddm/testing';
import { NatsConnection, connect } from 'nats';
import { AuthModule } from '../src/auth.module';
import { authDataSource } from '../src/data-source';
import { SeedResult, seedAuth } from '../src/seed';
import { TenantsService } from '../src/tenants/tenants.service';
import { collect, until } from './fixtures/events';
import { ISO, ROLE_FIELDS } from './fixtures/fields';
import { expectNullRefused } from './fixtures/nulls';

process.env.MAIL_DIR = mkdtempSync(join(tmpdir(), 'ddm-roles-mail-'));
delete process.env.SMTP_URL;

type Tenant = SeedResult['tenants'][number];
const keysOf = (role: { relationshipMappings: { relationshipKeyName: string; isEnabled: boolean }[] }) =>
  role.relationshipMappings.filter((m) => m.isEnabled).map((m) => m.relationshipKeyName);

describe('tenant roles and permission keys (e2e, real Postgres and NATS)', () => {
  let svc: TestService;
  let db: Db;
  let demo: Tenant;
  let other: Tenant;
  const admin = tokenFor('admin@demo.test');
  const manager = tokenFor('manager@demo.test'); // Global Authority Manager: no manage:roles, no manage:users
  const rolesPath = (tenantId = demo.id) => `/auth/v1/tenants/${tenantId}/roles`;
  const roleIdOf = async (tenantId: string, name: string) =>
    (await db.query<{ id: string }>(`SELECT id FROM auth.tenant_roles WHERE tenant_id = $1 AND role_name = $2`, [tenantId, name]))[0].id;

  const createRole = async (roleName: string, keys: string[], token = admin) =>
    svc.http.post(rolesPath(), { token, body: { roleName, description: `${roleName} role`, relationshipMappings: keys.map((k) => ({ relationshipKeyName: k, isEnabled: true })) } });

  /** A user of Demo Co holding exactly these roles, signed in once (first sign-in makes them ACTIVE). */
  const memberWith = async (email: string, roleIds: string[]): Promise<{ id: string; token: string }> => {
    const res = await svc.http.post('/auth/v1/user/create', { token: admin, body: { tenantId: demo.id, email, firstName: 'Role', lastName: 'Holder', roleIds, inviteViaEmail: false } });
    expect(res.status).toBe(200);
    const token = tokenFor(email);
    expect((await svc.http.get('/auth/v1/user/details', { token })).body.data.status).toBe('ACTIVE');
    return { id: res.body.data.id, token };
  };

  beforeAll(async () => {
    svc = await startTestService(AuthModule, { area: 'auth', dataSource: authDataSource });
    db = allTenants(svc.app.get(Db));
    [demo, other] = (await seedAuth(svc.app.get(TenantsService), db)).tenants;
  });
  afterAll(() => svc?.close());

  describe('POST /auth/v1/tenants/{id}/roles', () => {
    it('creates a custom role: 200 with every field of §2.8, each key of the catalogue listed, enabled as asked', async () => {
      const res = await createRole('Reviewers', ['view:decisions', 'review:documents']);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'Tenant role created successfully', timestamp: expect.stringMatching(ISO) });
      const role = res.body.data;
      expect(Object.keys(role).sort()).toEqual(ROLE_FIELDS);
      expect(role).toMatchObject({
        roleName: 'Reviewers',
        description: 'Reviewers role',
        tenantId: demo.id,
        isCustom: true,
        canDeactivate: true,
        status: 'ACTIVE',
        isDeleted: false,
        deletedOn: null,
        isDeactivated: false,
        deactivatedOn: null,
        roleId: '10004',
        usersCount: 0,
      });
      expect(role.relationshipMappings.map((m: { relationshipKeyName: string }) => m.relationshipKeyName).sort()).toEqual([...ALL_PERMISSION_KEYS].sort());
      expect(role.relationshipMappings.every((m: { status: string }) => m.status === 'ACTIVE')).toBe(true);
      expect(keysOf(role).sort()).toEqual(['review:documents', 'view:decisions']);
      const listed = await svc.http.get(`${rolesPath()}/list?isCustom=true`, { token: admin });
      expect(listed.body.data).toMatchObject({ total: 1, data: [expect.objectContaining({ id: role.id, roleName: 'Reviewers' })] });
      const fetched = await svc.http.get(`${rolesPath()}/${role.id}`, { token: tokenFor('auditor@demo.test') });
      expect(fetched.body.data).toEqual(role);
    });

    it('409 for a name the tenant already has (in any case); another tenant may use it', async () => {
      const res = await createRole('reviewers', []);
      expectErrorBody(res, 409);
      expect(res.body.message).toBe('A role named "reviewers" already exists in this tenant');
      expectErrorBody(await createRole('SYSTEM ADMIN', []), 409);
      const elsewhere = await svc.http.post(rolesPath(other.id), { token: tokenFor('admin@other.test'), body: { roleName: 'Reviewers' } });
      expect(elsewhere.status).toBe(200);
      expect(elsewhere.body.data).toMatchObject({ tenantId: other.id, roleId: '10004' });
      expect(keysOf(elsewhere.body.data)).toEqual([]);
    });

    it('400 listing every bad field: name, unknown key, key named twice, lengths, unknown fields', async () => {
      const res = await svc.http.post(rolesPath(), {
        token: admin,
        body: {
          description: 'x'.repeat(501),
          relationshipMappings: [
            { relationshipKeyName: 'fly:planes', isEnabled: true },
            { relationshipKeyName: 'manage:users', isEnabled: 'yes' },
          ],
          isCustom: false,
        },
      });
      expectErrorBody(res, 400);
      expect([...new Set(res.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual(
        ['description', 'isCustom', 'relationshipMappings.0.relationshipKeyName', 'relationshipMappings.1.isEnabled', 'roleName'].sort(),
      );
      const twice = await createRole('Twice', ['manage:users', 'manage:users']);
      expectErrorBody(twice, 400);
      expect(twice.body.errors).toEqual([{ field: 'relationshipMappings', message: 'must name each key once' }]);
      expectErrorBody(await svc.http.post(`/auth/v1/tenants/demo/roles`, { token: admin, body: { roleName: 'X' } }), 400);
    });

    it('400 naming the field for a null roleName or relationshipMappings; a null description is no description', async () => {
      expectNullRefused(await svc.http.post(rolesPath(), { token: admin, body: { roleName: 'Nullish', relationshipMappings: null } }), 'relationshipMappings');
      const unnamed = await svc.http.post(rolesPath(), { token: admin, body: { roleName: null } });
      expectErrorBody(unnamed, 400);
      expect([...new Set(unnamed.body.errors.map((e: { field: string }) => e.field))]).toEqual(['roleName']);
      const res = await svc.http.post(rolesPath(), { token: admin, body: { roleName: 'Undescribed', description: null } });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ roleName: 'Undescribed', description: null });
    });

    it('403 without manage:roles, and in a tenant the caller is not a member of', async () => {
      const res = await createRole('Nope', [], manager);
      expectErrorBody(res, 403);
      expect(res.body.message).toBe('Missing permission "manage:roles"');
      expectErrorBody(await svc.http.post(rolesPath(other.id), { token: admin, body: { roleName: 'Nope' } }), 403);
    });
  });

  describe('PATCH /auth/v1/tenants/{id}/roles/{roleId}', () => {
    it('renames a role, changes only the keys it lists, deactivates and reactivates it', async () => {
      const created = (await createRole('Editors', ['edit:documents', 'edit:actions'])).body.data;
      const renamed = await svc.http.patch(`${rolesPath()}/${created.id}`, {
        token: admin,
        body: { roleName: 'Document Editors', description: null, relationshipMappings: [{ relationshipKeyName: 'edit:actions', isEnabled: false }, { relationshipKeyName: 'create:documents', isEnabled: true }] },
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body.message).toBe('Tenant role updated successfully');
      expect(renamed.body.data).toMatchObject({ id: created.id, roleName: 'Document Editors', description: null, roleId: created.roleId });
      expect(keysOf(renamed.body.data).sort()).toEqual(['create:documents', 'edit:documents']);
      expect(new Date(renamed.body.data.updatedOn).getTime()).toBeGreaterThanOrEqual(new Date(created.updatedOn).getTime());

      const off = await svc.http.patch(`${rolesPath()}/${created.id}`, { token: admin, body: { isDeactivated: true } });
      expect(off.body.data).toMatchObject({ isDeactivated: true, deactivatedOn: expect.stringMatching(ISO), status: 'INACTIVE' });
      expect((await svc.http.get(`${rolesPath()}/list?isDeactivated=true`, { token: admin })).body.data.data.map((r: { id: string }) => r.id)).toEqual([created.id]);
      const on = await svc.http.patch(`${rolesPath()}/${created.id}`, { token: admin, body: { isDeactivated: 'false' } });
      expect(on.body.data).toMatchObject({ isDeactivated: false, deactivatedOn: null, status: 'ACTIVE' });
    });

    it('400 naming the field for null isDeactivated, roleName, relationshipMappings or tenantId; nothing changes', async () => {
      const role = (await createRole('Null Testers', ['view:decisions'])).body.data;
      for (const field of ['isDeactivated', 'roleName', 'relationshipMappings', 'tenantId']) {
        expectNullRefused(await svc.http.patch(`${rolesPath()}/${role.id}`, { token: admin, body: { [field]: null } }), field);
      }
      expect((await svc.http.get(`${rolesPath()}/${role.id}`, { token: admin })).body.data).toEqual(role);
    });

    it('System Admin can neither be deactivated nor lose a key (409); nothing changes', async () => {
      const sa = await roleIdOf(demo.id, 'System Admin');
      const deactivate = await svc.http.patch(`${rolesPath()}/${sa}`, { token: admin, body: { isDeactivated: true } });
      expectErrorBody(deactivate, 409);
      expect(deactivate.body.message).toBe('The role "System Admin" cannot be deactivated');
      const lose = await svc.http.patch(`${rolesPath()}/${sa}`, {
        token: admin,
        body: { relationshipMappings: [{ relationshipKeyName: 'view:decisions', isEnabled: true }, { relationshipKeyName: 'manage:roles', isEnabled: false }] },
      });
      expectErrorBody(lose, 409);
      expect(lose.body.message).toBe('System Admin keeps every permission; it cannot lose manage:roles');
      const role = (await svc.http.get(`${rolesPath()}/${sa}`, { token: admin })).body.data;
      expect(role).toMatchObject({ isDeactivated: false, status: 'ACTIVE', canDeactivate: false });
      expect(keysOf(role)).toHaveLength(ALL_PERMISSION_KEYS.length);
      // Sending it the keys it has is no change of rights and is accepted.
      expect((await svc.http.patch(`${rolesPath()}/${sa}`, { token: admin, body: { relationshipMappings: [{ relationshipKeyName: 'manage:roles', isEnabled: true }] } })).status).toBe(200);
    });

    it('a default role that may be deactivated can be; and can lose keys', async () => {
      const auditor = await roleIdOf(demo.id, 'Auditor');
      const res = await svc.http.patch(`${rolesPath()}/${auditor}`, { token: admin, body: { relationshipMappings: [{ relationshipKeyName: 'view:decisions', isEnabled: false }] } });
      expect(res.status).toBe(200);
      // It keeps its other key (view:audit).
      expect(keysOf(res.body.data)).toEqual(['view:audit']);
      await svc.http.patch(`${rolesPath()}/${auditor}`, { token: admin, body: { relationshipMappings: [{ relationshipKeyName: 'view:decisions', isEnabled: true }] } });
    });

    it("404 for another tenant's role; 400 for a malformed id, an empty change or an empty name; 409 onto a taken name; 403 without manage:roles", async () => {
      const foreign = await roleIdOf(other.id, 'Auditor');
      expectErrorBody(await svc.http.patch(`${rolesPath()}/${foreign}`, { token: admin, body: { roleName: 'Mine now' } }), 404);
      expect((await svc.http.get(`${rolesPath(other.id)}/${foreign}`, { token: tokenFor('admin@other.test') })).body.data.roleName).toBe('Auditor');
      const bad = await svc.http.patch(`${rolesPath()}/12`, { token: admin, body: { roleName: 'X' } });
      expectErrorBody(bad, 400);
      expect(bad.body.errors).toEqual([{ field: 'roleId', message: 'must be a UUID' }]);
      const auditor = await roleIdOf(demo.id, 'Auditor');
      const empty = await svc.http.patch(`${rolesPath()}/${auditor}`, { token: admin, body: {} });
      expectErrorBody(empty, 400);
      expect(empty.body.message).toMatch(/nothing to change/i);
      expectErrorBody(await svc.http.patch(`${rolesPath()}/${auditor}`, { token: admin, body: { roleName: '' } }), 400);
      expectErrorBody(await svc.http.patch(`${rolesPath()}/${auditor}`, { token: admin, body: { roleName: 'global user' } }), 409);
      const denied = await svc.http.patch(`${rolesPath()}/${auditor}`, { token: manager, body: { roleName: 'Watchers' } });
      expectErrorBody(denied, 403);
      expect(denied.body.message).toBe('Missing permission "manage:roles"');
    });
  });

  describe('revocation', () => {
    it('after a role loses a key, the very next request of a user holding only that role is a 403', async () => {
      const role = (await createRole('User Managers', ['manage:users'])).body.data;
      const holder = await memberWith('holder@demo.test', [role.id]);
      const needsKey = () => svc.http.post('/auth/v1/user/bulk-resend-invite', { token: holder.token, body: { tenantId: demo.id, userIds: [demo.users[2].id] } });
      expect((await needsKey()).status).toBe(201);

      const changed = await collect(svc, 'auth.caller.changed');
      const patch = await svc.http.patch(`${rolesPath()}/${role.id}`, { token: admin, body: { relationshipMappings: [{ relationshipKeyName: 'manage:users', isEnabled: false }] } });
      expect(patch.status).toBe(200);
      expect(patch.body.data.relationshipMappings).toContainEqual({ relationshipKeyName: 'manage:users', isEnabled: false, status: 'ACTIVE' });
      // The very next request, with no wait: refused.
      const denied = await needsKey();
      expectErrorBody(denied, 403);
      expect(denied.body.message).toBe('Missing permission "manage:users"');
      const me = await svc.http.get('/auth/v1/user/details', { token: holder.token });
      expect(me.body.data.userRoles.map((r: { tenantRoleId: string }) => r.tenantRoleId)).toEqual([role.id]);
      // ...and every other process is told through the outbox.
      const event = await until(async () => changed.messages.find((m) => m.data.tenantId === demo.id), 'auth.caller.changed');
      changed.stop();
      expect(event.data).toEqual({ tenantId: demo.id });

      await svc.http.patch(`${rolesPath()}/${role.id}`, { token: admin, body: { relationshipMappings: [{ relationshipKeyName: 'manage:users', isEnabled: true }] } });
      expect((await needsKey()).status).toBe(201);
      await svc.http.patch(`${rolesPath()}/${role.id}`, { token: admin, body: { isDeactivated: true } });
      expectErrorBody(await needsKey(), 403);
      await svc.http.patch(`${rolesPath()}/${role.id}`, { token: admin, body: { isDeactivated: false } });
      expect((await needsKey()).status).toBe(201);

      // Taking the role away from the user works at once too.
      const gu = await roleIdOf(demo.id, 'Global User');
      expect((await svc.http.patch(`/auth/v1/user/update-entities/${holder.id}`, { token: admin, body: { roleIds: [gu] } })).status).toBe(200);
      expectErrorBody(await needsKey(), 403);
    });

    it("another service's caller cache drops the caller on auth.caller.changed, long before its TTL", async () => {
      const role = (await createRole('Inviters', ['manage:users', 'view:decisions'])).body.data;
      const holder = await memberWith('inviter@demo.test', [role.id]);
      let nc: NatsConnection | undefined;
      const resolver = await (async () => {
        nc = await connect({ servers: NATS_URL });
        const r = new CallerResolver(nc, svc.ns.subjects, { ttlMs: 10 * 60_000 });
        await r.start();
        return r;
      })();
      try {
        const ask = async () => {
          const reply = await resolver.resolve({ sub: 'dev|inviter@demo.test', tenantId: demo.id });
          return reply.found ? reply.keys.sort() : [];
        };
        expect(await ask()).toEqual(['manage:users', 'view:decisions']);
        await svc.http.patch(`${rolesPath()}/${role.id}`, { token: admin, body: { relationshipMappings: [{ relationshipKeyName: 'manage:users', isEnabled: false }] } });
        await until(async () => JSON.stringify(await ask()) === JSON.stringify(['view:decisions']), 'the other process to drop its cached caller', 3_000);
        expect(holder.id).toBeDefined();
      } finally {
        resolver.stop();
        await nc?.close();
      }
    });

    it('no one grants what they do not hold: role keys, role assignments and invitations', async () => {
      const role = (await createRole('Role Managers', ['manage:roles', 'manage:users', 'view:decisions'])).body.data;
      const rm = await memberWith('role.manager@demo.test', [role.id]);
      const res = await createRole('Settings People', ['manage:settings'], rm.token);
      expectErrorBody(res, 403);
      expect(res.body.message).toBe('You cannot grant permissions you do not hold: manage:settings');
      // Nor by widening a role they may change (their own included).
      const widen = await svc.http.patch(`${rolesPath()}/${role.id}`, { token: rm.token, body: { relationshipMappings: [{ relationshipKeyName: 'delete:decisions', isEnabled: true }] } });
      expectErrorBody(widen, 403);
      // They may narrow it, and create roles within what they hold.
      expect((await createRole('Viewers', ['view:decisions'], rm.token)).status).toBe(200);

      const sa = await roleIdOf(demo.id, 'System Admin');
      const promote = await svc.http.patch(`/auth/v1/user/update-entities/${demo.users[2].id}`, { token: rm.token, body: { roleIds: [sa] } });
      expectErrorBody(promote, 403);
      expect(promote.body.message).toMatch(/^You cannot grant permissions you do not hold: /);
      const invite = await svc.http.post('/auth/v1/user/create', {
        token: rm.token,
        body: { tenantId: demo.id, email: 'wannabe@demo.test', firstName: 'W', lastName: 'B', roleIds: [sa], inviteViaEmail: false },
      });
      expectErrorBody(invite, 403);
      const bulk = await svc.http.post('/auth/v1/user/bulk-invite', {
        token: rm.token,
        body: { tenantId: demo.id, users: [{ email: 'wannabe@demo.test', firstName: 'W', lastName: 'B', roleIds: [sa], inviteViaEmail: false }] },
      });
      expect(bulk.body.data.results).toEqual([{ email: 'wannabe@demo.test', success: false, message: expect.stringMatching(/^You cannot grant permissions/) }]);
    });
  });

  it('the tenant keeps at least one active System Admin', async () => {
    const role = (await createRole('Account Managers', ['manage:users', 'view:decisions', 'create:actions'])).body.data;
    const am = await memberWith('account.manager@demo.test', [role.id]);
    const adminId = demo.users[0].id;
    for (const status of ['INACTIVE', 'DELETED', 'INVITED']) {
      const res = await svc.http.patch('/auth/v1/user/bulk-status-update', { token: am.token, body: { tenantId: demo.id, userIds: [adminId], status } });
      expectErrorBody(res, 409);
      expect(res.body.message).toBe('The tenant must keep at least one active System Admin');
    }
    const gu = await roleIdOf(demo.id, 'Global User');
    expectErrorBody(await svc.http.patch(`/auth/v1/user/update-entities/${adminId}`, { token: am.token, body: { roleIds: [gu] } }), 409);
    expect((await svc.http.get('/auth/v1/user/details', { token: admin })).body.data).toMatchObject({ status: 'ACTIVE', userRoles: [expect.objectContaining({ roleName: 'System Admin' })] });
    // With a second System Admin, the first one may go.
    const sa = await roleIdOf(demo.id, 'System Admin');
    const second = await memberWith('second.admin@demo.test', [sa]);
    const res = await svc.http.patch('/auth/v1/user/bulk-status-update', { token: second.token, body: { tenantId: demo.id, userIds: [adminId], status: 'INACTIVE' } });
    expect(res.body.data).toEqual({ total: 1, successful: 1, failed: 0 });
    await svc.http.patch('/auth/v1/user/bulk-status-update', { token: second.token, body: { tenantId: demo.id, userIds: [adminId], status: 'ACTIVE' } });
    expect((await svc.http.get('/auth/v1/user/details', { token: admin })).status).toBe(200);
  });

  describe('GET /auth/v1/permission-keys', () => {
    it('lists the catalogue of relationship keys, a description each, for any member', async () => {
      const res = await svc.http.get('/auth/v1/permission-keys', { token: tokenFor('auditor@demo.test') });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'Permission keys fetched successfully' });
      expect(res.body.data).toHaveLength(ALL_PERMISSION_KEYS.length);
      expect(res.body.data).toContainEqual({ relationshipKeyName: 'manage:users', description: PERMISSION_KEYS['manage:users'] });
      for (const k of res.body.data) {
        expect(Object.keys(k).sort()).toEqual(['description', 'relationshipKeyName']);
        expect(k.description.length).toBeGreaterThan(5);
      }
      expectErrorBody(await svc.http.get('/auth/v1/permission-keys'), 401);
    });
  });

  it('documents every new route in its OpenAPI document', async () => {
    const doc = await svc.http.get('/auth/docs-json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/auth/v1/user',
        '/auth/v1/user/details',
        '/auth/v1/user/{id}',
        '/auth/v1/user/create',
        '/auth/v1/user/bulk-invite',
        '/auth/v1/user/bulk-resend-invite',
        '/auth/v1/user/bulk-status-update',
        '/auth/v1/user/update-entities/{id}',
        '/auth/v1/user/active-tenant',
        '/auth/v1/tenants/user/list-tenants',
        '/auth/v1/tenants/{id}',
        '/auth/v1/tenants/{id}/roles',
        '/auth/v1/tenants/{id}/roles/{roleId}',
        '/auth/v1/permission-keys',
      ]),
    );
    expect(doc.body.paths['/auth/v1/user/bulk-resend-invite'].post.responses['201']).toBeDefined();
    expect(doc.body.paths['/auth/v1/user/create'].post.responses['200']).toBeDefined();
  });
});
