import { expectErrorBody } from '@ddm/testing';
import { DecisionHarness, startDecision } from './fixtures/harness';

const CHECK = '/decision/v1/authority/check';
const DELEGATIONS = '/decision/v1/delegations';

/**
 * POST /decision/v1/authority/check (e2e, real Postgres and NATS): a chain issued through the API,
 * checked now and as of instants before and after a suspension, by person and by position.
 * Demo Co's reporting line: admin → manager → user.
 */
describe('authority check (e2e)', () => {
  let h: DecisionHarness;
  let decisionId: string;
  let manager: string, user: string;
  const approval = (value: string, extra: object = {}) => ({
    authorityTypeId: h.refs.authorityTypes.get('Approval')!,
    authorityLimit: 'Primary',
    authorityLimitValueType: 'Currency',
    authorityLimitOperator: '<=',
    authorityLimitValue: value,
    authorityLimitValueUnit: 'USD',
    ...extra,
  });
  const issue = async (body: object, token = h.tokens.admin) => {
    const res = await h.svc.http.post(DELEGATIONS, { token, body: { decisionId, status: 'ISSUED', delegationPathway: ['Matrix'], ...body } });
    expect(res.status).toBe(200);
    return res.body.data[0] as { id: string; delegationDisplayId: string };
  };
  const check = async (body: object, token = h.tokens.auditor) => {
    const res = await h.svc.http.post(CHECK, { token, body: { decisionId, unit: 'USD', ...body } });
    expect(res.status).toBe(200);
    return res.body.data as { allowed: boolean; limit: string | null; chain: { delegationDisplayId: string; limit: string }[]; reasons: string[]; at: string };
  };

  beforeAll(async () => {
    h = await startDecision();
    [manager, user] = ['manager', 'user'].map((n) => h.refs.users.get(`${n}@demo.test`)!);
    const res = await h.svc.http.post('/decision/v1/decisions', {
      token: h.tokens.admin,
      body: { name: 'Approve capital expenditure (authority spec)', status: 'PUBLISHED', delegationPathway: ['Matrix'], decisionAuthorities: [approval('1000000')] },
    });
    expect(res.status).toBe(200);
    decisionId = res.body.data.id;
  });
  afterAll(() => h?.close());

  it('allows along the chain up to the holder\'s limit, names the blocking delegation past it, and answers as of an instant', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    const root = await issue({ recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], delegationAuthorities: [approval('500000', { redelegable: true })] });
    const child = await issue({ parentDelegationId: root.id, recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: user }], delegationAuthorities: [approval('100000')] }, h.tokens.manager);

    const inside = await check({ userId: user, value: '100000' });
    expect(inside).toMatchObject({ allowed: true, limit: '<= USD 100,000', reasons: [] });
    expect(inside.chain).toEqual([
      { delegationId: root.id, delegationDisplayId: root.delegationDisplayId, limit: '<= USD 500,000' },
      { delegationId: child.id, delegationDisplayId: child.delegationDisplayId, limit: '<= USD 100,000' },
    ]);
    const outside = await check({ userId: user, value: '100000.01' });
    expect(outside).toMatchObject({ allowed: false, limit: null, chain: [] });
    expect(outside.reasons).toEqual([expect.stringMatching(new RegExp(`^limit <= USD 100,000 < USD 100,000.01 via ${child.delegationDisplayId}`))]);
    expect(await check({ userId: manager, value: '400000' })).toMatchObject({ allowed: true, limit: '<= USD 500,000' });
    expect((await check({ userId: manager, value: '1000000' })).allowed).toBe(false);

    // Before the tree existed nobody held it; after the root is suspended the chain is blocked there, but not as of before.
    expect(await check({ userId: user, value: '1', at: before })).toMatchObject({ allowed: false, reasons: [expect.stringMatching(/^no delegation of this decision was held by the person/)] });
    const issuedAt = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    expect((await h.svc.http.post(`${DELEGATIONS}/${root.id}/suspend`, { token: h.tokens.admin, body: {} })).status).toBe(200);
    const suspended = await check({ userId: user, value: '1' });
    expect(suspended.allowed).toBe(false);
    expect(suspended.reasons[0]).toMatch(new RegExp(`^delegation ${root.delegationDisplayId} was SUSPENDED on \\d{4}-\\d{2}-\\d{2}$`));
    expect(await check({ userId: user, value: '1', at: issuedAt })).toMatchObject({ allowed: true, limit: '<= USD 100,000' });
  });

  it('a position holds what was delegated to it; a person holds it while in the position (by the holding history)', async () => {
    const [position] = await h.db.query<{ id: string }>(`SELECT id FROM decision.position_projection WHERE tenant_id = $1 AND status = 'ACTIVE' AND NOT is_deleted ORDER BY position_name LIMIT 1`, [h.demo.id]);
    await issue({ recipientType: 'POSITION_ONLY', delegationRecipients: [{ recipientPositionId: position.id }], delegationAuthorities: [approval('250000')] });
    expect(await check({ positionId: position.id, value: '250000' })).toMatchObject({ allowed: true, limit: '<= USD 250,000' });
    expect((await check({ positionId: position.id, value: '250001' })).allowed).toBe(false);
    // Nobody holds the position in this spec's organisation: the person does not hold what it received.
    expect((await check({ userId: h.refs.users.get('auditor@demo.test')!, value: '1' })).allowed).toBe(false);
  });

  it("holders: everyone who held the decision's authority at an instant, through chains in force then", async () => {
    const decision = await h.svc.http.post('/decision/v1/decisions', {
      token: h.tokens.admin,
      body: { name: 'Sign supplier contracts (holders spec)', status: 'PUBLISHED', delegationPathway: ['Matrix'], decisionAuthorities: [approval('1000000')] },
    });
    const own = decision.body.data.id as string;
    const give = async (body: object, token = h.tokens.admin) => {
      const res = await h.svc.http.post(DELEGATIONS, { token, body: { decisionId: own, status: 'ISSUED', delegationPathway: ['Matrix'], ...body } });
      expect(res.status).toBe(200);
      return res.body.data[0] as { id: string; delegationDisplayId: string };
    };
    const root = await give({ recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], delegationAuthorities: [approval('500000', { redelegable: true })] });
    const child = await give({ parentDelegationId: root.id, recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: user }], delegationAuthorities: [approval('100000')] }, h.tokens.manager);
    const holders = async (at?: string) => {
      const res = await h.svc.http.get(`/decision/v1/authority/holders?decisionId=${own}&limit=100${at ? `&at=${encodeURIComponent(at)}` : ''}`, { token: h.tokens.auditor });
      expect(res.status).toBe(200);
      return res.body.data as { total: number; data: { holderType: string; userId: string; delegationDisplayId: string; limits: { limit: string }[] }[] };
    };
    const both = await holders();
    expect(both.total).toBe(2);
    expect(both.data.map((x) => [x.holderType, x.userId, x.delegationDisplayId, x.limits[0].limit])).toEqual([
      ['USER', manager, root.delegationDisplayId, '<= USD 500,000'],
      ['USER', user, child.delegationDisplayId, '<= USD 100,000'],
    ]);
    const beforeRevoke = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    expect((await h.svc.http.post(`${DELEGATIONS}/${root.id}/revoke`, { token: h.tokens.admin, body: {} })).status).toBe(200);
    expect((await holders()).total).toBe(0);
    expect((await holders(beforeRevoke)).total).toBe(2);
    expectErrorBody(await h.svc.http.get(`/decision/v1/authority/holders?decisionId=${own}`, { token: h.tokens.otherAdmin }), 404);
    expectErrorBody(await h.svc.http.get('/decision/v1/authority/holders', { token: h.tokens.auditor }), 400);
  });

  it('400 without a subject or with both, a bad value or an unknown field; 404 for an unknown or another tenant\'s decision', async () => {
    expectErrorBody(await h.svc.http.post(CHECK, { token: h.tokens.auditor, body: { decisionId, value: '1' } }), 400);
    expectErrorBody(await h.svc.http.post(CHECK, { token: h.tokens.auditor, body: { decisionId, userId: user, positionId: user } }), 400);
    expectErrorBody(await h.svc.http.post(CHECK, { token: h.tokens.auditor, body: { decisionId, userId: user, value: '1e6' } }), 400);
    expectErrorBody(await h.svc.http.post(CHECK, { token: h.tokens.auditor, body: { decisionId, userId: user, amount: '1' } }), 400);
    expectErrorBody(await h.svc.http.post(CHECK, { token: h.tokens.auditor, body: { decisionId: '0190a000-0000-7000-8000-00000000dead', userId: user } }), 404);
    expectErrorBody(await h.svc.http.post(CHECK, { token: h.tokens.otherAdmin, body: { decisionId, userId: user } }), 404);
  });
});
