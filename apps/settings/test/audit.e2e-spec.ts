import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { expectErrorBody, startHarness } from '@ddm/testing';
import { settingsApp, SettingsHarness } from './fixtures/settings-app';

const P = '/settings/v1/positions';
const AUDIT = '/settings/v1/audit';

/**
 * The audit trail through HTTP (libs/platform/src/audit.ts, audit.controller.ts): a change made by
 * a request is in GET /settings/v1/audit with the caller as actor and the request's id, the changed
 * fields before and after; readable with view:audit only, and only the caller's tenant's entries.
 * Every schema's triggers and the append-only grant: tools/audit-trail.e2e-spec.ts.
 */
describe('audit trail over HTTP (e2e, settings with auth as a child process)', () => {
  let h: SettingsHarness;

  beforeAll(async () => {
    h = await startHarness(settingsApp);
  });
  afterAll(async () => {
    await h?.close();
  });

  const adminId = () => h.demo.users.find((u) => u.email === 'admin@demo.test')!.id;

  it('a creation and an update by requests leave entries with the actor, the request id and the fields before and after', async () => {
    const createdBy = `req-${randomUUID()}`;
    const created = await h.svc.http.post(P, { token: h.tokens.admin, body: { positionName: 'Audited Desk' }, headers: { 'x-request-id': createdBy } });
    expect(created.status).toBe(200);
    const id = created.body.data.id;
    const updatedBy = `req-${randomUUID()}`;
    const updated = await h.svc.http.patch(`${P}/${id}`, { token: h.tokens.admin, body: { positionName: 'Audited Desk 2' }, headers: { 'x-request-id': updatedBy } });
    expect(updated.status).toBe(200);

    const res = await h.svc.http.get(`${AUDIT}?entityType=positions&entityId=${id}&sortOrder=asc`, { token: h.tokens.auditor });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Audit trail retrieved successfully');
    const [create, update, ...rest] = res.body.data.data;
    expect(rest).toEqual([]);
    expect(res.body.data.total).toBe(2);
    expect(create).toMatchObject({ tenantId: h.demo.id, entityType: 'positions', entityId: id, action: 'CREATE', actorId: adminId(), requestId: createdBy });
    expect(create.changes).toEqual(expect.arrayContaining([{ field: 'position_name', from: null, to: 'Audited Desk' }]));
    // Values with their JSON types (the trail keeps their text form and types them by the column when read).
    expect(create.changes).toContainEqual({ field: 'is_deleted', from: null, to: false });
    expect(create.changes.find((c: { field: string }) => c.field === 'created_on').to).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/);
    expect(update).toMatchObject({ action: 'UPDATE', actorId: adminId(), requestId: updatedBy });
    expect(update.changes).toEqual(expect.arrayContaining([{ field: 'position_name', from: 'Audited Desk', to: 'Audited Desk 2' }]));
    expect(update.changes.map((c: { field: string }) => c.field)).not.toContain('tenant_id');
    expect(Date.parse(update.changedAt)).toBeGreaterThanOrEqual(Date.parse(create.changedAt));
  });

  it('a column a migration adds while the service runs is typed in the entries once one names it; dropped again, the entry still reads', async () => {
    const created = await h.svc.http.post(P, { token: h.tokens.admin, body: { positionName: 'Typed Later Desk' } });
    expect(created.status).toBe(200);
    const id = created.body.data.id;
    const trail = async () => {
      const res = await h.svc.http.get(`${AUDIT}?entityType=positions&entityId=${id}&sortOrder=asc`, { token: h.tokens.auditor });
      expect(res.status).toBe(200);
      return res.body.data.data as { action: string; changes: { field: string; from: unknown; to: unknown }[] }[];
    };
    // The positions' column types are read (and kept) by this first read.
    expect((await trail()).map((e) => e.action)).toEqual(['CREATE']);
    // As a migration would (the migrations' connection: the owner, past the app role's grants).
    const superuser = new Client({ connectionString: h.env.MIGRATION_DATABASE_URL });
    await superuser.connect();
    try {
      await superuser.query(`ALTER TABLE settings.positions ADD COLUMN probe_rank integer`);
      await superuser.query(`UPDATE settings.positions SET probe_rank = 7 WHERE id = $1`, [id]);
      const update = (await trail()).find((e) => e.action === 'UPDATE')!;
      expect(update.changes).toEqual([{ field: 'probe_rank', from: null, to: 7 }]);
      await superuser.query(`ALTER TABLE settings.positions DROP COLUMN probe_rank`);
    } finally {
      await superuser.end();
    }
    // Gone from the table, the entry still reads, its value as stored (typed as the column was, while this process knows it).
    for (let i = 0; i < 2; i++) {
      const [change] = (await trail()).find((e) => e.action === 'UPDATE')!.changes;
      expect({ ...change, to: String(change.to) }).toEqual({ field: 'probe_rank', from: null, to: '7' });
    }
  });

  it('filters by entity type, actor and date range; newest first by default; pages', async () => {
    const all = await h.svc.http.get(`${AUDIT}?actorId=${adminId()}`, { token: h.tokens.admin });
    expect(all.status).toBe(200);
    const entries = all.body.data.data as { changedAt: string; actorId: string; id: string }[];
    expect(entries.length).toBeGreaterThanOrEqual(2);
    expect(entries.every((e) => e.actorId === adminId())).toBe(true);
    expect(Number(entries[0].id)).toBeGreaterThan(Number(entries[entries.length - 1].id));
    const future = await h.svc.http.get(`${AUDIT}?startDate=2999-01-01T00:00:00.000Z`, { token: h.tokens.admin });
    expect(future.body.data).toMatchObject({ total: 0, data: [] });
    const none = await h.svc.http.get(`${AUDIT}?entityType=groups`, { token: h.tokens.admin });
    expect(none.body.data.data.every((e: { entityType: string }) => e.entityType === 'groups')).toBe(true);
    const paged = await h.svc.http.get(`${AUDIT}?limit=1&page=2`, { token: h.tokens.admin });
    expect(paged.body.data).toMatchObject({ page: 2, limit: 1 });
  });

  it('needs view:audit (a user and a manager get 403); another tenant sees none of these entries; bad filters are a 400', async () => {
    expectErrorBody(await h.svc.http.get(AUDIT, { token: h.tokens.user }), 403);
    expectErrorBody(await h.svc.http.get(AUDIT, { token: h.tokens.manager }), 403);
    const other = await h.svc.http.get(`${AUDIT}?actorId=${adminId()}`, { token: h.tokens.otherAdmin });
    expect(other.status).toBe(200);
    expect(other.body.data.total).toBe(0);
    const bad = await h.svc.http.get(`${AUDIT}?actorId=nope&entityType=Robert'); DROP&startDate=yesterday&limit=1000`, { token: h.tokens.admin });
    expectErrorBody(bad, 400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['actorId', 'entityType', 'limit', 'startDate']);
  });
});
