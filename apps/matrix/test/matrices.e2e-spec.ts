import { randomUUID } from 'node:crypto';
import { expectErrorBody, httpClient, ISO, publishEvent, startHarness, until } from '@ddm/testing';
import { matrixApp, MatrixHarness } from './fixtures/matrix-app';
import { announceCategory, announceDecision, announceDecisionRole, announceGroup, announcePosition, announceSection } from './fixtures/announcements';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('matrices: CRUD, sharing, saved views, favourites, search and bulk owner reassignment (e2e, real Postgres and NATS)', () => {
  let h: MatrixHarness;
  let group: string;
  let otherGroup: string;
  let position: string;
  let section: string;
  let category: string;
  let role: string;
  const decisions = { a: randomUUID(), b: randomUUID(), draft: randomUUID() };
  let userId: string;
  let auditorId: string;
  let adminId: string;
  let managerId: string;

  const post = (path: string, token: string, body: unknown) => h.svc.http.post(`/matrix/v1/matrix${path}`, { token, body });
  const create = async (token: string, body: Record<string, unknown>) => {
    const res = await post('', token, body);
    expect(res.status).toBe(200);
    return res.body.data as Record<string, any>;
  };
  const search = async (token: string, body: Record<string, unknown>) => {
    const res = await post('/global-search', token, body);
    expect(res.status).toBe(200);
    return res.body.data as { page: number; limit: number; total: number; data: Record<string, any>[] };
  };
  const names = async (token: string, body: Record<string, unknown>) => (await search(token, { limit: 100, sortBy: 'matrixName', sortOrder: 'asc', ...body })).data.map((m) => m.matrixName);

  let finance: Record<string, any>;
  let board: Record<string, any>;
  let draft: Record<string, any>;
  let otherTenants: Record<string, any>;

  beforeAll(async () => {
    h = await startHarness(matrixApp);
    userId = h.users.get('user@demo.test')!;
    auditorId = h.users.get('auditor@demo.test')!;
    adminId = h.users.get('admin@demo.test')!;
    managerId = h.users.get('manager@demo.test')!;
    group = await announceGroup(h, h.demo.id, 'Board');
    otherGroup = await announceGroup(h, h.other.id, 'Other Board');
    position = await announcePosition(h, h.demo.id, 'CFO', [group]);
    section = await announceSection(h, h.demo.id, 'Finance');
    category = await announceCategory(h, h.demo.id, 'Spending', section);
    role = await announceDecisionRole(h, h.demo.id, 'Informed');
    await announceDecision(h, h.demo.id, { id: decisions.a, decisionDisplayId: '10000', name: 'Approve budget', sectionId: section, categoryId: category });
    await announceDecision(h, h.demo.id, { id: decisions.b, decisionDisplayId: '10001', name: 'Sign contracts' });
    await announceDecision(h, h.demo.id, { id: decisions.draft, decisionDisplayId: '10002', name: 'Draft decision', status: 'DRAFT' });
  });
  afterAll(() => h?.close());

  it('create answers 200 with every §2.12 field, owned by the caller; PRIVATE and Active by default', async () => {
    finance = await create(h.tokens.admin, {
      matrixName: 'Finance authority matrix',
      matrixDescription: 'Who approves spending',
      positionIds: [position],
      sectionIds: [section],
      categoryIds: [category],
      matrixDecisions: [{ decisionId: decisions.a }],
      matrixSharing: { type: 'SHARED', sharingOption: 'USERS_GROUPS', userIds: [userId], groupIds: [group] },
      matrixAuthorityFormatting: { valueAbbrevations: 'Abbreviated', displayCurrencyCode: 'Yes' },
      matrixDelegation: { issuanceStatusNames: ['ISSUED', 'SUSPENDED'], primaryLimitTypes: { Primary: { min: 0, max: 1000000 }, Authority: true } },
      matrixAuthorityRoles: [{ authorityRoleId: role, isEnabled: true }],
    });
    expect(finance).toMatchObject({
      matrixId: '10000',
      matrixName: 'Finance authority matrix',
      matrixDescription: 'Who approves spending',
      roleMatrix: false,
      authorityMatrix: true,
      tenantId: h.demo.id,
      ownerId: adminId,
      decisionCount: 1,
      delegationCount: 0,
      suspendedDelegationsCount: 0,
      pendingDelegationsCount: 0,
      copiedFromMatrix: null,
      currentTab: null,
      isFavorite: false,
      isUserSavedPersonalView: false,
      matrixSections: [{ sectionId: section, name: 'Finance' }],
      matrixCategories: [{ categoryId: category, name: 'Spending' }],
      matrixStatus: { statusName: 'Active', isActive: true },
      matrixDecisions: [{ id: decisions.a, decisionId: decisions.a, isDisabled: false, disabledOn: null }],
      matrixAuthorityFormatting: { valueAbbrevations: 'Abbreviated', displayCurrencyCode: 'Yes', valueRounding: null, timeUnit: null, timeRounding: null, delegationIdentification: null },
      matrixExternalSharing: { isEnabled: false, isExpirationEnabled: false, expirationDate: null, isPasswordRequired: false, link: null, token: null },
    });
    expect(finance.id).toMatch(UUID);
    expect(finance.createdOn).toMatch(ISO);
    expect(finance.updatedOn).toMatch(ISO);
    expect(finance.link).toContain(finance.id);
    expect(finance.ownerDetails).toMatchObject({ id: adminId, email: 'admin@demo.test', isActive: true });
    expect(Array.isArray(finance.ownerDetails.positions)).toBe(true);
    expect(finance.matrixSharing).toMatchObject({ type: 'SHARED', sharingOption: 'USERS_GROUPS', link: false, viewerAdjustableFilters: false, externalSharing: false });
    expect(finance.matrixSharing.id).toMatch(UUID);
    expect(finance.matrixSharing.users).toEqual([{ id: userId, userId, userDetails: expect.objectContaining({ id: userId, email: 'user@demo.test' }) }]);
    expect(finance.matrixSharing.groups).toEqual([
      { id: group, groupId: group, groupDetails: expect.objectContaining({ id: group, groupName: 'Board', tenantId: h.demo.id, status: 'ACTIVE', parentGroupIds: [], isSynced: false }) },
    ]);
    expect(finance.matrixPositions).toEqual([
      { id: position, positionId: position, positionDetails: { id: position, tenantId: h.demo.id, positionName: 'CFO', isScimProvisioned: false, status: 'ACTIVE', groupIds: [group] } },
    ]);
    expect(finance.matrixGroups).toEqual([]);
    expect(finance.matrixUsers).toEqual([]);
    expect(finance.matrixAuthorityRoles).toHaveLength(1);
    expect(finance.matrixDelegation).toMatchObject({ issuanceStatusNames: ['ISSUED', 'SUSPENDED'], primaryLimitTypes: { Primary: { min: 0, max: 1000000 }, Authority: true }, delegationRole: false });
    expect(finance.permissions).toEqual(
      expect.arrayContaining([
        { relationship_key: 'edit:matrices', allowed: true },
        { relationship_key: 'share:matrices', allowed: true },
        { relationship_key: 'change_owner:matrices', allowed: true },
      ]),
    );

    board = await create(h.tokens.admin, { matrixName: 'Board matrix', groupIds: [group] });
    expect(board).toMatchObject({ matrixId: '10001', matrixSharing: { type: 'PRIVATE', users: [], groups: [] }, decisionCount: 2 }); // no decisions chosen: every published one
    expect(board.matrixGroups).toEqual([{ id: group, tenantGroupsMappingId: group, groupDetails: expect.objectContaining({ groupName: 'Board' }) }]);
    const statuses = await h.svc.http.get('/matrix/v1/matrix/statuses', { token: h.tokens.user });
    expect(statuses.status).toBe(200);
    expect(statuses.body.data.map((s: { statusName: string }) => s.statusName)).toEqual(['Active', 'Draft', 'Archived']);
    const draftId = statuses.body.data[1].id;
    draft = await create(h.tokens.manager, { matrixName: 'Draft roles', matrixStatusId: draftId, roleMatrix: true, authorityMatrix: false, userIds: [userId] });
    expect(draft).toMatchObject({ matrixStatus: { id: draftId, statusName: 'Draft' }, roleMatrix: true, ownerId: managerId });
    otherTenants = await create(h.tokens.otherAdmin, { matrixName: 'Other Co matrix' });
  });

  it('400 on bad input, naming the field: unknown field, bad status, bad sharing, limit 101, unknown select, a viewData that is not an object', async () => {
    const cases: [string, unknown, string][] = [
      ['', { matrixName: 'X', nope: 1 }, 'nope'],
      ['', { matrixName: '' }, 'matrixName'],
      ['', { matrixName: 'X', matrixStatusId: randomUUID() }, 'matrixStatusId'],
      ['', { matrixName: 'X', matrixSharing: { type: 'OPEN' } }, 'matrixSharing.type'],
      ['', { matrixName: 'X', matrixSharing: { type: 'SHARED', userIds: ['not-a-uuid'] } }, 'matrixSharing.userIds'],
      ['', { matrixName: 'X', matrixExternalSharing: { isEnabled: true, isPasswordRequired: true } }, 'matrixExternalSharing.password'],
      ['/global-search', { limit: 101 }, 'limit'],
      ['/global-search', { unknownFilter: true }, 'unknownFilter'],
      ['/global-search', { matrixStatusName: 'Deleted' }, 'matrixStatusName'],
      ['/status-counts', { page: 1 }, 'page'],
      ['/global-search', { select: 'matrixName,secret' }, 'select'],
      ['/global-search', { sortBy: 'password' }, 'sortBy'],
      ['/global-search', { decisionsCount: { minValue: 'abc' } }, 'decisionsCount.minValue'],
      ['/global-search', { delegationsCount: { maxValue: 'Lots' } }, 'delegationsCount.maxValue'],
      ['/global-search', { groupIds: 'x,y' }, 'groupIds'],
      ['/view', { matrixId: finance?.id, viewData: [1, 2] }, 'viewData'],
      ['/view', { matrixId: finance?.id, viewData: 'text' }, 'viewData'],
      ['/view', { matrixId: finance?.id, viewData: { big: 'x'.repeat(70 * 1024) } }, 'viewData'],
      ['/bulk-reassign-owner', { matrixIds: [], ownerId: userId }, 'matrixIds'],
      ['/bulk-reassign-owner', { matrixIds: Array.from({ length: 501 }, () => randomUUID()), ownerId: userId }, 'matrixIds'],
    ];
    for (const [path, body, field] of cases) {
      const res = await post(path, h.tokens.admin, body);
      expectErrorBody(res, 400);
      expect({ path, fields: res.body.errors?.map((e: { field: string }) => e.field) }).toEqual({ path, fields: expect.arrayContaining([field]) });
    }
    const badId = await h.svc.http.get('/matrix/v1/matrix/not-a-uuid', { token: h.tokens.admin });
    expectErrorBody(badId, 400);
    const unknownGroup = await post('', h.tokens.admin, { matrixName: 'X', matrixSharing: { type: 'SHARED', groupIds: [otherGroup] } });
    expectErrorBody(unknownGroup, 404);
    expect(unknownGroup.body.errors[0].field).toBe('matrixSharing.groupIds.0');
  });

  it('403 by permission key: creating needs create:matrices; changing needs edit:matrices or being the owner', async () => {
    const res = await post('', h.tokens.user, { matrixName: 'Mine' });
    expectErrorBody(res, 403);
    expect(res.body.message).toBe('Missing permission "create:matrices"');
    // The user sees the Finance matrix (shared with them) but may not change it.
    const put = await h.svc.http.put(`/matrix/v1/matrix/${finance.id}`, { token: h.tokens.user, body: { matrixName: 'Hijacked' } });
    expectErrorBody(put, 403);
    expect(put.body.message).toBe('Missing permission "edit:matrices"');
    const del = await h.svc.http.delete(`/matrix/v1/matrix/${finance.id}`, { token: h.tokens.user });
    expectErrorBody(del, 403);
  });

  it('visibility: the owner, the users and group members it is shared with, and holders of edit:matrices; others get 404 and never see it in search or counts', async () => {
    expect(await names(h.tokens.admin, {})).toEqual(['Board matrix', 'Draft roles', 'Finance authority matrix']);
    expect(await names(h.tokens.manager, {})).toEqual(['Board matrix', 'Draft roles', 'Finance authority matrix']); // edit:matrices
    expect(await names(h.tokens.user, {})).toEqual(['Finance authority matrix']); // shared with them by id
    expect(await names(h.tokens.auditor, {})).toEqual([]);
    expect((await h.svc.http.get(`/matrix/v1/matrix/${board.id}`, { token: h.tokens.user })).status).toBe(404);
    expect((await h.svc.http.get(`/matrix/v1/matrix/${finance.id}`, { token: h.tokens.auditor })).status).toBe(404);
    const counts = await post('/status-counts', h.tokens.user, {});
    expect(counts.status).toBe(200);
    expect(counts.body.data).toEqual({ Active: 1, Draft: 0, Archived: 0, all: 1 });

    // The auditor joins the position CFO, which is in the Board group the matrix is shared with.
    await publishEvent(h.svc, 'evt.auth.user.updated', {
      tenantId: h.demo.id,
      user: { id: auditorId, email: 'auditor@demo.test', name: 'Auditor', displayName: null, profileImageUrl: null, mobilePhone: null, status: 'ACTIVE', positions: [{ id: position, positionName: 'CFO', autoProvisioned: false }], groupIds: [] },
    });
    await until(async () => (await h.db.query(`SELECT 1 FROM matrix.user_projection WHERE id = $1 AND position_ids @> ARRAY[$2]::uuid[]`, [auditorId, position])).length > 0, 'the auditor in CFO');
    expect(await names(h.tokens.auditor, {})).toEqual(['Finance authority matrix']);
    expect((await h.svc.http.get(`/matrix/v1/matrix/${finance.id}`, { token: h.tokens.auditor })).status).toBe(200);
  });

  it('404 across tenants: another tenant’s matrix is not found, and absent from its search', async () => {
    const res = await h.svc.http.get(`/matrix/v1/matrix/${finance.id}`, { token: h.tokens.otherAdmin });
    expectErrorBody(res, 404);
    expect(await names(h.tokens.otherAdmin, {})).toEqual(['Other Co matrix']);
    // Naming another tenant in the body is a 403 (not a member), never its data.
    const foreign = await post('/global-search', h.tokens.otherAdmin, { tenantId: h.demo.id });
    expectErrorBody(foreign, 403);
    expect((await search(h.tokens.admin, { tenantId: h.demo.id, limit: 100 })).total).toBe(3);
    expect((await h.svc.http.get(`/matrix/v1/matrix/${otherTenants.id}`, { token: h.tokens.admin })).status).toBe(404);
    const view = await post('/view', h.tokens.otherAdmin, { matrixId: finance.id, viewData: {} });
    expectErrorBody(view, 404);
  });

  it('saved view: 201 with §2.13 fields; saving again replaces it; concurrent saves keep one view; GET answers it', async () => {
    const first = await post('/view', h.tokens.user, { matrixId: finance.id, viewData: { columns: ['a'] } });
    expect(first.status).toBe(201);
    expect(first.body.statusCode).toBe(201);
    expect(first.body.data).toEqual({ id: expect.stringMatching(UUID), matrixId: finance.id, userId, viewData: { columns: ['a'] }, createdOn: expect.stringMatching(ISO), updatedOn: expect.stringMatching(ISO) });
    const saves = await Promise.all(Array.from({ length: 5 }, (_, i) => post('/view', h.tokens.user, { matrixId: finance.id, viewData: { n: i } })));
    expect(saves.map((s) => s.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(saves.map((s) => s.body.data.id))).toEqual(new Set([first.body.data.id]));
    const got = await h.svc.http.get(`/matrix/v1/matrix/view/${finance.id}`, { token: h.tokens.user });
    expect(got.status).toBe(200);
    expect(got.body.data.id).toBe(first.body.data.id);
    expect(typeof got.body.data.viewData.n).toBe('number');
    const rows = await h.db.query(`SELECT 1 FROM matrix.user_views WHERE matrix_id = $1 AND user_id = $2`, [finance.id, userId]);
    expect(rows).toHaveLength(1);
    expect((await h.svc.http.get(`/matrix/v1/matrix/${finance.id}`, { token: h.tokens.user })).body.data.isUserSavedPersonalView).toBe(true);
    expect((await h.svc.http.get(`/matrix/v1/matrix/${finance.id}`, { token: h.tokens.admin })).body.data.isUserSavedPersonalView).toBe(false);
    expect((await h.svc.http.get(`/matrix/v1/matrix/view/${finance.id}`, { token: h.tokens.admin })).status).toBe(404);
  });

  it('favourites: PUT and DELETE change isFavorite for the caller only', async () => {
    const put = await h.svc.http.put(`/matrix/v1/matrix/${board.id}/favorite`, { token: h.tokens.admin });
    expect(put.status).toBe(200);
    expect(put.body.data.isFavorite).toBe(true);
    expect((await h.svc.http.get(`/matrix/v1/matrix/${board.id}`, { token: h.tokens.manager })).body.data.isFavorite).toBe(false);
    expect(await names(h.tokens.admin, { isFavorite: true })).toEqual(['Board matrix']);
    expect(await names(h.tokens.admin, { isFavorite: false })).toEqual(['Draft roles', 'Finance authority matrix']);
    const del = await h.svc.http.delete(`/matrix/v1/matrix/${board.id}/favorite`, { token: h.tokens.admin });
    expect(del.body.data.isFavorite).toBe(false);
    expect(await names(h.tokens.admin, { isFavorite: true })).toEqual([]);
    await h.svc.http.put(`/matrix/v1/matrix/${board.id}/favorite`, { token: h.tokens.admin });
  });

  it('global search: paged envelope; every filter narrows; Unlimited and numeric count ranges; select', async () => {
    const page = await search(h.tokens.admin, { page: 1, limit: 2, sortBy: 'matrixName', sortOrder: 'asc' });
    expect(page).toMatchObject({ page: 1, limit: 2, total: 3 });
    expect(page.data.map((m) => m.matrixName)).toEqual(['Board matrix', 'Draft roles']);
    expect((await search(h.tokens.admin, { page: 2, limit: 2, sortBy: 'matrixName', sortOrder: 'asc' })).data.map((m) => m.matrixName)).toEqual(['Finance authority matrix']);
    expect(await names(h.tokens.admin, { sortBy: 'matrixId', sortOrder: 'desc', limit: 100 }).then((n) => n)).toHaveLength(3);
    const byId = (await search(h.tokens.admin, { sortBy: 'matrixId', sortOrder: 'desc', limit: 100 })).data.map((m) => m.matrixId);
    expect(byId).toEqual(['10002', '10001', '10000']);

    expect(await names(h.tokens.admin, { search: 'FINANCE' })).toEqual(['Finance authority matrix']);
    expect(await names(h.tokens.admin, { search: 'spending' })).toEqual(['Finance authority matrix']); // description
    expect(await names(h.tokens.admin, { search: '10001' })).toEqual(['Board matrix']); // display id
    expect(await names(h.tokens.admin, { search: '%' })).toEqual([]);
    expect(await names(h.tokens.admin, { matrixStatusName: 'Draft' })).toEqual(['Draft roles']);
    expect(await names(h.tokens.admin, { countStatusName: 'Active' })).toEqual(['Board matrix', 'Finance authority matrix']);
    expect(await names(h.tokens.admin, { countStatusName: 'all' })).toHaveLength(3);
    expect(await names(h.tokens.admin, { matrixSharingType: 'SHARED' })).toEqual(['Finance authority matrix']);
    expect(await names(h.tokens.admin, { ownerIds: [managerId] })).toEqual(['Draft roles']);
    expect(await names(h.tokens.admin, { ownerIds: null })).toHaveLength(3);
    expect(await names(h.tokens.admin, { groupIds: `${group}` })).toEqual(['Board matrix']); // comma string
    expect(await names(h.tokens.admin, { positionIds: [position] })).toEqual(['Finance authority matrix']);
    expect(await names(h.tokens.admin, { userIds: [userId] })).toEqual(['Draft roles']);
    expect(await names(h.tokens.admin, { sectionIds: [section] })).toEqual(['Finance authority matrix']);
    expect(await names(h.tokens.admin, { categoryIds: `${category},${randomUUID()}` })).toEqual(['Finance authority matrix']);
    expect(await names(h.tokens.admin, { selectedMatrixIds: [board.id, draft.id] })).toEqual(['Board matrix', 'Draft roles']);
    const future = new Date(Date.now() + 3600_000).toISOString();
    const past = '2020-01-01T00:00:00.000Z';
    expect(await names(h.tokens.admin, { startDate: future })).toEqual([]);
    expect(await names(h.tokens.admin, { startDate: past, endDate: future })).toHaveLength(3);
    expect(await names(h.tokens.admin, { endDate: finance.createdOn })).toEqual(['Finance authority matrix']);
    expect(await names(h.tokens.admin, { createdAtStart: board.createdOn, createdAtEnd: board.createdOn })).toEqual(['Board matrix']);
    expect(await names(h.tokens.admin, { updatedAtStart: future })).toEqual([]);
    expect(await names(h.tokens.admin, { updatedAtEnd: future })).toHaveLength(3);

    // Decision counts: Finance 1, Board 2 (every published), Draft roles 2. Numbers compared as numbers ("10" > "2").
    expect(await names(h.tokens.admin, { decisionsCount: { minValue: '2', maxValue: 'Unlimited' } })).toEqual(['Board matrix', 'Draft roles']);
    expect(await names(h.tokens.admin, { decisionsCount: { minValue: '0', maxValue: '1' } })).toEqual(['Finance authority matrix']);
    expect(await names(h.tokens.admin, { decisionsCount: { minValue: '10', maxValue: 'Unlimited' } })).toEqual([]);
    expect(await names(h.tokens.admin, { delegationsCount: { minValue: '1', maxValue: 'Unlimited' } })).toEqual([]);
    expect(await names(h.tokens.admin, { delegationsCount: { minValue: '0', maxValue: '0' } })).toHaveLength(3);

    const selected = await search(h.tokens.admin, { select: 'id,matrixName,decisionCount', search: 'finance' });
    expect(selected.data).toEqual([{ id: finance.id, matrixName: 'Finance authority matrix', decisionCount: 1 }]);

    const counts = await post('/status-counts', h.tokens.admin, { matrixStatusName: 'Draft' });
    expect(counts.body.data).toEqual({ Active: 2, Draft: 1, Archived: 0, all: 3 }); // counts ignore the status filters
    const narrowed = await post('/status-counts', h.tokens.admin, { search: 'roles' });
    expect(narrowed.body.data).toEqual({ Active: 0, Draft: 1, Archived: 0, all: 1 });
  });

  it('PUT is a full update (by the owner or a holder of edit:matrices); DELETE is soft and the matrix leaves every list', async () => {
    const res = await h.svc.http.put(`/matrix/v1/matrix/${board.id}`, {
      token: h.tokens.manager,
      body: { matrixName: 'Board matrix', matrixStatusId: '0199a000-0000-7000-8000-000000000003', groupIds: [group], currentTab: 'grid' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ matrixStatus: { statusName: 'Archived' }, currentTab: 'grid', ownerId: adminId, matrixDescription: null });
    const archive = await create(h.tokens.admin, { matrixName: 'Temp' });
    const del = await h.svc.http.delete(`/matrix/v1/matrix/${archive.id}`, { token: h.tokens.admin });
    expect(del.status).toBe(200);
    expect(del.body.data.id).toBe(archive.id);
    expect((await h.svc.http.get(`/matrix/v1/matrix/${archive.id}`, { token: h.tokens.admin })).status).toBe(404);
    expect(await names(h.tokens.admin, { search: 'temp' })).toEqual([]);
    const [row] = await h.db.query<{ is_deleted: boolean; deleted_by: string }>(`SELECT is_deleted, deleted_by FROM matrix.matrices WHERE id = $1`, [archive.id]);
    expect(row).toEqual({ is_deleted: true, deleted_by: adminId });
    const events = await h.db.query<{ subject: string }>(`SELECT subject FROM matrix.outbox WHERE payload->>'id' = $1 ORDER BY created_at`, [archive.id]);
    expect(events.map((e) => e.subject)).toEqual(['evt.matrix.matrix.created', 'evt.matrix.matrix.deleted']);
  });

  it('bulk reassign owner: per-item messages for own, unknown, other-tenant and unauthorised ids; the others change', async () => {
    // The user is given a matrix of their own first (admin holds change_owner:matrices).
    const mine = await create(h.tokens.admin, { matrixName: 'Handed over' });
    const handover = await post('/bulk-reassign-owner', h.tokens.admin, { matrixIds: [mine.id], ownerId: userId });
    expect(handover.status).toBe(200);
    expect(handover.body.data).toEqual({ successCount: 1, failureCount: 0, successIds: [mine.id], failures: {} });

    const unknown = randomUUID();
    const res = await post('/bulk-reassign-owner', h.tokens.user, { matrixIds: [mine.id, unknown, otherTenants.id, finance.id], ownerId: auditorId });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      successCount: 1,
      failureCount: 3,
      successIds: [mine.id],
      failures: { [unknown]: 'Matrix not found', [otherTenants.id]: 'Matrix not found', [finance.id]: 'Unauthorized operation' },
    });
    expect((await h.svc.http.get(`/matrix/v1/matrix/${mine.id}`, { token: h.tokens.admin })).body.data.ownerId).toBe(auditorId);
    expect((await h.svc.http.get(`/matrix/v1/matrix/${finance.id}`, { token: h.tokens.admin })).body.data.ownerId).toBe(adminId);

    // An owner who is not a member of the tenant names no live record of it: 404 naming the field (house rule), nothing reassigned.
    const notMember = await post('/bulk-reassign-owner', h.tokens.admin, { matrixIds: [finance.id], ownerId: h.users.get('admin@other.test') });
    expectErrorBody(notMember, 404);
    expect(notMember.body.errors[0].field).toBe('ownerId');
    expect((await h.svc.http.get(`/matrix/v1/matrix/${finance.id}`, { token: h.tokens.admin })).body.data.ownerId).toBe(adminId);
  });
  it('share:matrices: a holder of edit:matrices who is not the owner changes a matrix, but not whom it is shared with, without share:matrices', async () => {
    // The Auditor role is given edit:matrices (and not share:matrices) through the auth area, as an admin would.
    const authHttp = httpClient(h.processes.auth.url);
    const roles = await authHttp.get(`/auth/v1/tenants/${h.demo.id}/roles/list?limit=100`, { token: h.tokens.admin });
    expect(roles.status).toBe(200);
    const auditorRole = roles.body.data.data.find((r: { roleName: string }) => r.roleName === 'Auditor');
    const patched = await authHttp.patch(`/auth/v1/tenants/${h.demo.id}/roles/${auditorRole.id}`, {
      token: h.tokens.admin,
      body: { relationshipMappings: [{ relationshipKeyName: 'view:decisions', isEnabled: true }, { relationshipKeyName: 'edit:matrices', isEnabled: true }] },
    });
    expect(patched.status).toBe(200);
    const body = { matrixName: 'Board matrix', matrixStatusId: '0199a000-0000-7000-8000-000000000003', groupIds: [group], currentTab: 'audit' };
    // The caller cache is dropped on auth.caller.changed: the auditor may edit once the matrix area hears of it.
    const edited = await until(async () => {
      const res = await h.svc.http.put(`/matrix/v1/matrix/${board.id}`, { token: h.tokens.auditor, body });
      return res.status === 200 && res;
    }, 'the auditor holding edit:matrices', 10_000);
    expect(edited.body.data).toMatchObject({ currentTab: 'audit', ownerId: adminId });
    expect(edited.body.data.permissions).toEqual(expect.arrayContaining([{ relationship_key: 'edit:matrices', allowed: true }, { relationship_key: 'share:matrices', allowed: false }]));
    const sharing = await h.svc.http.put(`/matrix/v1/matrix/${board.id}`, { token: h.tokens.auditor, body: { ...body, matrixSharing: { type: 'SHARED', userIds: [auditorId] } } });
    expectErrorBody(sharing, 403);
    expect(sharing.body.message).toBe('Missing permission "share:matrices"');
    const link = await h.svc.http.put(`/matrix/v1/matrix/${board.id}`, { token: h.tokens.auditor, body: { ...body, matrixExternalSharing: { isEnabled: true } } });
    expectErrorBody(link, 403);
    const bulk = await post('/bulk-reassign-owner', h.tokens.auditor, { matrixIds: [board.id], ownerId: auditorId });
    expect(bulk.body.data.failures).toEqual({ [board.id]: 'Unauthorized operation' });
  });
});
