import { randomUUID } from 'node:crypto';
import { expectErrorBody, ISO, startHarness } from '@ddm/testing';
import { settingsApp, SettingsHarness } from './fixtures/settings-app';

const PATH = '/settings/v1/groups';
const GROUP_FIELDS = [
  'address',
  'baseCurrency',
  'childGroups',
  'createdOn',
  'decisionsCount',
  'delegationsCount',
  'disableOption',
  'displayName',
  'externalId',
  'groupId',
  'groupName',
  'id',
  'instanceId',
  'isDeleted',
  'isSynced',
  'legalName',
  'parentGroups',
  'status',
  'tenantGroupType',
  'tenantId',
  'updatedOn',
];
const TYPE_FIELDS = ['disableOption', 'groupTypeName', 'id', 'isDefault', 'shouldAllowEnableDisable'];
const ADDRESS_FIELDS = ['city', 'country', 'countryCode', 'createdOn', 'groupId', 'id', 'state', 'stateCode', 'street1', 'street2', 'updatedOn', 'zipCode'];
const PARENT_LINK_FIELDS = ['createdAt', 'id', 'parentGroup', 'parentId'];
const PARENT_GROUP_FIELDS = ['displayName', 'groupId', 'groupName', 'id', 'legalName', 'status', 'tenantGroupType', 'tenantId'];
const CHILD_FIELDS = ['displayName', 'groupId', 'groupName', 'id', 'status', 'tenantGroupType'];
const ADDRESS = { street1: '1 Main Street', street2: 'Suite 100', city: 'New York', state: 'New York', stateCode: 'NY', zipCode: '10001', country: 'United States', countryCode: 'US' };

type Group = Record<string, any>;

