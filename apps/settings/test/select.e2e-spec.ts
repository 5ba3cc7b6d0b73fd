import { expectErrorBody, startHarness } from '@ddm/testing';
import { settingsApp, SettingsHarness } from './fixtures/settings-app';

/**
 * `select` on every list of the settings area that returns records (the product's name; positions
 * had it first): only the named keys come back per item, an unknown name is a 400 whose
 * errors[].allowed lists every field of the item.
 */
const LISTS: { path: string; pick: string[]; some: string }[] = [
  { path: '/settings/v1/groups', pick: ['id', 'groupName', 'parentGroups'], some: 'childGroups' },
  { path: '/settings/v1/group-types', pick: ['id', 'groupTypeName'], some: 'isDefault' },
  { path: '/settings/v1/decision-roles', pick: ['id', 'roleName'], some: 'status' },
  { path: '/settings/v1/decision-sections', pick: ['id', 'sectionName'], some: 'tenantId' },
  { path: '/settings/v1/decision-categories', pick: ['id', 'categoryName'], some: 'tenantId' },
  { path: '/settings/v1/authority-types', pick: ['id', 'authorityType'], some: 'tenantId' },
  { path: '/settings/v1/document-types', pick: ['id', 'documentTypeName'], some: 'isDefault' },
  { path: '/settings/v1/action-templates', pick: ['id', 'name'], some: 'tenantId' },
  { path: '/settings/v1/document-versioning', pick: ['id', 'fieldName'], some: 'isDefault' },
  { path: '/settings/v1/positions', pick: ['id', 'positionName'], some: 'groups' },
];

describe('select on the settings lists (e2e, real Postgres and NATS)', () => {
  let h: SettingsHarness;
  const get = (path: string) => h.svc.http.get(path, { token: h.tokens.admin });

  beforeAll(async () => {
    h = await startHarness(settingsApp);
    const types = (await get('/settings/v1/group-types')).body.data.data;
    const post = (path: string, body: object) => h.svc.http.post(path, { token: h.tokens.admin, body });
    const parent = await post('/settings/v1/groups', { tenantGroupTypeId: types[0].id, groupName: 'Select Parent' });
    expect(parent.status).toBe(200);
    expect((await post('/settings/v1/groups', { tenantGroupTypeId: types[0].id, groupName: 'Select Child', parentGroupIds: [parent.body.data.id] })).status).toBe(200);
    expect((await post('/settings/v1/decision-roles', { roleName: 'Select Role' })).status).toBe(200);
    const section = await post('/settings/v1/decision-sections', { sectionName: 'Select Section' });
    expect(section.status).toBe(200);
    expect((await post('/settings/v1/decision-categories', { categoryName: 'Select Category', sectionId: section.body.data.id })).status).toBe(200);
    expect((await post('/settings/v1/positions', { positionName: 'Select Position' })).status).toBe(200);
  });
  afterAll(() => h?.close());

  it('GET /settings/v1/groups?select=... answers only those keys of each group, in the same order and page as without it', async () => {
    const full = await get('/settings/v1/groups?sortBy=groupName');
    const res = await get('/settings/v1/groups?sortBy=groupName&select=id,groupName,parentGroups');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ page: 1, limit: 10, total: full.body.data.total });
    expect(res.body.data.data).toEqual(full.body.data.data.map((g: Record<string, unknown>) => ({ id: g.id, groupName: g.groupName, parentGroups: g.parentGroups })));
    expect(res.body.data.data.find((g: { groupName: string }) => g.groupName === 'Select Child').parentGroups).toHaveLength(1);
    // Blanks around a name are dropped.
    expect((await get('/settings/v1/groups?sortBy=groupName&select=id,%20groupName%20,parentGroups')).body.data.data).toEqual(res.body.data.data);
  });

  it.each(LISTS)('$path takes select: only the named keys per item; an unknown name is a 400 listing every field', async ({ path, pick, some }) => {
    const res = await get(`${path}?select=${pick.join(',')}`);
    expect(res.status).toBe(200);
    expect(res.body.data.data.length).toBeGreaterThan(0);
    for (const item of res.body.data.data) expect(Object.keys(item).sort()).toEqual([...pick].sort());
    const bad = await get(`${path}?select=id,nope`);
    expectErrorBody(bad, 400);
    expect(bad.body.errors).toHaveLength(1);
    expect(bad.body.errors[0]).toMatchObject({ field: 'select' });
    expect(bad.body.errors[0].allowed).toEqual(expect.arrayContaining([...pick, some]));
  });
});
