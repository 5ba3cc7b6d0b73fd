import { expectErrorBody, ISO, startHarness, UUID7 } from '@ddm/testing';
import { announcedDocument, decisionApp, DecisionHarness } from './fixtures/decision-app';
import { approvalLimit } from './fixtures/limits';

const PATH = '/decision/v1/decisions';

/** Every field of a decision (spec §2.9, plus the soft-delete fields and the embedded lists). */
const DECISION_FIELDS = [
  'categoryId', 'categoryName', 'conditionEnabled', 'copiedFrom', 'createdAt', 'createdBy', 'createdByDetails', 'createdByUserProfileUrl', 'createdByUsername',
  'decisionAuthorities', 'decisionDisplayId', 'decisionDocuments', 'decisionGroups', 'decisionId', 'delegable', 'delegationPathway', 'delegations', 'deletedBy',
  'deletedOn', 'description', 'guidance', 'id', 'isDeleted', 'isRequestActionCompleted', 'link', 'name', 'owner', 'ownerDetails', 'ownerUserProfileUrl',
  'ownerUsername', 'permissions', 'roleEnabled', 'sectionId', 'sectionName', 'status', 'tenantId', 'updatedAt', 'updatedBy', 'updatedByDetails',
  'updatedByUserProfileUrl', 'updatedByUsername',
].sort();

interface Outboxed {
  subject: string;
  payload: { tenantId: string; decision: Record<string, unknown> };
}

