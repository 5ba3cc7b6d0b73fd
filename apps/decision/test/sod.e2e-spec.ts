import { expectErrorBody, httpClient, HttpResult, ISO, startHarness, until } from '@ddm/testing';
import { decisionApp, DecisionHarness } from './fixtures/decision-app';
import { approvalLimit } from './fixtures/limits';

const RULES = '/decision/v1/authority/sod-rules';
const CONFLICTS = '/decision/v1/authority/sod-conflicts';
const DELEGATIONS = '/decision/v1/delegations';
const UNKNOWN = '0190a000-0000-7000-8000-00000000dead';

interface Delegation {
  id: string;
  delegationDisplayId: string;
  status: string;
  sodAcknowledgedRuleIds: string[];
  recipientUserId: string | null;
}

interface Rule {
  id: string;
  name: string;
}

/**
 * Segregation of duties (e2e, real Postgres and NATS): rules per tenant, the check made when a
 * delegation begins to hold (issued at once, a draft issued, a suspended one resumed), the
 * acknowledgement by a holder of approve:delegations, and the conflicts that stand.
 * Demo Co: admin (System Admin) → manager (Global Authority Manager, holds approve:delegations,
 * Chief Financial Officer) → user (Global User); auditor (Auditor: view:decisions only).
 */
