import { randomUUID } from 'node:crypto';
import { expectErrorBody, ISO, pastInstant, startHarness } from '@ddm/testing';
import { settingsApp, SettingsHarness } from './fixtures/settings-app';

const P = '/settings/v1/positions';
const FIELDS = [
  'createdOn',
  'delegationsIssued',
  'delegationsReceived',
  'externalId',
  'groups',
  'id',
  'instanceId',
  'isDeleted',
  'isSCIMProvisioned',
  'positionId',
  'positionName',
  'status',
  'tenantId',
  'updatedOn',
];
const GROUP_FIELDS = ['createdAt', 'displayName', 'groupId', 'groupName', 'groupTypeId', 'groupTypeName', 'parentId', 'parentName', 'updatedAt'];

interface Position {
  id: string;
  tenantId: string;
  positionId: string;
  positionName: string;
  isSCIMProvisioned: boolean;
  status: string;
  isDeleted: boolean;
  createdOn: string;
  updatedOn: string;
  delegationsReceived: number;
  delegationsIssued: number;
  externalId: string | null;
  instanceId: string | null;
  groups: { groupId: string; groupName: string; parentId: string | null; parentName: string | null; createdAt: string }[];
}

interface Groups {
  type: string;
  org: string;
  deptA: string;
  deptB: string;
  gone: string;
}

const code = () => randomUUID().replace(/-/g, '').slice(0, 6);

