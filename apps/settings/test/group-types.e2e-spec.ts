import { randomUUID } from 'node:crypto';
import { expectErrorBody, ISO, startHarness, until } from '@ddm/testing';
import { publishTenantCreated } from './fixtures/events';
import { settingsApp, SettingsHarness } from './fixtures/settings-app';

const PATH = '/settings/v1/group-types';
const GROUP_TYPE_FIELDS = [
  'addressEnabled',
  'createdBy',
  'createdOn',
  'disableOption',
  'groupTypeName',
  'id',
  'isDefault',
  'isDeleted',
  'shouldAllowEnableDisable',
  'status',
  'tenantId',
  'updatedBy',
  'updatedOn',
];

interface GroupTypeBody {
  id: string;
  groupTypeName: string;
  [field: string]: unknown;
}

describe('group types (e2e, real Postgres and NATS)', () => {
  let h: SettingsHarness;
  let adminId: string;
  const typesOf = async (tenantId: string) =>
    h.db.query<{ group_type_name: string }>(`SELECT group_type_name FROM settings.group_types WHERE tenant_id = $1 ORDER BY created_on, id`, [tenantId]);
  const events = async (subject: string, tenantId: string) =>
    (await h.db.query<{ payload: { tenantId: string; groupType?: GroupTypeBody; group?: Record<string, unknown> } }>(
      `SELECT payload FROM settings.outbox WHERE subject = $1 AND payload->>'tenantId' = $2 ORDER BY created_at, id`,
      [subject, tenantId],
    )).map((r) => r.payload);
  const list = async (query = '', token = h.tokens.admin) => h.svc.http.get(`${PATH}${query}`, { token });
  const create = async (body: object, token = h.tokens.admin) => h.svc.http.post(PATH, { token, body });

  beforeAll(async () => {
    h = await startHarness(settingsApp);
    adminId = h.demo.users.find((u) => u.email === 'admin@demo.test')!.id;
  });
  afterAll(() => h?.close());

  describe('the three default types', () => {
    it('the evt.auth.tenant.created consumer gives each seeded tenant Organizations, Locations and Departments, before any request', async () => {
      for (const tenant of [h.demo, h.other]) {
        const rows = await until(async () => {
          const r = await typesOf(tenant.id);
          return r.length === 3 && r;
        }, `default types of ${tenant.name}`);
        expect(rows.map((r) => r.group_type_name)).toEqual(['Organizations', 'Locations', 'Departments']);
      }
    });

    it('a tenant created later gets them once, even when the event comes twice; created events only for rows inserted', async () => {
      const tenantId = randomUUID();
      await publishTenantCreated(h.svc, tenantId);
      await until(async () => (await typesOf(tenantId)).length === 3, 'defaults of the new tenant');
      await publishTenantCreated(h.svc, tenantId);
      await until(
        async () =>
          Number((await h.db.query<{ n: string }>(`SELECT count(*) AS n FROM settings.processed_messages WHERE consumer = 'settings-tenant-defaults'`))[0].n) >= 4,
        'the second event processed',
      );
      expect((await typesOf(tenantId)).length).toBe(3);
      const created = await events('evt.settings.group-type.created', tenantId);
      expect(created.map((e) => e.groupType!.groupTypeName)).toEqual(['Organizations', 'Locations', 'Departments']);
      expect(created[0].groupType).toEqual({ id: expect.any(String), groupTypeName: 'Organizations', status: 'ACTIVE', isDefault: true, addressEnabled: true, isDeleted: false });
    });

    it('a fresh tenant (Other Co) lists them: paged envelope, every field, Organizations cannot be disabled and carries addresses', async () => {
      const res = await list('', h.tokens.otherAdmin);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        statusCode: 200,
        timestamp: expect.stringMatching(ISO),
        message: 'Tenant group types fetched successfully',
        data: { page: 1, limit: 10, total: 3, data: expect.any(Array) },
      });
      const [org, loc, dep] = res.body.data.data;
      for (const t of res.body.data.data) expect(Object.keys(t).sort()).toEqual(GROUP_TYPE_FIELDS);
      expect(org).toEqual({
        id: expect.any(String),
        tenantId: h.other.id,
        groupTypeName: 'Organizations',
        shouldAllowEnableDisable: false,
        addressEnabled: true,
        isDefault: true,
        disableOption: 'NA',
        isDeleted: false,
        status: 'ACTIVE',
        createdBy: null,
        createdOn: expect.stringMatching(ISO),
        updatedOn: expect.stringMatching(ISO),
        updatedBy: null,
      });
      expect(loc).toMatchObject({ groupTypeName: 'Locations', shouldAllowEnableDisable: true, addressEnabled: false, isDefault: true });
      expect(dep).toMatchObject({ groupTypeName: 'Departments', shouldAllowEnableDisable: true, addressEnabled: false, isDefault: true });
      // The lazy path found them there: still exactly three created events for the tenant.
      expect((await events('evt.settings.group-type.created', h.other.id)).length).toBe(3);
    });

    it('the auditor reads them; tenantId in the query must be a tenant the caller belongs to', async () => {
      expect((await list(`?tenantId=${h.demo.id}`, h.tokens.auditor)).body.data.total).toBe(3);
      expectErrorBody(await list(`?tenantId=${h.other.id}`), 403);
      expectErrorBody(await list('?tenantId=nope'), 400);
    });
  });

  describe('POST /settings/v1/group-types', () => {
    it('creates a type: 200, every field, created by the caller, event written', async () => {
      const res = await create({ tenantId: h.demo.id, groupTypeName: '  Teams ', addressEnabled: true });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'Tenant group type created successfully', timestamp: expect.stringMatching(ISO) });
      const t = res.body.data;
      expect(Object.keys(t).sort()).toEqual(GROUP_TYPE_FIELDS);
      expect(t).toEqual({
        id: expect.any(String),
        tenantId: h.demo.id,
        groupTypeName: 'Teams',
        shouldAllowEnableDisable: true,
        addressEnabled: true,
        isDefault: false,
        disableOption: 'NA',
        isDeleted: false,
        status: 'ACTIVE',
        createdBy: adminId,
        createdOn: expect.stringMatching(ISO),
        updatedOn: t.createdOn,
        updatedBy: adminId,
      });
      const created = await events('evt.settings.group-type.created', h.demo.id);
      expect(created.at(-1)).toEqual({
        tenantId: h.demo.id,
        groupType: { id: t.id, groupTypeName: 'Teams', status: 'ACTIVE', isDefault: false, addressEnabled: true, isDeleted: false },
      });
      const listed = await list();
      expect(listed.body.data.data.map((x: GroupTypeBody) => x.groupTypeName)).toEqual(['Organizations', 'Locations', 'Departments', 'Teams']);
      // Without tenantId: the caller's tenant; addressEnabled defaults to false.
      const plain = await create({ groupTypeName: 'Regions' });
      expect(plain.body.data).toMatchObject({ tenantId: h.demo.id, addressEnabled: false });
    });

    it('409 for a name the tenant already has (any case, defaults included); another tenant may use it', async () => {
      const dup = await create({ groupTypeName: 'teams' });
      expectErrorBody(dup, 409);
      expect(dup.body.message).toBe('A group type named "teams" already exists in this tenant');
      expectErrorBody(await create({ groupTypeName: 'ORGANIZATIONS' }), 409);
      expect((await create({ groupTypeName: 'Teams' }, h.tokens.otherAdmin)).status).toBe(200);
    });

    it('two concurrent creates of one name: exactly one 200, the other the same 409 as the check (the unique index catches the race)', async () => {
      const results = await Promise.all([create({ groupTypeName: 'Race Winner' }), create({ groupTypeName: 'race winner' })]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const lost = results.find((r) => r.status === 409)!;
      expectErrorBody(lost, 409);
      expect(lost.body.message).toMatch(/^A group type named "(Race Winner|race winner)" already exists in this tenant$/);
      expect((await h.db.query(`SELECT 1 FROM settings.group_types WHERE lower(group_type_name) = 'race winner' AND NOT is_deleted`)).length).toBe(1);
      // Deleted again so the list tests below see the tenant's types as before.
      const won = results.find((r) => r.status === 200)!;
      expect((await h.svc.http.delete(`${PATH}/${won.body.data.id}`, { token: h.tokens.admin })).status).toBe(200);
    });

    it('400 for a missing or too long name, a bad flag, unknown fields, a malformed tenantId', async () => {
      const res = await create({ addressEnabled: 'yes', isDefault: true });
      expectErrorBody(res, 400);
      expect([...new Set(res.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual(['addressEnabled', 'groupTypeName', 'isDefault']);
      const long = await create({ groupTypeName: 'x'.repeat(51) });
      expectErrorBody(long, 400);
      expect(long.body.errors).toEqual([{ field: 'groupTypeName', message: expect.stringMatching(/50/) }]);
      expect((await create({ groupTypeName: 'y'.repeat(50) })).status).toBe(200);
      expectErrorBody(await create({ groupTypeName: 'Z', tenantId: 'demo' }), 400);
    });

    it('403 for the auditor and the manager (no manage:settings), and in a tenant the caller is not a member of', async () => {
      for (const token of [h.tokens.auditor, h.tokens.manager]) {
        const res = await create({ groupTypeName: 'Nope' }, token);
        expectErrorBody(res, 403);
        expect(res.body.message).toBe('Missing permission "manage:settings"');
      }
      expectErrorBody(await create({ groupTypeName: 'Nope', tenantId: h.other.id }), 403);
    });
  });

  describe('GET /settings/v1/group-types', () => {
    it('isActive narrows; pages and sortOrder work; bad values are a 400', async () => {
      const all = (await list('?limit=100')).body.data;
      expect(all.total).toBe(6);
      const names = all.data.map((x: GroupTypeBody) => x.groupTypeName);
      const locations = all.data.find((x: GroupTypeBody) => x.groupTypeName === 'Locations');
      await h.svc.http.patch(`${PATH}/${locations.id}`, { token: h.tokens.admin, body: { status: 'INACTIVE' } });
      const inactive = (await list('?isActive=false')).body.data;
      expect(inactive).toMatchObject({ total: 1, data: [{ id: locations.id, status: 'INACTIVE' }] });
      const active = (await list('?isActive=true&limit=100')).body.data;
      expect(active.total).toBe(5);
      expect(active.data.map((x: GroupTypeBody) => x.groupTypeName)).not.toContain('Locations');
      await h.svc.http.patch(`${PATH}/${locations.id}`, { token: h.tokens.admin, body: { status: 'ACTIVE' } });

      const page2 = (await list('?page=2&limit=2')).body.data;
      expect(page2).toMatchObject({ page: 2, limit: 2, total: 6 });
      expect(page2.data.map((x: GroupTypeBody) => x.groupTypeName)).toEqual(names.slice(2, 4));
      const desc = (await list('?sortOrder=desc&limit=100')).body.data.data.map((x: GroupTypeBody) => x.groupTypeName);
      expect(desc).toEqual([...names].reverse());
      expect((await list('?page=9')).body.data).toEqual({ page: 9, limit: 10, total: 6, data: [] });

      for (const q of ['?limit=101', '?limit=0', '?page=0', '?isActive=maybe', '?sortOrder=up', '?color=blue']) expectErrorBody(await list(q), 400);
    });
  });

  describe('PATCH /settings/v1/group-types/{id}', () => {
    let teams: GroupTypeBody;
    beforeAll(async () => {
      teams = (await list('?limit=100')).body.data.data.find((x: GroupTypeBody) => x.groupTypeName === 'Teams');
    });

    it('renames, disables with a disable option, turns addresses off: 200, every field; the updated event is written', async () => {
      const res = await h.svc.http.patch(`${PATH}/${teams.id}`, {
        token: h.tokens.admin,
        body: { groupTypeName: 'Squads', status: 'INACTIVE', disableOption: 'KEEP_ASSOCIATIONS', addressEnabled: false },
      });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Tenant group type updated successfully');
      expect(Object.keys(res.body.data).sort()).toEqual(GROUP_TYPE_FIELDS);
      expect(res.body.data).toMatchObject({ id: teams.id, groupTypeName: 'Squads', status: 'INACTIVE', disableOption: 'KEEP_ASSOCIATIONS', addressEnabled: false, updatedBy: adminId });
      expect(new Date(res.body.data.updatedOn).getTime()).toBeGreaterThan(new Date(teams.createdOn as string).getTime());
      expect((await events('evt.settings.group-type.updated', h.demo.id)).at(-1)).toEqual({
        tenantId: h.demo.id,
        groupType: { id: teams.id, groupTypeName: 'Squads', status: 'INACTIVE', isDefault: false, addressEnabled: false, isDeleted: false },
      });
      const back = await h.svc.http.patch(`${PATH}/${teams.id}`, { token: h.tokens.admin, body: { status: 'ACTIVE', groupTypeName: 'Teams', addressEnabled: 'true' } });
      expect(back.body.data).toMatchObject({ groupTypeName: 'Teams', status: 'ACTIVE', addressEnabled: true });
    });

    it('a rename republishes the type’s groups (their events carry the type’s name)', async () => {
      const group = await h.svc.http.post('/settings/v1/groups', { token: h.tokens.admin, body: { tenantGroupTypeId: teams.id, groupName: 'Blue Team' } });
      expect(group.status).toBe(200);
      await h.svc.http.patch(`${PATH}/${teams.id}`, { token: h.tokens.admin, body: { groupTypeName: 'Crews' } });
      const updated = (await events('evt.settings.group.updated', h.demo.id)).filter((e) => e.group!.id === group.body.data.id);
      expect(updated.at(-1)!.group).toMatchObject({ groupName: 'Blue Team', tenantGroupTypeId: teams.id, tenantGroupTypeName: 'Crews' });
      expect((await h.svc.http.get(`/settings/v1/groups/${group.body.data.id}`, { token: h.tokens.admin })).body.data.tenantGroupType.groupTypeName).toBe('Crews');
      await h.svc.http.patch(`${PATH}/${teams.id}`, { token: h.tokens.admin, body: { groupTypeName: 'Teams' } });
    });

    it('Organizations cannot be disabled (409) but may be renamed; Locations may be disabled', async () => {
      const types = (await list()).body.data.data;
      const org = types.find((x: GroupTypeBody) => x.groupTypeName === 'Organizations');
      const res = await h.svc.http.patch(`${PATH}/${org.id}`, { token: h.tokens.admin, body: { status: 'INACTIVE' } });
      expectErrorBody(res, 409);
      expect(res.body.message).toBe('The group type "Organizations" cannot be disabled');
      const renamed = await h.svc.http.patch(`${PATH}/${org.id}`, { token: h.tokens.admin, body: { groupTypeName: 'Companies' } });
      expect(renamed.body.data).toMatchObject({ groupTypeName: 'Companies', isDefault: true, shouldAllowEnableDisable: false, status: 'ACTIVE' });
      await h.svc.http.patch(`${PATH}/${org.id}`, { token: h.tokens.admin, body: { groupTypeName: 'Organizations' } });
    });

    it('409 for a taken name; 400 for nothing to change, bad values, unknown fields, a malformed id', async () => {
      const dup = await h.svc.http.patch(`${PATH}/${teams.id}`, { token: h.tokens.admin, body: { groupTypeName: 'departments' } });
      expectErrorBody(dup, 409);
      // Its own name in another case is not taken.
      expect((await h.svc.http.patch(`${PATH}/${teams.id}`, { token: h.tokens.admin, body: { groupTypeName: 'TEAMS' } })).body.data.groupTypeName).toBe('TEAMS');
      const nothing = await h.svc.http.patch(`${PATH}/${teams.id}`, { token: h.tokens.admin, body: {} });
      expectErrorBody(nothing, 400);
      expect(nothing.body.message).toMatch(/^Nothing to change/);
      const bad = await h.svc.http.patch(`${PATH}/${teams.id}`, {
        token: h.tokens.admin,
        body: { groupTypeName: 'x'.repeat(51), status: 'OFF', disableOption: 'LATER', addressEnabled: 'no', isDefault: true },
      });
      expectErrorBody(bad, 400);
      expect([...new Set(bad.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual(['addressEnabled', 'disableOption', 'groupTypeName', 'isDefault', 'status']);
      expectErrorBody(await h.svc.http.patch(`${PATH}/not-a-uuid`, { token: h.tokens.admin, body: { status: 'ACTIVE' } }), 400);
    });

    it('404 for another tenant’s type and an unknown id; 403 for the auditor and the manager', async () => {
      const otherType = (await list('', h.tokens.otherAdmin)).body.data.data[1];
      const res = await h.svc.http.patch(`${PATH}/${otherType.id}`, { token: h.tokens.admin, body: { status: 'INACTIVE' } });
      expectErrorBody(res, 404);
      expect(res.body.message).toBe(`Group type ${otherType.id} not found`);
      expect((await list('', h.tokens.otherAdmin)).body.data.data[1].status).toBe('ACTIVE');
      expectErrorBody(await h.svc.http.patch(`${PATH}/${randomUUID()}`, { token: h.tokens.admin, body: { status: 'INACTIVE' } }), 404);
      for (const token of [h.tokens.auditor, h.tokens.manager]) expectErrorBody(await h.svc.http.patch(`${PATH}/${teams.id}`, { token, body: { status: 'INACTIVE' } }), 403);
    });
  });

  describe('DELETE /settings/v1/group-types/{id}', () => {
    it('409 for the default types and while groups use a type; 200 (soft) once they are gone; then 404', async () => {
      const types = (await list('?limit=100')).body.data.data;
      for (const name of ['Organizations', 'Locations', 'Departments']) {
        const res = await h.svc.http.delete(`${PATH}/${types.find((x: GroupTypeBody) => x.groupTypeName === name).id}`, { token: h.tokens.admin });
        expectErrorBody(res, 409);
        expect(res.body.message).toBe(`The group type "${name}" is a default type and cannot be deleted`);
      }
      const teams = types.find((x: GroupTypeBody) => x.groupTypeName === 'TEAMS');
      const used = await h.svc.http.delete(`${PATH}/${teams.id}`, { token: h.tokens.admin });
      expectErrorBody(used, 409);
      expect(used.body.message).toBe('The group type "TEAMS" is used by 1 group; delete or move them first');

      const [{ id: groupId }] = await h.db.query<{ id: string }>(`SELECT id FROM settings.groups WHERE tenant_group_type_id = $1`, [teams.id]);
      expect((await h.svc.http.patch(`/settings/v1/groups/${groupId}`, { token: h.tokens.admin, body: { isDeleted: true } })).status).toBe(200);

      for (const token of [h.tokens.auditor, h.tokens.manager]) expectErrorBody(await h.svc.http.delete(`${PATH}/${teams.id}`, { token }), 403);
      const res = await h.svc.http.delete(`${PATH}/${teams.id}`, { token: h.tokens.admin });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'Tenant group type deleted successfully' });
      expect(Object.keys(res.body.data).sort()).toEqual(GROUP_TYPE_FIELDS);
      expect(res.body.data).toMatchObject({ id: teams.id, isDeleted: true, updatedBy: adminId });
      const [row] = await h.db.query<{ deleted_on: Date; deleted_by: string }>(`SELECT deleted_on, deleted_by FROM settings.group_types WHERE id = $1`, [teams.id]);
      expect(row).toEqual({ deleted_on: expect.any(Date), deleted_by: adminId });
      expect((await events('evt.settings.group-type.deleted', h.demo.id)).at(-1)).toEqual({
        tenantId: h.demo.id,
        groupType: expect.objectContaining({ id: teams.id, isDeleted: true }),
      });
      expect((await list('?limit=100')).body.data.data.map((x: GroupTypeBody) => x.id)).not.toContain(teams.id);
      expectErrorBody(await h.svc.http.delete(`${PATH}/${teams.id}`, { token: h.tokens.admin }), 404);
      expectErrorBody(await h.svc.http.patch(`${PATH}/${teams.id}`, { token: h.tokens.admin, body: { status: 'ACTIVE' } }), 404);
      // The name is free again.
      expect((await create({ groupTypeName: 'Teams' })).status).toBe(200);
    });

    it('404 for another tenant’s type (it stays); 400 for a malformed id', async () => {
      const otherTeams = (await list('?limit=100', h.tokens.otherAdmin)).body.data.data.find((x: GroupTypeBody) => x.groupTypeName === 'Teams');
      expectErrorBody(await h.svc.http.delete(`${PATH}/${otherTeams.id}`, { token: h.tokens.admin }), 404);
      expect((await list('?limit=100', h.tokens.otherAdmin)).body.data.total).toBe(4);
      expectErrorBody(await h.svc.http.delete(`${PATH}/123`, { token: h.tokens.admin }), 400);
    });
  });
});
