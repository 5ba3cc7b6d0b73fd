import { randomUUID } from 'node:crypto';
import { expectErrorBody, startHarness } from '@ddm/testing';
import { matrixApp, MatrixHarness } from './fixtures/matrix-app';
import {
  announceAuthorityType,
  announceCategory,
  announceDecision,
  announceDecisionRole,
  announceGroup,
  announcePosition,
  announceSection,
} from './fixtures/announcements';

/** The records of one tenant a matrix body may name. */
interface Records {
  group: string;
  position: string;
  section: string;
  category: string;
  decision: string;
  authorityType: string;
  role: string;
  user: string;
  matrix: string;
}

describe('matrix bodies as a client of the product sends them: tenantId and ownerId, ids checked, PATCH beside PUT, objects and filters validated (e2e, real Postgres and NATS)', () => {
  let h: MatrixHarness;
  let demo: Records;
  let other: Records;
  let managerId: string;
  let userId: string;
  let adminId: string;

  const post = (path: string, token: string, body: unknown) => h.svc.http.post(`/matrix/v1/matrix${path}`, { token, body });
  const put = (id: string, body: unknown, token = h.tokens.admin) => h.svc.http.put(`/matrix/v1/matrix/${id}`, { token, body });
  const patch = (id: string, body: unknown, token = h.tokens.admin) => h.svc.http.patch(`/matrix/v1/matrix/${id}`, { token, body });
  const get = async (id: string) => {
    const res = await h.svc.http.get(`/matrix/v1/matrix/${id}`, { token: h.tokens.admin });
    expect(res.status).toBe(200);
    return res.body.data as Record<string, any>;
  };
  const create = async (body: Record<string, unknown>, token = h.tokens.admin) => {
    const res = await post('', token, body);
    expect({ status: res.status, errors: res.body.errors }).toEqual({ status: 200, errors: undefined });
    return res.body.data as Record<string, any>;
  };
  /** What a refused request must leave as it was: every matrix row and every event queued. */
  const state = async () => ({
    matrices: await h.db.query(`SELECT id, matrix_name, owner_id, updated_on::text, group_ids, position_ids, shared_user_ids, authority_roles, delegation_filter FROM matrix.matrices ORDER BY id`),
    outbox: (await h.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM matrix.outbox`))[0].n,
  });

  /** A body naming every kind of record, all of them `r`'s. */
  const everyId = (r: Records) => ({
    ownerId: r.user,
    copiedFromMatrix: r.matrix,
    sectionIds: [r.section],
    categoryIds: [r.category],
    groupIds: [r.group],
    positionIds: [r.position],
    userIds: [r.user],
    matrixDecisions: [{ decisionId: r.decision, isDisabled: false }],
    matrixAuthorityRoles: [{ authorityRoleId: r.role, isEnabled: true }],
    matrixDelegation: { authorityTypeIds: [r.authorityType], delegationRole: true, roleIds: [r.role], issuanceStatusNames: ['ISSUED'] },
    matrixSharing: { type: 'SHARED', sharingOption: 'USERS_GROUPS', userIds: [r.user], groupIds: [r.group], link: false, viewerAdjustableFilters: false },
  });

  /**
   * Each id-taking place of a body: the field an error names, and the body naming there the id `idOf`
   * gives for that kind of record (the rest of the body the demo tenant's own).
   */
  const idPlaces = (idOf: (kind: keyof Records) => string): [string, Record<string, unknown>, string][] => {
    const own = everyId(demo);
    const place = (field: string, kind: keyof Records, body: (id: string) => Record<string, unknown>): [string, Record<string, unknown>, string] => {
      const id = idOf(kind);
      return [field, body(id), id];
    };
    return [
      place('ownerId', 'user', (id) => ({ ownerId: id })),
      place('copiedFromMatrix', 'matrix', (id) => ({ copiedFromMatrix: id })),
      place('sectionIds.1', 'section', (id) => ({ sectionIds: [demo.section, id] })),
      place('categoryIds.0', 'category', (id) => ({ categoryIds: [id] })),
      place('groupIds.0', 'group', (id) => ({ groupIds: [id] })),
      place('positionIds.1', 'position', (id) => ({ positionIds: [demo.position, id] })),
      place('userIds.0', 'user', (id) => ({ userIds: [id] })),
      place('matrixDecisions.0.decisionId', 'decision', (id) => ({ matrixDecisions: [{ decisionId: id }] })),
      place('matrixAuthorityRoles.0.authorityRoleId', 'role', (id) => ({ matrixAuthorityRoles: [{ authorityRoleId: id, isEnabled: true }] })),
      place('matrixDelegation.authorityTypeIds.0', 'authorityType', (id) => ({ matrixDelegation: { ...own.matrixDelegation, authorityTypeIds: [id] } })),
      place('matrixDelegation.roleIds.0', 'role', (id) => ({ matrixDelegation: { ...own.matrixDelegation, roleIds: [id] } })),
      place('matrixSharing.userIds.0', 'user', (id) => ({ matrixSharing: { ...own.matrixSharing, userIds: [id] } })),
      place('matrixSharing.groupIds.0', 'group', (id) => ({ matrixSharing: { ...own.matrixSharing, groupIds: [id] } })),
    ];
  };
  /** Another tenant's record of each kind, and a made-up id. */
  const refused = (): [string, (kind: keyof Records) => string][] => [
    ['another tenant’s', (kind) => other[kind]],
    ['unknown', () => randomUUID()],
  ];
  const fieldsOf = (res: { body: { errors?: { field: string }[] } }) => [...new Set((res.body.errors ?? []).map((e) => e.field))];

  const recordsOf = async (tenantId: string, token: string, userId: string, prefix: string): Promise<Records> => {
    const group = await announceGroup(h, tenantId, `${prefix} Board`);
    const section = await announceSection(h, tenantId, `${prefix} Finance`);
    const decision = randomUUID();
    await announceDecision(h, tenantId, { id: decision, decisionDisplayId: '10000', name: `${prefix} Approve budget`, sectionId: section });
    return {
      group,
      position: await announcePosition(h, tenantId, `${prefix} CFO`, [group]),
      section,
      category: await announceCategory(h, tenantId, `${prefix} Spending`, section),
      decision,
      authorityType: await announceAuthorityType(h, tenantId, `${prefix} Approval`),
      role: await announceDecisionRole(h, tenantId, `${prefix} Informed`),
      user: userId,
      matrix: (await create({ matrixName: `${prefix} source matrix` }, token)).id,
    };
  };

  beforeAll(async () => {
    h = await startHarness(matrixApp);
    adminId = h.users.get('admin@demo.test')!;
    managerId = h.users.get('manager@demo.test')!;
    userId = h.users.get('user@demo.test')!;
    demo = await recordsOf(h.demo.id, h.tokens.admin, userId, 'Demo');
    other = await recordsOf(h.other.id, h.tokens.otherAdmin, h.users.get('admin@other.test')!, 'Other');
  });
  afterAll(() => h?.close());

  it('a product-shaped create, with tenantId and ownerId and every list, answers 200 owned by ownerId; left out, the owner is the caller', async () => {
    const created = await create({
      tenantId: h.demo.id,
      matrixName: 'Product-shaped matrix',
      matrixDescription: 'As the product’s client sends it',
      roleMatrix: true,
      authorityMatrix: true,
      matrixStatusId: '0199a000-0000-7000-8000-000000000002',
      currentTab: 'grid',
      ...everyId(demo),
      ownerId: managerId,
      matrixAuthorityFormatting: { valueAbbrevations: 'Abbreviated', valueRounding: '1', timeUnit: 'Days', timeRounding: '0', delegationIdentification: 'ID', displayCurrencyCode: 'Yes' },
      matrixExternalSharing: { isEnabled: false },
    });
    expect(created).toMatchObject({
      tenantId: h.demo.id,
      ownerId: managerId,
      copiedFromMatrix: demo.matrix,
      matrixStatus: { statusName: 'Draft' },
      matrixSections: [{ sectionId: demo.section, name: 'Demo Finance' }],
      matrixCategories: [{ categoryId: demo.category, name: 'Demo Spending' }],
      matrixDecisions: [{ decisionId: demo.decision, isDisabled: false }],
      matrixAuthorityRoles: [{ authorityRoleId: demo.role, isEnabled: true }],
      matrixDelegation: { authorityTypeIds: [demo.authorityType], roleIds: [demo.role], delegationRole: true },
      matrixSharing: { type: 'SHARED', users: [{ userId: demo.user }], groups: [{ groupId: demo.group }] },
    });
    expect(created.ownerDetails).toMatchObject({ id: managerId, email: 'manager@demo.test' });
    expect(created.matrixGroups).toEqual([expect.objectContaining({ tenantGroupsMappingId: demo.group, groupDetails: expect.objectContaining({ groupName: 'Demo Board' }) })]);
    expect(created.matrixPositions).toEqual([expect.objectContaining({ positionId: demo.position, positionDetails: expect.objectContaining({ positionName: 'Demo CFO' }) })]);
    expect(created.matrixUsers).toEqual([expect.objectContaining({ userId: demo.user, userDetails: expect.objectContaining({ email: 'user@demo.test' }) })]);

    const byDefault = await create({ tenantId: h.demo.id, matrixName: 'Owned by the caller' });
    expect(byDefault).toMatchObject({ tenantId: h.demo.id, ownerId: adminId });
  });

  it('a tenantId the caller is not a member of is a 403 on create, PUT and PATCH, and changes nothing', async () => {
    const before = await state();
    for (const res of [
      await post('', h.tokens.admin, { tenantId: h.other.id, matrixName: 'Elsewhere' }),
      await put(demo.matrix, { tenantId: h.other.id, matrixName: 'Elsewhere' }),
      await patch(demo.matrix, { tenantId: h.other.id, matrixName: 'Elsewhere' }),
    ]) {
      expectErrorBody(res, 403);
    }
    expect(await state()).toEqual(before);
  });

  it('create: another tenant’s id and an unknown id, in every place a body names one, is a 404 naming the field; nothing is created', async () => {
    const before = await state();
    for (const [label, idOf] of refused()) {
      for (const [field, body, named] of idPlaces(idOf)) {
        const res = await post('', h.tokens.admin, { matrixName: 'Refused', ...body });
        expectErrorBody(res, 404);
        expect({ label, field, errors: res.body.errors }).toEqual({ label, field, errors: [{ field, message: expect.stringContaining(named.toLowerCase()) }] });
      }
    }
    // Several at once: each named.
    const many = await post('', h.tokens.admin, { matrixName: 'Refused', groupIds: [demo.group, other.group], positionIds: [randomUUID()], matrixSharing: { type: 'SHARED', groupIds: [other.group] } });
    expectErrorBody(many, 404);
    expect(many.body.errors.map((e: { field: string }) => e.field)).toEqual(['groupIds.1', 'positionIds.0', 'matrixSharing.groupIds.0']);
    expect(await state()).toEqual(before);
  });

  it('PUT and PATCH: another tenant’s id and an unknown id, in every place, is a 404 naming the field; the matrix is left as it was', async () => {
    const target = await create({ matrixName: 'Target', ...everyId(demo) });
    const before = await state();
    for (const [label, idOf] of refused()) {
      for (const [field, body] of idPlaces(idOf)) {
        for (const [verb, res] of [
          ['PUT', await put(target.id, { matrixName: 'Changed', ...body })],
          ['PATCH', await patch(target.id, { matrixName: 'Changed', ...body })],
        ] as const) {
          expect({ label, verb, field, status: res.status, fields: fieldsOf(res) }).toEqual({ label, verb, field, status: 404, fields: [field] });
        }
      }
    }
    expect(await state()).toEqual(before);
    expect(await get(target.id)).toMatchObject({ matrixName: 'Target', ownerId: demo.user, copiedFromMatrix: demo.matrix, matrixPositions: [expect.objectContaining({ positionId: demo.position })] });
  });

  it('other bodies naming ids: a saved view of another tenant’s or an unknown matrix, a bulk reassignment to a non-member, are 404 naming the field', async () => {
    const before = await state();
    for (const matrixId of [other.matrix, randomUUID()]) {
      const res = await post('/view', h.tokens.admin, { matrixId, viewData: {} });
      expectErrorBody(res, 404);
      expect(res.body.errors).toEqual([{ field: 'matrixId', message: expect.stringContaining(matrixId) }]);
    }
    for (const ownerId of [other.user, randomUUID()]) {
      const res = await post('/bulk-reassign-owner', h.tokens.admin, { matrixIds: [demo.matrix], ownerId });
      expectErrorBody(res, 404);
      expect(res.body.errors).toEqual([{ field: 'ownerId', message: expect.stringContaining(ownerId) }]);
    }
    expect(await state()).toEqual(before);
    expect((await h.db.query(`SELECT 1 FROM matrix.user_views`)).length).toBe(0);
  });

  it('PATCH changes only what it names (the README’s sharing example keeps positions and sharing), with the same events and permission as PUT', async () => {
    const full = await create({
      matrixName: 'Full',
      matrixDescription: 'Every field set',
      currentTab: 'grid',
      ...everyId(demo),
      ownerId: adminId,
      matrixAuthorityFormatting: { valueAbbrevations: 'Abbreviated', displayCurrencyCode: 'Yes' },
      matrixExternalSharing: { isEnabled: true, isPasswordRequired: true, password: 'a long secret' },
    });
    const events = async () => (await h.db.query<{ subject: string }>(`SELECT subject FROM matrix.outbox WHERE payload->>'id' = $1 ORDER BY created_at, id`, [full.id])).map((e) => e.subject);
    const comparable = (m: Record<string, any>) => {
      const { updatedOn: _updatedOn, matrixName: _matrixName, matrixExternalSharing, matrixSharing, ...rest } = m;
      return { ...rest, matrixSharing: { ...matrixSharing, externalSharing: undefined }, token: matrixExternalSharing.token };
    };

    const res = await patch(full.id, { matrixName: 'Renamed', matrixExternalSharing: { isEnabled: true, isPasswordRequired: true } });
    expect(res.status).toBe(200);
    expect(res.body.data.matrixName).toBe('Renamed');
    expect(comparable(res.body.data)).toEqual(comparable(full));
    expect(res.body.data.matrixPositions).toHaveLength(1);
    expect(res.body.data.matrixSharing).toMatchObject({ type: 'SHARED', users: [{ userId: demo.user }], groups: [{ groupId: demo.group }] });
    expect(res.body.data.matrixExternalSharing).toMatchObject({ isEnabled: true, isPasswordRequired: true, token: full.matrixExternalSharing.token });
    const [{ ext_password_hash }] = await h.db.query<{ ext_password_hash: string | null }>(`SELECT ext_password_hash FROM matrix.matrices WHERE id = $1`, [full.id]);
    expect(ext_password_hash).toEqual(expect.any(String)); // the password kept
    expect(await events()).toEqual(['evt.matrix.matrix.created', 'evt.matrix.matrix.updated']);

    // One field at a time; null clears a nullable one; a list is replaced whole.
    const cleared = await patch(full.id, { matrixDescription: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ matrixName: 'Renamed', matrixDescription: null, currentTab: 'grid' });
    const positions = await patch(full.id, { positionIds: [] });
    expect(positions.body.data.matrixPositions).toEqual([]);
    expect(comparable({ ...positions.body.data, matrixPositions: full.matrixPositions, matrixDescription: full.matrixDescription })).toEqual(comparable(full));
    const owner = await patch(full.id, { ownerId: managerId });
    expect(owner.body.data).toMatchObject({ ownerId: managerId, matrixName: 'Renamed', matrixSharing: { type: 'SHARED' } });
    expect(await events()).toEqual(['evt.matrix.matrix.created', ...Array(4).fill('evt.matrix.matrix.updated')]);

    // The same checks: nothing named, null for a field that is not nullable, no edit:matrices.
    for (const [body, field] of [
      [{}, undefined],
      [{ tenantId: h.demo.id }, undefined],
      [{ matrixName: null }, 'matrixName'],
      [{ matrixName: '' }, 'matrixName'],
      [{ matrixSharing: null }, 'matrixSharing'],
      [{ nope: 1 }, 'nope'],
    ] as const) {
      const bad = await patch(full.id, body);
      expectErrorBody(bad, 400);
      if (field) expect(bad.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const denied = await patch(full.id, { matrixName: 'Hijacked' }, h.tokens.user);
    expectErrorBody(denied, 403);
    expect(denied.body.message).toBe('Missing permission "edit:matrices"');
    const unknown = await patch(randomUUID(), { matrixName: 'Nobody' });
    expectErrorBody(unknown, 404);
    expect((await get(full.id)).matrixName).toBe('Renamed');
  });

  it('PUT still replaces the whole matrix: what is left out takes its default (the owner is kept), and the OpenAPI document says so', async () => {
    const full = await create({ matrixName: 'Replaced', ...everyId(demo), matrixExternalSharing: { isEnabled: true } });
    const res = await put(full.id, { matrixName: 'Replaced', matrixExternalSharing: { isEnabled: true } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      ownerId: demo.user, // everyId names the user as owner
      copiedFromMatrix: null,
      matrixPositions: [],
      matrixGroups: [],
      matrixUsers: [],
      matrixDecisions: [],
      matrixSections: [],
      matrixAuthorityRoles: [],
      matrixSharing: { type: 'PRIVATE', users: [], groups: [] },
      matrixExternalSharing: { isEnabled: true, token: full.matrixExternalSharing.token },
    });

    const doc = (await h.svc.http.get('/matrix/docs-json')).body;
    const item = doc.paths['/matrix/v1/matrix/{id}'];
    expect(item.put.summary).toMatch(/full update/i);
    expect(item.put.description).toMatch(/PATCH/);
    expect(item.patch.summary).toBeDefined();
    const schemaOf = (op: any) => op.requestBody.content['application/json'].schema.$ref.split('/').pop();
    expect(doc.components.schemas[schemaOf(item.put)].required).toEqual(['matrixName']);
    expect(doc.components.schemas[schemaOf(item.patch)].required ?? []).toEqual([]);
    expect(Object.keys(doc.components.schemas[schemaOf(doc.paths['/matrix/v1/matrix'].post)].properties)).toEqual(expect.arrayContaining(['tenantId', 'ownerId']));
  });

  it('an array (or a scalar) where an object belongs is a 400 naming the field, in create, PUT, PATCH and the searches; nothing is stored', async () => {
    const before = await state();
    for (const field of ['matrixDelegation', 'matrixAuthorityFormatting', 'matrixSharing', 'matrixExternalSharing']) {
      for (const value of [[], [{}], 'x', 1]) {
        for (const [verb, res] of [
          ['POST', await post('', h.tokens.admin, { matrixName: 'Arrays', [field]: value })],
          ['PUT', await put(demo.matrix, { matrixName: 'Arrays', [field]: value })],
          ['PATCH', await patch(demo.matrix, { [field]: value })],
        ] as const) {
          expect({ verb, field, value, status: res.status, fields: fieldsOf(res) }).toEqual({
            verb,
            field,
            value,
            status: 400,
            fields: expect.arrayContaining([field]),
          });
        }
      }
    }
    for (const field of ['decisionsCount', 'delegationsCount']) {
      for (const path of ['/global-search', '/status-counts']) {
        const res = await post(path, h.tokens.admin, { [field]: [] });
        expectErrorBody(res, 400);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
    }
    expect(await state()).toEqual(before);
  });

  it('an empty string as a filter of the searches is a 400 naming the field (null or leaving it out is no filter)', async () => {
    const fields = [
      'groupIds', 'positionIds', 'userIds', 'sectionIds', 'categoryIds', 'ownerIds', 'selectedMatrixIds', 'search', 'matrixStatusName', 'countStatusName',
      'matrixSharingType', 'startDate', 'endDate', 'createdAtStart', 'createdAtEnd', 'updatedAtStart', 'updatedAtEnd', 'tenantId', 'status',
    ];
    for (const path of ['/global-search', '/status-counts']) {
      for (const field of fields) {
        for (const value of ['', ...(field.endsWith('Ids') ? [' , '] : [])]) {
          const res = await post(path, h.tokens.admin, { [field]: value });
          expect({ path, field, value, status: res.status, fields: fieldsOf(res) }).toEqual({
            path,
            field,
            value,
            status: 400,
            fields: [field],
          });
        }
      }
      // No filter: left out, null, an empty list; a comma string still filters.
      for (const body of [{}, { groupIds: null, search: null }, { groupIds: [] }, { groupIds: `${demo.group}` }]) {
        const res = await post(path, h.tokens.admin, body);
        expect({ path, body, status: res.status }).toEqual({ path, body, status: 200 });
      }
    }
  });
});
