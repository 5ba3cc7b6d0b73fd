import { expectErrorBody, httpClient, HttpResult, startHarness, until } from '@ddm/testing';
import { announcedDocument, decisionApp, DecisionHarness } from './fixtures/decision-app';
import { approvalLimit } from './fixtures/limits';

const DECISIONS = '/decision/v1/decisions';
const DELEGATIONS = '/decision/v1/delegations';
const UNKNOWN = '0190a000-0000-7000-8000-00000000dead';

/**
 * A client written for the product works against the decision area unchanged (real Postgres and
 * NATS): a delegation issued with the product's issuer fields (root and redelegation), each wrong
 * issuer combination refused naming the field; a delegation role's ASSIGNED; an Authorized limit
 * sent with an operator; empty-string filters refused; and every id a body names that is not a live
 * record of the caller's tenant (another tenant's, or unknown) a 404 naming the field, with nothing changed.
 */
describe('product-shaped requests (e2e, real Postgres and NATS)', () => {
  let h: DecisionHarness;
  let decisionId: string;
  let admin: string, manager: string, user: string, auditor: string;
  let ceo: string, cfo: string, controller: string;
  let root: { id: string };
  const foreign: { decision?: string; delegation?: string; authorityType?: string; group?: string; user?: string; document?: string } = {};

  /** A create as the product's clients send it: every field of its body, the issuer's among them. */
  const productBody = (extra: object) => ({
    tenantId: h.demo.id,
    status: 'ISSUED',
    recipientAutoIssue: false,
    decisionId,
    parentDelegationId: null,
    expirationDate: '2035-12-31T12:00:00.000Z',
    isNoExpiration: false,
    effectiveDate: new Date().toISOString(),
    copiedFrom: null,
    delegationPathway: ['Matrix'],
    delegationGroups: [],
    delegationDocuments: [],
    ...extra,
  });
  const post = (body: object, token: string) => h.svc.http.post(DELEGATIONS, { token, body });
  const count = async () => (await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM decision.delegations WHERE tenant_id = $1`, [h.demo.id]))[0].n;
  const fields = (res: HttpResult) => ((res.body.errors ?? []) as { field: string }[]).map((e) => e.field);
  /** The answer is `status` naming exactly `named`, and no delegation was made. */
  const refused = async (make: () => Promise<HttpResult>, status: number, named: string[]) => {
    const before = await count();
    const res = await make();
    expectErrorBody(res, status);
    expect(fields(res)).toEqual(named);
    expect(await count()).toBe(before);
  };

  beforeAll(async () => {
    h = await startHarness(decisionApp);
    [admin, manager, user, auditor] = ['admin', 'manager', 'user', 'auditor'].map((n) => h.refs.users.get(`${n}@demo.test`)!);
    const positions = new Map((await h.db.query<{ id: string; name: string }>(`SELECT id, position_name AS name FROM decision.position_projection WHERE tenant_id = $1`, [h.demo.id])).map((p) => [p.name, p.id]));
    [ceo, cfo, controller] = ['Chief Executive Officer', 'Chief Financial Officer', 'Financial Controller North America'].map((n) => positions.get(n)!);
    // admin holds the CEO's position and manager the CFO's (in auth), once the decision area has heard of it.
    const auth = httpClient(h.processes.auth.url);
    for (const [userId, positionId] of [[admin, ceo], [manager, cfo]]) {
      const res = await auth.patch(`/auth/v1/user/update-entities/${userId}`, { token: h.tokens.admin, body: { positionIds: [positionId] } });
      expect(res.status).toBe(200);
    }
    await until(async () => {
      const rows = await h.db.query<{ id: string; position_ids: string[] }>(`SELECT id, position_ids FROM decision.user_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [h.demo.id, [admin, manager]]);
      return rows.length === 2 && rows.find((r) => r.id === admin)!.position_ids.includes(ceo) && rows.find((r) => r.id === manager)!.position_ids.includes(cfo);
    }, 'the position holders in the decision projections', 20_000);
    const res = await h.svc.http.post(DECISIONS, {
      token: h.tokens.admin,
      body: { name: 'Approve vendor payments (product compat)', status: 'PUBLISHED', roleEnabled: true, delegationPathway: ['Matrix', 'Direct Line'], decisionAuthorities: [approvalLimit(h, '1000000')] },
    });
    expect(res.status).toBe(200);
    decisionId = res.body.data.id;

    // Another tenant's records: a decision and a delegation of Other Co, its authority type, its admin, a group if it has one.
    const other = await h.db.query<{ kind: string; id: string }>(
      `SELECT 'authorityType' AS kind, id FROM decision.authority_type_projection WHERE tenant_id = $1
       UNION ALL SELECT 'group', id FROM decision.group_projection WHERE tenant_id = $1
       UNION ALL SELECT 'user', id FROM decision.user_projection WHERE tenant_id = $1`,
      [h.other.id],
    );
    for (const r of other) (foreign as Record<string, string>)[r.kind] ??= r.id;
    const otherDecision = await h.svc.http.post(DECISIONS, {
      token: h.tokens.otherAdmin,
      body: { name: 'Other Co decision (product compat)', status: 'PUBLISHED', delegationPathway: ['Matrix'], decisionAuthorities: [approvalLimit(h, '10', { authorityTypeId: foreign.authorityType })] },
    });
    expect(otherDecision.status).toBe(200);
    foreign.decision = otherDecision.body.data.id;
    const otherDelegation = await h.svc.http.post(DELEGATIONS, {
      token: h.tokens.otherAdmin,
      body: { decisionId: foreign.decision, recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: foreign.user }], delegationAuthorities: [approvalLimit(h, '10', { authorityTypeId: foreign.authorityType })] },
    });
    expect(otherDelegation.status).toBe(200);
    foreign.delegation = otherDelegation.body.data[0].id;
    foreign.document = await announcedDocument(h, h.other.id);
  });
  afterAll(() => h?.close());

  describe('issuing with the issuer fields', () => {
    it('a root delegation and a redelegation, product-shaped, answer 200 with the issuer as sent', async () => {
      const created = await post(
        productBody({
          isRootDelegation: true,
          issuerType: 'ROOT_AUTHORITY',
          issuerUserId: admin,
          issuerPositionId: ceo,
          recipientType: 'PERSONNEL_IN_POSITION',
          delegationRecipients: [{ recipientUserId: manager, recipientPositionId: cfo, isInvalid: false }],
          delegationAuthorities: [approvalLimit(h, '500000', { redelegable: true })],
        }),
        h.tokens.admin,
      );
      expect(created.status).toBe(200);
      root = created.body.data[0];
      expect(created.body.data[0]).toMatchObject({ isRootDelegation: true, issuerType: 'ROOT_AUTHORITY', issuerUserId: admin, issuerPositionId: ceo, recipientUserId: manager, recipientPositionId: cfo, status: 'ISSUED', copiedFrom: null });

      const handed = await post(
        productBody({
          isRootDelegation: false,
          issuerType: 'PERSONNEL_IN_POSITION',
          issuerUserId: manager,
          issuerPositionId: cfo,
          parentDelegationId: root.id,
          copiedFrom: root.id,
          recipientType: 'SPECIFIC_PERSONNEL',
          delegationRecipients: [{ recipientUserId: user, recipientPositionId: null, isInvalid: false }],
          delegationAuthorities: [approvalLimit(h, '1000')],
        }),
        h.tokens.manager,
      );
      expect(handed.status).toBe(200);
      expect(handed.body.data[0]).toMatchObject({ isRootDelegation: false, parentDelegationId: root.id, issuerType: 'PERSONNEL_IN_POSITION', issuerUserId: manager, issuerPositionId: cfo, recipientUserId: user, copiedFrom: root.id });

      // Left out, the issuer is derived as before.
      const derived = await post({ decisionId, parentDelegationId: root.id, delegationPathway: ['Matrix'], expirationDate: '2035-01-01T00:00:00.000Z', recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: auditor }], delegationAuthorities: [approvalLimit(h, '10')] }, h.tokens.manager);
      expect(derived.status).toBe(200);
      expect(derived.body.data[0]).toMatchObject({ issuerType: 'PERSONNEL_IN_POSITION', issuerUserId: manager, issuerPositionId: cfo });
    });

    it('each wrong issuer combination is refused naming the field, and makes nothing', async () => {
      const rootBody = (extra: object) =>
        productBody({ recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], delegationAuthorities: [approvalLimit(h, '10')], ...extra });
      const redo = (extra: object) => rootBody({ parentDelegationId: root.id, delegationRecipients: [{ recipientUserId: user }], ...extra });
      // Someone else as the issuer: 403.
      await refused(() => post(rootBody({ issuerUserId: manager }), h.tokens.admin), 403, ['issuerUserId']);
      await refused(() => post(redo({ issuerUserId: admin }), h.tokens.manager), 403, ['issuerUserId']);
      // ROOT_AUTHORITY needs create:root_delegations (user has not) and no parent.
      await refused(() => post(rootBody({ issuerType: 'ROOT_AUTHORITY' }), h.tokens.user), 403, []);
      await refused(() => post(redo({ issuerType: 'ROOT_AUTHORITY' }), h.tokens.manager), 400, ['issuerType', 'parentDelegationId']);
      await refused(() => post(redo({ isRootDelegation: true }), h.tokens.manager), 400, ['isRootDelegation']);
      // Without a parent it is a root delegation.
      await refused(() => post(rootBody({ issuerType: 'PERSONNEL_IN_POSITION', issuerPositionId: ceo }), h.tokens.admin), 400, ['issuerType']);
      await refused(() => post(rootBody({ isRootDelegation: false }), h.tokens.admin), 400, ['isRootDelegation']);
      await refused(() => post(rootBody({ issuerType: 'ROOT_AUTHORITY', issuerPositionId: cfo }), h.tokens.admin), 400, ['issuerPositionId']); // admin does not hold the CFO's position
      // A redelegation as the caller holds the parent now: PERSONNEL_IN_POSITION from the CFO's position.
      await refused(() => post(redo({ issuerType: 'POSITION_ONLY' }), h.tokens.manager), 400, ['issuerType']);
      await refused(() => post(redo({ issuerType: 'SPECIFIC_PERSONNEL' }), h.tokens.manager), 400, ['issuerType']);
      await refused(() => post(redo({ issuerType: 'PERSONNEL_IN_POSITION', issuerPositionId: controller }), h.tokens.manager), 400, ['issuerPositionId']);
      await refused(() => post(redo({ issuerPositionId: UNKNOWN }), h.tokens.manager), 404, ['issuerPositionId']);
      await refused(() => post(redo({ copiedFrom: UNKNOWN }), h.tokens.manager), 404, ['copiedFrom']);
      await refused(() => post(redo({ copiedFrom: foreign.delegation }), h.tokens.manager), 404, ['copiedFrom']);
      // Not a holder of the parent: 403 as before, whatever is sent.
      await refused(() => post(redo({ issuerType: 'PERSONNEL_IN_POSITION', issuerPositionId: cfo }), h.tokens.auditor), 403, []);
      await refused(() => post(rootBody({ issuerType: 'BOSS' }), h.tokens.admin), 400, ['issuerType']);
    });
  });

  it('a delegation role set ASSIGNED (and ACKNOWLEDGED) is answered so; its event says the role is in force', async () => {
    const roleId = h.refs.decisionRoles.get('Informed')!;
    const set = (roleStatus: string) =>
      h.svc.http.patch(`${DELEGATIONS}/${root.id}/roles/${roleId}`, {
        token: h.tokens.admin,
        body: { designeeRecipientType: 'SPECIFIC_PERSONNEL', isAutoIssue: false, roleDesignees: [{ designeeUserId: auditor }], roleStatus, roleRequirement: 'Kept informed', isCascade: false },
      });
    const assigned = await set('ASSIGNED');
    expect(assigned.status).toBe(200);
    expect(assigned.body.data).toMatchObject({ roleId, roleStatus: 'ASSIGNED', roleDesignees: [{ designeeUserId: auditor, designeePositionId: null }] });
    const listed = await h.svc.http.get(`${DELEGATIONS}/${root.id}/roles`, { token: h.tokens.admin });
    expect(listed.body.data.data.find((r: { roleId: string }) => r.roleId === roleId)).toMatchObject({ roleStatus: 'ASSIGNED' });
    const [event] = await h.db.query<{ payload: { roleStatus: string } }>(
      `SELECT payload FROM decision.outbox WHERE subject = 'evt.decision.delegation.role-assigned' AND payload->>'delegationId' = $1 ORDER BY created_at DESC LIMIT 1`,
      [root.id],
    );
    expect(event.payload.roleStatus).toBe('ACTIVE');
    expect((await set('ACKNOWLEDGED')).body.data.roleStatus).toBe('ACKNOWLEDGED');
    expect((await set('INACTIVE')).body.data.roleStatus).toBe('INACTIVE');
    const bad = await set('DONE');
    expectErrorBody(bad, 400);
    expect(fields(bad)).toEqual(['roleStatus']);
  });

  it('an Authorized limit sent with an operator (or empty ones) is accepted and answered without them, on a decision and a delegation', async () => {
    const authorized = (extra: object) => ({ authorityTypeId: h.refs.authorityTypes.get('Signatory')!, authorityLimit: 'Primary', authorityLimitValueType: 'Authorized', ...extra });
    const made = await h.svc.http.post(DECISIONS, {
      token: h.tokens.admin,
      body: {
        name: 'Sign the annual report (product compat)',
        status: 'PUBLISHED',
        delegationPathway: ['Matrix'],
        decisionAuthorities: [authorized({ authorityLimitOperator: '<=', authorityLimitValue: '', authorityLimitValueUnit: '' }), approvalLimit(h, '100', { authorityLimitValueUnit: 'USD' })],
      },
    });
    expect(made.status).toBe(200);
    const signatory = made.body.data.decisionAuthorities.find((a: { authorityLimitValueType: string }) => a.authorityLimitValueType === 'Authorized');
    expect(signatory).toMatchObject({ authorityLimitOperator: null, authorityLimitValue: null, authorityLimitValueUnit: null });
    const read = await h.svc.http.get(`${DECISIONS}/${made.body.data.id}`, { token: h.tokens.admin });
    expect(read.body.data.decisionAuthorities.find((a: { authorityLimitValueType: string }) => a.authorityLimitValueType === 'Authorized')).toMatchObject({ authorityLimitOperator: null });

    const delegated = await post(
      { decisionId: made.body.data.id, recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], delegationAuthorities: [authorized({ authorityLimitOperator: '<' })] },
      h.tokens.admin,
    );
    expect(delegated.status).toBe(200);
    expect(delegated.body.data[0].delegationAuthorities[0]).toMatchObject({ authorityLimitValueType: 'Authorized', authorityLimitOperator: null, authorityLimitValue: null, authorityLimitValueUnit: null });
    // Anywhere else the operator is required: an empty one is a 400 naming it.
    const empty = await h.svc.http.post(DECISIONS, { token: h.tokens.admin, body: { name: 'No operator (product compat)', decisionAuthorities: [approvalLimit(h, '100', { authorityLimitOperator: '' })] } });
    expectErrorBody(empty, 400);
    expect(fields(empty)).toEqual(['decisionAuthorities.0.authorityLimitOperator']);
  });

  it('an empty string as a filter is a 400 naming it, in the lists and the searches; an empty array in a body filters nothing', async () => {
    const get = async (path: string, named: string) => {
      const res = await h.svc.http.get(path, { token: h.tokens.admin });
      expectErrorBody(res, 400);
      expect(fields(res)).toContain(named);
    };
    const search = async (path: string, body: object, named: string) => {
      const res = await h.svc.http.post(path, { token: h.tokens.admin, body });
      expectErrorBody(res, 400);
      expect(fields(res)).toContain(named);
    };
    for (const name of ['status', 'sectionIds', 'categoryIds', 'groupIds', 'ownerIds', 'authorityTypeIds', 'authorityLimitValueTypes', 'selectedDecisionIds']) {
      await get(`${DECISIONS}?${name}=`, name);
      await search(`${DECISIONS}/global-search`, { [name]: '' }, name);
    }
    for (const name of ['status', 'decisionIds', 'recipientUserIds', 'positionIds', 'groupIds', 'sectionIds', 'categoryIds', 'issuerType', 'delegationPathway', 'invalidFields', 'authorityTypeIds']) {
      await get(`${DELEGATIONS}?${name}=`, name);
      await search(`${DELEGATIONS}/global-search`, { [name]: '' }, name);
    }
    await get(`${DECISIONS}?status=PUBLISHED,`, 'status');
    await search(`${DELEGATIONS}/global-search`, { groupIds: [''] }, 'groupIds');
    await get('/decision/v1/attestations?status=', 'status');
    expect((await h.svc.http.get(`${DECISIONS}?status=PUBLISHED`, { token: h.tokens.admin })).status).toBe(200);
    expect((await h.svc.http.post(`${DELEGATIONS}/global-search`, { token: h.tokens.admin, body: { status: [], groupIds: [] } })).status).toBe(200);
  });

  describe("ids in bodies: another tenant's or unknown is a 404 naming the field, and nothing changes", () => {
    const ids = () => [UNKNOWN, foreign.delegation!];

    it('issuing and changing a delegation: groups, their types, authority types', async () => {
      const body = (extra: object) => ({ decisionId, recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], delegationAuthorities: [approvalLimit(h, '10')], ...extra });
      const groups = [UNKNOWN, ...(foreign.group ? [foreign.group] : [])];
      for (const groupId of groups) await refused(() => post(body({ delegationGroups: [{ groupId }] }), h.tokens.admin), 404, ['delegationGroups.0.groupId']);
      const finance = h.refs.groups.get('Finance')!;
      await refused(() => post(body({ delegationGroups: [{ groupId: finance, tenantGroupTypeId: UNKNOWN }] }), h.tokens.admin), 404, ['delegationGroups.0.tenantGroupTypeId']);
      for (const authorityTypeId of [UNKNOWN, foreign.authorityType]) {
        await refused(() => post(body({ delegationAuthorities: [approvalLimit(h, '10'), approvalLimit(h, '5', { authorityTypeId })] }), h.tokens.admin), 404, ['delegationAuthorities.1.authorityTypeId']);
      }
      await refused(() => post(body({ decisionId: foreign.decision }), h.tokens.admin), 404, ['decisionId']);
      await refused(() => post(body({ parentDelegationId: foreign.delegation }), h.tokens.admin), 404, ['parentDelegationId']);
      await refused(() => post(body({ delegationRecipients: [{ recipientUserId: foreign.user }] }), h.tokens.admin), 404, ['delegationRecipients.0.recipientUserId']);

      const version = async () => (await h.db.query<{ version: number }>(`SELECT version FROM decision.delegations WHERE id = $1`, [root.id]))[0].version;
      const before = await version();
      for (const groupId of groups) {
        const res = await h.svc.http.patch(`${DELEGATIONS}/${root.id}`, { token: h.tokens.admin, body: { delegationGroups: [{ groupId }] } });
        expectErrorBody(res, 404);
        expect(fields(res)).toEqual(['delegationGroups.0.groupId']);
      }
      const typed = await h.svc.http.patch(`${DELEGATIONS}/${root.id}`, { token: h.tokens.admin, body: { delegationAuthorities: [approvalLimit(h, '10', { authorityTypeId: foreign.authorityType })] } });
      expectErrorBody(typed, 404);
      expect(fields(typed)).toEqual(['delegationAuthorities.0.authorityTypeId']);
      expect(await version()).toBe(before);
    });

    it("linking documents (decisions, delegations, bulk link): unknown, another tenant's or deleted is a 404; one deleted since it was linked may stay", async () => {
      const [kept, gone] = [await announcedDocument(h, h.demo.id), await announcedDocument(h, h.demo.id)];
      const deleted = await announcedDocument(h, h.demo.id);
      await announcedDocument(h, h.demo.id, { id: deleted, version: 2, isDeleted: true, documentStatus: 'DELETED' });
      const decisions = async () => (await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM decision.decisions WHERE tenant_id = $1`, [h.demo.id]))[0].n;
      const count = await decisions();
      for (const documentId of [UNKNOWN, foreign.document!, deleted]) {
        const made = await h.svc.http.post(DECISIONS, { token: h.tokens.admin, body: { name: `Linked ${documentId}`, decisionDocuments: [{ documentId: kept }, { documentId }] } });
        expectErrorBody(made, 404);
        expect(made.body.errors).toEqual([{ field: 'decisionDocuments.1.documentId', message: `Document ${documentId} not found` }]);
        await refused(() => post({ decisionId, recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], delegationAuthorities: [approvalLimit(h, '10')], delegationDocuments: [{ documentId }] }, h.tokens.admin), 404, ['delegationDocuments.0.documentId']);
        const changed = await h.svc.http.patch(`${DELEGATIONS}/${root.id}`, { token: h.tokens.admin, body: { delegationDocuments: [{ documentId: kept }, { documentId }] } });
        expectErrorBody(changed, 404);
        expect(fields(changed)).toEqual(['delegationDocuments.1.documentId']);
      }
      expect(await decisions()).toBe(count);

      // Linked while live, deleted since: a change that sends the list back as it read it keeps the link; a new link to it is refused.
      const linked = await h.svc.http.post(DECISIONS, { token: h.tokens.admin, body: { name: 'Linked, then deleted', decisionDocuments: [{ documentId: kept }, { documentId: gone }] } });
      expect(linked.status).toBe(200);
      const id = linked.body.data.id as string;
      expect(linked.body.data.decisionDocuments.map((d: { documentStatus: string }) => d.documentStatus)).toEqual(['PUBLISHED', 'PUBLISHED']);
      await announcedDocument(h, h.demo.id, { id: gone, version: 2, isDeleted: true, documentStatus: 'DELETED' });
      const sentBack = await h.svc.http.patch(`${DECISIONS}/${id}`, { token: h.tokens.admin, body: { description: 'still linked', decisionDocuments: [{ documentId: gone }, { documentId: kept }] } });
      expect(sentBack.status).toBe(200);
      expect(sentBack.body.data.decisionDocuments).toEqual([
        expect.objectContaining({ documentId: gone, documentStatus: 'DELETED' }),
        expect.objectContaining({ documentId: kept, documentStatus: 'PUBLISHED' }),
      ]);
      const added = await h.svc.http.patch(`${DECISIONS}/${id}`, { token: h.tokens.admin, body: { decisionDocuments: [{ documentId: kept }, { documentId: deleted }] } });
      expectErrorBody(added, 404);
      expect(fields(added)).toEqual(['decisionDocuments.1.documentId']);
      const withDelegation = await h.svc.http.patch(`${DELEGATIONS}/${root.id}`, { token: h.tokens.admin, body: { delegationDocuments: [{ documentId: kept }] } });
      expect(withDelegation.status).toBe(200);
      expect(withDelegation.body.data.delegationDocuments).toEqual([expect.objectContaining({ documentId: kept })]);
    });

    it('the bulk operations on delegations, the request for a redelegation, and the cascading check', async () => {
      const jobs = async () => (await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM decision.jobs WHERE tenant_id = $1`, [h.demo.id]))[0].n;
      const jobsBefore = await jobs();
      const live = async () => (await h.db.query<{ status: string }>(`SELECT status FROM decision.delegations WHERE id = $1`, [root.id]))[0].status;
      const document = await announcedDocument(h, h.demo.id);
      for (const id of ids()) {
        const expect404 = async (path: string, body: object, named: string[], method: 'patch' | 'post' = 'patch') => {
          const res = await h.svc.http[method](`${DELEGATIONS}/${path}`, { token: h.tokens.admin, body });
          expectErrorBody(res, 404);
          expect(fields(res)).toEqual(named);
        };
        await expect404('bulk-link-documents', { delegationIds: [root.id, id], documentIds: [document, id] }, ['delegationIds.1', 'documentIds.1']);
        await expect404('bulk-reassign-recipients', { delegationIds: [root.id, id], recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: auditor, isInvalid: false }] }, ['delegationIds.1']);
        await expect404('bulk-delete', { delegationIds: [root.id, id] }, ['delegationIds.1']);
        await expect404('delegation-request-action', { delegationId: id, decisionId }, ['delegationId'], 'post');
        await expect404('check-cascading-updates', { parentDelegationId: id }, ['parentDelegationId']);
      }
      const request = await h.svc.http.post(`${DELEGATIONS}/delegation-request-action`, { token: h.tokens.admin, body: { delegationId: root.id, decisionId: foreign.decision } });
      expectErrorBody(request, 404);
      expect(fields(request)).toEqual(['decisionId']);
      const cascade = await h.svc.http.patch(`${DELEGATIONS}/check-cascading-updates`, {
        token: h.tokens.admin,
        body: { parentDelegationId: root.id, updatedDelegationGroups: [{ groupId: UNKNOWN }], updatedDelegationAuthorities: [approvalLimit(h, '10', { authorityTypeId: foreign.authorityType })] },
      });
      expectErrorBody(cascade, 404);
      expect(fields(cascade)).toEqual(['updatedDelegationGroups.0.groupId', 'updatedDelegationAuthorities.0.authorityTypeId']);
      const decisionCheck = await h.svc.http.patch(`${DELEGATIONS}/check-cascading-updates`, { token: h.tokens.admin, body: { decisionId: foreign.decision } });
      expectErrorBody(decisionCheck, 404);
      expect(fields(decisionCheck)).toEqual(['decisionId']);
      expect(await jobs()).toBe(jobsBefore);
      expect(await live()).toBe('ISSUED');
    });

    it('the bulk operations on decisions and unlink-records', async () => {
      const mine = await h.svc.http.post(DECISIONS, { token: h.tokens.admin, body: { name: 'Bulk target (product compat)' } });
      const id = mine.body.data.id as string;
      const state = async () => (await h.db.query<{ is_deleted: boolean; version: number }>(`SELECT is_deleted, version FROM decision.decisions WHERE id = $1`, [id]))[0];
      const before = await state();
      for (const other of [UNKNOWN, foreign.decision!]) {
        for (const [method, path] of [['patch', 'bulk-delete'], ['patch', 'bulk-restore'], ['patch', 'bulk-duplicate'], ['post', 'unlink-records']] as const) {
          const res = await h.svc.http[method](`${DECISIONS}/${path}`, { token: h.tokens.admin, body: { decisionIds: [id, other], documentId: path === 'unlink-records' ? '0190f5c4-0000-7000-8000-0000000000d1' : undefined } });
          expectErrorBody(res, 404);
          expect(fields(res)).toEqual(['decisionIds.1']);
        }
      }
      expect(await state()).toEqual(before);
      const groups = await h.svc.http.post(DECISIONS, { token: h.tokens.admin, body: { name: 'Foreign group (product compat)', decisionGroups: [{ groupId: foreign.group ?? UNKNOWN }] } });
      expectErrorBody(groups, 404);
      expect(fields(groups)).toEqual(['decisionGroups.0.groupId']);
    });
  });
});