describe('positions (e2e, real Postgres and NATS)', () => {
  let h: SettingsHarness;
  let g: Groups;
  let otherGroups: Groups;
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => h.db.query<T>(text, params);
  const create = (body: Record<string, unknown>, token = h.tokens.admin) => h.svc.http.post(P, { token, body });
  const list = (qs = '', token = h.tokens.admin) => h.svc.http.get(`${P}${qs ? `?${qs}` : ''}`, { token });
  const outbox = (subject: string) =>
    sql<{ payload: { tenantId: string; position: Record<string, unknown> } }>(`SELECT payload FROM settings.outbox WHERE subject = $1 ORDER BY created_at, id`, [subject]);

  /** A group type, an organisation with two departments, and a deleted group (direct SQL: groups are another folder's endpoints). */
  async function seedGroups(tenantId: string, prefix: string): Promise<Groups> {
    const ids = { type: randomUUID(), org: randomUUID(), deptA: randomUUID(), deptB: randomUUID(), gone: randomUUID() };
    await sql(`INSERT INTO settings.group_types (id, tenant_id, group_type_name) VALUES ($1, $2, $3)`, [ids.type, tenantId, `${prefix} Units`]);
    await sql(
      `INSERT INTO settings.groups (id, tenant_id, group_code, tenant_group_type_id, group_name, display_name, is_deleted)
       VALUES ($1, $6, $7, $5, 'Org', 'The Org', false), ($2, $6, $8, $5, 'Dept A', 'Department A', false),
              ($3, $6, $9, $5, 'Dept B', NULL, false), ($4, $6, $10, $5, 'Gone', 'Gone', true)`,
      [ids.org, ids.deptA, ids.deptB, ids.gone, ids.type, tenantId, code(), code(), code(), code()],
    );
    // Dept B's first parent (by link creation) is deleted: its parent is Org.
    await sql(
      `INSERT INTO settings.group_parents (id, tenant_id, group_id, parent_id, created_at)
       VALUES ($1, $4, $5, $6, now() - interval '2 days'), ($2, $4, $7, $6, now() - interval '1 day'), ($3, $4, $7, $8, now() - interval '3 days')`,
      [randomUUID(), randomUUID(), randomUUID(), tenantId, ids.deptA, ids.org, ids.deptB, ids.gone],
    );
    return ids;
  }

  beforeAll(async () => {
    h = await startHarness(settingsApp);
    g = await seedGroups(h.demo.id, 'Demo');
    otherGroups = await seedGroups(h.other.id, 'Other');
  });
  afterAll(() => h?.close());

  describe('GET /settings/v1/positions (filters, sorts, select, pins)', () => {
    const D1 = randomUUID();
    let set: Record<string, Position>;
    let universe: Position[];
    let ids: string;
    const U1 = randomUUID();
    const U2 = randomUUID();

    const names = (items: { positionName: string }[]) => items.map((p) => p.positionName).sort();
    const expectNarrowed = async (qs: string, keep: (p: Position) => boolean) => {
      const res = await list(`${qs}&limit=100`);
      expect(res.status).toBe(200);
      const expected = universe.filter(keep);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(universe.length);
      expect(names(res.body.data.data)).toEqual(names(expected));
      expect(res.body.data.total).toBe(expected.length);
    };

    beforeAll(async () => {
      const made: Position[] = [];
      for (const body of [
        { positionName: 'Alpha Analyst', groupIds: [g.deptA], externalId: 'EXT-A', instanceId: 'inst-1' },
        { positionName: 'bravo Builder', groupIds: [g.deptB], status: 'INACTIVE', isSCIMProvisioned: true },
        { positionName: 'Charlie Chief', groupIds: [g.deptA, g.deptB], isSCIMProvisioned: 'true' },
        { positionName: 'delta Designer', status: 'INACTIVE' },
        { positionName: 'Echo 100% Remote', groupIds: [g.org] },
        { positionName: 'foxtrot_fixer' },
      ]) {
        const res = await create(body);
        expect(res.status).toBe(200);
        made.push(res.body.data);
      }
      // A position whose display id is shorter: numeric order differs from text order.
      const golf = randomUUID();
      await sql(`INSERT INTO settings.positions (id, tenant_id, position_display_id, position_name) VALUES ($1, $2, '999', 'golf Guard')`, [golf, h.demo.id]);
      set = Object.fromEntries([...made, { id: golf, positionName: 'golf Guard' } as Position].map((p) => [p.positionName.split(' ')[0].split('_')[0].toLowerCase(), p]));
      // Deterministic dates: created in order, updated in the reverse order.
      const order = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'];
      for (const [i, k] of order.entries())
        await sql(`UPDATE settings.positions SET created_on = $2, updated_on = $3 WHERE id = $1`, [
          set[k].id,
          `2020-01-0${i + 1}T00:00:00.000Z`,
          `2021-0${7 - i}-01T00:00:00.000Z`,
        ]);
      // delta is also linked to the deleted group (left out of its groups and of the groupIds filter).
      await sql(`INSERT INTO settings.position_groups (position_id, group_id, tenant_id) VALUES ($1, $2, $3)`, [set.delta.id, g.gone, h.demo.id]);
      // Delegations received (projection rows, as the consumer writes them).
      const d = (id: string, tenant: string, recipient: string, issuerType: string, issuerUser: string | null, issuerPosition: string | null, recipientType: string, pathways: string[], revoked = false) =>
        sql(
          `INSERT INTO settings.delegation_projection (delegation_id, tenant_id, decision_id, issuer_type, issuer_user_id, issuer_position_id,
                  recipient_type, recipient_position_id, pathways, revoked_on)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, CASE WHEN $10 THEN now() END)`,
          [id, tenant, D1, issuerType, issuerUser, issuerPosition, recipientType, recipient, pathways, revoked],
        );
      await d(randomUUID(), h.demo.id, set.alpha.id, 'ROOT_AUTHORITY', U1, null, 'POSITION_ONLY', ['Matrix']);
      await d(randomUUID(), h.demo.id, set.bravo.id, 'POSITION_ONLY', null, set.charlie.id, 'PERSONNEL_IN_POSITION', ['Functional']);
      await d(randomUUID(), h.demo.id, set.charlie.id, 'SPECIFIC_PERSONNEL', U2, null, 'SPECIFIC_PERSONNEL', ['Direct Line', 'Matrix'], true);
      await d(randomUUID(), h.demo.id, set.delta.id, 'ROOT_AUTHORITY', U1, null, 'PERSONNEL_IN_POSITION', ['Functional']);
      // Another tenant's row naming a Demo Co position: never counts, never matches.
      await d(randomUUID(), h.other.id, set.echo.id, 'ROOT_AUTHORITY', U1, null, 'POSITION_ONLY', ['Matrix']);
      const all = await list('limit=100');
      universe = all.body.data.data;
      ids = universe.map((p) => p.id).join(',');
      expect(universe).toHaveLength(7);
    });

    it('paged envelope with every §2.6 field on each item; default sort createdOn asc', async () => {
      const res = await list('limit=3&page=2');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'Positions list retrieved successfully', timestamp: expect.stringMatching(ISO) });
      expect(Object.keys(res.body.data).sort()).toEqual(['data', 'limit', 'page', 'total']);
      expect(res.body.data).toMatchObject({ page: 2, limit: 3, total: 7 });
      expect(res.body.data.data.map((p: Position) => p.positionName)).toEqual(['delta Designer', 'Echo 100% Remote', 'foxtrot_fixer']);
      for (const p of res.body.data.data) expect(Object.keys(p).sort()).toEqual(FIELDS);
      const beyond = await list('limit=3&page=9');
      expect(beyond.body.data).toEqual({ page: 9, limit: 3, total: 7, data: [] });
      const defaults = await list();
      expect(defaults.body.data).toMatchObject({ page: 1, limit: 10, total: 7 });
    });

    it('items carry groups (not deleted ones) with type and first live parent, and the delegation counts', async () => {
      const byName = Object.fromEntries(universe.map((p) => [p.positionName, p]));
      const charlie = byName['Charlie Chief'];
      expect(charlie.groups.map((x) => x.groupName)).toEqual(['Dept A', 'Dept B']);
      for (const x of charlie.groups) expect(Object.keys(x).sort()).toEqual(GROUP_FIELDS);
      expect(charlie.groups[1]).toEqual({
        groupName: 'Dept B',
        displayName: null,
        groupTypeName: 'Demo Units',
        groupId: g.deptB,
        groupTypeId: g.type,
        parentId: g.org,
        parentName: 'Org',
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      expect(byName['Echo 100% Remote'].groups).toEqual([expect.objectContaining({ groupId: g.org, displayName: 'The Org', parentId: null, parentName: null })]);
      expect(byName['delta Designer'].groups).toEqual([]);
      const counts = Object.fromEntries(universe.map((p) => [p.positionName.split(' ')[0], [p.delegationsReceived, p.delegationsIssued]]));
      expect(counts).toEqual({
        Alpha: [1, 0],
        bravo: [1, 0],
        Charlie: [0, 1], // its received delegation is revoked; it issued bravo's
        delta: [1, 0],
        Echo: [0, 0], // another tenant's row names it
        foxtrot_fixer: [0, 0],
        golf: [0, 0],
      });
    });

    it('each filter narrows: sourceType, groupIds, status, search, selectedPositionIds', async () => {
      await expectNarrowed('sourceType=Manual', (p) => !p.isSCIMProvisioned);
      await expectNarrowed('sourceType=Directory%20Sync', (p) => p.isSCIMProvisioned);
      expect((await list('sourceType=All&limit=100')).body.data.total).toBe(7);
      expect((await list('sourceType=All,Directory%20Sync&limit=100')).body.data.total).toBe(7);
      expect((await list('sourceType=Manual,Directory%20Sync&limit=100')).body.data.total).toBe(7);
      await expectNarrowed(`groupIds=${g.deptA}`, (p) => p.groups.some((x) => x.groupId === g.deptA));
      await expectNarrowed(`groupIds=${g.deptA},${g.deptB}`, (p) => p.groups.some((x) => x.groupId === g.deptA || x.groupId === g.deptB));
      expect((await list(`groupIds=${g.gone}`)).body.data.total).toBe(0);
      expect((await list(`groupIds=${otherGroups.deptA}`)).body.data.total).toBe(0);
      await expectNarrowed('status=ACTIVE', (p) => p.status === 'ACTIVE');
      await expectNarrowed('status=INACTIVE', (p) => p.status === 'INACTIVE');
      expect((await list('status=ACTIVE,INACTIVE')).body.data.total).toBe(7);
      await expectNarrowed('search=alpha', (p) => p.positionName === 'Alpha Analyst');
      await expectNarrowed('search=%25', (p) => p.positionName.includes('%'));
      await expectNarrowed('search=_', (p) => p.positionName.includes('_'));
      await expectNarrowed('search=ER', (p) => /er/i.test(p.positionName));
      await expectNarrowed(`selectedPositionIds=${set.alpha.id},${set.golf.id}`, (p) => [set.alpha.id, set.golf.id].includes(p.id));
      await expectNarrowed('status=ACTIVE&sourceType=Manual&search=a', (p) => p.status === 'ACTIVE' && !p.isSCIMProvisioned && /a/i.test(p.positionName));
    });

    it('each date range narrows (bounds included)', async () => {
      await expectNarrowed('createdAtStart=2020-01-03T00:00:00.000Z', (p) => p.createdOn >= '2020-01-03T00:00:00.000Z');
      await expectNarrowed('createdAtEnd=2020-01-03T00:00:00.000Z', (p) => p.createdOn <= '2020-01-03T00:00:00.000Z');
      await expectNarrowed('updatedAtStart=2021-05-01T00:00:00.000Z', (p) => p.updatedOn >= '2021-05-01T00:00:00.000Z');
      await expectNarrowed('updatedAtEnd=2021-02-01T00:00:00Z', (p) => p.updatedOn <= '2021-02-01T00:00:00.000Z');
      await expectNarrowed('createdAtStart=2020-01-02T00:00:00Z&createdAtEnd=2020-01-04T00:00:00Z', (p) => p.createdOn >= '2020-01-02T00:00:00.000Z' && p.createdOn <= '2020-01-04T00:00:00.000Z');
    });

    it('an end bound includes a row stored with microseconds past the millisecond it shows', async () => {
      const shown = (await h.svc.http.get(`/settings/v1/positions/${set.alpha.id}`, { token: h.tokens.admin })).body.data.createdOn as string;
      await h.db.query(`UPDATE settings.positions SET created_on = $2::timestamptz + interval '500 microseconds' WHERE id = $1`, [set.alpha.id, shown]);
      try {
        const res = await list(`createdAtEnd=${shown}&selectedPositionIds=${set.alpha.id}`);
        expect(res.body.data.data.map((p: Position) => p.id)).toEqual([set.alpha.id]);
        expect(res.body.data.data[0].createdOn).toBe(shown);
      } finally {
        await h.db.query(`UPDATE settings.positions SET created_on = $2 WHERE id = $1`, [set.alpha.id, shown]);
      }
    });

    it('each delegation filter narrows to positions that received an active delegation of that shape (all given filters on one delegation)', async () => {
      const is = (...keys: string[]) => (p: Position) => keys.map((k) => set[k].id).includes(p.id);
      await expectNarrowed('delegationIssuerType=ROOT_AUTHORITY', is('alpha', 'delta'));
      await expectNarrowed('delegationIssuerType=POSITION_ONLY', is('bravo'));
      await expectNarrowed(`delegationIssuerUserId=${U1}`, is('alpha', 'delta'));
      expect((await list(`delegationIssuerUserId=${U2}`)).body.data.total).toBe(0); // revoked
      await expectNarrowed(`delegationIssuerPositionId=${set.charlie.id}`, is('bravo'));
      await expectNarrowed('delegationPathway=Matrix', is('alpha'));
      await expectNarrowed('delegationPathway=Functional', is('bravo', 'delta'));
      await expectNarrowed('delegationPathway=Matrix,Functional', is('alpha', 'bravo', 'delta'));
      await expectNarrowed('delegationRecipientType=PERSONNEL_IN_POSITION', is('bravo', 'delta'));
      await expectNarrowed('delegationRecipientType=POSITION_ONLY', is('alpha'));
      await expectNarrowed('delegationIssuerType=ROOT_AUTHORITY&delegationRecipientType=PERSONNEL_IN_POSITION', is('delta'));
      await expectNarrowed('delegationIssuerType=ROOT_AUTHORITY&delegationPathway=Matrix', is('alpha'));
      expect((await list('delegationIssuerType=POSITION_ONLY&delegationPathway=Matrix')).body.data.total).toBe(0);
    });

    const asc: Record<string, (a: Position, b: Position) => number> = {
      positionName: (a, b) => cmp(a.positionName.toLowerCase(), b.positionName.toLowerCase()) || cmp(a.id, b.id),
      positionId: (a, b) => Number(a.positionId) - Number(b.positionId) || cmp(a.id, b.id),
      status: (a, b) => cmp(a.status, b.status) || cmp(a.positionName.toLowerCase(), b.positionName.toLowerCase()) || cmp(a.id, b.id),
      createdOn: (a, b) => cmp(a.createdOn, b.createdOn) || cmp(a.id, b.id),
      updatedOn: (a, b) => cmp(a.updatedOn, b.updatedOn) || cmp(a.id, b.id),
    };
    it.each(Object.keys(asc).flatMap((s) => [[s, 'asc'], [s, 'desc']]))('sortBy=%s sortOrder=%s', async (sortBy, sortOrder) => {
      const res = await list(`selectedPositionIds=${ids}&sortBy=${sortBy}&sortOrder=${sortOrder}&limit=100`);
      expect(res.status).toBe(200);
      const expected = [...universe].sort(asc[sortBy]);
      if (sortOrder === 'desc') expected.reverse();
      expect(res.body.data.data.map((p: Position) => p.positionName)).toEqual(expected.map((p) => p.positionName));
      // Pages follow the same order.
      const page2 = await list(`selectedPositionIds=${ids}&sortBy=${sortBy}&sortOrder=${sortOrder}&limit=3&page=2`);
      expect(page2.body.data.data.map((p: Position) => p.id)).toEqual(expected.slice(3, 6).map((p) => p.id));
    });

    it('positionId sorts numerically ("999" before "10000")', async () => {
      const res = await list('sortBy=positionId&limit=2');
      expect(res.body.data.data.map((p: Position) => p.positionId)).toEqual(['999', '10000']);
    });

    it('select returns only the named fields; fields (deprecated) does the same; select wins over fields', async () => {
      const sel = await list('select=id,positionName,groups&limit=100');
      expect(sel.status).toBe(200);
      expect(sel.body.data.total).toBe(7);
      for (const p of sel.body.data.data) expect(Object.keys(p).sort()).toEqual(['groups', 'id', 'positionName']);
      const fields = await list('fields=id,positionName,groups&limit=100');
      expect(fields.body.data).toEqual(sel.body.data);
      const both = await list('select=status&fields=id,positionName&limit=1');
      expect(Object.keys(both.body.data.data[0])).toEqual(['status']);
      expectErrorBody(await list('select=id,password'), 400);
      expectErrorBody(await list('fields=nope'), 400);
      // The OpenAPI document marks `fields` deprecated (and not `select`), and lists every filter.
      const doc = await h.svc.http.get('/settings/docs-json');
      const params: { name: string; deprecated?: boolean }[] = doc.body.paths['/settings/v1/positions'].get.parameters;
      expect(params.find((x) => x.name === 'fields')?.deprecated).toBe(true);
      expect(params.find((x) => x.name === 'select')?.deprecated).toBeFalsy();
      expect(params.map((x) => x.name).sort()).toEqual(
        [
          'page', 'limit', 'sortOrder', 'tenantId', 'sourceType', 'groupIds', 'status', 'search', 'sortBy', 'select', 'fields', 'selectedPositionIds',
          'createdAtStart', 'createdAtEnd', 'updatedAtStart', 'updatedAtEnd', 'delegationIssuerType', 'delegationIssuerUserId',
          'delegationIssuerPositionId', 'delegationPathway', 'delegationRecipientType', 'pinnedPositionIds',
        ].sort(),
      );
    });

    it('pinnedPositionIds come first (in the chosen sort), then the others; the total is unchanged', async () => {
      const res = await list(`pinnedPositionIds=${set.golf.id},${set.echo.id}&sortBy=positionName&limit=4`);
      expect(res.body.data.total).toBe(7);
      expect(res.body.data.data.map((p: Position) => p.positionName)).toEqual(['Echo 100% Remote', 'golf Guard', 'Alpha Analyst', 'bravo Builder']);
      const page2 = await list(`pinnedPositionIds=${set.golf.id},${set.echo.id}&sortBy=positionName&limit=4&page=2`);
      expect(page2.body.data.data.map((p: Position) => p.positionName)).toEqual(['Charlie Chief', 'delta Designer', 'foxtrot_fixer']);
      const desc = await list(`pinnedPositionIds=${set.alpha.id}&sortBy=createdOn&sortOrder=desc&limit=2`);
      expect(desc.body.data.data.map((p: Position) => p.positionName)).toEqual(['Alpha Analyst', 'golf Guard']);
      // A pinned position that does not match the filters stays out.
      const filtered = await list(`pinnedPositionIds=${set.bravo.id}&status=ACTIVE&sortBy=positionName&limit=2`);
      expect(filtered.body.data.data.map((p: Position) => p.positionName)).toEqual(['Alpha Analyst', 'Charlie Chief']);
    });

    it.each([
      ['limit', 'limit=101'],
      ['limit', 'limit=0'],
      ['page', 'page=0'],
      ['sourceType', 'sourceType=Foo'],
      ['status', 'status=DELETED'],
      ['sortBy', 'sortBy=salary'],
      ['sortOrder', 'sortOrder=up'],
      ['delegationIssuerType', 'delegationIssuerType=FOO'],
      ['delegationRecipientType', 'delegationRecipientType=ROOT_AUTHORITY'],
      ['delegationIssuerUserId', 'delegationIssuerUserId=42'],
      ['delegationIssuerPositionId', 'delegationIssuerPositionId=x'],
      ['delegationPathway', `delegationPathway=${'x'.repeat(51)}`],
      ['groupIds', 'groupIds=not-a-uuid'],
      ['selectedPositionIds', `selectedPositionIds=${Array.from({ length: 101 }, () => randomUUID()).join(',')}`],
      ['pinnedPositionIds', 'pinnedPositionIds=1'],
      ['createdAtStart', 'createdAtStart=yesterday'],
      ['updatedAtEnd', 'updatedAtEnd=2021-13-45'],
      ['createdAtEnd', 'createdAtEnd=2021-02-30T00:00:00Z'],
      ['tenantId', 'tenantId=demo'],
      ['offset', 'offset=3'],
    ])('400 naming %s (case %#)', async (field, qs) => {
      const res = await list(qs);
      expectErrorBody(res, 400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    });

    it('reading needs membership only: the auditor lists; another tenant is 403; Other Co sees only its own', async () => {
      expect((await list('limit=100', h.tokens.auditor)).body.data.total).toBe(7);
      expectErrorBody(await list(`tenantId=${h.other.id}`), 403);
      const mine = await create({ positionName: 'Alpha Analyst' }, h.tokens.otherAdmin);
      expect(mine.status).toBe(200);
      const theirs = await list('limit=100', h.tokens.otherAdmin);
      expect(theirs.body.data.data.map((p: Position) => p.id)).toEqual([mine.body.data.id]);
      expect(theirs.body.data.data[0].delegationsReceived).toBe(0);
    });
  });

  describe('POST /settings/v1/positions', () => {
    it('creates: 200, the envelope, every §2.6 field, the next display id, groups embedded; event in the outbox', async () => {
      const res = await create({
        tenantId: h.demo.id,
        positionName: '  Senior Developer  ',
        groupIds: [`${g.deptA}, ${g.org}`], // the product's documented quirk: one comma-joined string
        externalId: 'EXT-POS-12345',
        instanceId: 'db036aaa-14fe-454a-bc23-a722e4106925',
        isSCIMProvisioned: false,
        status: 'ACTIVE',
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'Position created successfully', timestamp: expect.stringMatching(ISO) });
      const p = res.body.data as Position;
      expect(Object.keys(p).sort()).toEqual(FIELDS);
      expect(p).toMatchObject({
        tenantId: h.demo.id,
        positionId: '10006',
        positionName: 'Senior Developer',
        isSCIMProvisioned: false,
        status: 'ACTIVE',
        isDeleted: false,
        createdOn: expect.stringMatching(ISO),
        updatedOn: expect.stringMatching(ISO),
        delegationsReceived: 0,
        delegationsIssued: 0,
        externalId: 'EXT-POS-12345',
        instanceId: 'db036aaa-14fe-454a-bc23-a722e4106925',
      });
      expect(p.groups.map((x) => [x.groupName, x.parentName])).toEqual([
        ['Dept A', 'Org'],
        ['Org', null],
      ]);
      const fetched = await h.svc.http.get(`${P}/${p.id}`, { token: h.tokens.auditor });
      expect(fetched.status).toBe(200);
      expect(fetched.body).toMatchObject({ statusCode: 200, message: 'Position retrieved successfully' });
      expect(fetched.body.data).toEqual(p);
      const events = await outbox('evt.settings.position.created');
      expect(events.at(-1)!.payload).toEqual({
        tenantId: h.demo.id,
        position: {
          id: p.id,
          positionName: 'Senior Developer',
          positionId: '10006',
          status: 'ACTIVE',
          isDeleted: false,
          externalId: 'EXT-POS-12345',
          isSCIMProvisioned: false,
          groupIds: p.groups.map((x: { groupId: string }) => x.groupId),
          updatedOn: p.updatedOn,
        },
      });
      const minimal = await create({ positionName: 'Minimal' });
      expect(minimal.body.data).toMatchObject({ positionId: '10007', status: 'ACTIVE', isSCIMProvisioned: false, externalId: null, instanceId: null, groups: [] });
    });

    it('409 for a name the tenant already has (any case); another tenant may use it', async () => {
      const res = await create({ positionName: 'senior DEVELOPER' });
      expectErrorBody(res, 409);
      expect(res.body.message).toBe('A position named "senior DEVELOPER" already exists in this tenant');
      expect((await create({ positionName: 'Senior Developer' }, h.tokens.otherAdmin)).status).toBe(200);
    });

    it('404 naming groups that are unknown, deleted or of another tenant; nothing is created', async () => {
      const unknown = randomUUID();
      const res = await create({ positionName: 'Orphan', groupIds: [g.deptA, unknown, g.gone, otherGroups.org] });
      expectErrorBody(res, 404);
      expect(res.body.message).toBe(`Groups not found: ${unknown}, ${g.gone}, ${otherGroups.org}`);
      expect(res.body.errors).toEqual([
        { field: 'groupIds.1', message: `Group ${unknown} not found` },
        { field: 'groupIds.2', message: `Group ${g.gone} not found` },
        { field: 'groupIds.3', message: `Group ${otherGroups.org} not found` },
      ]);
      expect(await sql(`SELECT 1 FROM settings.positions WHERE position_name = 'Orphan'`)).toEqual([]);
    });

    it('400 for bad input, listing every bad field', async () => {
      const res = await create({ positionName: 'x'.repeat(201), groupIds: ['nope'], status: 'GONE', isSCIMProvisioned: 'maybe', externalId: 'e'.repeat(256), salary: 1 });
      expectErrorBody(res, 400);
      expect([...new Set(res.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual(
        ['externalId', 'groupIds', 'isSCIMProvisioned', 'positionName', 'salary', 'status'].sort(),
      );
      expectErrorBody(await create({}), 400);
      expectErrorBody(await create({ positionName: '   ' }), 400);
      expectErrorBody(await create({ positionName: 'Many', groupIds: Array.from({ length: 101 }, () => g.org) }), 400);
    });

    it('400 for null where a value is optional but not nullable (status, isSCIMProvisioned, groupIds); externalId may be null', async () => {
      const res = await create({ positionName: 'Null Status', status: null, isSCIMProvisioned: null, groupIds: null });
      expectErrorBody(res, 400);
      expect(res.body.errors).toEqual(
        expect.arrayContaining([
          { field: 'status', message: 'must not be null' },
          { field: 'isSCIMProvisioned', message: 'must not be null' },
          { field: 'groupIds', message: 'must not be null' },
        ]),
      );
      expect([...new Set(res.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual(['groupIds', 'isSCIMProvisioned', 'status']);
      expectErrorBody(await create({ positionName: null }), 400);
      const nullable = await create({ positionName: 'Nullable Ext', externalId: null, instanceId: null });
      expect(nullable.status).toBe(200);
      expect(nullable.body.data).toMatchObject({ externalId: null, instanceId: null });
    });

    it('403 without manage:settings (auditor, manager, user) and in a tenant the caller is not a member of', async () => {
      for (const token of [h.tokens.auditor, h.tokens.manager, h.tokens.user]) {
        const res = await create({ positionName: 'Nope' }, token);
        expectErrorBody(res, 403);
        expect(res.body.message).toBe('Missing permission "manage:settings"');
      }
      expectErrorBody(await create({ tenantId: h.other.id, positionName: 'Nope' }), 403);
    });

    it('10 concurrent creates get 10 distinct positionIds', async () => {
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => create({ positionName: `Concurrent ${i}` })));
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
      const ids = results.map((r) => (r.body.data as Position).positionId);
      expect(new Set(ids).size).toBe(10);
      expect(new Set(results.map((r) => (r.body.data as Position).id)).size).toBe(10);
    });
  });

  describe('GET /settings/v1/positions/{id}', () => {
    it("404 for unknown and for Other Co's ids; 400 for a malformed id; 401 without a token", async () => {
      const theirs = (await create({ positionName: 'Their Secret' }, h.tokens.otherAdmin)).body.data as Position;
      expectErrorBody(await h.svc.http.get(`${P}/${theirs.id}`, { token: h.tokens.admin }), 404);
      expectErrorBody(await h.svc.http.get(`${P}/${randomUUID()}`, { token: h.tokens.admin }), 404);
      const bad = await h.svc.http.get(`${P}/10000`, { token: h.tokens.admin });
      expectErrorBody(bad, 400);
      expect(bad.body.errors).toEqual([{ field: 'id', message: 'must be a UUID' }]);
      expectErrorBody(await h.svc.http.get(`${P}/${theirs.id}`), 401);
      expect((await h.svc.http.get(`${P}/${theirs.id}`, { token: h.tokens.otherAdmin })).status).toBe(200);
    });
  });

  describe('PATCH /settings/v1/positions/{id}', () => {
    let p: Position;
    beforeAll(async () => {
      p = (await create({ positionName: 'Patchable', groupIds: [g.deptA, g.deptB] })).body.data;
    });

    it('changes the fields given; groupIds replaces the set (kept links keep createdAt); event in the outbox', async () => {
      await pastInstant(p.createdOn);
      const res = await h.svc.http.patch(`${P}/${p.id}`, {
        token: h.tokens.admin,
        body: { positionName: 'Patched', status: 'INACTIVE', isSCIMProvisioned: true, groupIds: [g.deptB, g.org] },
      });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Position updated successfully');
      const v = res.body.data as Position;
      expect(Object.keys(v).sort()).toEqual(FIELDS);
      expect(v).toMatchObject({ id: p.id, positionId: p.positionId, positionName: 'Patched', status: 'INACTIVE', isSCIMProvisioned: true, createdOn: p.createdOn });
      expect(v.updatedOn > p.updatedOn).toBe(true);
      expect(v.groups.map((x) => x.groupId)).toEqual([g.deptB, g.org]);
      expect(v.groups[0].createdAt).toBe(p.groups.find((x) => x.groupId === g.deptB)!.createdAt);
      expect((await h.svc.http.get(`${P}/${p.id}`, { token: h.tokens.admin })).body.data).toEqual(v);
      const events = await outbox('evt.settings.position.updated');
      expect(events.at(-1)!.payload).toEqual({
        tenantId: h.demo.id,
        position: {
          id: p.id,
          positionName: 'Patched',
          positionId: p.positionId,
          status: 'INACTIVE',
          isDeleted: false,
          externalId: null,
          isSCIMProvisioned: true,
          groupIds: [g.deptB, g.org],
          updatedOn: v.updatedOn,
        },
      });
      const cleared = await h.svc.http.patch(`${P}/${p.id}`, { token: h.tokens.admin, body: { groupIds: [] } });
      expect(cleared.body.data.groups).toEqual([]);
      // Its own name in another case is not a conflict.
      expect((await h.svc.http.patch(`${P}/${p.id}`, { token: h.tokens.admin, body: { positionName: 'PATCHED' } })).status).toBe(200);
    });

    it('409 renaming to a name in use; 404 for a group of another tenant; 400 for nothing to change or an unknown field', async () => {
      const taken = await h.svc.http.patch(`${P}/${p.id}`, { token: h.tokens.admin, body: { positionName: 'alpha analyst' } });
      expectErrorBody(taken, 409);
      const group = await h.svc.http.patch(`${P}/${p.id}`, { token: h.tokens.admin, body: { groupIds: [otherGroups.deptA] } });
      expectErrorBody(group, 404);
      expect(group.body.errors).toEqual([{ field: 'groupIds.0', message: `Group ${otherGroups.deptA} not found` }]);
      expectErrorBody(await h.svc.http.patch(`${P}/${p.id}`, { token: h.tokens.admin, body: {} }), 400);
      const nulls = await h.svc.http.patch(`${P}/${p.id}`, { token: h.tokens.admin, body: { status: null, isSCIMProvisioned: null, positionName: null } });
      expectErrorBody(nulls, 400);
      expect(nulls.body.errors.filter((e: { message: string }) => e.message === 'must not be null').map((e: { field: string }) => e.field).sort()).toEqual(['isSCIMProvisioned', 'positionName', 'status']);
      expect([...new Set(nulls.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual(['isSCIMProvisioned', 'positionName', 'status']);
      const unknown = await h.svc.http.patch(`${P}/${p.id}`, { token: h.tokens.admin, body: { externalId: 'X', isDeleted: true } });
      expectErrorBody(unknown, 400);
      expect(unknown.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['externalId', 'isDeleted']);
      expectErrorBody(await h.svc.http.patch(`${P}/${p.id}`, { token: h.tokens.admin, body: { positionName: 'y'.repeat(201) } }), 400);
      expectErrorBody(await h.svc.http.patch(`${P}/not-a-uuid`, { token: h.tokens.admin, body: { status: 'ACTIVE' } }), 400);
      expect((await h.svc.http.get(`${P}/${p.id}`, { token: h.tokens.admin })).body.data.positionName).toBe('PATCHED');
    });

    it("403 for auditor and manager; 404 for Other Co's position", async () => {
      for (const token of [h.tokens.auditor, h.tokens.manager]) expectErrorBody(await h.svc.http.patch(`${P}/${p.id}`, { token, body: { status: 'ACTIVE' } }), 403);
      const theirs = (await create({ positionName: 'Theirs To Patch' }, h.tokens.otherAdmin)).body.data as Position;
      expectErrorBody(await h.svc.http.patch(`${P}/${theirs.id}`, { token: h.tokens.admin, body: { status: 'INACTIVE' } }), 404);
      expect((await h.svc.http.get(`${P}/${theirs.id}`, { token: h.tokens.otherAdmin })).body.data.status).toBe('ACTIVE');
    });
  });

  describe('PATCH /settings/v1/positions/bulk-status-update', () => {
    it('{ total, successful, failed }: every position named is set; changed positions get an updated event each', async () => {
      const a = (await create({ positionName: 'Bulk A' })).body.data as Position;
      const b = (await create({ positionName: 'Bulk B', status: 'INACTIVE' })).body.data as Position;
      const before = (await outbox('evt.settings.position.updated')).length;
      const res = await h.svc.http.patch(`${P}/bulk-status-update`, { token: h.tokens.admin, body: { ids: [a.id, b.id, a.id], status: 'INACTIVE' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'Positions updated successfully' });
      expect(res.body.data).toEqual({ total: 2, successful: 2, failed: 0 });
      expect((await h.svc.http.get(`${P}/${a.id}`, { token: h.tokens.admin })).body.data.status).toBe('INACTIVE');
      const events = (await outbox('evt.settings.position.updated')).slice(before);
      expect(events.map((e) => e.payload.position.id)).toEqual([a.id]); // b already INACTIVE
      const changed = (await h.svc.http.get(`${P}/${a.id}`, { token: h.tokens.admin })).body.data;
      expect(events[0].payload).toEqual({
        tenantId: h.demo.id,
        position: { id: a.id, positionName: 'Bulk A', positionId: a.positionId, status: 'INACTIVE', isDeleted: false, externalId: null, isSCIMProvisioned: false, groupIds: [], updatedOn: changed.updatedOn },
      });
    });

    it("404 naming each id unknown or of Other Co (ids.N), and nothing changed", async () => {
      const a = (await create({ positionName: 'Bulk Kept' })).body.data as Position;
      const theirs = (await create({ positionName: 'Bulk Theirs' }, h.tokens.otherAdmin)).body.data as Position;
      const unknown = randomUUID();
      const before = (await outbox('evt.settings.position.updated')).length;
      const res = await h.svc.http.patch(`${P}/bulk-status-update`, { token: h.tokens.admin, body: { ids: [a.id, unknown, theirs.id], status: 'INACTIVE' } });
      expectErrorBody(res, 404);
      expect(res.body.errors).toEqual([
        { field: 'ids.1', message: `Position ${unknown} not found` },
        { field: 'ids.2', message: `Position ${theirs.id} not found` },
      ]);
      expect((await h.svc.http.get(`${P}/${a.id}`, { token: h.tokens.admin })).body.data.status).toBe('ACTIVE');
      expect((await h.svc.http.get(`${P}/${theirs.id}`, { token: h.tokens.otherAdmin })).body.data.status).toBe('ACTIVE');
      expect((await outbox('evt.settings.position.updated')).length).toBe(before);
    });

    it('400 for no ids, 501 ids, a malformed id or an unknown status; 403 for auditor and manager', async () => {
      const path = `${P}/bulk-status-update`;
      expectErrorBody(await h.svc.http.patch(path, { token: h.tokens.admin, body: { ids: [], status: 'ACTIVE' } }), 400);
      expectErrorBody(await h.svc.http.patch(path, { token: h.tokens.admin, body: { ids: Array.from({ length: 501 }, () => randomUUID()), status: 'ACTIVE' } }), 400);
      expectErrorBody(await h.svc.http.patch(path, { token: h.tokens.admin, body: { ids: ['x'], status: 'ACTIVE' } }), 400);
      expectErrorBody(await h.svc.http.patch(path, { token: h.tokens.admin, body: { ids: [randomUUID()], status: 'DELETED' } }), 400);
      // 500 ids are taken (the limit); unknown ones are a 404 naming every one.
      const fiveHundred = await h.svc.http.patch(path, { token: h.tokens.admin, body: { ids: Array.from({ length: 500 }, () => randomUUID()), status: 'ACTIVE' } });
      expectErrorBody(fiveHundred, 404);
      expect(fiveHundred.body.errors).toHaveLength(500);
      expect(fiveHundred.body.message).toMatch(/nothing was changed$/);
      for (const token of [h.tokens.auditor, h.tokens.manager]) expectErrorBody(await h.svc.http.patch(path, { token, body: { ids: [randomUUID()], status: 'ACTIVE' } }), 403);
    });
  });

  describe('DELETE /settings/v1/positions', () => {
    it('all or nothing: one unknown (or Other Co) id is a 404 naming it, and nothing is deleted', async () => {
      const a = (await create({ positionName: 'Delete A' })).body.data as Position;
      const theirs = (await create({ positionName: 'Delete Theirs' }, h.tokens.otherAdmin)).body.data as Position;
      const unknown = randomUUID();
      const res = await h.svc.http.delete(P, { token: h.tokens.admin, body: { ids: [a.id, unknown, theirs.id] } });
      expectErrorBody(res, 404);
      expect(res.body.message).toBe(`Positions not found: ${unknown}, ${theirs.id}; nothing was deleted`);
      expect(res.body.errors).toEqual([
        { field: 'ids.1', message: `Position ${unknown} not found` },
        { field: 'ids.2', message: `Position ${theirs.id} not found` },
      ]);
      expect((await h.svc.http.get(`${P}/${a.id}`, { token: h.tokens.admin })).status).toBe(200);
      expect((await h.svc.http.get(`${P}/${theirs.id}`, { token: h.tokens.otherAdmin })).status).toBe(200);
      expect(await sql(`SELECT 1 FROM settings.outbox WHERE subject = 'evt.settings.position.deleted'`)).toEqual([]);
    });

    it('deletes softly: 200 with the positions as they were (isDeleted true); they leave get and list; the name is free again; events', async () => {
      const a = (await create({ positionName: 'Delete Me', groupIds: [g.deptA] })).body.data as Position;
      const b = (await create({ positionName: 'Delete Me Too' })).body.data as Position;
      const res = await h.svc.http.delete(P, { token: h.tokens.admin, body: { ids: [b.id, a.id] } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ statusCode: 200, message: 'Positions deleted successfully' });
      expect(res.body.data).toEqual([
        { ...b, isDeleted: true, updatedOn: expect.stringMatching(ISO) },
        { ...a, isDeleted: true, updatedOn: expect.stringMatching(ISO) },
      ]);
      // A deletion is a change: updatedOn moves (updatedAtStart finds it).
      expect(res.body.data[1].updatedOn > a.updatedOn).toBe(true);
      for (const x of res.body.data) expect(Object.keys(x).sort()).toEqual(FIELDS);
      expectErrorBody(await h.svc.http.get(`${P}/${a.id}`, { token: h.tokens.admin }), 404);
      expect((await list(`selectedPositionIds=${a.id},${b.id}`)).body.data.total).toBe(0);
      expect((await list('search=Delete%20Me')).body.data.total).toBe(0);
      const [row] = await sql<{ deleted_on: Date | null; deleted_by: string | null }>(`SELECT deleted_on, deleted_by FROM settings.positions WHERE id = $1`, [a.id]);
      expect(row.deleted_on).not.toBeNull();
      expect(row.deleted_by).not.toBeNull();
      const events = await outbox('evt.settings.position.deleted');
      expect(events.map((e) => e.payload.position.id)).toEqual([b.id, a.id]);
      expect(events[1].payload).toEqual({
        tenantId: h.demo.id,
        position: {
          id: a.id,
          positionName: 'Delete Me',
          positionId: a.positionId,
          status: 'ACTIVE',
          isDeleted: true,
          externalId: null,
          isSCIMProvisioned: false,
          groupIds: [g.deptA],
          updatedOn: res.body.data[1].updatedOn,
        },
      });
      // Already deleted: a 404 now.
      expectErrorBody(await h.svc.http.delete(P, { token: h.tokens.admin, body: { ids: [a.id] } }), 404);
      expect((await create({ positionName: 'Delete Me' })).status).toBe(200);
    });

    it('400 for no ids, 501 ids, a malformed id or an unknown field; 403 for auditor and manager', async () => {
      expectErrorBody(await h.svc.http.delete(P, { token: h.tokens.admin, body: { ids: [] } }), 400);
      expectErrorBody(await h.svc.http.delete(P, { token: h.tokens.admin, body: {} }), 400);
      expectErrorBody(await h.svc.http.delete(P, { token: h.tokens.admin, body: { ids: Array.from({ length: 501 }, () => randomUUID()) } }), 400);
      const bad = await h.svc.http.delete(P, { token: h.tokens.admin, body: { ids: ['10000'] } });
      expectErrorBody(bad, 400);
      expect(bad.body.errors[0].field).toBe('ids');
      expectErrorBody(await h.svc.http.delete(P, { token: h.tokens.admin, body: { ids: [randomUUID()], force: true } }), 400);
      for (const token of [h.tokens.auditor, h.tokens.manager]) expectErrorBody(await h.svc.http.delete(P, { token, body: { ids: [randomUUID()] } }), 403);
    });
  });
});

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
