import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ROLES } from '@ddm/contracts';
import { Db } from '@ddm/platform';
import { allTenants, expectErrorBody, mintToken, startTestService, TestService, tokenFor } from '@ddm/testing';
import { AuthModule } from '../src/auth.module';
import { authDataSource } from '../src/data-source';
import { SeedResult, seedAuth } from '../src/seed';
import { TenantsService } from '../src/tenants/tenants.service';
import { collect, delegation, group, position, projectSettings, publishEvent, until } from './fixtures/events';
import { ISO, MANAGER_FIELDS, USER_FIELDS, USER_GROUP_FIELDS, USER_POSITION_FIELDS, USER_ROLE_FIELDS } from './fixtures/fields';
import { expectNullRefused } from './fixtures/nulls';

// No SMTP server in this file: anything mailed lands in a scratch folder, not in the repository's .data/.
process.env.MAIL_DIR = mkdtempSync(join(tmpdir(), 'ddm-users-mail-'));
delete process.env.SMTP_URL;

type Tenant = SeedResult['tenants'][number];

describe('users (e2e, real Postgres and NATS)', () => {
  let svc: TestService;
  let db: Db;
  let demo: Tenant;
  let other: Tenant;
  const admin = tokenFor('admin@demo.test');
  const plain = tokenFor('user@demo.test'); // Global User: no manage:users
  const otherAdmin = tokenFor('admin@other.test');
  const idOf = (email: string) => demo.users.find((u) => u.email === email)!.id;
  const roleIdOf = async (tenantId: string, name: string) =>
    (await db.query<{ id: string }>(`SELECT id FROM auth.tenant_roles WHERE tenant_id = $1 AND role_name = $2`, [tenantId, name]))[0].id;

  const positions = {
    cro: position({ positionName: 'Chief Risk Officer', positionId: '10000', externalId: 'ext-cro' }),
    analyst: position({ positionName: 'Treasury Analyst', positionId: '10001', isSCIMProvisioned: true }),
    foreign: position({ positionName: 'Position of Other Co' }),
  };
  const groups = {
    finance: group({ groupName: 'Finance', legalName: 'Demo Finance Ltd', baseCurrency: 'EUR' }),
    ops: group({ groupName: 'Operations' }),
    foreign: group({ groupName: 'Group of Other Co' }),
  };

  // Four users whose names, emails, creation and sign-in times give each sort a known order.
  const SORTABLE = [
    { firstName: 'Sortable', lastName: 'Bravo', email: 'sortd@sort.test' },
    { firstName: 'Sortable', lastName: 'Alpha', email: 'sortb@sort.test' },
    { firstName: 'Sortable', lastName: 'Delta', email: 'sorta@sort.test' },
    { firstName: 'Sortable', lastName: 'Charlie', email: 'sortc@sort.test' },
  ];
  const sortable: Record<string, string> = {};

  const invite = async (body: Record<string, unknown>, token = admin) =>
    svc.http.post('/auth/v1/user/create', { token, body: { tenantId: demo.id, inviteViaEmail: false, ...body } });

  beforeAll(async () => {
    svc = await startTestService(AuthModule, { area: 'auth', dataSource: authDataSource });
    db = allTenants(svc.app.get(Db));
    [demo, other] = (await seedAuth(svc.app.get(TenantsService), db)).tenants;
    await projectSettings(svc, demo.id, { positions: [positions.cro, positions.analyst], groups: [groups.finance, groups.ops] });
    await projectSettings(svc, other.id, { positions: [positions.foreign], groups: [groups.foreign] });
    for (const s of SORTABLE) {
      const res = await invite(s);
      expect(res.status).toBe(200);
      sortable[s.lastName] = res.body.data.id;
    }
    await db.query(
      `UPDATE auth.users SET last_login_date = now() - (CASE id WHEN $1::uuid THEN 1 WHEN $2::uuid THEN 2 ELSE 3 END) * interval '1 hour'
        WHERE id = ANY($3::uuid[])`,
      [sortable.Charlie, sortable.Alpha, [sortable.Charlie, sortable.Alpha, sortable.Delta]],
    );
  });
  afterAll(() => svc?.close());

  describe('GET /auth/v1/user', () => {
    it('answers the paged envelope with every field of §2.4 on each user', async () => {
      const res = await svc.http.get('/auth/v1/user', { token: admin });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ statusCode: 200, timestamp: expect.stringMatching(ISO), message: 'Users fetched successfully', data: expect.any(Object) });
      expect(res.body.data).toEqual({ page: 1, limit: 10, total: 54, data: expect.any(Array) });
      expect(res.body.data.data).toHaveLength(10);
      for (const u of res.body.data.data) {
        expect(Object.keys(u).sort()).toEqual(USER_FIELDS);
        expect(u.createdOn).toMatch(ISO);
        expect(u.userId).toMatch(/^1\d{4}$/);
        for (const r of u.userRoles) expect(Object.keys(r).sort()).toEqual(USER_ROLE_FIELDS);
        if (u.manager) expect(Object.keys(u.manager).sort()).toEqual(MANAGER_FIELDS);
      }
      // Default order: createdOn ascending, so the seed's first users come first.
      expect(res.body.data.data.slice(0, 4).map((u: { email: string }) => u.email)).toEqual(['admin@demo.test', 'manager@demo.test', 'user@demo.test', 'auditor@demo.test']);
    });

    it("lists the caller's active tenant by default and the named tenantId otherwise, never another tenant's users", async () => {
      const own = await svc.http.get(`/auth/v1/user?tenantId=${demo.id}&limit=100`, { token: admin });
      expect(own.body.data.total).toBe(54);
      expect(own.body.data.data.every((u: { email: string }) => !u.email.endsWith('@other.test'))).toBe(true);
      const theirs = await svc.http.get('/auth/v1/user', { token: otherAdmin });
      expect(theirs.body.data).toMatchObject({ total: 1, data: [expect.objectContaining({ email: 'admin@other.test' })] });
      expectErrorBody(await svc.http.get(`/auth/v1/user?tenantId=${other.id}`, { token: admin }), 403);
    });

    it('searches name, display name and email, case-insensitively, taking % and _ literally', async () => {
      const emails = async (search: string) =>
        (await svc.http.get(`/auth/v1/user?search=${encodeURIComponent(search)}&limit=100&sortBy=email`, { token: admin })).body.data.data.map((u: { email: string }) => u.email);
      expect(await emails('SORTABLE ALPHA')).toEqual(['sortb@sort.test']);
      expect(await emails('sort.test')).toEqual(['sorta@sort.test', 'sortb@sort.test', 'sortc@sort.test', 'sortd@sort.test']);
      expect(await emails('ADMIN@DEMO')).toEqual(['admin@demo.test']);
      await db.query(`UPDATE auth.users SET display_name = 'Captain Quill' WHERE id = $1`, [sortable.Delta]);
      expect(await emails('captain qu')).toEqual(['sorta@sort.test']);
      expect(await emails('%')).toEqual([]);
      expect(await emails('_')).toEqual([]);
      expect(await emails('nobody-has-this')).toEqual([]);
      const page = await svc.http.get('/auth/v1/user?search=sortable&limit=2', { token: admin });
      expect(page.body.data).toMatchObject({ page: 1, limit: 2, total: 4 });
      expect(page.body.data.data).toHaveLength(2);
    });

    it('filters by status, roleIds, positionIds and groupIds (comma lists, each any-of, all of them together)', async () => {
      const auditorRole = await roleIdOf(demo.id, 'Auditor');
      const adminRole = await roleIdOf(demo.id, 'System Admin');
      const u1 = idOf('staff10@demo.test');
      const u2 = idOf('staff11@demo.test');
      expect((await svc.http.patch(`/auth/v1/user/update-entities/${u1}`, { token: admin, body: { positionIds: [positions.cro.id], groups: [{ groupId: groups.finance.id, isPrimaryOrg: true }] } })).status).toBe(200);
      expect((await svc.http.patch(`/auth/v1/user/update-entities/${u2}`, { token: admin, body: { positionIds: [positions.analyst.id], groups: [{ groupId: groups.ops.id }] } })).status).toBe(200);
      const emails = async (q: string) =>
        (await svc.http.get(`/auth/v1/user?${q}&limit=100&sortBy=email`, { token: admin })).body.data.data.map((u: { email: string }) => u.email);

      expect(await emails('status=INVITED')).toEqual(['sorta@sort.test', 'sortb@sort.test', 'sortc@sort.test', 'sortd@sort.test']);
      expect((await emails('status=ACTIVE,INVITED')).length).toBe(54);
      expect((await emails('status=INACTIVE')).length).toBe(0);
      expect(await emails(`roleIds=${adminRole}`)).toEqual(['admin@demo.test']);
      const auditors = await emails(`roleIds=${auditorRole}`);
      expect(auditors).toContain('auditor@demo.test');
      expect((await emails(`roleIds=${auditorRole},${adminRole}`)).length).toBe(auditors.length + 1);
      expect(await emails(`positionIds=${positions.cro.id}`)).toEqual(['staff10@demo.test']);
      expect(await emails(`positionIds=${positions.cro.id},${positions.analyst.id}`)).toEqual(['staff10@demo.test', 'staff11@demo.test']);
      expect(await emails(`groupIds=${groups.ops.id}`)).toEqual(['staff11@demo.test']);
      expect(await emails(`groupIds=${groups.ops.id}&groupIds=${groups.finance.id}`)).toEqual(['staff10@demo.test', 'staff11@demo.test']);
      expect(await emails(`groupIds=${groups.finance.id}&positionIds=${positions.analyst.id}`)).toEqual([]);
      expect(await emails(`positionIds=${positions.cro.id}&search=staff1&status=ACTIVE`)).toEqual(['staff10@demo.test']);
      // Another tenant's ids match nobody here.
      expect(await emails(`positionIds=${positions.foreign.id}`)).toEqual([]);
      expect(await emails(`roleIds=${await roleIdOf(other.id, 'System Admin')}`)).toEqual([]);
    });

    it('sorts by name, email, createdOn and lastLoginDate, both ways (never signed in comes last)', async () => {
      const names = async (q: string) =>
        (await svc.http.get(`/auth/v1/user?search=sort.test&${q}`, { token: admin })).body.data.data.map((u: { lastName: string }) => u.lastName);
      expect(await names('sortBy=name')).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta']);
      expect(await names('sortBy=name&sortOrder=desc')).toEqual(['Delta', 'Charlie', 'Bravo', 'Alpha']);
      expect(await names('sortBy=email')).toEqual(['Delta', 'Alpha', 'Charlie', 'Bravo']);
      expect(await names('sortBy=email&sortOrder=desc')).toEqual(['Bravo', 'Charlie', 'Alpha', 'Delta']);
      expect(await names('sortBy=createdOn')).toEqual(['Bravo', 'Alpha', 'Delta', 'Charlie']);
      expect(await names('sortBy=createdOn&sortOrder=desc')).toEqual(['Charlie', 'Delta', 'Alpha', 'Bravo']);
      expect(await names('sortBy=lastLoginDate')).toEqual(['Delta', 'Alpha', 'Charlie', 'Bravo']);
      expect(await names('sortBy=lastLoginDate&sortOrder=desc')).toEqual(['Charlie', 'Alpha', 'Delta', 'Bravo']);
      expect(await names('sortBy=name&limit=2&page=2')).toEqual(['Charlie', 'Delta']);
    });

    it('pages past the end with the right total', async () => {
      const res = await svc.http.get('/auth/v1/user?limit=20&page=9', { token: admin });
      expect(res.body.data).toEqual({ page: 9, limit: 20, total: 54, data: [] });
      const last = await svc.http.get('/auth/v1/user?limit=20&page=3', { token: admin });
      expect(last.body.data.data).toHaveLength(14);
    });

    it('400 listing every bad query field', async () => {
      const res = await svc.http.get('/auth/v1/user?limit=101&page=0&sortBy=age&sortOrder=up&status=GONE&roleIds=abc&positionIds=1,2&groupIds=x&colour=red', {
        token: admin,
      });
      expectErrorBody(res, 400, '/auth/v1/user');
      expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
        ['colour', 'groupIds', 'limit', 'page', 'positionIds', 'roleIds', 'sortBy', 'sortOrder', 'status'].sort(),
      );
      const long = await svc.http.get(`/auth/v1/user?search=${'x'.repeat(101)}`, { token: admin });
      expectErrorBody(long, 400);
      expect(long.body.errors).toEqual([{ field: 'search', message: expect.stringMatching(/100/) }]);
      expectErrorBody(await svc.http.get('/auth/v1/user?tenantId=demo', { token: admin }), 400);
    });

    it('401 without a token', async () => {
      expectErrorBody(await svc.http.get('/auth/v1/user'), 401);
    });
  });

  describe('GET /auth/v1/user/{id} and /auth/v1/user/details', () => {
    it('answers a user with the manager summary, and positions and groups named by the projection', async () => {
      const id = idOf('staff10@demo.test');
      const res = await svc.http.get(`/auth/v1/user/${id}`, { token: plain });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('User fetched successfully');
      const u = res.body.data;
      expect(Object.keys(u).sort()).toEqual(USER_FIELDS);
      expect(u).toMatchObject({ id, email: 'staff10@demo.test', status: 'ACTIVE', isDeleted: false, idpUserId: 'dev|staff10@demo.test', delegationsIssued: 0, delegationsReceived: 0 });
      expect(u.userPositions).toEqual([
        {
          id: expect.any(String),
          userId: id,
          tenantId: demo.id,
          positionsId: positions.cro.id,
          autoProvisioned: false,
          instanceId: null,
          isEditable: true,
          isDeleted: false,
          deletedOn: null,
          createdOn: expect.stringMatching(ISO),
          updatedOn: expect.stringMatching(ISO),
          positionName: 'Chief Risk Officer',
          isSCIMProvisioned: false,
          externalId: 'ext-cro',
        },
      ]);
      expect(u.userGroups).toHaveLength(1);
      expect(Object.keys(u.userGroups[0]).sort()).toEqual(USER_GROUP_FIELDS);
      expect(u.userGroups[0]).toMatchObject({
        tenantId: demo.id,
        userId: id,
        groupId: groups.finance.id,
        groupName: 'Finance',
        displayName: 'Finance',
        groupTypeId: groups.finance.tenantGroupTypeId,
        groupTypeName: 'Department',
        isPrimaryOrg: true,
        primaryOrgSetOn: expect.stringMatching(ISO),
        isDeleted: false,
      });
      // staff10 reports to staff04, who reports to the manager.
      expect(u.manager).toMatchObject({ id: idOf('staff04@demo.test'), email: 'staff04@demo.test', userId: '10007', managerName: 'Max Manager', userPositions: [], primaryOrganization: null });
      expect(u.manager.createdOn).toMatch(ISO);
      const seededRole = demo.users.find((x) => x.id === id)!.role;
      expect(u.userRoles).toEqual([expect.objectContaining({ roleName: seededRole, tenantId: demo.id, deletedOn: null, createdOn: expect.stringMatching(ISO) })]);
    });

    it("404 for another tenant's user, 400 for a malformed id", async () => {
      const res = await svc.http.get(`/auth/v1/user/${other.users[0].id}`, { token: admin });
      expectErrorBody(res, 404);
      expect(res.body.message).toMatch(/not found/);
      const bad = await svc.http.get('/auth/v1/user/10000', { token: admin });
      expectErrorBody(bad, 400);
      expect(bad.body.errors).toEqual([{ field: 'id', message: 'must be a UUID' }]);
      expectErrorBody(await svc.http.get(`/auth/v1/user/${idOf('user@demo.test')}?colour=red`, { token: admin }), 400);
    });

    it('/details answers the caller in the active tenant', async () => {
      const res = await svc.http.get('/auth/v1/user/details', { token: tokenFor('manager@demo.test') });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data).sort()).toEqual(USER_FIELDS);
      expect(res.body.data).toMatchObject({ email: 'manager@demo.test', activeTenantId: demo.id, userId: '10001', manager: expect.objectContaining({ email: 'admin@demo.test' }) });
    });
  });

  describe('PATCH /auth/v1/user/update-entities/{id}', () => {
    it('changes names, phone, roles, positions, groups, manager, employee fields and custom attributes, and publishes the §2.3 summary', async () => {
      const id = idOf('staff20@demo.test');
      const events = await collect(svc, 'evt.auth.user.updated');
      const gam = await roleIdOf(demo.id, 'Global Authority Manager');
      const res = await svc.http.patch(`/auth/v1/user/update-entities/${id}`, {
        token: admin,
        body: {
          firstName: 'Renamed',
          lastName: 'Person',
          mobilePhone: '+44 20 7946 0000',
          roleIds: [gam],
          positionIds: [positions.cro.id, positions.analyst.id],
          groups: [{ groupId: groups.ops.id }, { groupId: groups.finance.id, isPrimaryOrg: true }],
          managerId: idOf('manager@demo.test'),
          employeeId: 'E-20',
          employeeType: 'Contractor',
          customAttributes: { costCentre: 'CC-7', level: 3, remote: true },
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('User updated successfully');
      const u = res.body.data;
      expect(u).toMatchObject({
        firstName: 'Renamed',
        lastName: 'Person',
        name: 'Renamed Person',
        displayName: 'Renamed Person',
        mobilePhone: '+44 20 7946 0000',
        employeeId: 'E-20',
        employeeType: 'Contractor',
        customAttributes: { costCentre: 'CC-7', level: 3, remote: true },
        updatedBy: 'Ada Admin',
        manager: expect.objectContaining({ id: idOf('manager@demo.test'), managerName: 'Ada Admin' }),
      });
      expect(u.userRoles.map((r: { roleName: string }) => r.roleName)).toEqual(['Global Authority Manager']);
      expect(u.userPositions.map((p: { positionName: string }) => p.positionName)).toEqual(['Chief Risk Officer', 'Treasury Analyst']);
      for (const p of u.userPositions) expect(Object.keys(p).sort()).toEqual(USER_POSITION_FIELDS);
      expect(u.userGroups.map((g: { groupName: string; isPrimaryOrg: boolean }) => [g.groupName, g.isPrimaryOrg])).toEqual([
        ['Finance', true],
        ['Operations', false],
      ]);

      const event = await until(async () => events.messages.find((m) => m.data.user?.id === id), 'evt.auth.user.updated');
      events.stop();
      expect(event.data).toEqual({
        tenantId: demo.id,
        user: {
          id,
          email: 'staff20@demo.test',
          name: 'Renamed Person',
          displayName: 'Renamed Person',
          profileImageUrl: null,
          mobilePhone: '+44 20 7946 0000',
          status: 'ACTIVE',
          positions: [
            { id: positions.cro.id, positionName: 'Chief Risk Officer', autoProvisioned: false },
            { id: positions.analyst.id, positionName: 'Treasury Analyst', autoProvisioned: false },
          ],
          primaryOrganizationId: groups.finance.id,
          primaryOrganization: {
            id: groups.finance.id,
            groupName: 'Finance',
            displayName: 'Finance',
            tenantGroupTypeId: groups.finance.tenantGroupTypeId,
            tenantGroupTypeName: 'Department',
            legalName: 'Demo Finance Ltd',
            baseCurrency: 'EUR',
          },
          manager: { id: idOf('manager@demo.test'), name: 'Max Manager', displayName: 'Max Manager', profileImageUrl: null },
          // Every group the user is a member of (the delegation rules' Functional pathway reads them), in id order.
          groupIds: [groups.ops.id, groups.finance.id].sort(),
          // The keys the user's roles grant (Global Authority Manager's), whom other areas ask to approve or review.
          permissionKeys: [...DEFAULT_ROLES.find((r) => r.key === 'GLOBAL_AUTHORITY_MANAGER')!.keys].sort(),
        },
      });

      // Lists replace: the primary moves, a position goes, the manager is removed.
      const again = await svc.http.patch(`/auth/v1/user/update-entities/${id}`, {
        token: admin,
        body: { positionIds: [positions.analyst.id], groups: [{ groupId: groups.ops.id, isPrimaryOrg: true }], managerId: null, mobilePhone: null },
      });
      expect(again.status).toBe(200);
      expect(again.body.data.userPositions.map((p: { positionName: string }) => p.positionName)).toEqual(['Treasury Analyst']);
      expect(again.body.data.userGroups).toEqual([expect.objectContaining({ groupName: 'Operations', isPrimaryOrg: true })]);
      expect(again.body.data).toMatchObject({ manager: null, mobilePhone: null, firstName: 'Renamed', userRoles: [expect.objectContaining({ roleName: 'Global Authority Manager' })] });

      // The person's changes are in the tenant's audit trail (a person is no tenant's row: the
      // change is entered in each of their tenants'), with the caller as actor.
      const trail = await svc.http.get(`/auth/v1/audit?entityType=users&entityId=${id}&sortOrder=asc`, { token: tokenFor('auditor@demo.test') });
      expect(trail.status).toBe(200);
      // Its creation by the seed (no actor), then the two changes.
      const [created, renamed, phoneCleared, ...rest] = trail.body.data.data;
      expect(rest).toEqual([]);
      expect(created).toMatchObject({ action: 'CREATE', actorId: null });
      expect(created.changes).toEqual(expect.arrayContaining([{ field: 'email', from: null, to: 'staff20@demo.test' }]));
      expect(renamed).toMatchObject({ tenantId: demo.id, entityType: 'users', entityId: id, action: 'UPDATE', actorId: idOf('admin@demo.test') });
      expect(renamed.changes).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'first_name', to: 'Renamed' }),
          expect.objectContaining({ field: 'name', to: 'Renamed Person' }),
          { field: 'mobile_phone', from: null, to: '+44 20 7946 0000' },
        ]),
      );
      expect(phoneCleared.changes).toEqual(expect.arrayContaining([{ field: 'mobile_phone', from: '+44 20 7946 0000', to: null }]));
      const elsewhere = await svc.http.get(`/auth/v1/audit?entityType=users&entityId=${id}`, { token: otherAdmin });
      expect(elsewhere.body.data.total).toBe(0);
    });

    it("404 for a position, group, role or manager the tenant does not know (another tenant's included), and for another tenant's user", async () => {
      const id = idOf('staff21@demo.test');
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ positionIds: [positions.foreign.id] }, /Position .* not found/],
        [{ positionIds: ['0190a000-0000-7000-8000-00000000dead'] }, /Position .* not found/],
        [{ groups: [{ groupId: groups.foreign.id }] }, /Group .* not found/],
        [{ roleIds: [await roleIdOf(other.id, 'Auditor')] }, /Role .* not found/],
        [{ managerId: other.users[0].id }, /Manager .* not found/],
      ];
      for (const [body, message] of cases) {
        const res = await svc.http.patch(`/auth/v1/user/update-entities/${id}`, { token: admin, body });
        expectErrorBody(res, 404);
        expect(res.body.message).toMatch(message);
      }
      // The 404 names the field and the index of the unknown id.
      const named: [Record<string, unknown>, string][] = [
        [{ positionIds: [positions.cro.id, positions.foreign.id] }, 'positionIds.1'],
        [{ groups: [{ groupId: groups.finance.id }, { groupId: groups.foreign.id }] }, 'groups.1.groupId'],
        [{ roleIds: [await roleIdOf(demo.id, 'Auditor'), await roleIdOf(other.id, 'Auditor')] }, 'roleIds.1'],
        [{ managerId: other.users[0].id }, 'managerId'],
      ];
      for (const [body, field] of named) {
        const res = await svc.http.patch(`/auth/v1/user/update-entities/${id}`, { token: admin, body });
        expectErrorBody(res, 404);
        expect(res.body.errors).toEqual([{ field, message: res.body.message }]);
      }
      expectErrorBody(await svc.http.patch(`/auth/v1/user/update-entities/${other.users[0].id}`, { token: admin, body: { firstName: 'X' } }), 404);
      // Nothing of the refused changes stuck.
      const u = await svc.http.get(`/auth/v1/user/${id}`, { token: admin });
      expect(u.body.data).toMatchObject({ userPositions: [], userGroups: [], manager: expect.objectContaining({ email: 'staff03@demo.test' }) });
    });

    it('400 for two primary groups, a manager cycle, a null first name, unknown fields and an empty change', async () => {
      const id = idOf('staff01@demo.test');
      const two = await svc.http.patch(`/auth/v1/user/update-entities/${id}`, {
        token: admin,
        body: { groups: [{ groupId: groups.ops.id, isPrimaryOrg: true }, { groupId: groups.finance.id, isPrimaryOrg: true }] },
      });
      expectErrorBody(two, 400);
      expect(two.body.errors).toEqual([{ field: 'groups', message: expect.stringMatching(/at most one group can be the primary/) }]);
      // staff07 reports to staff01: staff01 cannot report to staff07.
      const cycle = await svc.http.patch(`/auth/v1/user/update-entities/${id}`, { token: admin, body: { managerId: idOf('staff07@demo.test') } });
      expectErrorBody(cycle, 400);
      expect(cycle.body.errors).toEqual([{ field: 'managerId', message: 'would make a reporting cycle' }]);
      const self = await svc.http.patch(`/auth/v1/user/update-entities/${id}`, { token: admin, body: { managerId: id } });
      expectErrorBody(self, 400);
      const bad = await svc.http.patch(`/auth/v1/user/update-entities/${id}`, {
        token: admin,
        body: { firstName: null, lastName: 'x'.repeat(101), isAdmin: true, roleIds: ['nope'], customAttributes: { a: { b: 1 } }, positionIds: [positions.cro.id, positions.cro.id] },
      });
      expectErrorBody(bad, 400);
      expect([...new Set(bad.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual(['customAttributes', 'firstName', 'isAdmin', 'lastName', 'positionIds', 'roleIds']);
      // An array past its maximum is refused for its size alone, before any other field is read.
      const tooMany = await svc.http.patch(`/auth/v1/user/update-entities/${id}`, { token: admin, body: { firstName: null, positionIds: new Array(51).fill(positions.cro.id) } });
      expectErrorBody(tooMany, 400);
      expect(tooMany.body.errors).toEqual([{ field: 'positionIds', message: expect.stringMatching(/50/) }]);
      const empty = await svc.http.patch(`/auth/v1/user/update-entities/${id}`, { token: admin, body: {} });
      expectErrorBody(empty, 400);
      expect(empty.body.message).toMatch(/nothing to change/i);
      expectErrorBody(await svc.http.patch('/auth/v1/user/update-entities/abc', { token: admin, body: { firstName: 'X' } }), 400);
    });

    it('400 naming the field for null names, lists or customAttributes (the user keeps them); null clears the nullable texts', async () => {
      const id = idOf('staff22@demo.test');
      const before = (await svc.http.get(`/auth/v1/user/${id}`, { token: admin })).body.data;
      expect(before.userRoles).toHaveLength(1);
      for (const field of ['firstName', 'lastName', 'roleIds', 'positionIds', 'groups', 'customAttributes', 'tenantId']) {
        expectNullRefused(await svc.http.patch(`/auth/v1/user/update-entities/${id}`, { token: admin, body: { [field]: null } }), field);
      }
      const primary = await svc.http.patch(`/auth/v1/user/update-entities/${id}`, { token: admin, body: { groups: [{ groupId: groups.ops.id, isPrimaryOrg: null }] } });
      expectNullRefused(primary, 'groups.0.isPrimaryOrg');
      expect((await svc.http.get(`/auth/v1/user/${id}`, { token: admin })).body.data).toMatchObject({ userRoles: before.userRoles, userGroups: [], customAttributes: before.customAttributes });

      await svc.http.patch(`/auth/v1/user/update-entities/${id}`, { token: admin, body: { employeeId: 'E-22', employeeType: 'Intern', mobilePhone: '+1 555 0122' } });
      const cleared = await svc.http.patch(`/auth/v1/user/update-entities/${id}`, { token: admin, body: { employeeId: null, employeeType: null, mobilePhone: null } });
      expect(cleared.status).toBe(200);
      expect(cleared.body.data).toMatchObject({ employeeId: null, employeeType: null, mobilePhone: null });
    });

    it('403 without manage:users', async () => {
      const res = await svc.http.patch(`/auth/v1/user/update-entities/${idOf('staff07@demo.test')}`, { token: plain, body: { firstName: 'X' } });
      expectErrorBody(res, 403);
      expect(res.body.message).toBe('Missing permission "manage:users"');
    });
  });

  describe('PATCH /auth/v1/user/bulk-status-update', () => {
    const path = '/auth/v1/user/bulk-status-update';

    it('changes the users of the tenant in one go; the caller is never changed and counts as failed', async () => {
      const ids = [idOf('staff30@demo.test'), idOf('staff31@demo.test'), idOf('admin@demo.test')];
      const res = await svc.http.patch(path, { token: admin, body: { tenantId: demo.id, userIds: ids, status: 'INACTIVE' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'User statuses updated successfully', data: { total: 3, successful: 2, failed: 1 } });
      expect((await svc.http.get(`/auth/v1/user/${ids[0]}`, { token: admin })).body.data.status).toBe('INACTIVE');
      expect((await svc.http.get('/auth/v1/user/details', { token: admin })).body.data.status).toBe('ACTIVE');
    });

    it("404 naming each id that is not a live member of the tenant (unknown, another tenant's), and nothing changed", async () => {
      const unknown = '0190a000-0000-7000-8000-00000000beef';
      const ids = [idOf('staff35@demo.test'), other.users[0].id, unknown];
      const res = await svc.http.patch(path, { token: admin, body: { tenantId: demo.id, userIds: ids, status: 'INACTIVE' } });
      expectErrorBody(res, 404);
      expect(res.body.errors).toEqual([
        { field: 'userIds.1', message: `User ${other.users[0].id} not found` },
        { field: 'userIds.2', message: `User ${unknown} not found` },
      ]);
      expect(res.body.message).toMatch(/nothing was changed$/);
      // Nothing changed: the live member named with them, and the other tenant's user.
      expect((await svc.http.get(`/auth/v1/user/${ids[0]}`, { token: admin })).body.data.status).toBe('ACTIVE');
      expect((await svc.http.get('/auth/v1/user/details', { token: otherAdmin })).body.data.status).toBe('ACTIVE');
    });

    it('an INACTIVE user is refused at once, and let in again once ACTIVE', async () => {
      const id = idOf('staff32@demo.test');
      const token = tokenFor('staff32@demo.test');
      expect((await svc.http.get('/auth/v1/user/details', { token })).status).toBe(200);
      expect((await svc.http.patch(path, { token: admin, body: { tenantId: demo.id, userIds: [id], status: 'INACTIVE' } })).body.data.successful).toBe(1);
      expectErrorBody(await svc.http.get('/auth/v1/user/details', { token }), 403);
      expect((await svc.http.patch(path, { token: admin, body: { tenantId: demo.id, userIds: [id], status: 'ACTIVE' } })).body.data.successful).toBe(1);
      expect((await svc.http.get('/auth/v1/user/details', { token })).status).toBe(200);
    });

    it('DELETED is a soft delete: the user leaves the list, is a 404 and evt.auth.user.deleted says so', async () => {
      const id = idOf('staff33@demo.test');
      const events = await collect(svc, 'evt.auth.user.deleted');
      const res = await svc.http.patch(path, { token: admin, body: { tenantId: demo.id, userIds: [id], status: 'DELETED' } });
      expect(res.body.data).toEqual({ total: 1, successful: 1, failed: 0 });
      expectErrorBody(await svc.http.get(`/auth/v1/user/${id}`, { token: admin }), 404);
      expect((await svc.http.get('/auth/v1/user?search=staff33', { token: admin })).body.data.total).toBe(0);
      expectErrorBody(await svc.http.get('/auth/v1/user/details', { token: tokenFor('staff33@demo.test') }), 403);
      // deleted_by holds the deleting user's id.
      const [row] = await db.query<{ is_deleted: boolean; deleted_on: Date; deleted_by: string }>(
        `SELECT tu.is_deleted, tu.deleted_on, d.name AS deleted_by FROM auth.tenant_users tu JOIN auth.users d ON d.id = tu.deleted_by
          WHERE tu.user_id = $1 AND tu.tenant_id = $2`,
        [id, demo.id],
      );
      expect(row).toMatchObject({ is_deleted: true, deleted_on: expect.any(Date), deleted_by: 'Ada Admin' });
      const event = await until(async () => events.messages.find((m) => m.data.user?.id === id), 'evt.auth.user.deleted');
      events.stop();
      expect(event.data).toMatchObject({ tenantId: demo.id, user: { id, email: 'staff33@demo.test', status: 'DELETED' } });
      // Deleted once: a deleted user is no live member, so a second delete is a 404 naming it and changes nothing.
      const again404 = await svc.http.patch(path, { token: admin, body: { tenantId: demo.id, userIds: [id], status: 'DELETED' } });
      expectErrorBody(again404, 404);
      expect(again404.body.errors).toEqual([{ field: 'userIds.0', message: `User ${id} not found` }]);
      // Invited again: the same person, a fresh INVITED membership with what the new invitation says.
      const again = await invite({ email: 'staff33@demo.test', firstName: 'Back', lastName: 'Again', roleIds: [await roleIdOf(demo.id, 'Auditor')] });
      expect(again.status).toBe(200);
      expect(again.body.data).toMatchObject({ id, status: 'INVITED', isDeleted: false, deletedOn: null, userRoles: [expect.objectContaining({ roleName: 'Auditor' })] });
      expect((await svc.http.get('/auth/v1/user?search=staff33', { token: admin })).body.data.total).toBe(1);
    });

    it('400 for a bad status, no ids, too many, repeated or malformed ids; 403 without manage:users', async () => {
      const bad = await svc.http.patch(path, { token: admin, body: { tenantId: demo.id, userIds: [], status: 'GONE' } });
      expectErrorBody(bad, 400);
      expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['status', 'userIds']);
      const many = Array.from({ length: 501 }, (_, i) => `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`);
      expectErrorBody(await svc.http.patch(path, { token: admin, body: { tenantId: demo.id, userIds: many, status: 'ACTIVE' } }), 400);
      const twice = [idOf('staff34@demo.test'), idOf('staff34@demo.test')];
      expectErrorBody(await svc.http.patch(path, { token: admin, body: { tenantId: demo.id, userIds: twice, status: 'ACTIVE' } }), 400);
      expectErrorBody(await svc.http.patch(path, { token: admin, body: { tenantId: demo.id, userIds: ['x'], status: 'ACTIVE' } }), 400);
      expectErrorBody(await svc.http.patch(path, { token: admin, body: { userIds: [idOf('staff34@demo.test')], status: 'ACTIVE' } }), 400);
      const denied = await svc.http.patch(path, { token: plain, body: { tenantId: demo.id, userIds: [idOf('staff34@demo.test')], status: 'INACTIVE' } });
      expectErrorBody(denied, 403);
    });
  });

  describe('tenants and the active tenant', () => {
    it("GET /auth/v1/tenants/user/list-tenants lists the caller's tenants, the active one marked", async () => {
      const res = await svc.http.get('/auth/v1/tenants/user/list-tenants', { token: admin });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([
        { id: demo.id, name: 'Demo Co', status: 'ACTIVE', createdOn: expect.stringMatching(ISO), updatedOn: expect.stringMatching(ISO), userId: '10000', userStatus: 'ACTIVE', isActiveTenant: true },
      ]);
    });

    it('GET /auth/v1/tenants/{id}: the tenant for a member, 403 for another tenant, 400 for a malformed id', async () => {
      const res = await svc.http.get(`/auth/v1/tenants/${demo.id}`, { token: plain });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ id: demo.id, name: 'Demo Co', status: 'ACTIVE', createdOn: expect.stringMatching(ISO), updatedOn: expect.stringMatching(ISO) });
      expectErrorBody(await svc.http.get(`/auth/v1/tenants/${other.id}`, { token: plain }), 403);
      expectErrorBody(await svc.http.get('/auth/v1/tenants/demo', { token: plain }), 400);
    });

    it('an invitation to a second tenant is accepted by the first request there; PATCH active-tenant switches to it', async () => {
      const invited = await svc.http.post('/auth/v1/user/create', {
        token: otherAdmin,
        body: { tenantId: other.id, email: 'Manager@Demo.test', firstName: 'Ignored', lastName: 'Names', inviteViaEmail: false },
      });
      expect(invited.status).toBe(200);
      // The person exists already: the same record, the name they have, a new membership.
      expect(invited.body.data).toMatchObject({ id: idOf('manager@demo.test'), name: 'Max Manager', status: 'INVITED', userId: '10001' });
      const manager = tokenFor('manager@demo.test');
      const listed = await svc.http.get('/auth/v1/tenants/user/list-tenants', { token: manager });
      expect(listed.body.data.map((t: { name: string; userStatus: string; isActiveTenant: boolean }) => [t.name, t.userStatus, t.isActiveTenant])).toEqual([
        ['Demo Co', 'ACTIVE', true],
        ['Other Co', 'INVITED', false],
      ]);

      const switched = await svc.http.patch('/auth/v1/user/active-tenant', { token: manager, body: { tenantId: other.id } });
      expect(switched.status).toBe(200);
      expect(switched.body.data).toMatchObject({ activeTenantId: other.id, status: 'ACTIVE', userId: '10001', userRoles: [] });
      const details = await svc.http.get('/auth/v1/user/details', { token: manager });
      expect(details.body.data).toMatchObject({ activeTenantId: other.id, status: 'ACTIVE' });
      expect((await svc.http.get('/auth/v1/user', { token: manager })).body.data.total).toBe(2);
      const back = await svc.http.patch('/auth/v1/user/active-tenant', { token: manager, body: { tenantId: demo.id } });
      expect(back.body.data.activeTenantId).toBe(demo.id);
      expect((await svc.http.get('/auth/v1/user', { token: manager })).body.data.total).toBeGreaterThan(40);
    });

    it('PATCH active-tenant: 403 for a tenant that is not a membership, 400 for a malformed or missing id', async () => {
      const res = await svc.http.patch('/auth/v1/user/active-tenant', { token: plain, body: { tenantId: other.id } });
      expectErrorBody(res, 403);
      expect(res.body.message).toMatch(/not a member/);
      expectErrorBody(await svc.http.patch('/auth/v1/user/active-tenant', { token: plain, body: { tenantId: 'x' } }), 400);
      expectErrorBody(await svc.http.patch('/auth/v1/user/active-tenant', { token: plain, body: {} }), 400);
    });
  });

  describe('first sign-in', () => {
    it('links an unknown subject whose email matches an INVITED user: ACTIVE, idpUserId and lastLoginDate set', async () => {
      const created = await invite({ email: 'first.timer@new.test', firstName: 'First', lastName: 'Timer' });
      expect(created.body.data).toMatchObject({ status: 'INVITED', idpUserId: null, lastLoginDate: null });
      const token = mintToken('idp|0001-first', { email: 'First.Timer@new.test' });
      const res = await svc.http.get('/auth/v1/user/details', { token });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: created.body.data.id, status: 'ACTIVE', idpUserId: 'idp|0001-first', lastLoginDate: expect.stringMatching(ISO) });
      // The identity is now known: the email claim plays no part any more.
      expect((await svc.http.get('/auth/v1/user/details', { token: mintToken('idp|0001-first') })).status).toBe(200);
    });

    it('403 with a clear message for any other unknown subject', async () => {
      const created = await invite({ email: 'second.timer@new.test', firstName: 'Second', lastName: 'Timer' });
      const cases = [
        mintToken('idp|stranger'),
        mintToken('idp|stranger', { email: 'nobody@new.test' }),
        // The email of a user who already has an identity.
        mintToken('idp|impostor', { email: 'admin@demo.test' }),
        // Invited, but to another tenant than the one named.
        mintToken('idp|0002-second', { email: 'second.timer@new.test', tenantId: other.id }),
      ];
      for (const token of cases) {
        const res = await svc.http.get('/auth/v1/user/details', { token });
        expectErrorBody(res, 403);
        expect(res.body.message).toMatch(/^No user is registered for this identity/);
      }
      const u = await svc.http.get(`/auth/v1/user/${created.body.data.id}`, { token: admin });
      expect(u.body.data).toMatchObject({ status: 'INVITED', idpUserId: null });
    });
  });

  describe('projections of other areas', () => {
    it("position and group names follow the settings area's events; deleted ones leave the user", async () => {
      const id = idOf('staff40@demo.test');
      const local = position({ positionName: 'Desk Head' });
      const team = group({ groupName: 'Desk' });
      await projectSettings(svc, demo.id, { positions: [local], groups: [team] });
      await svc.http.patch(`/auth/v1/user/update-entities/${id}`, { token: admin, body: { positionIds: [local.id], groups: [{ groupId: team.id, isPrimaryOrg: true }] } });

      await publishEvent(svc, 'evt.settings.position.updated', { tenantId: demo.id, position: { ...local, positionName: 'Head of Desk' } });
      await publishEvent(svc, 'evt.settings.group.updated', { tenantId: demo.id, group: { ...team, groupName: 'Trading Desk', displayName: 'Trading' } });
      const renamed = await until(async () => {
        const u = (await svc.http.get(`/auth/v1/user/${id}`, { token: admin })).body.data;
        return u.userPositions[0]?.positionName === 'Head of Desk' && u.userGroups[0]?.groupName === 'Trading Desk' && u;
      }, 'renamed position and group');
      expect(renamed.userGroups[0]).toMatchObject({ displayName: 'Trading', isPrimaryOrg: true });

      // An event naming a known id under another tenant changes nothing.
      const { msgID: hijack } = await publishEvent(svc, 'evt.settings.position.updated', { tenantId: other.id, position: { ...local, positionName: 'Hijacked' } });
      await until(async () => (await db.query(`SELECT 1 FROM auth.processed_messages WHERE message_id = $1`, [hijack])).length > 0, 'the other tenant event');
      const [kept] = await db.query<{ position_name: string; tenant_id: string }>(`SELECT position_name, tenant_id FROM auth.position_projection WHERE id = $1`, [local.id]);
      expect(kept).toEqual({ position_name: 'Head of Desk', tenant_id: demo.id });
      await publishEvent(svc, 'evt.settings.position.deleted', { tenantId: demo.id, position: { ...local, isDeleted: true } });
      await publishEvent(svc, 'evt.settings.group.deleted', { tenantId: demo.id, group: { ...team, isDeleted: true } });
      const gone = await until(async () => {
        const u = (await svc.http.get(`/auth/v1/user/${id}`, { token: admin })).body.data;
        return u.userPositions.length === 0 && u.userGroups.length === 0 && u;
      }, 'deleted position and group to leave the user');
      expect(gone.userPositions).toEqual([]);
      expect((await svc.http.get(`/auth/v1/user?positionIds=${local.id}`, { token: admin })).body.data.total).toBe(0);
    });

    it("delegation counts follow the decision area's events", async () => {
      const issuer = idOf('staff41@demo.test');
      const recipient = idOf('staff42@demo.test');
      const d1 = delegation(demo.id, { issuerUserId: issuer, recipientUserId: recipient });
      const d2 = delegation(demo.id, { issuerUserId: issuer, recipientUserId: recipient });
      const d3 = delegation(demo.id, { issuerType: 'ROOT_AUTHORITY', recipientUserId: issuer });
      for (const d of [d1, d2, d3]) await publishEvent(svc, 'evt.decision.delegation.issued', d);
      const counts = async (id: string) => {
        const u = (await svc.http.get(`/auth/v1/user/${id}`, { token: admin })).body.data;
        return [u.delegationsIssued, u.delegationsReceived];
      };
      await until(async () => JSON.stringify(await counts(issuer)) === '[2,1]' && JSON.stringify(await counts(recipient)) === '[0,2]', 'delegation counts');

      // Revoked: stops counting. Updated to another recipient: moves. Redelivered: counted once.
      await publishEvent(svc, 'evt.decision.delegation.revoked', d1);
      await publishEvent(svc, 'evt.decision.delegation.updated', { ...d2, recipientUserId: idOf('staff43@demo.test') });
      await publishEvent(svc, 'evt.decision.delegation.issued', d3);
      await until(async () => JSON.stringify(await counts(recipient)) === '[0,0]', 'counts after revoke and update');
      expect(await counts(issuer)).toEqual([1, 1]);
      expect(await counts(idOf('staff43@demo.test'))).toEqual([0, 1]);
      const listed = (await svc.http.get('/auth/v1/user?search=staff41', { token: admin })).body.data.data[0];
      expect(listed).toMatchObject({ delegationsIssued: 1, delegationsReceived: 1 });

      // A revoked delegation stays revoked; with versions, an older event arriving late changes nothing.
      const d4 = delegation(demo.id, { issuerUserId: issuer, recipientUserId: recipient, version: 5 });
      await publishEvent(svc, 'evt.decision.delegation.issued', d4);
      await publishEvent(svc, 'evt.decision.delegation.updated', { ...d4, version: 7, recipientUserId: idOf('staff43@demo.test') });
      await until(async () => JSON.stringify(await counts(idOf('staff43@demo.test'))) === '[0,2]', 'the newer version');
      const late = await publishEvent(svc, 'evt.decision.delegation.updated', { ...d4, version: 6 });
      const revived = await publishEvent(svc, 'evt.decision.delegation.updated', d1);
      await until(
        async () => (await db.query(`SELECT 1 FROM auth.processed_messages WHERE message_id = ANY($1)`, [[late.msgID, revived.msgID]])).length === 2,
        'the late and the revived events processed',
      );
      expect(await counts(idOf('staff43@demo.test'))).toEqual([0, 2]);
      expect(await counts(recipient)).toEqual([0, 0]);
    });
  });
});