describe('decisions (e2e, real Postgres and NATS, auth and settings as child processes)', () => {
  let h: DecisionHarness;
  const post = (body: object, token = h.tokens.admin) => h.svc.http.post(PATH, { token, body });
  const get = (id: string, token = h.tokens.admin) => h.svc.http.get(`${PATH}/${id}`, { token });
  const patch = (id: string, body: object, token = h.tokens.admin) => h.svc.http.patch(`${PATH}/${id}`, { token, body });
  const made = async (body: object, token = h.tokens.admin) => {
    const res = await post(body, token);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const eventsOf = (id: string) =>
    h.db.query<Outboxed>(`SELECT subject, payload FROM decision.outbox WHERE payload->'decision'->>'id' = $1 ORDER BY created_at, id`, [id]);

  beforeAll(async () => {
    h = await startHarness(decisionApp);
  });
  afterAll(() => h?.close());

  it('creates a decision with every field of §2.9, its groups, authorities and documents, and answers it on GET', async () => {
    const admin = h.refs.users.get('admin@demo.test')!;
    const manager = h.refs.users.get('manager@demo.test')!;
    const documentId = await announcedDocument(h, h.demo.id, { documentName: 'Delegation of authority policy', documentDisplayId: '10001', documentFileType: 'application/pdf', documentUrl: '/document/v1/files/f1/content' });
    const res = await post({
      tenantId: h.demo.id,
      name: 'Approve purchase orders',
      description: 'Purchase orders against an approved budget line.',
      guidance: 'Check the budget line first.',
      sectionId: h.refs.sections.get('Finance'),
      categoryId: h.refs.categories.get('Procurement'),
      ownerId: manager,
      status: 'PUBLISHED',
      delegable: true,
      conditionEnabled: true,
      roleEnabled: false,
      delegationPathway: ['Matrix', 'Direct Line'],
      decisionGroups: [{ groupId: h.refs.groups.get('Finance') }, { groupId: h.refs.groups.get('Legal') }],
      decisionAuthorities: [approvalLimit(h, '500000'), { authorityTypeId: h.refs.authorityTypes.get('Signatory'), authorityLimit: 'Primary', authorityLimitValueType: 'Authorized' }],
      decisionDocuments: [{ documentId, isPinned: true }],
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Decision created successfully');
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(DECISION_FIELDS);
    expect(d).toMatchObject({
      tenantId: h.demo.id,
      name: 'Approve purchase orders',
      description: 'Purchase orders against an approved budget line.',
      guidance: 'Check the budget line first.',
      sectionId: h.refs.sections.get('Finance'),
      sectionName: 'Finance',
      categoryId: h.refs.categories.get('Procurement'),
      categoryName: 'Procurement',
      status: 'PUBLISHED',
      owner: manager,
      ownerUsername: 'Max Manager',
      createdBy: admin,
      createdByUsername: 'Ada Admin',
      updatedBy: admin,
      copiedFrom: null,
      conditionEnabled: true,
      roleEnabled: false,
      delegable: true,
      delegationPathway: ['Matrix', 'Direct Line'],
      decisionId: d.id,
      delegations: 0,
      isRequestActionCompleted: false,
      isDeleted: false,
      deletedOn: null,
      deletedBy: null,
    });
    expect(d.id).toMatch(UUID7);
    expect(d.decisionDisplayId).toMatch(/^\d+$/);
    expect(d.createdAt).toMatch(ISO);
    expect(d.updatedAt).toMatch(ISO);
    expect(d.link).toMatch(new RegExp(`/decisions/${d.id}$`));
    expect(d.ownerDetails).toMatchObject({ id: manager, email: 'manager@demo.test' });
    expect(d.createdByDetails).toMatchObject({ id: admin, email: 'admin@demo.test' });
    expect(d.decisionGroups.map((g: { groupName: string }) => g.groupName)).toEqual(['Finance', 'Legal']);
    for (const g of d.decisionGroups) {
      expect(g).toEqual({ id: expect.any(String), denormalizedDecisionId: d.id, groupId: expect.any(String), tenantGroupTypeId: expect.any(String), displayName: g.groupName, groupName: g.groupName });
    }
    expect(d.decisionAuthorities).toEqual([
      {
        id: expect.any(String),
        denormalizedDecisionId: d.id,
        authorityTypeId: h.refs.authorityTypes.get('Approval'),
        authorityType: 'Approval',
        authorityTypeOrder: 1,
        authorityTypeIcon: d.decisionAuthorities[0].authorityTypeIcon,
        authorityLimit: 'Primary',
        authorityLimitValueType: 'Currency',
        authorityLimitOperator: '<=',
        authorityLimitValue: '500000',
        authorityLimitValueUnit: 'USD',
      },
      {
        id: expect.any(String),
        denormalizedDecisionId: d.id,
        authorityTypeId: h.refs.authorityTypes.get('Signatory'),
        authorityType: 'Signatory',
        authorityTypeOrder: 2,
        authorityTypeIcon: d.decisionAuthorities[1].authorityTypeIcon,
        authorityLimit: 'Primary',
        authorityLimitValueType: 'Authorized',
        authorityLimitOperator: null,
        authorityLimitValue: null,
        authorityLimitValueUnit: null,
      },
    ]);
    // The document's fields as the document area announced them (its projection here).
    expect(d.decisionDocuments).toEqual([
      expect.objectContaining({
        denormalizedDecisionId: d.id, documentId, isPinned: true, documentName: 'Delegation of authority policy', documentDisplayId: '10001', documentStatus: 'PUBLISHED',
        documentTypeName: 'Policy', documentFileType: 'application/pdf', documentUrl: '/document/v1/files/f1/content', documentFileLink: '/document/v1/files/f1/content',
      }),
    ]);
    expect(d.permissions).toEqual([
      { relationship_key: 'view:decisions', allowed: true },
      { relationship_key: 'edit:decisions', allowed: true },
      { relationship_key: 'delete:decisions', allowed: true },
      { relationship_key: 'create:root_delegations', allowed: true },
      { relationship_key: 'create:delegations', allowed: true },
    ]);

    const read = await get(d.id);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(d);
  });

  it('defaults: DRAFT, delegable, the caller as owner, empty lists', async () => {
    const d = await made({ name: 'Defaults only' }, h.tokens.manager);
    const manager = h.refs.users.get('manager@demo.test');
    expect(d).toMatchObject({ status: 'DRAFT', delegable: true, conditionEnabled: false, roleEnabled: false, owner: manager, createdBy: manager, delegationPathway: [], decisionGroups: [], decisionAuthorities: [], decisionDocuments: [], sectionId: null, sectionName: null });
  });

  it('gives each decision the next display id of the tenant', async () => {
    const a = await made({ name: 'Display id A' });
    const b = await made({ name: 'Display id B' });
    expect(Number(b.decisionDisplayId)).toBe(Number(a.decisionDisplayId) + 1);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const cases: [object, string][] = [
      [{ name: 'x'.repeat(151) }, 'name'],
      [{ name: '' }, 'name'],
      [{}, 'name'],
      [{ name: 'Bad type', decisionAuthorities: [approvalLimit(h, '10', { authorityLimitValueType: 'Money' })] }, 'decisionAuthorities.0.authorityLimitValueType'],
      [{ name: 'No unit', decisionAuthorities: [approvalLimit(h, '10', { authorityLimitValueUnit: null })] }, 'decisionAuthorities.0.authorityLimitValueUnit'],
      [{ name: 'Bad unit', decisionAuthorities: [approvalLimit(h, '10', { authorityLimitValueUnit: 'XYZ' })] }, 'decisionAuthorities.0.authorityLimitValueUnit'],
      [{ name: 'Bad value', decisionAuthorities: [approvalLimit(h, 'ten')] }, 'decisionAuthorities.0.authorityLimitValue'],
      [{ name: 'Bad operator', decisionAuthorities: [approvalLimit(h, '10', { authorityLimitOperator: '>' })] }, 'decisionAuthorities.0.authorityLimitOperator'],
      [{ name: 'Percent', decisionAuthorities: [approvalLimit(h, '120', { authorityLimitValueType: 'Percentage', authorityLimitValueUnit: null })] }, 'decisionAuthorities.0.authorityLimitValue'],
      [{ name: 'Time', decisionAuthorities: [approvalLimit(h, '3', { authorityLimitValueType: 'Time', authorityLimitValueUnit: 'Weeks' })] }, 'decisionAuthorities.0.authorityLimitValueUnit'],
      [{ name: 'Authorized with value', decisionAuthorities: [approvalLimit(h, '3', { authorityLimitValueType: 'Authorized', authorityLimitValueUnit: null })] }, 'decisionAuthorities.0.authorityLimitValue'],
      [{ name: 'Unknown field', colour: 'red' }, 'colour'],
      [{ name: 'Bad pathway', delegationPathway: ['Sideways'] }, 'delegationPathway'],
      [{ name: 'Bad status', status: 'ARCHIVED' }, 'status'],
      [{ name: 'Bad group', decisionGroups: [{ groupId: 'nope' }] }, 'decisionGroups.0.groupId'],
      [{ name: 'Long description', description: 'x'.repeat(251) }, 'description'],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expectErrorBody(res, 400);
      expect({ body, fields: res.body.errors.map((e: { field: string }) => e.field) }).toEqual({ body, fields: expect.arrayContaining([field]) });
    }
  });

  it('refuses a name the tenant already has (any case) with a 409; another tenant may use it', async () => {
    await made({ name: 'Sign customer contracts' });
    const res = await post({ name: 'SIGN customer CONTRACTS' });
    expectErrorBody(res, 409);
    expect(res.body.message).toBe('A decision named "SIGN customer CONTRACTS" already exists in this tenant');
    expect((await post({ name: 'Sign customer contracts' }, h.tokens.otherAdmin)).status).toBe(200);
  });

  it("answers 404 naming the field for a section, category, group, authority type or owner the tenant does not have", async () => {
    const unknown = '0190f5c4-0000-7000-8000-00000000dead';
    const cases: [object, string][] = [
      [{ sectionId: unknown }, 'sectionId'],
      [{ categoryId: unknown }, 'categoryId'],
      [{ ownerId: unknown }, 'ownerId'],
      [{ decisionGroups: [{ groupId: h.refs.groups.get('Finance') }, { groupId: unknown }] }, 'decisionGroups.1.groupId'],
      [{ decisionAuthorities: [approvalLimit(h, '1', { authorityTypeId: unknown })] }, 'decisionAuthorities.0.authorityTypeId'],
    ];
    for (const [extra, field] of cases) {
      const res = await post({ name: `Unknown ${field}`, ...extra });
      expectErrorBody(res, 404);
      expect(res.body.errors).toEqual([{ field, message: expect.stringContaining(unknown) }]);
    }
    // Other Co's admin cannot name Demo Co's section.
    const res = await post({ name: 'Cross tenant section', sectionId: h.refs.sections.get('Finance') }, h.tokens.otherAdmin);
    expectErrorBody(res, 404);
    // Ids in upper case are the same ids.
    const upper = await post({ name: 'Upper-case ids', sectionId: h.refs.sections.get('Finance')!.toUpperCase(), categoryId: h.refs.categories.get('Treasury')!.toUpperCase(), decisionGroups: [{ groupId: h.refs.groups.get('Finance')!.toUpperCase() }] });
    expect(upper.status).toBe(200);
    expect(upper.body.data.decisionGroups[0].groupName).toBe('Finance');
  });

  it('refuses a category of another section with a 400', async () => {
    const res = await post({ name: 'Mismatch', sectionId: h.refs.sections.get('People'), categoryId: h.refs.categories.get('Procurement') });
    expectErrorBody(res, 400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['categoryId']);
  });

  it('changes the fields given; lists replace what the decision had; status moves are checked (409 naming both states)', async () => {
    const d = await made({ name: 'To change', decisionGroups: [{ groupId: h.refs.groups.get('Finance') }], decisionAuthorities: [approvalLimit(h, '1000')] });
    const res = await patch(d.id, { description: 'Now described', decisionGroups: [{ groupId: h.refs.groups.get('Legal') }], status: 'PUBLISHED' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'To change', description: 'Now described', status: 'PUBLISHED' });
    expect(res.body.data.decisionGroups.map((g: { groupName: string }) => g.groupName)).toEqual(['Legal']);
    expect(res.body.data.decisionAuthorities.map((a: { authorityLimitValue: string }) => a.authorityLimitValue)).toEqual(['1000']);
    expect(res.body.data.updatedAt > d.updatedAt).toBe(true);

    const back = await patch(d.id, { status: 'DRAFT' });
    expectErrorBody(back, 409);
    expect(back.body.message).toContain('PUBLISHED');
    expect(back.body.message).toContain('DRAFT');
    expect((await patch(d.id, { status: 'ARCHIVED' })).body.data.status).toBe('ARCHIVED');
    expect((await patch(d.id, { status: 'PUBLISHED' })).body.data.status).toBe('PUBLISHED');
    expectErrorBody(await patch(d.id, {}), 400);
    expectErrorBody(await patch(d.id, { name: null }), 400);
    expect((await patch(d.id, { description: null })).body.data.description).toBeNull();
  });

  it('lets the owner edit their own decision, refuses a Global User or an Auditor otherwise (403 naming the key)', async () => {
    const user = h.refs.users.get('user@demo.test')!;
    const own = await made({ name: 'Owned by the user', ownerId: user });
    const other = await made({ name: 'Not the user' });
    const mine = await patch(own.id, { description: 'mine' }, h.tokens.user);
    expect(mine.status).toBe(200);
    expect(mine.body.data.permissions).toEqual(expect.arrayContaining([{ relationship_key: 'edit:decisions', allowed: true }, { relationship_key: 'delete:decisions', allowed: false }]));
    for (const token of [h.tokens.user, h.tokens.auditor]) {
      const res = await patch(other.id, { description: 'not mine' }, token);
      expectErrorBody(res, 403);
      expect(res.body.message).toBe('Missing permission "edit:decisions"');
      expectErrorBody(await post({ name: 'Not allowed' }, token), 403);
      expectErrorBody(await h.svc.http.delete(`${PATH}/${other.id}`, { token }), 403);
      expectErrorBody(await h.svc.http.patch(`${PATH}/bulk-delete`, { token, body: { decisionIds: [other.id] } }), 403);
    }
    const seen = await get(other.id, h.tokens.auditor);
    expect(seen.status).toBe(200);
    expect(seen.body.data.permissions).toEqual(expect.arrayContaining([{ relationship_key: 'edit:decisions', allowed: false }]));
  });

  it("answers 404 for another tenant's decision on every route, and for a malformed id 400", async () => {
    const d = await made({ name: 'Demo only' });
    const t = h.tokens.otherAdmin;
    expectErrorBody(await get(d.id, t), 404);
    expectErrorBody(await patch(d.id, { description: 'x' }, t), 404);
    expectErrorBody(await h.svc.http.delete(`${PATH}/${d.id}`, { token: t }), 404);
    expectErrorBody(await h.svc.http.get(`${PATH}/${d.id}/history`, { token: t }), 404);
    const bulk = await h.svc.http.patch(`${PATH}/bulk-delete`, { token: t, body: { decisionIds: [d.id] } });
    expectErrorBody(bulk, 404);
    expect(bulk.body.errors).toEqual([{ field: 'decisionIds.0', message: `Decision ${d.id} not found` }]);
    expect((await get(d.id)).status).toBe(200);
    expectErrorBody(await get('not-a-uuid'), 400);
  });

  it('deletes softly: DELETE answers the decision as it was, now deleted; it leaves get (404) and the list', async () => {
    const d = await made({ name: 'To delete' });
    const res = await h.svc.http.delete(`${PATH}/${d.id}`, { token: h.tokens.admin });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: d.id, name: 'To delete', isDeleted: true, deletedBy: h.refs.users.get('admin@demo.test') });
    expect(res.body.data.deletedOn).toMatch(ISO);
    expectErrorBody(await get(d.id), 404);
    expectErrorBody(await h.svc.http.delete(`${PATH}/${d.id}`, { token: h.tokens.admin }), 404);
    const list = await h.svc.http.get(`${PATH}?search=${encodeURIComponent('To delete')}`, { token: h.tokens.admin });
    expect(list.body.data.data).toEqual([]);
    // The name is free again.
    expect((await post({ name: 'To delete' })).status).toBe(200);
  });

  it("bulk-deletes and bulk-restores, counting only what changed; an unknown id is a 404 naming it, and nothing changes", async () => {
    const a = await made({ name: 'Bulk A' });
    const b = await made({ name: 'Bulk B' });
    const unknown = '0190f5c4-0000-7000-8000-00000000beef';
    const refused = await h.svc.http.patch(`${PATH}/bulk-delete`, { token: h.tokens.admin, body: { tenantId: h.demo.id, decisionIds: [a.id, b.id, unknown, a.id] } });
    expectErrorBody(refused, 404);
    expect(refused.body.errors).toEqual([{ field: 'decisionIds.2', message: `Decision ${unknown} not found` }]);
    expect((await get(a.id)).status).toBe(200);
    const del = await h.svc.http.patch(`${PATH}/bulk-delete`, { token: h.tokens.admin, body: { tenantId: h.demo.id, decisionIds: [a.id, b.id, a.id] } });
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ deleteCount: 2 });
    expect((await h.svc.http.patch(`${PATH}/bulk-delete`, { token: h.tokens.admin, body: { decisionIds: [a.id] } })).body.data).toEqual({ deleteCount: 0 });
    // A live decision takes b's name meanwhile: b stays deleted.
    await made({ name: 'Bulk B' });
    const refusedRestore = await h.svc.http.patch(`${PATH}/bulk-restore`, { token: h.tokens.admin, body: { decisionIds: [a.id, b.id, unknown] } });
    expectErrorBody(refusedRestore, 404);
    expect(refusedRestore.body.errors).toEqual([{ field: 'decisionIds.2', message: `Decision ${unknown} not found` }]);
    expectErrorBody(await get(a.id), 404);
    const restore = await h.svc.http.patch(`${PATH}/bulk-restore`, { token: h.tokens.admin, body: { decisionIds: [a.id, b.id] } });
    expect(restore.body.data).toEqual({ updateCount: 1 });
    expect((await get(a.id)).status).toBe(200);
    expectErrorBody(await get(b.id), 404);
    const events = (await eventsOf(a.id)).map((e) => e.subject);
    expect(events).toEqual(['evt.decision.decision.created', 'evt.decision.decision.deleted', 'evt.decision.decision.restored']);
  });

  it('refuses bulk bodies outside 1..1000 ids or with malformed ids', async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `0190f5c4-0000-7000-8000-${String(i).padStart(12, '0')}`);
    for (const decisionIds of [[], ids(1001), ['x']]) {
      for (const op of ['bulk-delete', 'bulk-restore', 'bulk-duplicate']) {
        const res = await h.svc.http.patch(`${PATH}/${op}`, { token: h.tokens.admin, body: { decisionIds } });
        expectErrorBody(res, 400);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining([expect.stringMatching(/^decisionIds/)]));
      }
    }
    // 1000 ids are taken (and, none of them the tenant's, each a 404).
    const unknownThousand = await h.svc.http.patch(`${PATH}/bulk-delete`, { token: h.tokens.admin, body: { decisionIds: ids(1000) } });
    expectErrorBody(unknownThousand, 404);
    expect(unknownThousand.body.errors[0]).toEqual({ field: 'decisionIds.0', message: `Decision ${ids(1)[0]} not found` });
  });

  it('unlinks a document from the decisions named; each that lost it gets a revision and an event', async () => {
    const [documentId, other] = [await announcedDocument(h, h.demo.id), await announcedDocument(h, h.demo.id)];
    const a = await made({ name: 'Linked A', decisionDocuments: [{ documentId }] });
    const b = await made({ name: 'Linked B', decisionDocuments: [{ documentId }, { documentId: other }] });
    const c = await made({ name: 'Not linked' });
    const res = await h.svc.http.post(`${PATH}/unlink-records`, { token: h.tokens.admin, body: { tenantId: h.demo.id, documentId, decisionIds: [a.id, b.id, c.id] } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deletedCount: 2 });
    expect((await get(a.id)).body.data.decisionDocuments).toEqual([]);
    expect((await get(b.id)).body.data.decisionDocuments.map((x: { documentId: string }) => x.documentId)).toEqual([other]);
    expect((await eventsOf(a.id)).map((e) => e.subject)).toEqual(['evt.decision.decision.created', 'evt.decision.decision.updated']);
    expect((await eventsOf(c.id)).map((e) => e.subject)).toEqual(['evt.decision.decision.created']);
    const history = await h.svc.http.get(`${PATH}/${a.id}/history`, { token: h.tokens.admin });
    expect(history.body.data.data[0]).toMatchObject({ changedFields: ['decisionDocuments'] });
  });

  it('publishes the decision on every change with the version, groups and authorities', async () => {
    const d = await made({ name: 'Announced', decisionGroups: [{ groupId: h.refs.groups.get('Finance') }], decisionAuthorities: [approvalLimit(h, '250')] });
    await patch(d.id, { status: 'PUBLISHED' });
    const events = await eventsOf(d.id);
    expect(events.map((e) => e.subject)).toEqual(['evt.decision.decision.created', 'evt.decision.decision.updated']);
    expect(events[1].payload).toEqual({
      tenantId: h.demo.id,
      decision: expect.objectContaining({
        id: d.id,
        decisionDisplayId: d.decisionDisplayId,
        name: 'Announced',
        status: 'PUBLISHED',
        groupIds: [h.refs.groups.get('Finance')],
        version: 2,
      }),
    });
    expect((events[1].payload.decision as { authorities: unknown[] }).authorities).toEqual([
      expect.objectContaining({ authorityTypeId: h.refs.authorityTypes.get('Approval'), authorityLimitValue: '250', authorityLimitValueUnit: 'USD' }),
    ]);
  });
});
