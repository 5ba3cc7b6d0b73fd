import { HttpClient, TestSystem, onceKnown, startTestSystem, tokenFor } from '@ddm/testing';

const DELEGATIONS = '/decision/v1/delegations';
const CHECK = '/decision/v1/authority/check';
const WHAT_IF = '/decision/v1/authority/what-if';

interface Delegation {
  id: string;
  delegationDisplayId: string;
  decisionId: string;
  parentDelegationId: string | null;
  status: string;
  recipientUserId: string | null;
  recipientPositionId: string | null;
  delegationPathway: string[];
  isInvalid: boolean;
  invalidFields: string[];
}
interface Check {
  allowed: boolean;
  reasons: string[];
  chain: { delegationId: string }[];
}
interface WhatIf {
  invalidated: { delegationId: string; delegationDisplayId: string; invalidFields: string[] }[];
}

/**
 * The authority answer after the organisation changes, through the gateway with auth, settings and
 * the decision area as separate processes: a reporting line changed in auth (Direct Line on the
 * seeded tree, Down-Line on a decision of its own), a manager removed, a manager deactivated, a decision archived. Each
 * time the delegation is flagged from that instant, the check stops allowing through it from then
 * and still allows `at` an instant before, and what-if predicted it before it was made.
 */
describe('system: the authority answer stays true when reporting lines, people and decisions change', () => {
  let system: TestSystem;
  let http: HttpClient;
  const admin = tokenFor('admin@demo.test');
  let users: Map<string, string>;
  const user = (name: string) => users.get(`${name}@demo.test`)!;
  const demoTenant = () => system.seeded.tenants.find((t) => t.name === 'Demo Co')!.id;

  /** The consistency token of the last change of the organisation: a read carrying it answers once the decision area has applied that change. */
  let consistency = '';
  const fresh = () => (consistency ? { 'x-consistency-token': consistency } : undefined);
  const changed = (res: { status: number; headers: Headers }) => {
    expect(res.status).toBe(200);
    consistency = res.headers.get('x-consistency-token')!;
    expect(consistency).toBeTruthy();
  };
  const get = async (id: string, at?: string) => {
    const res = await http.get(`${DELEGATIONS}/${id}${at ? `?at=${encodeURIComponent(at)}` : ''}`, { token: admin, headers: fresh() });
    expect(res.status).toBe(200);
    return res.body.data as Delegation;
  };
  const check = async (userId: string, decisionId: string, at?: string) => {
    const res = await http.post(CHECK, { token: admin, body: { userId, decisionId, value: '1', unit: 'USD', ...(at ? { at } : {}) } });
    expect(res.status).toBe(200);
    return res.body.data as Check;
  };
  const whatIf = async (changes: object[]) => {
    const res = await http.post(WHAT_IF, { token: admin, body: { changes } });
    expect(res.status).toBe(200);
    return res.body.data as WhatIf;
  };
  const setManager = async (userId: string, managerId: string | null) => {
    changed(await http.patch(`/auth/v1/user/update-entities/${userId}`, { token: admin, body: { managerId } }));
  };
  /** An instant before the next change (what a change writes is valid from its transaction's start, later than this). */
  const now = () => new Date().toISOString();
  const delegationsOf = async (recipientUserId: string) => {
    const res = await http.get(`${DELEGATIONS}?limit=100&recipientUserIds=${recipientUserId}&status=ISSUED,ACCEPTED`, { token: admin });
    expect(res.status).toBe(200);
    return res.body.data.data as Delegation[];
  };

  beforeAll(async () => {
    system = await startTestSystem({ areas: ['auth', 'settings', 'decision'] });
    http = system.http;
    users = new Map(system.seeded.tenants.find((t) => t.name === 'Demo Co')!.users.map((u) => [u.email, u.id]));
  }, 180_000);

  afterAll(async () => {
    await system?.close();
  });

  it("Direct Line (the seed's 10002, manager to staff01): staff01 given another manager flags it Pathway from that instant, the check refuses now naming it and allows `at` before; what-if predicted it; the old line mends it", async () => {
    const staff01 = user('staff01');
    // The Europe controller's delegations from the CFO, along Direct Line only (one per Finance decision handed down).
    const theirs = (await delegationsOf(staff01)).filter((d) => d.delegationPathway.join() === 'Direct Line' && d.parentDelegationId !== null);
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.every((d) => !d.isInvalid)).toBe(true);
    const first = theirs.sort((a, b) => Number(a.delegationDisplayId) - Number(b.delegationDisplayId))[0];
    expect(first.delegationDisplayId).toBe('10002');
    expect((await check(staff01, first.decisionId)).allowed).toBe(true);

    const predicted = await whatIf([{ type: 'manager-changed', userId: staff01, managerId: user('admin') }]);
    for (const d of theirs) expect(predicted.invalidated).toContainEqual({ delegationId: d.id, delegationDisplayId: d.delegationDisplayId, invalidFields: ['Pathway'] });

    const before = now();
    await setManager(staff01, user('admin'));
    for (const d of theirs) expect((await get(d.id)).invalidFields).toEqual(['Pathway']);
    expect(predicted.invalidated.filter((x) => theirs.some((d) => d.id === x.delegationId))).toHaveLength(theirs.length);

    expect(await get(first.id, before)).toMatchObject({ isInvalid: false, invalidFields: [] });
    const refused = await check(staff01, first.decisionId);
    expect(refused.allowed).toBe(false);
    expect(refused.reasons.join(' ')).toContain('10002');
    const then = await check(staff01, first.decisionId, before);
    expect(then.allowed).toBe(true);
    expect(then.chain.map((l) => l.delegationId)).toContain(first.id);

    // The old reporting line back: sound again, and the check allows once more.
    await setManager(staff01, user('manager'));
    for (const d of theirs) expect((await get(d.id)).isInvalid).toBe(false);
    expect((await check(staff01, first.decisionId)).allowed).toBe(true);
  }, 90_000);

  describe('a decision of its own, handed down along Down-Line', () => {
    let decisionId: string;
    let root: Delegation;
    let downLine: Delegation;
    let throughStaff02: Delegation;

    beforeAll(async () => {
      const approval = (await http.get('/settings/v1/authority-types?limit=100', { token: admin })).body.data.data.find((t: { authorityType: string }) => t.authorityType === 'Approval');
      const limit = (value: string) => ({ authorityTypeId: approval.id, authorityLimit: 'Primary', authorityLimitValueType: 'Currency', authorityLimitOperator: '<=', authorityLimitValue: value, authorityLimitValueUnit: 'USD' });
      const created = await http.post('/decision/v1/decisions', {
        token: admin,
        body: { name: 'Approve site works (reporting line spec)', status: 'PUBLISHED', delegationPathway: ['Down-Line'], decisionAuthorities: [limit('100000')] },
      });
      expect(created.status).toBe(200);
      decisionId = created.body.data.id;
      const issue = async (token: string, body: object) => {
        const res = await http.post(DELEGATIONS, { token, body: { decisionId, status: 'ISSUED', recipientType: 'SPECIFIC_PERSONNEL', delegationPathway: ['Down-Line'], isNoExpiration: true, ...body } });
        expect(res.status).toBe(200);
        return res.body.data[0] as Delegation;
      };
      root = await issue(admin, { delegationRecipients: [{ recipientUserId: user('manager') }], delegationAuthorities: [{ ...limit('50000'), redelegable: true }] });
      // staff07 reports to staff01, who reports to the manager: below the manager, two levels down.
      downLine = await issue(tokenFor('manager@demo.test'), { parentDelegationId: root.id, delegationRecipients: [{ recipientUserId: user('staff07') }], delegationAuthorities: [limit('10000')] });
      // staff08 reports to staff02, who reports to the manager.
      throughStaff02 = await issue(tokenFor('manager@demo.test'), { parentDelegationId: root.id, delegationRecipients: [{ recipientUserId: user('staff08') }], delegationAuthorities: [limit('5000')] });
    });

    it("moving staff01 (not the recipient) out from under the manager takes staff07 out of the manager's line: Pathway from then, predicted, allowed `at` before", async () => {
      const staff07 = user('staff07');
      expect((await check(staff07, decisionId)).allowed).toBe(true);
      const predicted = await whatIf([{ type: 'manager-changed', userId: user('staff01'), managerId: user('auditor') }]);
      expect(predicted.invalidated).toContainEqual({ delegationId: downLine.id, delegationDisplayId: downLine.delegationDisplayId, invalidFields: ['Pathway'] });

      const before = now();
      await setManager(user('staff01'), user('auditor'));
      expect((await get(downLine.id)).invalidFields).toEqual(['Pathway']);
      const refused = await check(staff07, decisionId);
      expect(refused.allowed).toBe(false);
      expect(refused.reasons.join(' ')).toContain(downLine.delegationDisplayId);
      expect((await check(staff07, decisionId, before)).allowed).toBe(true);
      expect((await get(root.id)).isInvalid).toBe(false);

      await setManager(user('staff01'), user('manager'));
      expect((await get(downLine.id)).isInvalid).toBe(false);
      expect((await check(staff07, decisionId)).allowed).toBe(true);
    }, 60_000);

    it('archiving the decision: the check refuses now, naming the decision, and allows `at` before; published again, it allows', async () => {
      const staff07 = user('staff07');
      const before = now();
      expect((await http.patch(`/decision/v1/decisions/${decisionId}`, { token: admin, body: { status: 'ARCHIVED' } })).status).toBe(200);
      const refused = await check(staff07, decisionId);
      expect(refused.allowed).toBe(false);
      expect(refused.reasons.join(' ')).toMatch(/was ARCHIVED on/);
      expect((await check(staff07, decisionId, before)).allowed).toBe(true);
      expect((await http.patch(`/decision/v1/decisions/${decisionId}`, { token: admin, body: { status: 'PUBLISHED' } })).status).toBe(200);
      expect((await check(staff07, decisionId)).allowed).toBe(true);
    }, 60_000);

    it("staff02 removed from the tenant: no one's manager any more, so staff08 is no longer below the manager (Pathway), allowed `at` before", async () => {
      const staff08 = user('staff08');
      expect((await check(staff08, decisionId)).allowed).toBe(true);
      const before = now();
      changed(await http.patch('/auth/v1/user/bulk-status-update', { token: admin, body: { tenantId: demoTenant(), userIds: [user('staff02')], status: 'DELETED' } }));
      expect((await get(throughStaff02.id)).invalidFields).toEqual(['Pathway']);
      const refused = await check(staff08, decisionId);
      expect(refused.allowed).toBe(false);
      expect(refused.reasons.join(' ')).toContain(throughStaff02.delegationDisplayId);
      expect((await check(staff08, decisionId, before)).allowed).toBe(true);
      // staff07's line (through staff01) is untouched.
      expect((await get(downLine.id)).isInvalid).toBe(false);
    }, 60_000);

    it('the manager deactivated: what they handed on is flagged (Issuer) from then, predicted, and the check refuses through it now and allows `at` before', async () => {
      const staff07 = user('staff07');
      const predicted = await whatIf([{ type: 'user-deactivated', userId: user('manager') }]);
      expect(predicted.invalidated).toContainEqual(expect.objectContaining({ delegationId: downLine.id, invalidFields: expect.arrayContaining(['Issuer']) }));

      const before = now();
      changed(await http.patch('/auth/v1/user/bulk-status-update', { token: admin, body: { tenantId: demoTenant(), userIds: [user('manager')], status: 'INACTIVE' } }));
      expect((await get(downLine.id)).invalidFields).toContain('Issuer');
      const flagged = await get(downLine.id);
      expect(flagged.invalidFields).toEqual(predicted.invalidated.find((x) => x.delegationId === downLine.id)!.invalidFields);
      const refused = await check(staff07, decisionId);
      expect(refused.allowed).toBe(false);
      expect(refused.reasons.join(' ')).toContain(root.delegationDisplayId);
      expect((await check(staff07, decisionId, before)).allowed).toBe(true);
    }, 60_000);
  });
  it('a deactivated person holds no position: what was delegated to their position (POSITION_ONLY) gives them nothing from then, and again once reactivated', async () => {
    const staff03 = user('staff03');
    const approval = (await http.get('/settings/v1/authority-types?limit=100', { token: admin })).body.data.data.find((t: { authorityType: string }) => t.authorityType === 'Approval');
    const limit = { authorityTypeId: approval.id, authorityLimit: 'Primary', authorityLimitValueType: 'Currency', authorityLimitOperator: '<=', authorityLimitValue: '1000', authorityLimitValueUnit: 'USD' };
    const position = await http.post('/settings/v1/positions', { token: admin, body: { positionName: 'Site buyer (reporting line spec)' } });
    expect(position.status).toBe(200);
    const held = await onceKnown(() => http.patch(`/auth/v1/user/update-entities/${staff03}`, { token: admin, body: { positionIds: [position.body.data.id] } }));
    expect(held.status).toBe(200);
    const decision = await http.post('/decision/v1/decisions', { token: admin, body: { name: 'Buy site supplies (reporting line spec)', status: 'PUBLISHED', delegationPathway: ['Matrix'], decisionAuthorities: [limit] } });
    expect(decision.status).toBe(200);
    const decisionId = decision.body.data.id;
    const issued = await http.post(DELEGATIONS, {
      token: admin,
      body: { decisionId, status: 'ISSUED', recipientType: 'POSITION_ONLY', delegationPathway: ['Matrix'], isNoExpiration: true, delegationRecipients: [{ recipientPositionId: position.body.data.id }], delegationAuthorities: [limit] },
    });
    expect(issued.status).toBe(200);
    const consistency = (res: { headers: Headers }) => ({ 'x-consistency-token': res.headers.get('x-consistency-token')! });
    const holders = async (headers: Record<string, string>) => {
      const res = await http.get(`/decision/v1/authority/holders?decisionId=${decisionId}`, { token: admin, headers });
      expect(res.status).toBe(200);
      return res.body.data.data.map((h: { holderType: string; userId: string | null; positionId: string | null }) => h.userId ?? h.positionId);
    };
    expect(await holders(consistency(held))).toEqual(expect.arrayContaining([staff03, position.body.data.id]));
    expect((await check(staff03, decisionId)).allowed).toBe(true);

    const before = now();
    const off = await http.patch('/auth/v1/user/bulk-status-update', { token: admin, body: { tenantId: demoTenant(), userIds: [staff03], status: 'INACTIVE' } });
    expect(off.status).toBe(200);
    const listed = await holders(consistency(off));
    expect(listed).toContain(position.body.data.id);
    expect(listed).not.toContain(staff03);
    expect((await check(staff03, decisionId)).allowed).toBe(false);
    expect((await check(staff03, decisionId, before)).allowed).toBe(true);

    const on = await http.patch('/auth/v1/user/bulk-status-update', { token: admin, body: { tenantId: demoTenant(), userIds: [staff03], status: 'ACTIVE' } });
    expect(on.status).toBe(200);
    expect(await holders(consistency(on))).toContain(staff03);
    expect((await check(staff03, decisionId)).allowed).toBe(true);
  }, 60_000);
  it('a closed group joins no one: a Functional redelegation between two people who shared only that group is flagged Pathway when it is deleted, as what-if predicted', async () => {
    const [issuer, recipient] = [user('staff04'), user('staff05')];
    const types = await http.get('/settings/v1/group-types?limit=1', { token: admin });
    const group = await http.post('/settings/v1/groups', { token: admin, body: { groupName: 'Site committee (reporting line spec)', tenantGroupTypeId: types.body.data.data[0].id } });
    expect(group.status).toBe(200);
    const groupId = group.body.data.id;
    for (const id of [issuer, recipient]) changed(await onceKnown(() => http.patch(`/auth/v1/user/update-entities/${id}`, { token: admin, body: { positionIds: [], groups: [{ groupId }] } })));
    const approval = (await http.get('/settings/v1/authority-types?limit=100', { token: admin })).body.data.data.find((t: { authorityType: string }) => t.authorityType === 'Approval');
    const limit = { authorityTypeId: approval.id, authorityLimit: 'Primary', authorityLimitValueType: 'Currency', authorityLimitOperator: '<=', authorityLimitValue: '1000', authorityLimitValueUnit: 'USD' };
    const decision = await http.post('/decision/v1/decisions', { token: admin, body: { name: 'Approve committee spending (reporting line spec)', status: 'PUBLISHED', delegationPathway: ['Functional'], decisionAuthorities: [limit] } });
    expect(decision.status).toBe(200);
    const issue = async (token: string, body: object) => {
      const res = await http.post(DELEGATIONS, { token, body: { decisionId: decision.body.data.id, status: 'ISSUED', recipientType: 'SPECIFIC_PERSONNEL', delegationPathway: ['Functional'], isNoExpiration: true, ...body } });
      expect(res.status).toBe(200);
      return res.body.data[0] as Delegation;
    };
    const root = await issue(admin, { delegationRecipients: [{ recipientUserId: issuer }], delegationAuthorities: [{ ...limit, redelegable: true }] });
    const functional = await issue(tokenFor('staff04@demo.test'), { parentDelegationId: root.id, delegationRecipients: [{ recipientUserId: recipient }], delegationAuthorities: [limit] });
    expect((await get(functional.id)).isInvalid).toBe(false);

    const predicted = await whatIf([{ type: 'group-deleted', groupId }]);
    expect(predicted.invalidated).toContainEqual({ delegationId: functional.id, delegationDisplayId: functional.delegationDisplayId, invalidFields: ['Pathway'] });
    const before = now();
    changed(await http.patch(`/settings/v1/groups/${groupId}`, { token: admin, body: { isDeleted: true, disableOption: 'NA' } }));
    expect((await get(functional.id)).invalidFields).toEqual(['Pathway']);
    expect((await get(functional.id, before)).isInvalid).toBe(false);
    expect((await check(recipient, decision.body.data.id)).allowed).toBe(false);
    expect((await check(recipient, decision.body.data.id, before)).allowed).toBe(true);
    expect((await get(root.id)).isInvalid).toBe(false);
  }, 60_000);
});
