import { readEvent } from '@ddm/contracts';
import { expectErrorBody, ISO, snapshotOf, startHarness, until } from '@ddm/testing';
import { settingsApp, SettingsHarness } from './fixtures/settings-app';

/** Every field of a decision role (spec §2.7). */
const DECISION_ROLE_FIELDS = ['id', 'isDeleted', 'roleName', 'status', 'tenantId'];
const PATH = '/settings/v1/decision-roles';

interface Role {
  id: string;
  tenantId: string;
  roleName: string;
  isDeleted: boolean;
  status: string;
}

describe('decision roles (e2e, real Postgres and NATS, auth as a child process)', () => {
  let h: SettingsHarness;
  const create = (body: object, token = h.tokens.admin) => h.svc.http.post(PATH, { token, body });
  const patch = (id: string, body: object, token = h.tokens.admin) => h.svc.http.patch(`${PATH}/${id}`, { token, body });
  const list = (query = '', token = h.tokens.admin) => h.svc.http.get(`${PATH}${query ? `?${query}` : ''}`, { token });
  const names = async (query: string) => {
    const res = await list(query);
    expect(res.status).toBe(200);
    return res.body.data.data.map((r: Role) => r.roleName);
  };
  const made = async (roleName: string, status = 'ACTIVE'): Promise<Role> => {
    const res = await create({ roleName, status });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const eventsOf = async (id: string) =>
    h.db.query<{ subject: string; payload: { tenantId: string; decisionRole: Record<string, unknown> } }>(
      `SELECT subject, payload FROM settings.outbox WHERE payload->'decisionRole'->>'id' = $1 ORDER BY created_at, id`,
      [id],
    );
  const adminId = () => h.demo.users.find((u) => u.email === 'admin@demo.test')!.id;

  beforeAll(async () => {
    h = await startHarness(settingsApp);
  });
  afterAll(() => h?.close());

  describe('GET /settings/v1/decision-roles', () => {
    const created: Role[] = [];
    beforeAll(async () => {
      // Demo Co starts with no decision roles (the harness seeds auth only).
      for (const [name, status] of [
        ['approver', 'ACTIVE'],
        ['Board Member', 'INACTIVE'],
        ['Controller', 'ACTIVE'],
        ['50% Signer', 'ACTIVE'],
        ['Signer 500', 'ACTIVE'],
        ['Reviewer', 'INACTIVE'],
      ]) {
        created.push(await made(name, status));
      }
      expect((await create({ roleName: 'Approver' }, h.tokens.otherAdmin)).status).toBe(200);
    });

    it('answers the paged envelope, sorted by role name (case-insensitive), every field of §2.7', async () => {
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'Decision roles list retrieved successfully', timestamp: expect.stringMatching(ISO) });
      expect(Object.keys(res.body.data).sort()).toEqual(['data', 'limit', 'page', 'total']);
      expect(res.body.data).toMatchObject({ page: 1, limit: 10, total: 6 });
      expect(res.body.data.data.map((r: Role) => r.roleName)).toEqual(['50% Signer', 'approver', 'Board Member', 'Controller', 'Reviewer', 'Signer 500']);
      for (const role of res.body.data.data) expect(Object.keys(role).sort()).toEqual(DECISION_ROLE_FIELDS);
      expect(res.body.data.data[2]).toEqual({ id: created[1].id, tenantId: h.demo.id, roleName: 'Board Member', isDeleted: false, status: 'INACTIVE' });
    });

    it('pages: limit and page, total of all matches; a page past the end is empty with the total', async () => {
      const res = await list('limit=2&page=2');
      expect(res.body.data).toMatchObject({ page: 2, limit: 2, total: 6 });
      expect(res.body.data.data.map((r: Role) => r.roleName)).toEqual(['Board Member', 'Controller']);
      const past = await list('limit=2&page=4');
      expect(past.body.data).toEqual({ page: 4, limit: 2, total: 6, data: [] });
    });

    it('search narrows by role name, case-insensitively, wildcards taken literally', async () => {
      expect(await names('search=SIGN')).toEqual(['50% Signer', 'Signer 500']);
      expect(await names(`search=${encodeURIComponent('50%')}`)).toEqual(['50% Signer']);
      expect(await names('search=_')).toEqual([]);
      expect((await list('search=board')).body.data.total).toBe(1);
    });

    it('status (comma list) narrows', async () => {
      expect(await names('status=INACTIVE')).toEqual(['Board Member', 'Reviewer']);
      expect(await names('status=ACTIVE')).toEqual(['50% Signer', 'approver', 'Controller', 'Signer 500']);
      expect((await list('status=ACTIVE,INACTIVE')).body.data.total).toBe(6);
      expect(await names('status=ACTIVE&search=sign&limit=1&page=2')).toEqual(['Signer 500']);
    });

    it('sorts by roleName, createdOn and updatedOn, both ways', async () => {
      expect(await names('sortBy=roleName&sortOrder=desc')).toEqual(['Signer 500', 'Reviewer', 'Controller', 'Board Member', 'approver', '50% Signer']);
      expect(await names('sortBy=createdOn')).toEqual(created.map((r) => r.roleName));
      expect(await names('sortBy=createdOn&sortOrder=desc')).toEqual(created.map((r) => r.roleName).reverse());
      expect((await patch(created[0].id, { status: 'ACTIVE' })).status).toBe(200);
      expect((await names('sortBy=updatedOn&sortOrder=desc'))[0]).toBe('approver');
    });

    it('keeps tenants apart: Other Co sees its own role only; naming Demo Co is a 403 for its admin', async () => {
      const res = await list('', h.tokens.otherAdmin);
      expect(res.body.data.total).toBe(1);
      expect(res.body.data.data[0]).toMatchObject({ tenantId: h.other.id, roleName: 'Approver' });
      expectErrorBody(await list(`tenantId=${h.demo.id}`, h.tokens.otherAdmin), 403);
      expect((await list(`tenantId=${h.demo.id}`)).body.data.total).toBe(6);
    });

    it('reading needs membership only: the auditor, the manager and a plain user may list', async () => {
      for (const token of [h.tokens.auditor, h.tokens.manager, h.tokens.user]) expect((await list('', token)).body.data.total).toBe(6);
      expectErrorBody(await h.svc.http.get(PATH), 401);
    });

    it('400 for limit 101, page 0, an unknown status or sort, an unknown parameter, a malformed tenantId', async () => {
      for (const [query, field] of [
        ['limit=101', 'limit'],
        ['page=0', 'page'],
        ['status=FOO', 'status'],
        ['status=ACTIVE,FOO', 'status'],
        ['sortBy=status', 'sortBy'],
        ['sortOrder=up', 'sortOrder'],
        ['isActive=true', 'isActive'],
        ['tenantId=demo', 'tenantId'],
      ]) {
        const res = await list(query);
        expectErrorBody(res, 400);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
    });
  });

  describe('POST /settings/v1/decision-roles', () => {
    it('creates a role: 200 with exactly the fields of §2.7, ACTIVE unless told, and publishes evt.settings.decision-role.created', async () => {
      const res = await create({ tenantId: h.demo.id, roleName: '  Treasurer ' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'Decision role created successfully', timestamp: expect.stringMatching(ISO) });
      expect(Object.keys(res.body.data).sort()).toEqual(DECISION_ROLE_FIELDS);
      expect(res.body.data).toEqual({ id: expect.any(String), tenantId: h.demo.id, roleName: 'Treasurer', isDeleted: false, status: 'ACTIVE' });
      expect(res.body.data.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
      const [row] = await h.db.query<{ created_by: string }>(`SELECT created_by FROM settings.decision_roles WHERE id = $1`, [res.body.data.id]);
      expect(row.created_by).toBe(adminId());
      expect(await eventsOf(res.body.data.id)).toEqual([
        {
          subject: 'evt.settings.decision-role.created',
          payload: { tenantId: h.demo.id, decisionRole: { id: res.body.data.id, roleName: 'Treasurer', status: 'ACTIVE', isDeleted: false } },
        },
      ]);
      expect((await create({ roleName: 'Dormant', status: 'INACTIVE' })).body.data).toMatchObject({ roleName: 'Dormant', status: 'INACTIVE' });
    });

    it('409 for a name the tenant already has, in any case; nothing is published', async () => {
      const before = await h.db.query<{ n: string }>(`SELECT count(*) AS n FROM settings.outbox`);
      const res = await create({ roleName: 'TREASURER' });
      expectErrorBody(res, 409);
      expect(res.body.message).toBe('A decision role named "TREASURER" already exists in this tenant');
      const after = await h.db.query<{ n: string }>(`SELECT count(*) AS n FROM settings.outbox`);
      expect(after[0].n).toBe(before[0].n);
    });

    it('two concurrent creates of one name: exactly one 200, the other the same 409 as the check (the unique index catches the race)', async () => {
      const results = await Promise.all([create({ roleName: 'Race Winner' }), create({ roleName: 'race winner' })]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const lost = results.find((r) => r.status === 409)!;
      expectErrorBody(lost, 409);
      expect(lost.body.message).toMatch(/^A decision role named "(Race Winner|race winner)" already exists in this tenant$/);
      expect((await h.db.query(`SELECT 1 FROM settings.decision_roles WHERE lower(role_name) = 'race winner'`)).length).toBe(1);
    });

    it('400 listing the bad fields: roleName of 51 characters, missing or blank, status FOO, unknown field, malformed tenantId', async () => {
      const long = await create({ roleName: 'x'.repeat(51), status: 'FOO', isDeleted: false });
      expectErrorBody(long, 400);
      expect([...new Set(long.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual(['isDeleted', 'roleName', 'status']);
      expect((await create({ roleName: 'x'.repeat(50) })).status).toBe(200);
      for (const body of [{}, { roleName: '   ' }, { roleName: 7 }, { roleName: 'A', status: null }]) expectErrorBody(await create(body), 400);
      const tenant = await create({ roleName: 'A', tenantId: 'demo' });
      expectErrorBody(tenant, 400);
      expect(tenant.body.errors).toEqual([{ field: 'tenantId', message: 'must be a UUID' }]);
    });

    it('403 for the auditor and the manager (no manage:settings), and in a tenant the caller is not a member of', async () => {
      for (const token of [h.tokens.auditor, h.tokens.manager, h.tokens.user]) {
        const res = await create({ roleName: 'Not allowed' }, token);
        expectErrorBody(res, 403);
        expect(res.body.message).toBe('Missing permission "manage:settings"');
      }
      expectErrorBody(await create({ tenantId: h.other.id, roleName: 'Not allowed' }), 403);
      expect((await h.db.query(`SELECT 1 FROM settings.decision_roles WHERE role_name = 'Not allowed'`)).length).toBe(0);
    });
  });

  it("serves every tenant's roles, deleted ones too, in id order, as the updated event carries them (sync.settings.decision-roles: a projection's backfill)", async () => {
    const kept = await made('Snapshot reviewer');
    const gone = await made('Snapshot gone');
    expect((await patch(gone.id, { isDeleted: true })).status).toBe(200);
    const { items } = await snapshotOf<{ tenantId: string; decisionRole: { id: string; roleName: string; isDeleted: boolean } }>(h.svc, 'settings.decision-roles');
    const [{ n }] = await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM settings.decision_roles`);
    expect(items).toHaveLength(n);
    expect(new Set(items.map((i) => i.tenantId))).toEqual(new Set([h.demo.id, h.other.id]));
    expect(items.map((i) => i.decisionRole.id)).toEqual(items.map((i) => i.decisionRole.id).sort());
    for (const item of items) expect(readEvent('evt.settings.decision-role.updated', item).problems).toEqual([]);
    const byId = new Map(items.map((i) => [i.decisionRole.id, i]));
    expect(byId.get(kept.id)).toEqual({ tenantId: h.demo.id, decisionRole: { id: kept.id, roleName: 'Snapshot reviewer', status: 'ACTIVE', isDeleted: false } });
    expect(byId.get(gone.id)).toMatchObject({ tenantId: h.demo.id, decisionRole: { isDeleted: true } });
  });

  describe('PATCH /settings/v1/decision-roles/{id}', () => {
    it('renames and changes the status: 200, the role, evt.settings.decision-role.updated', async () => {
      const role = await made('Signatory');
      const res = await patch(role.id, { roleName: 'Authorised Signatory', status: 'INACTIVE' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'Decision role updated successfully' });
      expect(res.body.data).toEqual({ id: role.id, tenantId: h.demo.id, roleName: 'Authorised Signatory', isDeleted: false, status: 'INACTIVE' });
      const [row] = await h.db.query<{ updated_by: string; updated_on: Date; created_on: Date }>(
        `SELECT updated_by, updated_on, created_on FROM settings.decision_roles WHERE id = $1`,
        [role.id],
      );
      expect(row.updated_by).toBe(adminId());
      expect(row.updated_on.getTime()).toBeGreaterThan(row.created_on.getTime());
      const events = await eventsOf(role.id);
      expect(events.map((e) => e.subject)).toEqual(['evt.settings.decision-role.created', 'evt.settings.decision-role.updated']);
      expect(events[1].payload).toEqual({ tenantId: h.demo.id, decisionRole: { id: role.id, roleName: 'Authorised Signatory', status: 'INACTIVE', isDeleted: false } });
      // Its own name in another case is no conflict; isDeleted "false" (a string) is accepted and deletes nothing.
      expect((await patch(role.id, { roleName: 'AUTHORISED SIGNATORY', isDeleted: 'false' })).body.data).toMatchObject({ roleName: 'AUTHORISED SIGNATORY', isDeleted: false });
      expect((await patch(role.id, { status: 'ACTIVE' })).body.data.status).toBe('ACTIVE');
    });

    it('isDeleted true deletes softly: 200 with isDeleted, deleted event, gone from the list, then 404; the name is free again', async () => {
      const role = await made('Temporary');
      const res = await patch(role.id, { isDeleted: 'true' });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ id: role.id, tenantId: h.demo.id, roleName: 'Temporary', isDeleted: true, status: 'ACTIVE' });
      const [row] = await h.db.query<{ is_deleted: boolean; deleted_on: Date | null; deleted_by: string | null }>(
        `SELECT is_deleted, deleted_on, deleted_by FROM settings.decision_roles WHERE id = $1`,
        [role.id],
      );
      expect(row).toMatchObject({ is_deleted: true, deleted_on: expect.any(Date), deleted_by: adminId() });
      const events = await eventsOf(role.id);
      expect(events.at(-1)).toEqual({
        subject: 'evt.settings.decision-role.deleted',
        payload: { tenantId: h.demo.id, decisionRole: { id: role.id, roleName: 'Temporary', status: 'ACTIVE', isDeleted: true } },
      });
      expect(await names('search=temporary')).toEqual([]);
      const again = await patch(role.id, { isDeleted: false, status: 'ACTIVE' });
      expectErrorBody(again, 404);
      expect(again.body.message).toBe(`Decision role ${role.id} not found`);
      expectErrorBody(await patch(role.id, { roleName: 'Back' }), 404);
      expect((await eventsOf(role.id)).length).toBe(2);
      const reborn = await made('temporary');
      expect(reborn.id).not.toBe(role.id);
      expect(await names('search=temporary')).toEqual(['temporary']);
    });

    it('409 onto a name another live role has; 400 for an empty change, a long name, status FOO, an unknown field, a malformed id', async () => {
      const role = await made('Delegate');
      const taken = await patch(role.id, { roleName: 'controller' });
      expectErrorBody(taken, 409);
      expect(taken.body.message).toBe('A decision role named "controller" already exists in this tenant');
      const empty = await patch(role.id, {});
      expectErrorBody(empty, 400);
      expect(empty.body.message).toBe('Nothing to change: send at least one of roleName, status, isDeleted');
      const notDeleting = await patch(role.id, { isDeleted: false });
      expectErrorBody(notDeleting, 400);
      expect(notDeleting.body.message).toBe('Nothing to change: send at least one of roleName, status, isDeleted');
      expect((await eventsOf(role.id)).length).toBe(1);
      const bad = await patch(role.id, { roleName: 'y'.repeat(51), status: 'FOO', isDeleted: 'maybe', description: 'x' });
      expectErrorBody(bad, 400);
      expect([...new Set(bad.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual(['description', 'isDeleted', 'roleName', 'status']);
      const malformed = await patch('12', { roleName: 'X' });
      expectErrorBody(malformed, 400);
      expect(malformed.body.errors).toEqual([{ field: 'id', message: 'must be a UUID' }]);
      expect((await list('search=delegate')).body.data.data).toEqual([role]);
    });

    it("404 for Other Co's role (its id, named from Demo Co); it stays unchanged", async () => {
      const foreign = (await list('', h.tokens.otherAdmin)).body.data.data[0] as Role;
      const res = await patch(foreign.id, { roleName: 'Mine now' });
      expectErrorBody(res, 404);
      expectErrorBody(await patch(foreign.id, { isDeleted: true }), 404);
      expect((await list('', h.tokens.otherAdmin)).body.data.data[0]).toEqual(foreign);
    });

    it('403 for the auditor and the manager; the role is unchanged', async () => {
      const role = await made('Custodian');
      for (const token of [h.tokens.auditor, h.tokens.manager]) {
        const res = await patch(role.id, { isDeleted: true }, token);
        expectErrorBody(res, 403);
        expect(res.body.message).toBe('Missing permission "manage:settings"');
      }
      expect((await list('search=custodian')).body.data.data).toEqual([role]);
      expect((await eventsOf(role.id)).map((e) => e.subject)).toEqual(['evt.settings.decision-role.created']);
    });

    it('the outbox relay publishes the events (rows get published_at)', async () => {
      const role = await made('Relayed');
      const published = await until(async () => {
        const [row] = await h.db.query<{ published_at: Date | null }>(`SELECT published_at FROM settings.outbox WHERE payload->'decisionRole'->>'id' = $1`, [role.id]);
        return row?.published_at;
      }, 'the relay to publish the event');
      expect(published).toBeTruthy();
    });
  });
});