describe('segregation of duties (e2e)', () => {
  let h: DecisionHarness;
  let admin: string, manager: string, user: string, auditor: string;
  let approvalType: string;
  let n = 0;

  /** A published decision of its own for each use (rules apply per decision). */
  const decision = async (name: string, groupIds: string[] = []): Promise<string> => {
    const res = await h.svc.http.post('/decision/v1/decisions', {
      token: h.tokens.admin,
      body: { name: `${name} (sod spec ${++n})`, status: 'PUBLISHED', delegationPathway: ['Matrix'], decisionAuthorities: [approvalLimit(h, '1000000')], decisionGroups: groupIds.map((groupId) => ({ groupId })) },
    });
    expect(res.status).toBe(200);
    return res.body.data.id;
  };
  const createRule = async (name: string, leftDecisionId: string, rightDecisionId: string, extra: object = {}): Promise<Rule> => {
    const res = await h.svc.http.post(RULES, {
      token: h.tokens.admin,
      body: { name, left: { decisionId: leftDecisionId, authorityTypeId: approvalType }, right: { decisionId: rightDecisionId, authorityTypeId: approvalType }, ...extra },
    });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  /** POST /delegations: one recipient, ISSUED at once unless the body says otherwise. */
  const post = (decisionId: string, recipient: object, body: object = {}, token = h.tokens.admin): Promise<HttpResult> =>
    h.svc.http.post(DELEGATIONS, {
      token,
      body: {
        decisionId,
        status: 'ISSUED',
        delegationPathway: ['Matrix'],
        recipientType: 'SPECIFIC_PERSONNEL',
        delegationRecipients: [recipient],
        delegationAuthorities: [approvalLimit(h, '500000', { redelegable: true })],
        ...body,
      },
    });
  const issue = async (decisionId: string, userId: string, body: object = {}, token = h.tokens.admin): Promise<Delegation> => {
    const res = await post(decisionId, { recipientUserId: userId }, body, token);
    expect(res.status).toBe(200);
    return res.body.data[0];
  };
  const move = (id: string, action: string, body?: object, token = h.tokens.admin) => h.svc.http.post(`${DELEGATIONS}/${id}/${action}`, { token, body });
  const delegationsOf = async (decisionId: string): Promise<Delegation[]> => {
    const res = await h.svc.http.get(`${DELEGATIONS}?decisionIds=${decisionId}&limit=100`, { token: h.tokens.admin });
    expect(res.status).toBe(200);
    return res.body.data.data;
  };
  const conflicts = async (query: string, token = h.tokens.auditor) => {
    const res = await h.svc.http.get(`${CONFLICTS}?${query}`, { token });
    expect(res.status).toBe(200);
    return res.body.data as { total: number; page: number; limit: number; data: ConflictItem[] };
  };

  beforeAll(async () => {
    h = await startHarness(decisionApp);
    [admin, manager, user, auditor] = ['admin', 'manager', 'user', 'auditor'].map((u) => h.refs.users.get(`${u}@demo.test`)!);
    approvalType = h.refs.authorityTypes.get('Approval')!;
  });
  afterAll(() => h?.close());

  describe('rules', () => {
    it('created, read, listed, changed and deleted softly; view:decisions reads, edit:decisions writes', async () => {
      const [approve, pay] = [await decision('Approve invoices'), await decision('Pay suppliers')];
      const created = await h.svc.http.post(RULES, {
        token: h.tokens.manager,
        body: { name: '  Approver does not pay  ', left: { decisionId: approve, authorityTypeId: approvalType }, right: { decisionId: pay, authorityTypeId: approvalType } },
      });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ statusCode: 200, message: 'Segregation-of-duties rule created successfully' });
      const rule = created.body.data;
      expect(rule).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        sodRuleDisplayId: expect.stringMatching(/^\d{5,}$/),
        tenantId: h.demo.id,
        name: 'Approver does not pay',
        left: { decisionId: approve, decisionDisplayId: expect.any(String), decisionName: expect.stringMatching(/^Approve invoices/), authorityTypeId: approvalType, authorityTypeName: 'Approval' },
        right: { decisionId: pay, decisionDisplayId: expect.any(String), decisionName: expect.stringMatching(/^Pay suppliers/), authorityTypeId: approvalType, authorityTypeName: 'Approval' },
        sameGroupOnly: false,
        isDeleted: false,
        createdAt: expect.stringMatching(ISO),
        createdBy: manager,
        updatedAt: expect.stringMatching(ISO),
        updatedBy: manager,
      });

      const got = await h.svc.http.get(`${RULES}/${rule.id}`, { token: h.tokens.auditor });
      expect(got.status).toBe(200);
      expect(got.body.data).toEqual(rule);

      const listed = await h.svc.http.get(`${RULES}?search=${encodeURIComponent('approver does')}&decisionId=${pay}`, { token: h.tokens.auditor });
      expect(listed.status).toBe(200);
      expect(listed.body.data).toMatchObject({ total: 1, page: 1, limit: 10, data: [rule] });
      expect((await h.svc.http.get(`${RULES}?decisionId=${UNKNOWN}`, { token: h.tokens.auditor })).body.data.total).toBe(0);

      const patched = await h.svc.http.patch(`${RULES}/${rule.id}`, { token: h.tokens.admin, body: { name: 'Approver never pays', sameGroupOnly: 'true' } });
      expect(patched.status).toBe(200);
      expect(patched.body.data).toMatchObject({ name: 'Approver never pays', sameGroupOnly: true, updatedBy: admin, left: rule.left, right: rule.right });
      const swapped = await h.svc.http.patch(`${RULES}/${rule.id}`, { token: h.tokens.admin, body: { left: { decisionId: pay, authorityTypeId: approvalType }, right: { decisionId: approve, authorityTypeId: approvalType } } });
      expect(swapped.status).toBe(200);
      expect(swapped.body.data).toMatchObject({ left: { decisionId: pay }, right: { decisionId: approve } });

      const deleted = await h.svc.http.delete(`${RULES}/${rule.id}`, { token: h.tokens.admin });
      expect(deleted.status).toBe(200);
      expect(deleted.body.data).toMatchObject({ id: rule.id, isDeleted: true });
      expectErrorBody(await h.svc.http.get(`${RULES}/${rule.id}`, { token: h.tokens.admin }), 404);
      expectErrorBody(await h.svc.http.delete(`${RULES}/${rule.id}`, { token: h.tokens.admin }), 404);
      // The name is free again once the rule is deleted.
      expect((await createRule('Approver does not pay', approve, pay)).name).toBe('Approver does not pay');

      // Reading needs view:decisions (the auditor has it); writing edit:decisions (the Global User and the auditor do not).
      expectErrorBody(await h.svc.http.post(RULES, { token: h.tokens.user, body: { name: 'Nope', left: { decisionId: approve, authorityTypeId: approvalType }, right: { decisionId: pay, authorityTypeId: approvalType } } }), 403);
      expectErrorBody(await h.svc.http.delete(`${RULES}/${rule.id}`, { token: h.tokens.auditor }), 403);
    });

    it('400 naming each bad field, 404 naming an unknown decision, 409 for a taken name, 404 for another tenant\'s rule', async () => {
      const [approve, pay] = [await decision('Approve invoices'), await decision('Pay suppliers')];
      const left = { decisionId: approve, authorityTypeId: approvalType };
      const right = { decisionId: pay, authorityTypeId: approvalType };
      const bad = async (body: object, fields: string[]) => {
        const res = await h.svc.http.post(RULES, { token: h.tokens.admin, body });
        expectErrorBody(res, 400);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(fields));
      };
      await bad({ name: '   ', left, right }, ['name']);
      await bad({ name: 'x'.repeat(201), left, right }, ['name']);
      await bad({ name: 'No right', left }, ['right']);
      await bad({ name: 'Array side', left: [left], right }, ['left']);
      await bad({ name: 'Bad ids', left: { decisionId: 'nope', authorityTypeId: approvalType }, right: { decisionId: pay } }, ['left.decisionId', 'right.authorityTypeId']);
      await bad({ name: 'Unknown field', left, right, owner: admin }, ['owner']);
      await bad({ name: 'Flag', left, right, sameGroupOnly: 'maybe' }, ['sameGroupOnly']);
      await bad({ name: 'Same authority', left, right: { ...left } }, ['right']);
      // An authority type the decision does not have.
      await bad({ name: 'Other type', left: { decisionId: approve, authorityTypeId: h.refs.authorityTypes.get('Signatory') ?? UNKNOWN }, right }, ['left.authorityTypeId']);

      const unknown = await h.svc.http.post(RULES, { token: h.tokens.admin, body: { name: 'Unknown decision', left, right: { decisionId: UNKNOWN, authorityTypeId: approvalType } } });
      expectErrorBody(unknown, 404);
      expect(unknown.body.errors).toEqual([{ field: 'right.decisionId', message: expect.stringContaining(UNKNOWN) }]);

      const rule = await createRule('Who approves does not pay', approve, pay);
      expectErrorBody(await h.svc.http.post(RULES, { token: h.tokens.admin, body: { name: 'WHO APPROVES DOES NOT PAY', left, right } }), 409);
      expectErrorBody(await h.svc.http.patch(`${RULES}/${rule.id}`, { token: h.tokens.admin, body: {} }), 400);
      expectErrorBody(await h.svc.http.patch(`${RULES}/${rule.id}`, { token: h.tokens.admin, body: { right: left } }), 400);
      expectErrorBody(await h.svc.http.get(`${RULES}/not-a-uuid`, { token: h.tokens.admin }), 400);
      expectErrorBody(await h.svc.http.get(`${RULES}?limit=101`, { token: h.tokens.admin }), 400);
      expectErrorBody(await h.svc.http.get(`${RULES}?sortBy=left`, { token: h.tokens.admin }), 400);

      // Another tenant's rule is a 404 to every method.
      expectErrorBody(await h.svc.http.get(`${RULES}/${rule.id}`, { token: h.tokens.otherAdmin }), 404);
      expectErrorBody(await h.svc.http.patch(`${RULES}/${rule.id}`, { token: h.tokens.otherAdmin, body: { name: 'Mine now' } }), 404);
      expectErrorBody(await h.svc.http.delete(`${RULES}/${rule.id}`, { token: h.tokens.otherAdmin }), 404);
      expect((await h.svc.http.get(RULES, { token: h.tokens.otherAdmin })).body.data.data.map((r: Rule) => r.id)).not.toContain(rule.id);
      expect((await h.svc.http.get(`${RULES}/${rule.id}`, { token: h.tokens.admin })).body.data.name).toBe('Who approves does not pay');
    });
  });

  describe('issuing', () => {
    it('a conflict created by issuing is a 409 naming the rule, and nothing is issued', async () => {
      const [approve, pay] = [await decision('Approve invoices'), await decision('Pay suppliers')];
      const rule = await createRule('Approver does not pay (refused)', approve, pay);
      await issue(pay, manager);
      // Holding one side is no conflict; the other side for someone else neither.
      await issue(approve, auditor);

      const refused = await post(approve, { recipientUserId: manager });
      expectErrorBody(refused, 409);
      expect(refused.body.message).toContain(`rule "Approver does not pay (refused)" (${rule.id})`);
      expect(refused.body.message).toContain('acknowledgeSodConflict');
      expect(refused.body.errors).toEqual([{ field: `sodRules.${rule.id}`, message: expect.stringMatching(/^rule "Approver does not pay \(refused\)": user .* would hold/) }]);
      expect((await delegationsOf(approve)).map((d) => d.id)).toHaveLength(1);

      // A draft does not hold: no conflict until it is issued.
      const draft = await post(approve, { recipientUserId: manager }, { status: 'DRAFT' });
      expect(draft.status).toBe(200);
      expect(draft.body.data[0]).toMatchObject({ status: 'DRAFT', sodAcknowledgedRuleIds: [] });
    });

    it('a PATCH giving a holding delegation to someone who holds the other side is a 409 naming the rule, unless acknowledged', async () => {
      const [approve, pay] = [await decision('Approve expenses'), await decision('Reimburse expenses')];
      const rule = await createRule('Approver does not reimburse (patch)', approve, pay);
      await issue(pay, manager);
      const held = await issue(approve, auditor);
      const patch = (body: object) => h.svc.http.patch(`${DELEGATIONS}/${held.id}`, { token: h.tokens.admin, body: { recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], ...body } });
      const refused = await patch({});
      expectErrorBody(refused, 409);
      expect(refused.body.errors).toEqual([{ field: `sodRules.${rule.id}`, message: expect.any(String) }]);
      expect((await delegationsOf(approve))[0].recipientUserId).toBe(auditor);
      const acknowledged = await patch({ acknowledgeSodConflict: true });
      expect(acknowledged.status).toBe(200);
      expect(acknowledged.body.data).toMatchObject({ recipientUserId: manager, sodAcknowledgedRuleIds: [rule.id] });
    });

    it('with acknowledgeSodConflict by a holder of approve:delegations it is issued, recorded on the delegation and in its changelog; without the key a 403', async () => {
      const [approve, pay] = [await decision('Approve invoices'), await decision('Pay suppliers')];
      const rule = await createRule('Approver does not pay (acknowledged)', approve, pay);
      await issue(pay, manager);

      const acknowledged = await issue(approve, manager, { acknowledgeSodConflict: true });
      expect(acknowledged).toMatchObject({ status: 'ISSUED', sodAcknowledgedRuleIds: [rule.id] });
      const got = await h.svc.http.get(`${DELEGATIONS}/${acknowledged.id}`, { token: h.tokens.admin });
      expect(got.body.data).toMatchObject({ status: 'ISSUED', sodAcknowledgedRuleIds: [rule.id] });
      const log = await h.svc.http.get(`${DELEGATIONS}/${acknowledged.id}/changelog?sortOrder=asc`, { token: h.tokens.admin });
      expect(log.status).toBe(200);
      const [issued, recorded] = log.body.data.data;
      expect(issued).toMatchObject({ revisionId: '1', change: 'issued', revisedById: admin });
      expect(recorded).toMatchObject({ revisionId: '2', change: 'sod conflict acknowledged', revisedById: admin, changes: [{ field: 'sodAcknowledgedRuleIds', from: [], to: [rule.id] }] });
      expect(log.body.data.total).toBe(2);

      // The Global User holds a redelegable delegation of `approve` and hands it on to the manager, who holds `pay`: without approve:delegations the acknowledgement is a 403.
      const held = await issue(approve, user);
      const handOn = { parentDelegationId: held.id, delegationAuthorities: [approvalLimit(h, '100000')] };
      expectErrorBody(await post(approve, { recipientUserId: manager }, handOn, h.tokens.user), 409);
      const denied = await post(approve, { recipientUserId: manager }, { ...handOn, acknowledgeSodConflict: true }, h.tokens.user);
      expectErrorBody(denied, 403);
      expect(denied.body.message).toContain('approve:delegations');
      expect((await delegationsOf(approve)).map((d) => d.id).sort()).toEqual([acknowledged.id, held.id].sort());
      expectErrorBody(await post(approve, { recipientUserId: manager }, { acknowledgeSodConflict: 'yes' }), 400);
    });

    it('a draft issued and a suspended delegation resumed begin to hold: each is checked then, and acknowledged in its move\'s body', async () => {
      const [approve, pay] = [await decision('Approve invoices'), await decision('Pay suppliers')];
      const rule = await createRule('Approver does not pay (moves)', approve, pay);
      const draft = (await post(approve, { recipientUserId: auditor }, { status: 'DRAFT' })).body.data[0] as Delegation;
      await issue(pay, auditor);

      expectErrorBody(await move(draft.id, 'issue', {}), 409);
      expectErrorBody(await move(draft.id, 'issue'), 409);
      expectErrorBody(await move(draft.id, 'issue', { note: 'x' }), 400);
      const issued = await move(draft.id, 'issue', { acknowledgeSodConflict: true });
      expect(issued.status).toBe(200);
      expect(issued.body.data).toMatchObject({ status: 'ISSUED', sodAcknowledgedRuleIds: [rule.id] });

      // Suspending needs no body; resuming makes it hold again, so the conflict is acknowledged again.
      expect((await move(draft.id, 'suspend')).status).toBe(200);
      const refused = await move(draft.id, 'resume', {});
      expectErrorBody(refused, 409);
      expect(refused.body.errors[0].field).toBe(`sodRules.${rule.id}`);
      expect((await h.svc.http.get(`${DELEGATIONS}/${draft.id}`, { token: h.tokens.admin })).body.data.status).toBe('SUSPENDED');
      const resumed = await move(draft.id, 'resume', { acknowledgeSodConflict: true });
      expect(resumed.status).toBe(200);
      expect(resumed.body.data).toMatchObject({ status: 'ISSUED', sodAcknowledgedRuleIds: [rule.id] });
      const log = (await h.svc.http.get(`${DELEGATIONS}/${draft.id}/changelog?sortOrder=asc&limit=100`, { token: h.tokens.admin })).body.data.data as { change: string }[];
      expect(log.map((e) => e.change)).toEqual(['created', 'issue', 'sod conflict acknowledged', 'suspend', 'resume', 'sod conflict acknowledged']);
    });

    it('sameGroupOnly: a conflict only when the two delegations\' groups overlap (none: the whole scope)', async () => {
      const [nyc, tor] = [h.refs.groups.get('New York HQ')!, h.refs.groups.get('Toronto Office')!];
      const [approve, pay] = [await decision('Approve invoices', [nyc, tor]), await decision('Pay suppliers', [nyc, tor])];
      const rule = await createRule('Approver does not pay in one place', approve, pay, { sameGroupOnly: true });
      await issue(approve, auditor, { delegationGroups: [{ groupId: nyc }] });
      // Toronto does not overlap New York: no conflict.
      await issue(pay, auditor, { delegationGroups: [{ groupId: tor }] });
      // New York overlaps New York; no groups covers the whole scope.
      const same = await post(pay, { recipientUserId: auditor }, { delegationGroups: [{ groupId: nyc }] });
      expectErrorBody(same, 409);
      expect(same.body.errors[0].field).toBe(`sodRules.${rule.id}`);
      expectErrorBody(await post(pay, { recipientUserId: auditor }), 409);
    });

    it('a position holding both sides is a conflict, and so is the person holding it', async () => {
      const [cfo] = await h.db.query<{ id: string }>(`SELECT id FROM decision.position_projection WHERE tenant_id = $1 AND position_name = 'Chief Financial Officer'`, [h.demo.id]);
      // The manager takes the position in auth; the decision area hears of it (its holding history).
      expect((await httpClient(h.processes.auth.url).patch(`/auth/v1/user/update-entities/${manager}`, { token: h.tokens.admin, body: { positionIds: [cfo.id] } })).status).toBe(200);
      await until(
        async () => (await h.db.query(`SELECT 1 FROM decision.position_holding_history WHERE tenant_id = $1 AND user_id = $2 AND position_id = $3 AND valid_to IS NULL`, [h.demo.id, manager, cfo.id])).length > 0,
        'the manager holding the CFO position in the decision area',
        20_000,
      );
      const [approve, pay] = [await decision('Approve invoices'), await decision('Pay suppliers')];
      const rule = await createRule('Approver does not pay (positions)', approve, pay);
      const toCfo = { recipientType: 'POSITION_ONLY' };
      await post(pay, { recipientPositionId: cfo.id }, toCfo).then((r) => expect(r.status).toBe(200));
      const refused = await post(approve, { recipientPositionId: cfo.id }, toCfo);
      expectErrorBody(refused, 409);
      expect(refused.body.errors.map((e: { message: string }) => e.message)).toEqual([expect.stringContaining(`position ${cfo.id} would hold`), expect.stringContaining(`(${manager}) would hold`)]);
      const acknowledged = await post(approve, { recipientPositionId: cfo.id }, { ...toCfo, acknowledgeSodConflict: true });
      expect(acknowledged.status).toBe(200);
      expect(acknowledged.body.data[0].sodAcknowledgedRuleIds).toEqual([rule.id]);

      const listed = await conflicts(`ruleId=${rule.id}`);
      expect(listed.data.map((c) => [c.holderType, c.userId, c.positionId, c.left.viaPositionId, c.right.viaPositionId])).toEqual([
        ['POSITION', null, cfo.id, cfo.id, cfo.id],
        ['USER', manager, null, cfo.id, cfo.id],
      ]);
    });
  });

  describe('GET sod-conflicts', () => {
    it('lists each person holding both sides with both chains, root first, and whether it was acknowledged; filters by rule and person; paged', async () => {
      const [approve, pay] = [await decision('Approve invoices'), await decision('Pay suppliers')];
      // The auditor holds both sides, issued before the rule existed: a conflict no issue acknowledged.
      const auditorApprove = await issue(approve, auditor);
      const auditorPay = await issue(pay, auditor);
      const rule = await createRule('Approver does not pay (listed)', approve, pay);
      const payRoot = await issue(pay, manager);
      const approveRoot = await issue(approve, user);
      // The manager hands `pay` on to the user, who holds `approve`: acknowledged (the manager holds approve:delegations).
      const payChild = await issue(pay, user, { parentDelegationId: payRoot.id, delegationAuthorities: [approvalLimit(h, '100000')], acknowledgeSodConflict: true }, h.tokens.manager);
      expect(payChild.sodAcknowledgedRuleIds).toEqual([rule.id]);

      const listed = await conflicts(`ruleId=${rule.id}`);
      expect(listed).toMatchObject({ total: 2, page: 1, limit: 10 });
      const ofAuditor = listed.data.find((c) => c.userId === auditor)!;
      expect(ofAuditor).toMatchObject({ holderType: 'USER', acknowledged: false, left: { delegationId: auditorApprove.id }, right: { delegationId: auditorPay.id } });
      const item = listed.data.find((c) => c.userId === user)!;
      const link = (d: Delegation, extra: object) => ({
        delegationId: d.id,
        delegationDisplayId: d.delegationDisplayId,
        status: 'ISSUED',
        issuerPositionId: null,
        recipientType: 'SPECIFIC_PERSONNEL',
        recipientPositionId: null,
        ...extra,
      });
      expect(item).toEqual({
        rule: { id: rule.id, name: 'Approver does not pay (listed)' },
        holderType: 'USER',
        userId: user,
        userName: expect.any(String),
        positionId: null,
        acknowledged: true,
        left: {
          decisionId: approve,
          decisionDisplayId: expect.any(String),
          decisionName: expect.stringMatching(/^Approve invoices/),
          authorityTypeId: approvalType,
          authorityTypeName: 'Approval',
          delegationId: approveRoot.id,
          viaPositionId: null,
          chain: [link(approveRoot, { issuerType: 'ROOT_AUTHORITY', issuerUserId: admin, recipientUserId: user, limit: '<= USD 500,000' })],
        },
        right: {
          decisionId: pay,
          decisionDisplayId: expect.any(String),
          decisionName: expect.stringMatching(/^Pay suppliers/),
          authorityTypeId: approvalType,
          authorityTypeName: 'Approval',
          delegationId: payChild.id,
          viaPositionId: null,
          chain: [
            link(payRoot, { issuerType: 'ROOT_AUTHORITY', issuerUserId: admin, recipientUserId: manager, limit: '<= USD 500,000' }),
            link(payChild, { issuerType: 'SPECIFIC_PERSONNEL', issuerUserId: manager, recipientUserId: user, limit: '<= USD 100,000' }),
          ],
        },
      });

      // Filters: by person, paged; every rule of the tenant without ruleId.
      const mine = await conflicts(`ruleId=${rule.id}&userId=${auditor}`);
      expect(mine.data.map((c) => c.userId)).toEqual([auditor]);
      expect((await conflicts(`userId=${user}&limit=100`)).data.map((c) => c.rule.id)).toContain(rule.id);
      const second = await conflicts(`ruleId=${rule.id}&limit=1&page=2`);
      expect(second).toMatchObject({ total: 2, page: 2, limit: 1 });
      expect(second.data).toEqual([listed.data[1]]);

      // Revoking the root ends the user's chain: only the auditor's conflict stands.
      expect((await move(payRoot.id, 'revoke', {})).status).toBe(200);
      expect((await conflicts(`ruleId=${rule.id}`)).data.map((c) => c.userId)).toEqual([auditor]);
    });

    it('400 for bad parameters, 404 for an unknown or another tenant\'s rule; a deleted rule no longer refuses', async () => {
      const [approve, pay] = [await decision('Approve invoices'), await decision('Pay suppliers')];
      const rule = await createRule('Approver does not pay (deleted)', approve, pay);
      expectErrorBody(await h.svc.http.get(`${CONFLICTS}?limit=101`, { token: h.tokens.auditor }), 400);
      expectErrorBody(await h.svc.http.get(`${CONFLICTS}?ruleId=nope`, { token: h.tokens.auditor }), 400);
      expectErrorBody(await h.svc.http.get(`${CONFLICTS}?userId=${user}&owner=1`, { token: h.tokens.auditor }), 400);
      expectErrorBody(await h.svc.http.get(`${CONFLICTS}?ruleId=${UNKNOWN}`, { token: h.tokens.auditor }), 404);
      expectErrorBody(await h.svc.http.get(`${CONFLICTS}?ruleId=${rule.id}`, { token: h.tokens.otherAdmin }), 404);
      expect((await conflicts('', h.tokens.otherAdmin)).total).toBe(0);

      await issue(pay, auditor);
      expectErrorBody(await post(approve, { recipientUserId: auditor }), 409);
      expect((await h.svc.http.delete(`${RULES}/${rule.id}`, { token: h.tokens.admin })).status).toBe(200);
      const issued = await issue(approve, auditor);
      expect(issued.sodAcknowledgedRuleIds).toEqual([]);
      expectErrorBody(await h.svc.http.get(`${CONFLICTS}?ruleId=${rule.id}`, { token: h.tokens.auditor }), 404);
    });
  });
});

interface ConflictItem {
  rule: { id: string; name: string };
  holderType: 'USER' | 'POSITION';
  userId: string | null;
  positionId: string | null;
  acknowledged: boolean;
  left: { delegationId: string; viaPositionId: string | null; chain: object[] };
  right: { delegationId: string; viaPositionId: string | null; chain: object[] };
}