describe('groups (e2e, real Postgres and NATS)', () => {
  let h: SettingsHarness;
  const types: Record<string, { id: string; groupTypeName: string }> = {};
  let otherOrg: string;

  const create = (body: object, token = h.tokens.admin) => h.svc.http.post(PATH, { token, body });
  const patch = (id: string, body: object, token = h.tokens.admin) => h.svc.http.patch(`${PATH}/${id}`, { token, body });
  const get = (id: string, token = h.tokens.admin) => h.svc.http.get(`${PATH}/${id}`, { token });
  const list = (query = '', token = h.tokens.admin) => h.svc.http.get(`${PATH}${query}`, { token });
  const ids = (res: { body: { data: { data: Group[] } } }) => res.body.data.data.map((g) => g.id);
  const make = async (groupName: string, extra: object = {}): Promise<Group> => {
    const res = await create({ tenantGroupTypeId: types.Departments.id, groupName, ...extra });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const events = async (subject: string, groupId: string) =>
    (await h.db.query<{ payload: { tenantId: string; group: Group } }>(
      `SELECT payload FROM settings.outbox WHERE subject = $1 AND payload->'group'->>'id' = $2 ORDER BY created_at, id`,
      [subject, groupId],
    )).map((r) => r.payload);

  beforeAll(async () => {
    h = await startHarness(settingsApp);
    for (const t of (await h.svc.http.get('/settings/v1/group-types', { token: h.tokens.admin })).body.data.data) types[t.groupTypeName] = t;
    otherOrg = (await h.svc.http.get('/settings/v1/group-types', { token: h.tokens.otherAdmin })).body.data.data[0].id;
  });
  afterAll(() => h?.close());

  describe('POST /settings/v1/groups', () => {
    it('creates a group with every field of §2.5, its type, address and parents embedded; the created event is written', async () => {
      const parent = await create({ tenantGroupTypeId: types.Organizations.id, groupName: 'Acme Holdings', displayName: 'Acme', legalName: 'Acme Holdings LLC' });
      expect(parent.status).toBe(200);
      const res = await create({
        tenantId: h.demo.id,
        tenantGroupTypeId: types.Organizations.id,
        baseCurrency: 'USD',
        groupName: 'Engineering Team',
        displayName: 'Engineering Department',
        status: 'ACTIVE',
        parentGroupIds: [parent.body.data.id],
        isSynced: true,
        legalName: 'Engineering Department LLC',
        externalId: 'EXT-GROUP-12345',
        instanceId: 'c6781d17-e64d-4493-b94e-07156a5eb374',
        address: ADDRESS,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'Group created successfully', timestamp: expect.stringMatching(ISO) });
      const g = res.body.data;
      expect(Object.keys(g).sort()).toEqual(GROUP_FIELDS);
      expect(g).toEqual({
        id: expect.any(String),
        tenantId: h.demo.id,
        groupId: expect.stringMatching(/^[A-Z0-9]{6}$/),
        groupName: 'Engineering Team',
        displayName: 'Engineering Department',
        legalName: 'Engineering Department LLC',
        status: 'ACTIVE',
        createdOn: expect.stringMatching(ISO),
        updatedOn: expect.stringMatching(ISO),
        isSynced: true,
        isDeleted: false,
        disableOption: 'NA',
        baseCurrency: 'USD',
        externalId: 'EXT-GROUP-12345',
        instanceId: 'c6781d17-e64d-4493-b94e-07156a5eb374',
        decisionsCount: 0,
        delegationsCount: 0,
        tenantGroupType: { id: types.Organizations.id, groupTypeName: 'Organizations', shouldAllowEnableDisable: false, isDefault: true, disableOption: 'NA' },
        address: { id: expect.any(String), groupId: g.id, ...ADDRESS, createdOn: expect.stringMatching(ISO), updatedOn: expect.stringMatching(ISO) },
        parentGroups: [
          {
            id: expect.any(String),
            parentId: parent.body.data.id,
            createdAt: expect.stringMatching(ISO),
            parentGroup: {
              id: parent.body.data.id,
              tenantId: h.demo.id,
              groupId: parent.body.data.groupId,
              groupName: 'Acme Holdings',
              displayName: 'Acme',
              legalName: 'Acme Holdings LLC',
              status: 'ACTIVE',
              tenantGroupType: { id: types.Organizations.id, groupTypeName: 'Organizations' },
            },
          },
        ],
        childGroups: [],
      });
      expect(Object.keys(g.tenantGroupType).sort()).toEqual(TYPE_FIELDS);
      expect(Object.keys(g.address).sort()).toEqual(ADDRESS_FIELDS);
      expect(Object.keys(g.parentGroups[0]).sort()).toEqual(PARENT_LINK_FIELDS);
      expect(Object.keys(g.parentGroups[0].parentGroup).sort()).toEqual(PARENT_GROUP_FIELDS);

      const [event] = await events('evt.settings.group.created', g.id);
      expect(event).toEqual({
        tenantId: h.demo.id,
        group: {
          id: g.id,
          groupId: g.groupId,
          groupName: 'Engineering Team',
          displayName: 'Engineering Department',
          tenantGroupTypeId: types.Organizations.id,
          tenantGroupTypeName: 'Organizations',
          status: 'ACTIVE',
          isDeleted: false,
          externalId: 'EXT-GROUP-12345',
          instanceId: 'c6781d17-e64d-4493-b94e-07156a5eb374',
          legalName: 'Engineering Department LLC',
          baseCurrency: 'USD',
          parentGroupIds: [parent.body.data.id],
        },
      });
      // The parent now lists it as a child; get answers the same group.
      const parentNow = (await get(parent.body.data.id)).body.data;
      expect(parentNow.childGroups).toEqual([
        { id: g.id, groupId: g.groupId, groupName: 'Engineering Team', displayName: 'Engineering Department', status: 'ACTIVE', tenantGroupType: { id: types.Organizations.id, groupTypeName: 'Organizations' } },
      ]);
      expect(Object.keys(parentNow.childGroups[0]).sort()).toEqual(CHILD_FIELDS);
      const fetched = await get(g.id, h.tokens.auditor);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toMatchObject({ statusCode: 200, message: 'Group details retrieved successfully' });
      expect(fetched.body.data).toEqual(g);
    });

    it('defaults: ACTIVE, not synced, no address, no parents, baseCurrency ""; each group gets its own code', async () => {
      const a = await make('  Finance ');
      const b = await make('Finance West');
      expect(a).toMatchObject({ groupName: 'Finance', status: 'ACTIVE', isSynced: false, displayName: null, legalName: null, externalId: null, instanceId: null, baseCurrency: '', address: null, parentGroups: [], childGroups: [] });
      expect(a.groupId).not.toBe(b.groupId);
      expect((await make('Dormant', { status: 'INACTIVE', isSynced: 'true' })).status).toBe('INACTIVE');
    });

    it('400 for bad input: required fields, lengths, currency, status, uuids, unknown fields', async () => {
      const res = await create({
        groupName: 'x'.repeat(101),
        displayName: 'x'.repeat(101),
        baseCurrency: 'usd',
        status: 'ARCHIVED',
        parentGroupIds: ['nope'],
        address: { planet: 'Mars' },
        color: 'blue',
      });
      expectErrorBody(res, 400);
      expect([...new Set(res.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual(
        ['address.planet', 'baseCurrency', 'color', 'displayName', 'groupName', 'parentGroupIds', 'status', 'tenantGroupTypeId'].sort(),
      );
      expectErrorBody(await create({ tenantGroupTypeId: types.Departments.id, groupName: 'x', parentGroupIds: Array.from({ length: 51 }, () => randomUUID()) }), 400);
      expectErrorBody(await create({ tenantGroupTypeId: types.Departments.id, groupName: '   ' }), 400);
    });

    it('400 for an address on a type without addresses', async () => {
      const res = await create({ tenantGroupTypeId: types.Departments.id, groupName: 'Addressed', address: { city: 'Paris' } });
      expectErrorBody(res, 400);
      expect(res.body.errors).toEqual([{ field: 'address', message: 'the group type does not allow an address (addressEnabled is false)' }]);
    });

    it('404 for an unknown type, another tenant’s type, unknown or other tenant’s parents (naming them); 409 for an inactive type', async () => {
      const unknownType = randomUUID();
      const res = await create({ tenantGroupTypeId: unknownType, groupName: 'X' });
      expectErrorBody(res, 404);
      expect(res.body.message).toBe(`Group type ${unknownType} not found`);
      expectErrorBody(await create({ tenantGroupTypeId: otherOrg, groupName: 'X' }), 404);
      const otherGroup = (await create({ tenantGroupTypeId: otherOrg, groupName: 'Other Root' }, h.tokens.otherAdmin)).body.data;
      const known = await make('Known Parent');
      const missing = randomUUID();
      const parents = await create({ tenantGroupTypeId: types.Departments.id, groupName: 'X', parentGroupIds: [known.id, otherGroup.id, missing] });
      expectErrorBody(parents, 404);
      expect(parents.body.message).toBe(`Parent groups not found: ${otherGroup.id}, ${missing}`);
      expect(parents.body.errors).toEqual([
        { field: 'parentGroupIds.1', message: `Parent group ${otherGroup.id} not found` },
        { field: 'parentGroupIds.2', message: `Parent group ${missing} not found` },
      ]);
      expect((await h.db.query(`SELECT 1 FROM settings.groups WHERE group_name = 'X'`)).length).toBe(0);

      await h.svc.http.patch(`/settings/v1/group-types/${types.Locations.id}`, { token: h.tokens.admin, body: { status: 'INACTIVE' } });
      const inactive = await create({ tenantGroupTypeId: types.Locations.id, groupName: 'Paris' });
      expectErrorBody(inactive, 409);
      expect(inactive.body.message).toBe('The group type "Locations" is not active');
      await h.svc.http.patch(`/settings/v1/group-types/${types.Locations.id}`, { token: h.tokens.admin, body: { status: 'ACTIVE' } });
    });

    it('403 for the auditor and the manager, and in a tenant the caller is not a member of', async () => {
      for (const token of [h.tokens.auditor, h.tokens.manager]) expectErrorBody(await create({ tenantGroupTypeId: types.Departments.id, groupName: 'Nope' }, token), 403);
      expectErrorBody(await create({ tenantId: h.other.id, tenantGroupTypeId: otherOrg, groupName: 'Nope' }), 403);
    });
  });

  describe('GET /settings/v1/groups/{id}', () => {
    it('404 for another tenant’s group and an unknown id; 400 for a malformed id', async () => {
      const otherGroup = (await list('', h.tokens.otherAdmin)).body.data.data[0];
      const res = await get(otherGroup.id);
      expectErrorBody(res, 404);
      expect(res.body.message).toBe(`Group ${otherGroup.id} not found`);
      expectErrorBody(await get(randomUUID()), 404);
      expectErrorBody(await get('abc'), 400);
    });

    it('counts the delegations that name the group and are not revoked, and their distinct decisions', async () => {
      const g = await make('Counted');
      const other = await make('Other Counted');
      const [d1, d2] = [randomUUID(), randomUUID()];
      const row = (decisionId: string, groupIds: string[], revoked = false, tenantId = h.demo.id) =>
        h.db.query(
          `INSERT INTO settings.delegation_projection (delegation_id, tenant_id, decision_id, issuer_type, recipient_type, group_ids, revoked_on)
           VALUES ($1, $2, $3, 'ROOT_AUTHORITY', 'POSITION_ONLY', $4::uuid[], $5)`,
          [randomUUID(), tenantId, decisionId, groupIds, revoked ? new Date() : null],
        );
      await row(d1, [g.id]);
      await row(d1, [g.id, other.id]);
      await row(d2, [g.id]);
      await row(d2, [g.id], true);
      await row(randomUUID(), [other.id]);
      const got = (await get(g.id)).body.data;
      expect([got.decisionsCount, got.delegationsCount]).toEqual([2, 3]);
      const listed = (await list('?search=Counted&sortBy=groupName')).body.data.data;
      expect(listed.map((x: Group) => [x.groupName, x.decisionsCount, x.delegationsCount])).toEqual([
        ['Counted', 2, 3],
        ['Other Counted', 2, 2],
      ]);
    });
  });

  describe('GET /settings/v1/groups', () => {
    let root: Group, mid: Group, leaf: Group, loc: Group;
    beforeAll(async () => {
      root = (await create({ tenantGroupTypeId: types.Organizations.id, groupName: 'Zeta Corp', displayName: 'Zeta' })).body.data;
      mid = await make('Mid 100%', { parentGroupIds: [root.id], displayName: 'Middle_Layer' });
      leaf = await make('Leaf', { parentGroupIds: [mid.id], status: 'INACTIVE', isSynced: true });
      loc = (await create({ tenantGroupTypeId: types.Locations.id, groupName: 'Berlin', parentGroupIds: [root.id] })).body.data;
    });

    it('answers the paged envelope with every field; items carry their direct children', async () => {
      const res = await list('?limit=100');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        statusCode: 200,
        timestamp: expect.stringMatching(ISO),
        message: 'Groups list retrieved successfully',
        data: { page: 1, limit: 100, total: expect.any(Number), data: expect.any(Array) },
      });
      const { data, total } = res.body.data;
      expect(total).toBe(data.length);
      for (const g of data) expect(Object.keys(g).sort()).toEqual(GROUP_FIELDS);
      const zeta = data.find((g: Group) => g.id === root.id);
      expect(zeta.childGroups.map((c: Group) => c.groupName)).toEqual(['Berlin', 'Mid 100%']);
      expect(zeta).toEqual({ ...(await get(root.id)).body.data });
      const paged = await list('?limit=2&page=2&sortBy=createdOn');
      expect(paged.body.data).toMatchObject({ page: 2, limit: 2, total });
      expect(ids(paged)).toEqual(ids(await list('?limit=100&sortBy=createdOn')).slice(2, 4));
      expect((await list('?page=999')).body.data).toEqual({ page: 999, limit: 10, total, data: [] });
      // Another tenant's list holds only its own groups.
      const other = (await list('?limit=100', h.tokens.otherAdmin)).body.data.data;
      expect(other.every((g: Group) => g.tenantId === h.other.id)).toBe(true);
    });

    it('each filter narrows: search (name or display name, wildcards literal), status, types, parent, date ranges', async () => {
      const all = (await list('?limit=100')).body.data.total;
      expect(ids(await list('?search=zeta'))).toEqual([root.id]);
      expect(ids(await list('?search=middle_'))).toEqual([mid.id]);
      expect(ids(await list('?search=100%25'))).toEqual([mid.id]);
      expect(ids(await list('?search=_'))).toEqual([mid.id]);
      const inactive = await list('?status=INACTIVE&limit=100');
      expect(inactive.body.data.data.every((g: Group) => g.status === 'INACTIVE')).toBe(true);
      expect(ids(inactive)).toContain(leaf.id);
      expect(inactive.body.data.total).toBeLessThan(all);
      expect((await list('?status=ACTIVE,INACTIVE&limit=100')).body.data.total).toBe(all);
      expect(ids(await list(`?tenantGroupTypeIds=${types.Locations.id}`))).toEqual([loc.id]);
      const orgsAndLocs = await list(`?tenantGroupTypeIds=${types.Organizations.id},${types.Locations.id}&limit=100`);
      expect(orgsAndLocs.body.data.data.every((g: Group) => [types.Organizations.id, types.Locations.id].includes(g.tenantGroupType.id))).toBe(true);
      expect(orgsAndLocs.body.data.total).toBeLessThan(all);
      expect(ids(await list(`?parentGroupId=${root.id}&sortBy=groupName`))).toEqual([loc.id, mid.id]);
      expect(ids(await list(`?parentGroupId=${mid.id}`))).toEqual([leaf.id]);

      const createdRoot = new Date(root.createdOn).toISOString();
      const after = await list(`?createdAtStart=${createdRoot}&limit=100&sortBy=createdOn`);
      expect(ids(after)).toEqual([root.id, mid.id, leaf.id, loc.id]);
      expect(ids(await list(`?createdAtStart=${createdRoot}&createdAtEnd=${mid.createdOn}&sortBy=createdOn`))).toEqual([root.id, mid.id]);
      expect((await list(`?createdAtEnd=${new Date(new Date(root.createdOn).getTime() - 1).toISOString()}&limit=100`)).body.data.total).toBe(all - 4);
      await patch(leaf.id, { displayName: 'Leaf Node' });
      const updatedLeaf = (await get(leaf.id)).body.data;
      expect(ids(await list(`?updatedAtStart=${updatedLeaf.updatedOn}`))).toEqual([leaf.id]);
      expect((await list(`?updatedAtEnd=${updatedLeaf.updatedOn}&limit=100`)).body.data.total).toBe(all);
      expect((await list(`?updatedAtStart=2999-01-01T00:00:00.000Z`)).body.data.total).toBe(0);
    });

    it('every sortBy works in both orders (ties broken by id)', async () => {
      const data: Group[] = (await list('?limit=100')).body.data.data;
      // groupName is compared with the database's own collation below (it and JS differ on punctuation).
      const keyOf: Record<string, ((g: Group) => string | number) | null> = {
        groupId: (g) => g.groupId,
        groupName: null,
        status: (g) => g.status,
        createdOn: (g) => g.createdOn,
        updatedOn: (g) => g.updatedOn,
        isSynced: (g) => (g.isSynced ? 1 : 0),
        tenantGroupType: (g) => g.tenantGroupType.groupTypeName.toLowerCase(),
      };
      const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
      for (const [sortBy, key] of Object.entries(keyOf)) {
        for (const order of ['asc', 'desc'] as const) {
          const got: Group[] = (await list(`?limit=100&sortBy=${sortBy}&sortOrder=${order}`)).body.data.data;
          expect(got.length).toBe(data.length);
          if (!key) {
            const [{ ids: expected }] = await h.db.query<{ ids: string[] }>(
              `SELECT array_agg(id::text ORDER BY lower(group_name) ${order}, id ${order}) AS ids FROM settings.groups WHERE tenant_id = $1 AND NOT is_deleted`,
              [h.demo.id],
            );
            expect(got.map((g) => g.id)).toEqual(expected);
            continue;
          }
          const sign = order === 'asc' ? 1 : -1;
          for (let i = 1; i < got.length; i++) {
            const c = sign * cmp(key(got[i - 1]), key(got[i]));
            // Timestamps are shown to the millisecond but stored to the microsecond: a tie shown may be no tie stored.
            const tieBroken = sortBy === 'createdOn' || sortBy === 'updatedOn' || sign * cmp(got[i - 1].id, got[i].id) < 0;
            expect(c < 0 || (c === 0 && tieBroken)).toBe(true);
          }
        }
      }
      // The orders differ from each other (the sorts are not all the same one).
      const firstIds = await Promise.all(['groupId', 'groupName', 'createdOn'].map(async (s) => ids(await list(`?limit=100&sortBy=${s}`)).join()));
      expect(new Set(firstIds).size).toBe(3);
    });

    it('400 for bad query values and unknown parameters', async () => {
      for (const q of [
        '?limit=101',
        '?page=0',
        '?status=FOO',
        '?status=ACTIVE,FOO',
        '?sortBy=color',
        '?sortOrder=sideways',
        '?tenantGroupTypeIds=abc',
        '?parentGroupId=abc',
        '?createdAtStart=yesterday',
        '?updatedAtEnd=2024-13-01T00:00:00Z',
        `?search=${'x'.repeat(101)}`,
        '?color=blue',
      ]) {
        const res = await list(q);
        expectErrorBody(res, 400);
      }
      const res = await list('?status=FOO');
      expect(res.body.errors).toEqual([{ field: 'status', message: expect.stringMatching(/ACTIVE, INACTIVE/), allowed: ['ACTIVE', 'INACTIVE'] }]);
    });
  });

  describe('PATCH /settings/v1/groups/{id}', () => {
    it('changes fields and the address (fields sent replace, others stay; null removes); the updated event is written', async () => {
      const g = (await create({ tenantGroupTypeId: types.Organizations.id, groupName: 'Patchable', address: ADDRESS })).body.data;
      const res = await patch(g.id, {
        groupName: 'Patched',
        displayName: 'Patched Display',
        legalName: 'Patched LLC',
        status: 'INACTIVE',
        baseCurrency: 'EUR',
        isSynced: true,
        externalId: 'EXT-1',
        instanceId: 'inst-1',
        address: { city: 'Boston', stateCode: 'MA', street2: null },
      });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Group updated successfully');
      const u = res.body.data;
      expect(Object.keys(u).sort()).toEqual(GROUP_FIELDS);
      expect(u).toMatchObject({
        id: g.id,
        groupId: g.groupId,
        groupName: 'Patched',
        displayName: 'Patched Display',
        legalName: 'Patched LLC',
        status: 'INACTIVE',
        baseCurrency: 'EUR',
        isSynced: true,
        externalId: 'EXT-1',
        instanceId: 'inst-1',
        address: { ...ADDRESS, id: g.address.id, groupId: g.id, city: 'Boston', stateCode: 'MA', street2: null },
      });
      expect(new Date(u.updatedOn).getTime()).toBeGreaterThan(new Date(g.updatedOn).getTime());
      expect(new Date(u.address.updatedOn).getTime()).toBeGreaterThan(new Date(g.address.updatedOn).getTime());
      expect((await events('evt.settings.group.updated', g.id)).at(-1)!.group).toMatchObject({ groupName: 'Patched', status: 'INACTIVE', baseCurrency: 'EUR', legalName: 'Patched LLC' });

      const cleared = (await patch(g.id, { displayName: null, baseCurrency: null, address: null })).body.data;
      expect(cleared).toMatchObject({ displayName: null, baseCurrency: '', address: null });
      // Moving to a type without addresses: with an address that is a 400 unless it is removed in the same change.
      await patch(g.id, { address: { city: 'Boston' } });
      const move = await patch(g.id, { tenantGroupTypeId: types.Departments.id });
      expectErrorBody(move, 400);
      expect(move.body.errors).toEqual([{ field: 'tenantGroupTypeId', message: expect.stringMatching(/address: null/) }]);
      const moved = (await patch(g.id, { tenantGroupTypeId: types.Departments.id, address: null })).body.data;
      expect(moved).toMatchObject({ tenantGroupType: { id: types.Departments.id, groupTypeName: 'Departments' }, address: null });
      expectErrorBody(await patch(g.id, { address: { city: 'Boston' } }), 400);
    });

    it('400 for bad input, nothing to change, deletion mixed with changes; 404 for unknown or other tenant’s types', async () => {
      const g = await make('Strict');
      const bad = await patch(g.id, { groupName: 'x'.repeat(101), legalName: 'x'.repeat(101), status: 'GONE', parentGroupIds: [], tenantId: 'x', isSynced: 'often' });
      expectErrorBody(bad, 400);
      const nothing = await patch(g.id, {});
      expectErrorBody(nothing, 400);
      expect(nothing.body.message).toMatch(/^Nothing to change/);
      // isDeleted: false alone changes nothing either: no new updatedOn, no event.
      const [before] = await h.db.query<{ updated_on: Date; n: string }>(
        `SELECT g.updated_on, (SELECT count(*) FROM settings.outbox WHERE payload->'group'->>'id' = $2) AS n FROM settings.groups g WHERE g.id = $1`,
        [g.id, g.id],
      );
      const notDeleting = await patch(g.id, { isDeleted: false });
      expectErrorBody(notDeleting, 400);
      expect(notDeleting.body.message).toMatch(/^Nothing to change/);
      const [after] = await h.db.query<{ updated_on: Date; n: string }>(
        `SELECT g.updated_on, (SELECT count(*) FROM settings.outbox WHERE payload->'group'->>'id' = $2) AS n FROM settings.groups g WHERE g.id = $1`,
        [g.id, g.id],
      );
      expect(after).toEqual(before);
      const mixed = await patch(g.id, { isDeleted: true, groupName: 'Other' });
      expectErrorBody(mixed, 400);
      expect(mixed.body.errors).toEqual([{ field: 'isDeleted', message: expect.stringMatching(/cannot be combined with groupName/) }]);
      expectErrorBody(await patch(g.id, { tenantGroupTypeId: otherOrg }), 404);
      expectErrorBody(await patch(g.id, { tenantGroupTypeId: randomUUID() }), 404);
      expectErrorBody(await patch('not-a-uuid', { groupName: 'x' }), 400);
    });

    it('403 for the auditor and the manager; 404 for another tenant’s group (left unchanged)', async () => {
      const g = await make('Guarded');
      for (const token of [h.tokens.auditor, h.tokens.manager]) expectErrorBody(await patch(g.id, { groupName: 'Hacked' }, token), 403);
      expectErrorBody(await patch(g.id, { groupName: 'Hacked' }, h.tokens.otherAdmin), 404);
      expect((await get(g.id)).body.data.groupName).toBe('Guarded');
    });

    it('adds and removes parents; a parent of another tenant or unknown is a 404 naming it', async () => {
      const a = await make('Parent A');
      const b = await make('Parent B');
      const c = await make('Child C', { parentGroupIds: [a.id] });
      const notAParent = await make('Not A Parent');
      // a.id is already a parent (kept as is); a live group that is not a parent is ignored on removal.
      const res = await patch(c.id, { addParentGroupIds: [b.id, a.id], removeParentGroupIds: [notAParent.id] });
      expect(res.status).toBe(200);
      expect(res.body.data.parentGroups.map((p: Group) => p.parentId).sort()).toEqual([a.id, b.id].sort());
      const swapped = (await patch(c.id, { removeParentGroupIds: [a.id] })).body.data;
      expect(swapped.parentGroups.map((p: Group) => p.parentId)).toEqual([b.id]);
      expect((await events('evt.settings.group.updated', c.id)).at(-1)!.group.parentGroupIds).toEqual([b.id]);
      const otherGroup = (await list('', h.tokens.otherAdmin)).body.data.data[0];
      const foreign = await patch(c.id, { addParentGroupIds: [otherGroup.id] });
      expectErrorBody(foreign, 404);
      expect(foreign.body.message).toBe(`Parent group not found: ${otherGroup.id}`);
      expect(foreign.body.errors).toEqual([{ field: 'addParentGroupIds.0', message: `Parent group ${otherGroup.id} not found` }]);
      expect((await get(c.id)).body.data.parentGroups.length).toBe(1);
      // Removing an unknown or another tenant's group is a 404 naming it, and nothing of the change sticks.
      const unknown = randomUUID();
      const removal = await patch(c.id, { groupName: 'Child C renamed', removeParentGroupIds: [b.id, unknown, otherGroup.id] });
      expectErrorBody(removal, 404);
      expect(removal.body.errors).toEqual([
        { field: 'removeParentGroupIds.1', message: `Parent group ${unknown} not found` },
        { field: 'removeParentGroupIds.2', message: `Parent group ${otherGroup.id} not found` },
      ]);
      expect((await get(c.id)).body.data).toMatchObject({ groupName: 'Child C', parentGroups: [expect.objectContaining({ parentId: b.id })] });
    });

    it("an unknown or another tenant's tenantGroupTypeId is a 404 naming the field; nothing is created or changed", async () => {
      const otherType = (await h.svc.http.get('/settings/v1/group-types', { token: h.tokens.otherAdmin })).body.data.data[0].id;
      for (const typeId of [randomUUID(), otherType]) {
        const created = await create({ tenantGroupTypeId: typeId, groupName: 'Typeless' });
        expectErrorBody(created, 404);
        expect(created.body.errors).toEqual([{ field: 'tenantGroupTypeId', message: `Group type ${typeId} not found` }]);
      }
      expect((await list('?search=Typeless')).body.data.total).toBe(0);
      const g = await make('Typed');
      const changed = await patch(g.id, { tenantGroupTypeId: otherType, groupName: 'Typed renamed' });
      expectErrorBody(changed, 404);
      expect(changed.body.errors).toEqual([{ field: 'tenantGroupTypeId', message: `Group type ${otherType} not found` }]);
      expect((await get(g.id)).body.data.groupName).toBe('Typed');
    });

    it('a parent that is the group itself or one of its descendants is a 400 naming the field', async () => {
      const top = await make('Cycle Top');
      const middle = await make('Cycle Middle', { parentGroupIds: [top.id] });
      const bottom = await make('Cycle Bottom', { parentGroupIds: [middle.id] });
      const self = await patch(top.id, { addParentGroupIds: [top.id] });
      expectErrorBody(self, 400);
      expect(self.body.errors).toEqual([{ field: 'addParentGroupIds', message: expect.stringMatching(/cycle/) }]);
      const deep = await patch(top.id, { addParentGroupIds: [bottom.id] });
      expectErrorBody(deep, 400);
      expect(deep.body.errors).toEqual([{ field: 'addParentGroupIds', message: expect.stringContaining(bottom.id) }]);
      expectErrorBody(await patch(top.id, { addParentGroupIds: [middle.id] }), 400);
      expect((await get(top.id)).body.data.parentGroups).toEqual([]);
      // A sibling branch is not a cycle.
      const side = await make('Cycle Side', { parentGroupIds: [top.id] });
      expect((await patch(bottom.id, { addParentGroupIds: [side.id] })).status).toBe(200);
    });

    it('two concurrent changes cannot make a cycle together (hierarchy lock)', async () => {
      for (let round = 0; round < 3; round++) {
        const x = await make(`Race X${round}`);
        const y = await make(`Race Y${round}`);
        const [r1, r2] = await Promise.all([patch(x.id, { addParentGroupIds: [y.id] }), patch(y.id, { addParentGroupIds: [x.id] })]);
        expect([r1.status, r2.status].sort()).toEqual([200, 400]);
        const links = await h.db.query(`SELECT 1 FROM settings.group_parents WHERE group_id = ANY($1::uuid[])`, [[x.id, y.id]]);
        expect(links.length).toBe(1);
      }
    });
  });

  describe('PATCH /settings/v1/groups/{id} with isDeleted: true', () => {
    const position = async (groupId: string) => {
      const id = randomUUID();
      await h.db.query(`INSERT INTO settings.positions (id, tenant_id, position_display_id, position_name) VALUES ($1, $2, $3, $4)`, [
        id,
        h.demo.id,
        String(Math.floor(Math.random() * 1e9)),
        `Position ${id}`,
      ]);
      await h.db.query(`INSERT INTO settings.position_groups (position_id, group_id, tenant_id) VALUES ($1, $2, $3)`, [id, groupId, h.demo.id]);
      return id;
    };
    const linksOf = async (groupId: string) => ({
      positions: (await h.db.query(`SELECT 1 FROM settings.position_groups WHERE group_id = $1`, [groupId])).length,
      hierarchy: (await h.db.query(`SELECT 1 FROM settings.group_parents WHERE group_id = $1 OR parent_id = $1`, [groupId])).length,
    });

    it('KEEP_ASSOCIATIONS: soft delete, links kept but hidden; the group leaves lists and gets; events for it and its children', async () => {
      const parent = await make('Del Parent');
      const g = await make('Del Keep', { parentGroupIds: [parent.id] });
      const child = await make('Del Keep Child', { parentGroupIds: [g.id] });
      await position(g.id);
      const res = await patch(g.id, { isDeleted: true, disableOption: 'KEEP_ASSOCIATIONS' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data).sort()).toEqual(GROUP_FIELDS);
      expect(res.body.data).toMatchObject({ id: g.id, isDeleted: true, disableOption: 'KEEP_ASSOCIATIONS' });
      expect(await linksOf(g.id)).toEqual({ positions: 1, hierarchy: 2 });
      const [row] = await h.db.query<{ deleted_on: Date; deleted_by: string }>(`SELECT deleted_on, deleted_by FROM settings.groups WHERE id = $1`, [g.id]);
      expect(row).toEqual({ deleted_on: expect.any(Date), deleted_by: h.demo.users.find((u) => u.email === 'admin@demo.test')!.id });
      expectErrorBody(await get(g.id), 404);
      expect(ids(await list('?search=Del Keep'))).toEqual([child.id]);
      expect((await get(child.id)).body.data.parentGroups).toEqual([]);
      expect((await get(parent.id)).body.data.childGroups).toEqual([]);
      expect((await events('evt.settings.group.deleted', g.id)).map((e) => e.group)).toEqual([expect.objectContaining({ id: g.id, isDeleted: true, parentGroupIds: [parent.id] })]);
      expect((await events('evt.settings.group.updated', child.id)).at(-1)!.group.parentGroupIds).toEqual([]);
      expectErrorBody(await patch(g.id, { groupName: 'Back' }), 404);
      expectErrorBody(await patch(g.id, { isDeleted: true }), 404);
      // A deleted group is no parent any more.
      expectErrorBody(await create({ tenantGroupTypeId: types.Departments.id, groupName: 'Orphan', parentGroupIds: [g.id] }), 404);
    });

    it('REMOVE_ASSOCIATIONS removes its positions’ links and its parent and child links; NA just deletes', async () => {
      const parent = await make('Rm Parent');
      const g = await make('Rm Group', { parentGroupIds: [parent.id] });
      await make('Rm Child', { parentGroupIds: [g.id] });
      const p = await position(g.id);
      const res = await patch(g.id, { isDeleted: 'true', disableOption: 'REMOVE_ASSOCIATIONS' });
      expect(res.body.data).toMatchObject({ isDeleted: true, disableOption: 'REMOVE_ASSOCIATIONS', parentGroups: [], childGroups: [] });
      expect(await linksOf(g.id)).toEqual({ positions: 0, hierarchy: 0 });
      expect((await h.db.query(`SELECT 1 FROM settings.positions WHERE id = $1 AND NOT is_deleted`, [p])).length).toBe(1);
      // The position that lost the group is announced with its groups now (other areas project them).
      const [announced] = await h.db.query<{ payload: { position: { id: string; groupIds: string[] } } }>(
        `SELECT payload FROM settings.outbox WHERE subject = 'evt.settings.position.updated' AND payload->'position'->>'id' = $1`,
        [p],
      );
      expect(announced.payload.position).toMatchObject({ id: p, groupIds: [] });

      const na = await make('Na Group', { parentGroupIds: [parent.id] });
      await position(na.id);
      expect((await patch(na.id, { isDeleted: true })).body.data).toMatchObject({ isDeleted: true, disableOption: 'NA' });
      expect(await linksOf(na.id)).toEqual({ positions: 1, hierarchy: 1 });
      expect((await get(parent.id)).body.data.childGroups).toEqual([]);
    });

    it('403 for the auditor; 404 for another tenant', async () => {
      const g = await make('Undeletable');
      expectErrorBody(await patch(g.id, { isDeleted: true }, h.tokens.auditor), 403);
      expectErrorBody(await patch(g.id, { isDeleted: true }, h.tokens.otherAdmin), 404);
      expect((await get(g.id)).status).toBe(200);
    });
  });
});
