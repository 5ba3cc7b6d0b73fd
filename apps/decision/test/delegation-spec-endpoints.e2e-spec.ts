import { expectErrorBody, ISO, startHarness, until, UUID7 } from '@ddm/testing';
import { announcedDocument, decisionApp, DecisionHarness } from './fixtures/decision-app';
import { approvalLimit } from './fixtures/limits';

const DELEGATIONS = '/decision/v1/delegations';
const MAPPING_FIELDS = ['conditionDetails', 'conditionId', 'createdAt', 'delegationId', 'id', 'isActive', 'updatedAt'];
const DETAILS_FIELDS = ['conditionDescription', 'conditionName', 'createdAt', 'id', 'updatedAt'];

/**
 * The spec's four delegation operations (§4.1) against real Postgres and NATS: conditions and their
 * history (by a delegation's id and by a delegation history id), check-cascading-updates over a
 * tree, and bulk-link-documents as a job.
 */
describe("delegations: the spec's operations (e2e, real Postgres and NATS)", () => {
  let h: DecisionHarness;
  let decisionId: string;
  let plainDecisionId: string;
  let manager: string, user: string, auditor: string;

  const to = (recipientUserId: string) => ({ recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId }] });
  const issue = async (body: object, token = h.tokens.admin) => {
    const res = await h.svc.http.post(DELEGATIONS, { token, body: { decisionId, status: 'ISSUED', ...body } });
    expect(res.status).toBe(200);
    return res.body.data[0] as { id: string; delegationDisplayId: string };
  };
  const newDecision = async (name: string, conditionEnabled: boolean) => {
    const res = await h.svc.http.post('/decision/v1/decisions', {
      token: h.tokens.admin,
      body: { name, status: 'PUBLISHED', conditionEnabled, delegationPathway: ['Matrix', 'Direct Line', 'Down-Line'], decisionGroups: [{ groupId: h.refs.groups.get('Finance') }], decisionAuthorities: [approvalLimit(h, '1000000')] },
    });
    expect(res.status).toBe(200);
    return res.body.data.id as string;
  };

  beforeAll(async () => {
    h = await startHarness(decisionApp);
    [manager, user, auditor] = ['manager', 'user', 'auditor'].map((n) => h.refs.users.get(`${n}@demo.test`)!);
    decisionId = await newDecision('Sign supplier contracts (spec endpoints)', true);
    plainDecisionId = await newDecision('Approve travel (spec endpoints)', false);
  });
  afterAll(() => h?.close());

  describe('conditions', () => {
    let delegationId: string;
    beforeAll(async () => {
      delegationId = (await issue({ ...to(manager), delegationAuthorities: [approvalLimit(h, '1000')] })).id;
    });

    it('adds conditions (201), lists them as §2.1 mappings, and PATCH takes isActive as a boolean or "true"/"false"', async () => {
      const created = await h.svc.http.post(`${DELEGATIONS}/${delegationId}/conditions`, { token: h.tokens.admin, body: { conditionName: 'Within budget', conditionDescription: 'Only against an approved budget line.' } });
      expect(created.status).toBe(201);
      const m = created.body.data;
      expect(Object.keys(m).sort()).toEqual(MAPPING_FIELDS);
      expect(Object.keys(m.conditionDetails).sort()).toEqual(DETAILS_FIELDS);
      expect(m).toMatchObject({ id: expect.stringMatching(UUID7), delegationId, conditionId: expect.stringMatching(UUID7), isActive: true, createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) });
      expect(m.conditionDetails).toMatchObject({ id: m.conditionId, conditionName: 'Within budget', conditionDescription: 'Only against an approved budget line.' });
      await h.svc.http.post(`${DELEGATIONS}/${delegationId}/conditions`, { token: h.tokens.admin, body: { conditionName: 'Two signatures', isActive: 'false' } });

      const patched = await h.svc.http.patch(`${DELEGATIONS}/${delegationId}/conditions/${m.conditionId}`, { token: h.tokens.admin, body: { isActive: 'false', conditionName: 'Within the budget' } });
      expect(patched.status).toBe(200);
      expect(patched.body.data).toMatchObject({ id: m.id, conditionId: m.conditionId, isActive: false, conditionDetails: { conditionName: 'Within the budget' } });
      const back = await h.svc.http.patch(`${DELEGATIONS}/${delegationId}/conditions/${m.conditionId}`, { token: h.tokens.admin, body: { isActive: true } });
      expect(back.body.data.isActive).toBe(true);

      const list = await h.svc.http.get(`${DELEGATIONS}/${delegationId}/conditions?sortBy=conditionName`, { token: h.tokens.admin });
      expect(list.status).toBe(200);
      expect(list.body.data.data.map((x: { conditionDetails: { conditionName: string } }) => x.conditionDetails.conditionName)).toEqual(['Two signatures', 'Within the budget']);
      const inactive = await h.svc.http.get(`${DELEGATIONS}/${delegationId}/conditions?isActive=false`, { token: h.tokens.admin });
      expect(inactive.body.data.data.map((x: { isActive: boolean }) => x.isActive)).toEqual([false]);
    });

    it('conditions-history: by the delegation\'s id every change; by a delegation history id the conditions as they stood then', async () => {
      const all = await h.svc.http.get(`${DELEGATIONS}/${delegationId}/conditions-history?limit=100&sortBy=updatedAt&sortOrder=asc`, { token: h.tokens.admin });
      expect(all.status).toBe(200);
      const items = all.body.data.data as { conditionId: string; isActive: boolean; conditionDetails: { conditionName: string } }[];
      expect(all.body.data.total).toBe(4); // two added, one changed twice
      for (const item of items) expect(Object.keys(item).sort()).toEqual(MAPPING_FIELDS);
      expect(items.map((i) => [i.conditionDetails.conditionName, i.isActive])).toEqual([
        ['Within budget', true],
        ['Two signatures', false],
        ['Within the budget', false],
        ['Within the budget', true],
      ]);
      const onlyActive = await h.svc.http.get(`${DELEGATIONS}/${delegationId}/conditions-history?isActive=true`, { token: h.tokens.admin });
      expect(onlyActive.body.data.total).toBe(2);

      // A revision between the second condition and the first PATCH: both conditions, the first still active under its old name.
      const [rev] = await h.db.query<{ id: string }>(
        `SELECT id FROM decision.delegation_revisions WHERE delegation_id = $1 ORDER BY revision_id OFFSET 2 LIMIT 1`,
        [delegationId],
      );
      const asOf = await h.svc.http.get(`${DELEGATIONS}/${rev.id}/conditions-history?sortBy=conditionName`, { token: h.tokens.admin });
      expect(asOf.status).toBe(200);
      expect(asOf.body.data.data.map((x: { isActive: boolean; conditionDetails: { conditionName: string } }) => [x.conditionDetails.conditionName, x.isActive])).toEqual([
        ['Two signatures', false],
        ['Within budget', true],
      ]);
      expectErrorBody(await h.svc.http.get(`${DELEGATIONS}/${delegationId}/conditions-history?limit=101`, { token: h.tokens.admin }), 400);
      expectErrorBody(await h.svc.http.get(`${DELEGATIONS}/${delegationId}/conditions-history?sortBy=nope`, { token: h.tokens.admin }), 400);
      expectErrorBody(await h.svc.http.get(`${DELEGATIONS}/${delegationId}/conditions-history`, { token: h.tokens.otherAdmin }), 404);
      expectErrorBody(await h.svc.http.get(`${DELEGATIONS}/0190a000-0000-7000-8000-00000000dead/conditions-history`, { token: h.tokens.admin }), 404);
    });

    it('refuses a name of 151 characters, a decision without conditions (409), a caller who may not manage it (403), an unknown condition (404)', async () => {
      expectErrorBody(await h.svc.http.post(`${DELEGATIONS}/${delegationId}/conditions`, { token: h.tokens.admin, body: { conditionName: 'x'.repeat(151) } }), 400);
      expect((await h.svc.http.post(`${DELEGATIONS}/${delegationId}/conditions`, { token: h.tokens.admin, body: { conditionName: 'x'.repeat(150) } })).status).toBe(201);
      const plain = await h.svc.http.post(DELEGATIONS, { token: h.tokens.admin, body: { decisionId: plainDecisionId, ...to(manager), delegationAuthorities: [approvalLimit(h, '10')] } });
      const refused = await h.svc.http.post(`${DELEGATIONS}/${plain.body.data[0].id}/conditions`, { token: h.tokens.admin, body: { conditionName: 'Any' } });
      expectErrorBody(refused, 409);
      expect(refused.body.message).toMatch(/conditionEnabled/);
      expectErrorBody(await h.svc.http.post(`${DELEGATIONS}/${delegationId}/conditions`, { token: h.tokens.user, body: { conditionName: 'Mine' } }), 403);
      expectErrorBody(await h.svc.http.patch(`${DELEGATIONS}/${delegationId}/conditions/0190a000-0000-7000-8000-00000000dead`, { token: h.tokens.admin, body: { isActive: false } }), 404);
      expectErrorBody(await h.svc.http.patch(`${DELEGATIONS}/${delegationId}/conditions/0190a000-0000-7000-8000-00000000dead`, { token: h.tokens.admin, body: {} }), 400);
    });
  });

  describe('check-cascading-updates', () => {
    /** root (manager, 5000, redelegable) → a (user, 4000) and b (auditor, 1000) → a1 under a (auditor, 3000). */
    let root: { id: string }, a: { id: string; delegationDisplayId: string }, b: { id: string }, a1: { id: string; delegationDisplayId: string };
    beforeAll(async () => {
      root = await issue({ ...to(manager), delegationPathway: ['Matrix', 'Direct Line'], delegationAuthorities: [approvalLimit(h, '5000', { redelegable: true })] });
      a = await issue({ parentDelegationId: root.id, ...to(user), delegationPathway: ['Matrix'], delegationAuthorities: [approvalLimit(h, '4000', { redelegable: true })] }, h.tokens.manager);
      b = await issue({ parentDelegationId: root.id, ...to(auditor), delegationPathway: ['Matrix'], delegationAuthorities: [approvalLimit(h, '1000')] }, h.tokens.manager);
      a1 = await issue({ parentDelegationId: a.id, ...to(auditor), delegationPathway: ['Matrix'], delegationAuthorities: [approvalLimit(h, '3000')] }, h.tokens.user);
    });
    const check = (body: object) => h.svc.http.patch(`${DELEGATIONS}/check-cascading-updates`, { token: h.tokens.admin, body });

    it("narrowing the parent's limit invalidates the children above it and their subtree (Parent), by depth; nothing changes", async () => {
      const res = await check({ parentDelegationId: root.id, updatedDelegationAuthorities: [approvalLimit(h, '2000', { redelegable: true })] });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        numberOfChildDelegationsInvalidated: 2,
        childDelegationsInvalidated: true,
        childDelegationsAffected: [
          { id: a.id, delegationDisplayId: a.delegationDisplayId, depth: 1, invalidFields: ['Authority'] },
          { id: a1.id, delegationDisplayId: a1.delegationDisplayId, depth: 2, invalidFields: ['Parent'] },
        ],
      });
      const stored = await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM decision.delegations WHERE id = ANY($1::uuid[]) AND is_invalid`, [[a.id, a1.id, b.id]]);
      expect(stored[0].n).toBe(0);
    });

    it('a narrower pathway set, an authority flagged isInvalid, and a proposal that breaks nothing', async () => {
      const pathway = await check({ parentDelegationId: root.id, updatedPathwayOptions: ['Direct Line'] });
      expect(pathway.body.data.childDelegationsAffected.map((x: { id: string; invalidFields: string[] }) => [x.id, x.invalidFields])).toEqual([
        [a.id, ['Pathway']],
        [b.id, ['Pathway']],
        [a1.id, ['Parent']],
      ]);
      const flagged = await check({ parentDelegationId: root.id, updatedDelegationAuthorities: [approvalLimit(h, '5000', { redelegable: true, isInvalid: true })] });
      expect(flagged.body.data.numberOfChildDelegationsInvalidated).toBe(3);
      const fine = await check({ parentDelegationId: root.id, updatedDelegationAuthorities: [approvalLimit(h, '4500', { redelegable: true })] });
      expect(fine.body.data).toEqual({ numberOfChildDelegationsInvalidated: 0, childDelegationsInvalidated: false, childDelegationsAffected: [] });
    });

    it("with only the decision's fields: every delegation of the decision against the narrowed decision (depth 1 = roots)", async () => {
      const res = await check({ decisionId, updatedDecisionAuthorities: [approvalLimit(h, '4500')] });
      expect(res.status).toBe(200);
      const byId = new Map(res.body.data.childDelegationsAffected.map((x: { id: string; depth: number; invalidFields: string[] }) => [x.id, [x.depth, x.invalidFields]]));
      expect(byId.get(root.id)).toEqual([1, ['Authority']]);
      expect(byId.get(a.id)).toEqual([2, ['Parent']]);
      expect(byId.get(a1.id)).toEqual([3, ['Parent']]);
      expectErrorBody(await check({}), 400);
      expectErrorBody(await check({ parentDelegationId: '0190a000-0000-7000-8000-00000000dead' }), 404);
      expectErrorBody(await h.svc.http.patch(`${DELEGATIONS}/check-cascading-updates`, { token: h.tokens.otherAdmin, body: { parentDelegationId: root.id } }), 404);
    });
  });

  describe('bulk-link-documents', () => {
    it("links every document to every delegation as a job; a pair already linked changes nothing; an unknown or another tenant's delegation is a 404 naming it, and no job", async () => {
      const d1 = await issue({ ...to(manager), delegationAuthorities: [approvalLimit(h, '10')] });
      const d2 = await issue({ ...to(user), delegationAuthorities: [approvalLimit(h, '10')] });
      const docs = [await announcedDocument(h, h.demo.id), await announcedDocument(h, h.demo.id)];
      const unknown = '0190a000-0000-7000-8000-00000000dead';
      const run = async (delegationIds: string[]) => {
        const res = await h.svc.http.patch(`${DELEGATIONS}/bulk-link-documents`, { token: h.tokens.admin, body: { tenantId: h.demo.id, delegationIds, documentIds: docs } });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ jobId: expect.stringMatching(UUID7), status: 'ACCEPTED', total: delegationIds.length });
        return until(
          async () => {
            const job = await h.svc.http.get(`/decision/v1/jobs/${res.body.data.jobId}`, { token: h.tokens.admin });
            return ['COMPLETED', 'COMPLETED_WITH_ERRORS', 'FAILED'].includes(job.body.data.status) && job.body.data;
          },
          'the link job to end',
          30_000,
        );
      };
      const jobs = async () => (await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM decision.jobs WHERE tenant_id = $1`, [h.demo.id]))[0].n;
      const jobsBefore = await jobs();
      const refused = await h.svc.http.patch(`${DELEGATIONS}/bulk-link-documents`, { token: h.tokens.admin, body: { delegationIds: [d1.id, d2.id, unknown], documentIds: docs } });
      expectErrorBody(refused, 404);
      expect(refused.body.errors).toEqual([{ field: 'delegationIds.2', message: `Delegation ${unknown} not found` }]);
      expect(await jobs()).toBe(jobsBefore);
      const first = await run([d1.id, d2.id]);
      expect(first).toMatchObject({ kind: 'bulk-link-documents', status: 'COMPLETED', total: 2, processed: 2, succeeded: 2, failed: 0 });
      const linked = async (id: string) => ((await h.svc.http.get(`${DELEGATIONS}/${id}`, { token: h.tokens.admin })).body.data.delegationDocuments as { documentId: string }[]).map((d) => d.documentId);
      expect(await linked(d1.id)).toEqual(docs);
      expect(await linked(d2.id)).toEqual(docs);
      const versions = async () => (await h.db.query<{ version: number }>(`SELECT version FROM decision.delegations WHERE id = ANY($1::uuid[]) ORDER BY id`, [[d1.id, d2.id]])).map((r) => r.version);
      const before = await versions();
      const second = await run([d1.id, d2.id]);
      expect(second).toMatchObject({ status: 'COMPLETED', succeeded: 2 });
      expect(await linked(d1.id)).toEqual(docs);
      expect(await versions()).toEqual(before); // nothing linked, nothing changed
      const events = await h.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM decision.outbox WHERE subject = 'evt.decision.delegation.updated' AND payload->>'delegationId' = ANY($1::text[])`,
        [[d1.id, d2.id]],
      );
      expect(events[0].n).toBe(2);
      expectErrorBody(await h.svc.http.patch(`${DELEGATIONS}/bulk-link-documents`, { token: h.tokens.admin, body: { delegationIds: [], documentIds: docs } }), 400);
      expectErrorBody(await h.svc.http.patch(`${DELEGATIONS}/bulk-link-documents`, { token: h.tokens.user, body: { delegationIds: [d1.id], documentIds: docs } }), 403);
    });
  });
});
