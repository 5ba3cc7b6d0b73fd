import { randomUUID } from 'node:crypto';
import { readEvent } from '@ddm/contracts';
import { expectErrorBody, httpClient, pastInstant, snapshotOf, startHarness, until } from '@ddm/testing';
import { decisionApp, DecisionHarness } from './fixtures/decision-app';
import { approvalLimit } from './fixtures/limits';

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
  const issue = async (body: object, token = h.tokens.admin) => {
    const res = await h.svc.http.post(DELEGATIONS, { token, body: { decisionId, status: 'ISSUED', delegationPathway: ['Matrix'], ...body } });
    expect(res.status).toBe(200);
    return res.body.data[0] as { id: string; delegationDisplayId: string };
  };
  const check = async (body: object, token = h.tokens.auditor) => {
    const res = await h.svc.http.post(CHECK, { token, body: { decisionId, unit: 'USD', ...body } });
    expect(res.status).toBe(200);
    return res.body.data as {
      allowed: boolean;
      limit: { value: string; unit: string | null; operator: string | null } | null;
      chain: { delegationId: string; delegationDisplayId: string; authority: { display: string } }[];
      reasons: string[];
      heldVia: string | null;
      evaluatedAt: string;
      consistentAsOf: string;
    };
  };

  /** A PUBLISHED decision of this spec's own (Matrix, one Approval limit in USD), and a way to issue its delegations. */
  const ownDecision = async (name: string, limit: string) => {
    const decision = await h.svc.http.post('/decision/v1/decisions', {
      token: h.tokens.admin,
      body: { name, status: 'PUBLISHED', delegationPathway: ['Matrix'], decisionAuthorities: [approvalLimit(h, limit)] },
    });
    expect(decision.status).toBe(200);
    const own = decision.body.data.id as string;
    const give = async (body: object, token = h.tokens.admin) => {
      const res = await h.svc.http.post(DELEGATIONS, { token, body: { decisionId: own, status: 'ISSUED', delegationPathway: ['Matrix'], ...body } });
      expect(res.status).toBe(200);
      return res.body.data[0] as { id: string; delegationDisplayId: string };
    };
    return { own, give };
  };

  beforeAll(async () => {
    h = await startHarness(decisionApp);
    [manager, user] = ['manager', 'user'].map((n) => h.refs.users.get(`${n}@demo.test`)!);
    const res = await h.svc.http.post('/decision/v1/decisions', {
      token: h.tokens.admin,
      body: { name: 'Approve capital expenditure (authority spec)', status: 'PUBLISHED', delegationPathway: ['Matrix'], decisionAuthorities: [approvalLimit(h, '1000000')] },
    });
    expect(res.status).toBe(200);
    decisionId = res.body.data.id;
  });
  afterAll(() => h?.close());

  it('allows along the chain up to the holder\'s limit, names the blocking delegation past it, and answers as of an instant', async () => {
    const before = new Date().toISOString();
    await pastInstant(before);
    const root = await issue({ recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], delegationAuthorities: [approvalLimit(h, '500000', { redelegable: true })] });
    const child = await issue({ parentDelegationId: root.id, recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: user }], delegationAuthorities: [approvalLimit(h, '100000')] }, h.tokens.manager);

    const inside = await check({ userId: user, value: '100000' });
    expect(inside).toMatchObject({ allowed: true, limit: { value: '100000', unit: 'USD', operator: '<=' }, reasons: [], heldVia: 'SPECIFIC_PERSONNEL' });
    expect(inside.chain.map((l) => [l.delegationId, l.delegationDisplayId, l.authority.display])).toEqual([
      [root.id, root.delegationDisplayId, '<= USD 500,000'],
      [child.id, child.delegationDisplayId, '<= USD 100,000'],
    ]);
    expect(inside.chain[1]).toMatchObject({
      issuerType: 'SPECIFIC_PERSONNEL',
      issuer: { userId: manager },
      recipient: { recipientType: 'SPECIFIC_PERSONNEL', userId: user, positionId: null },
      status: 'ISSUED',
      authority: { authorityLimitValueType: 'Currency', authorityLimitOperator: '<=', authorityLimitValue: '100000', authorityLimitValueUnit: 'USD' },
    });
    const outside = await check({ userId: user, value: '100000.01' });
    expect(outside).toMatchObject({ allowed: false, limit: null, chain: [] });
    expect(outside.reasons).toEqual([expect.stringMatching(new RegExp(`^limit <= USD 100,000 < USD 100,000.01 via ${child.delegationDisplayId}`))]);
    expect(await check({ userId: manager, value: '400000' })).toMatchObject({ allowed: true, limit: { value: '500000' } });
    expect((await check({ userId: manager, value: '1000000' })).allowed).toBe(false);

    // Before the tree existed nobody held it; after the root is suspended the chain is blocked there, but not as of before.
    expect(await check({ userId: user, value: '1', at: before })).toMatchObject({ allowed: false, reasons: [expect.stringMatching(/^no delegation of this decision was held by the person/)] });
    const issuedAt = new Date().toISOString();
    await pastInstant(issuedAt);
    expect((await h.svc.http.post(`${DELEGATIONS}/${root.id}/suspend`, { token: h.tokens.admin, body: {} })).status).toBe(200);
    const suspended = await check({ userId: user, value: '1' });
    expect(suspended.allowed).toBe(false);
    expect(suspended.reasons[0]).toMatch(new RegExp(`^delegation ${root.delegationDisplayId} was SUSPENDED on \\d{4}-\\d{2}-\\d{2}$`));
    expect(await check({ userId: user, value: '1', at: issuedAt })).toMatchObject({ allowed: true, limit: { value: '100000' }, evaluatedAt: issuedAt });
  });

  it('a position holds what was delegated to it; a person holds it while in the position (by the holding history)', async () => {
    const [position] = await h.db.query<{ id: string }>(`SELECT id FROM decision.position_projection WHERE tenant_id = $1 AND status = 'ACTIVE' AND NOT is_deleted ORDER BY position_name LIMIT 1`, [h.demo.id]);
    await issue({ recipientType: 'POSITION_ONLY', delegationRecipients: [{ recipientPositionId: position.id }], delegationAuthorities: [approvalLimit(h, '250000')] });
    expect(await check({ positionId: position.id, value: '250000' })).toMatchObject({ allowed: true, limit: { value: '250000', unit: 'USD', operator: '<=' }, heldVia: 'POSITION_ONLY' });
    expect((await check({ positionId: position.id, value: '250001' })).allowed).toBe(false);
    // Nobody holds the position in this spec's organisation: the person does not hold what it received.
    expect((await check({ userId: h.refs.users.get('auditor@demo.test')!, value: '1' })).allowed).toBe(false);
  });

  it("holders: each person who held the decision's authority at an instant once, with the highest limit per type and every delegation giving it; none while it is archived", async () => {
    const { own, give } = await ownDecision('Sign supplier contracts (holders spec)', '1000000');
    const approvalType = h.refs.authorityTypes.get('Approval')!.toLowerCase();
    const root = await give({ recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], delegationAuthorities: [approvalLimit(h, '500000', { redelegable: true })] });
    const child = await give({ parentDelegationId: root.id, recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: user }], delegationAuthorities: [approvalLimit(h, '100000')] }, h.tokens.manager);
    // A second, higher one to the same person: they are listed once, with both.
    const second = await give({ parentDelegationId: root.id, recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: user }], delegationAuthorities: [approvalLimit(h, '200000')] }, h.tokens.manager);
    interface Holder {
      holderType: string;
      userId: string;
      authorities: { authorityTypeId: string; limit: { value: string; unit: string; operator: string } | null; display: string; heldVia: string; via: { delegationId: string; delegationDisplayId: string }[] }[];
    }
    const holders = async (query = '') => {
      const res = await h.svc.http.get(`/decision/v1/authority/holders?decisionId=${own}${/[?&]limit=/.test(query) ? '' : '&limit=100'}${query}`, { token: h.tokens.auditor });
      expect(res.status).toBe(200);
      return res.body.data as { total: number; data: Holder[] };
    };
    const both = await holders();
    expect(both.total).toBe(2);
    expect(both.data.map((x) => [x.holderType, x.userId, x.authorities.map((a) => [a.authorityTypeId, a.limit, a.display, a.heldVia, a.via.map((v) => v.delegationDisplayId)])])).toEqual([
      ['USER', manager, [[approvalType, { value: '500000', unit: 'USD', operator: '<=' }, '<= USD 500,000', 'SPECIFIC_PERSONNEL', [root.delegationDisplayId]]]],
      ['USER', user, [[approvalType, { value: '200000', unit: 'USD', operator: '<=' }, '<= USD 200,000', 'SPECIFIC_PERSONNEL', [second.delegationDisplayId, child.delegationDisplayId]]]],
    ]);
    expect((await holders(`&authorityTypeId=${approvalType}&page=2&limit=1`)).data.map((x) => x.userId)).toEqual([user]);
    // A type of the tenant nobody holds of this decision: none; one the tenant does not have: a 404 naming the parameter.
    expect((await holders(`&authorityTypeId=${h.refs.authorityTypes.get('Signatory')!}`)).total).toBe(0);
    const unknownType = await h.svc.http.get(`/decision/v1/authority/holders?decisionId=${own}&authorityTypeId=${randomUUID()}`, { token: h.tokens.auditor });
    expectErrorBody(unknownType, 404);
    expect(unknownType.body.errors.map((e: { field: string }) => e.field)).toEqual(['authorityTypeId']);

    const beforeArchive = new Date().toISOString();
    expect((await h.svc.http.patch(`/decision/v1/decisions/${own}`, { token: h.tokens.admin, body: { status: 'ARCHIVED' } })).status).toBe(200);
    expect((await holders()).total).toBe(0);
    expect((await holders(`&at=${encodeURIComponent(beforeArchive)}`)).total).toBe(2);
    expect((await h.svc.http.patch(`/decision/v1/decisions/${own}`, { token: h.tokens.admin, body: { status: 'PUBLISHED' } })).status).toBe(200);

    const beforeRevoke = new Date().toISOString();
    expect((await h.svc.http.post(`${DELEGATIONS}/${root.id}/revoke`, { token: h.tokens.admin, body: {} })).status).toBe(200);
    expect((await holders()).total).toBe(0);
    expect((await holders(`&at=${encodeURIComponent(beforeRevoke)}`)).total).toBe(2);
    expectErrorBody(await h.svc.http.get(`/decision/v1/authority/holders?decisionId=${own}`, { token: h.tokens.otherAdmin }), 404);
    expectErrorBody(await h.svc.http.get('/decision/v1/authority/holders', { token: h.tokens.auditor }), 400);
  });

  it('holders pages: by limit (highest first), then name, then id, the same order whichever page a tie falls on', async () => {
    const { own, give } = await ownDecision('Approve travel (holders paging spec)', '1000000');
    const root = await give({ recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], delegationAuthorities: [approvalLimit(h, '900000', { redelegable: true })] });
    // Five people, issued to in the reverse of their names' order (so that the order by name is not the order of issue).
    const named = await h.db.query<{ id: string; name: string }>(`SELECT id, name FROM decision.user_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND name IS NOT NULL`, [
      h.demo.id,
      [...h.refs.users.values()].filter((id) => id !== manager),
    ]);
    const people = named
      .sort((a, b) => b.name.localeCompare(a.name))
      .slice(0, 5)
      .map((p) => p.id);
    expect(people.length).toBe(5);
    // Three tie at 100,000 and two at 50,000: with pages of two, each tie spans a page boundary.
    for (const [i, person] of people.entries()) {
      await give({ parentDelegationId: root.id, recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: person }], delegationAuthorities: [approvalLimit(h, i < 3 ? '100000' : '50000')] }, h.tokens.manager);
    }
    const page = async (n: number, limit: number) => {
      const res = await h.svc.http.get(`/decision/v1/authority/holders?decisionId=${own}&page=${n}&limit=${limit}`, { token: h.tokens.auditor });
      expect(res.status).toBe(200);
      return res.body.data as { total: number; data: { userId: string; userName: string | null; authorities: { limit: { value: string } }[] }[] };
    };
    const all = await page(1, 100);
    expect(all.total).toBe(6);
    const rows = all.data.map((x) => ({ id: x.userId, name: x.userName ?? '', value: Number(x.authorities[0].limit.value) }));
    expect(rows.map((r) => r.value)).toEqual([900000, 100000, 100000, 100000, 50000, 50000]);
    const expected = [...rows].sort((a, b) => b.value - a.value || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
    expect(rows.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    expect(all.data.every((x) => x.userName !== null)).toBe(true);
    const paged = [];
    for (let n = 1; n <= 4; n++) {
      const p = await page(n, 2);
      expect(p.total).toBe(6);
      paged.push(...p.data);
    }
    expect(paged.map((x) => [x.userId, x.userName])).toEqual(all.data.map((x) => [x.userId, x.userName]));
  });

  it('decisions ("my authority"): what a person may decide, each decision with the highest limit per type and its chain; a person may ask of themselves without view:decisions', async () => {
    const { own, give } = await ownDecision('Approve marketing spend (my authority spec)', '800000');
    const approvalType = h.refs.authorityTypes.get('Approval')!.toLowerCase();
    const root = await give({ recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], delegationAuthorities: [approvalLimit(h, '400000', { redelegable: true })] });
    const low = await give({ parentDelegationId: root.id, recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: user }], delegationAuthorities: [approvalLimit(h, '30000')] }, h.tokens.manager);
    const high = await give({ parentDelegationId: root.id, recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: user }], delegationAuthorities: [approvalLimit(h, '90000')] }, h.tokens.manager);
    interface Held {
      decisionId: string;
      decisionName: string;
      authorities: { authorityTypeId: string; limit: { value: string } | null; display: string; heldVia: string; chain: { delegationId: string }[] }[];
    }
    const mine = async (query: string, token: string) => h.svc.http.get(`/decision/v1/authority/decisions?limit=100${query}`, { token });
    const asked = await mine(`&userId=${user}`, h.tokens.user);
    expect(asked.status).toBe(200);
    const found = (asked.body.data.data as Held[]).find((d) => d.decisionId === own)!;
    expect(found).toMatchObject({ decisionName: 'Approve marketing spend (my authority spec)' });
    expect(found.authorities).toEqual([{ authorityTypeId: approvalType, limit: { value: '90000', unit: 'USD', operator: '<=' }, display: '<= USD 90,000', heldVia: 'SPECIFIC_PERSONNEL', chain: [{ delegationId: root.id, delegationDisplayId: root.delegationDisplayId }, { delegationId: high.id, delegationDisplayId: high.delegationDisplayId }] }]);
    // Every decision listed is one the check allows (whatever the value), with the same limit.
    for (const d of asked.body.data.data as Held[]) {
      for (const a of d.authorities) {
        const res = await h.svc.http.post('/decision/v1/authority/check', { token: h.tokens.auditor, body: { userId: user, decisionId: d.decisionId, authorityTypeId: a.authorityTypeId, ...(a.limit && a.limit.value !== 'Unlimited' ? { value: a.limit.value, unit: (a.limit as { unit?: string }).unit } : {}) } });
        expect(res.body.data.allowed).toBe(true);
      }
    }
    // The higher one revoked: the lower one answers.
    const beforeRevoke = new Date().toISOString();
    expect((await h.svc.http.post(`${DELEGATIONS}/${high.id}/revoke`, { token: h.tokens.admin, body: {} })).status).toBe(200);
    const now = ((await mine(`&userId=${user}`, h.tokens.user)).body.data.data as Held[]).find((d) => d.decisionId === own)!;
    expect(now.authorities.map((a) => [a.display, a.chain.map((l) => l.delegationId)])).toEqual([['<= USD 30,000', [root.id, low.id]]]);
    const then = ((await mine(`&userId=${user}&at=${encodeURIComponent(beforeRevoke)}`, h.tokens.user)).body.data.data as Held[]).find((d) => d.decisionId === own)!;
    expect(then.authorities[0].display).toBe('<= USD 90,000');
    // Of someone else: view:decisions (mayAsk, authority.spec.ts: without it a person asks only of themselves).
    expect((await mine(`&userId=${manager}`, h.tokens.auditor)).status).toBe(200);
    expectErrorBody(await mine('', h.tokens.user), 400);
    expectErrorBody(await mine(`&userId=${manager}&positionId=${randomUUID()}`, h.tokens.user), 400);
  });

  it('check-batch: up to 1,000 checks in one request, answered in order; a bad check is named by its index', async () => {
    const batch = (checks: object[], token = h.tokens.auditor) => h.svc.http.post('/decision/v1/authority/check-batch', { token, body: { checks } });
    const asks = Array.from({ length: 1000 }, (_, i) => ({ decisionId, unit: 'USD', userId: i % 2 ? manager : user, value: String((i % 10) * 100000) }));
    const res = await batch(asks);
    expect(res.status).toBe(200);
    const results = res.body.data.results as { allowed: boolean }[];
    expect(results).toHaveLength(1000);
    // The root is suspended by the first test: nobody holds it now, and each answer is the single check's.
    const singles = await Promise.all([asks[0], asks[1], asks[998], asks[999]].map((a) => check(a)));
    // Each single check says how fresh it is; the batch says it once, for every result.
    expect(res.body.data.consistentAsOf).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    for (const x of singles) expect(x.consistentAsOf).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect([results[0], results[1], results[998], results[999]]).toEqual(singles.map(({ consistentAsOf: _asOf, ...x }) => ({ ...x, evaluatedAt: expect.any(String) })));
    const at = new Date(Date.now() - 60_000).toISOString();
    const past = await batch([{ decisionId, unit: 'USD', userId: user, value: '1', at }, { decisionId, unit: 'USD', userId: user, value: '1' }]);
    expect(past.body.data.results.map((r: { evaluatedAt: string }) => r.evaluatedAt)[0]).toBe(at);

    expectErrorBody(await batch([]), 400);
    expectErrorBody(await batch([...asks, asks[0]]), 400);
    const unknown = await batch([asks[0], { ...asks[1], decisionId: '0190a000-0000-7000-8000-00000000dead' }]);
    expectErrorBody(unknown, 404);
    expect(unknown.body.errors[0].field).toBe('checks.1.decisionId');
    const both = await batch([asks[0], { decisionId, userId: user, positionId: user }]);
    expectErrorBody(both, 400);
    expect(both.body.errors[0].field).toBe('checks.1.userId');
    const otherTenant = await batch([{ ...asks[0], tenantId: h.other.id }]);
    expectErrorBody(otherTenant, 400);
    expect(otherTenant.body.errors[0].field).toBe('checks.0.tenantId');
  });

  it('a value in another currency than the limit\'s: a 400 without the tenant\'s rates, converted with the rate in force on the day asked about', async () => {
    const decision = await h.svc.http.post('/decision/v1/decisions', {
      token: h.tokens.admin,
      body: { name: 'Approve treasury transfers (currency spec)', status: 'PUBLISHED', delegationPathway: ['Matrix'], decisionAuthorities: [approvalLimit(h, '1000000')] },
    });
    const own = decision.body.data.id as string;
    const res = await h.svc.http.post(DELEGATIONS, {
      token: h.tokens.admin,
      body: { decisionId: own, status: 'ISSUED', delegationPathway: ['Matrix'], recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], delegationAuthorities: [approvalLimit(h, '100000')] },
    });
    expect(res.status).toBe(200);
    const ask = (value: string, unit: string, at?: string) => h.svc.http.post(CHECK, { token: h.tokens.auditor, body: { decisionId: own, userId: manager, value, unit, ...(at ? { at } : {}) } });

    const none = await ask('90000', 'EUR');
    expectErrorBody(none, 400);
    expect(none.body.errors[0]).toMatchObject({ field: 'unit', message: expect.stringMatching(/^no conversion rate for EUR on \d{4}-\d{2}-\d{2}/) });

    const rates = (body: object, token = h.tokens.admin) => h.svc.http.put('/decision/v1/authority/currency-rates', { token, body });
    // Demo Co never changed its settings: its base currency is auth's default, USD.
    const today = new Date().toISOString().slice(0, 10);
    const saved = await rates({ rates: [{ currency: 'EUR', rate: '1.25', validFrom: '2020-01-01' }, { currency: 'EUR', rate: '1.1', validFrom: today }, { currency: 'GBP', rate: '1.3', validFrom: '2020-01-01' }] });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({ baseCurrency: 'USD', rates: [{ currency: 'EUR', rate: '1.25', validFrom: '2020-01-01' }, { currency: 'EUR', rate: '1.1', validFrom: today }, { currency: 'GBP', rate: '1.3', validFrom: '2020-01-01' }] });
    expect((await h.svc.http.get('/decision/v1/authority/currency-rates', { token: h.tokens.auditor })).body.data).toEqual(saved.body.data);
    // The auth area answers the tenant's currencies from this event: the currencies with a rate, each once, sorted.
    const [replaced] = await h.db.query<{ payload: Record<string, unknown> }>(
      `SELECT payload FROM decision.outbox WHERE subject = 'evt.decision.currency-rates.replaced' AND payload->>'tenantId' = $1 ORDER BY created_at DESC, id DESC LIMIT 1`,
      [h.demo.id],
    );
    expect(replaced.payload).toEqual({ tenantId: h.demo.id, currencies: ['EUR', 'GBP'], version: expect.any(Number) });
    // The same, as the decision area serves it to a projection's backfill (sync.decision.currency-rates): older than the event, which wins.
    const { items } = await snapshotOf<{ tenantId: string; currencies: string[]; version: number }>(h.svc, 'decision.currency-rates');
    const served = items.find((i) => i.tenantId === h.demo.id)!;
    expect(served).toEqual({ tenantId: h.demo.id, currencies: ['EUR', 'GBP'], version: expect.any(Number) });
    expect(served.version).toBeLessThanOrEqual(Number(replaced.payload.version));
    expect(readEvent('evt.decision.currency-rates.replaced', served).problems).toEqual([]);

    // Today EUR 90,000 = USD 99,000 (within 100,000); EUR 90,910 = USD 100,001 is not.
    expect((await ask('90000', 'EUR')).body.data).toMatchObject({ allowed: true, limit: { value: '100000', unit: 'USD' } });
    const over = (await ask('90910', 'EUR')).body.data;
    expect(over.allowed).toBe(false);
    expect(over.reasons[0]).toMatch(/^limit <= USD 100,000 < EUR 90,910 \(USD 100,001\) via \d+/);
    // GBP has one rate: 76,923 GBP = 99,999.9 USD; JPY has none.
    expect((await ask('76923', 'GBP')).body.data.allowed).toBe(true);
    expectErrorBody(await ask('1', 'JPY'), 400);

    expectErrorBody(await rates({ rates: [{ currency: 'USD', rate: '1', validFrom: today }] }), 400);
    expectErrorBody(await rates({ rates: [{ currency: 'EUR', rate: '1', validFrom: today }, { currency: 'EUR', rate: '2', validFrom: today }] }), 400);
    expectErrorBody(await rates({ rates: [{ currency: 'eur', rate: '1', validFrom: today }] }), 400);
    expectErrorBody(await rates({ rates: [{ currency: 'EUR', rate: '0', validFrom: today }] }), 400);
    expectErrorBody(await rates({ rates: [{ currency: 'EUR', rate: '1', validFrom: '2026-02-30' }] }), 400);
    expectErrorBody(await rates({ rates: [] }, h.tokens.auditor), 403);
    // Another tenant sees none of these rates.
    expect((await h.svc.http.get('/decision/v1/authority/currency-rates', { token: h.tokens.otherAdmin })).body.data.rates).toEqual([]);
  });

  it('a deleted decision gives no authority from its deletion on, and did before', async () => {
    const before = new Date(Date.now() - 1).toISOString();
    await pastInstant(before);
    const decision = await h.svc.http.post('/decision/v1/decisions', {
      token: h.tokens.admin,
      body: { name: 'Write off receivables (deletion spec)', status: 'PUBLISHED', delegationPathway: ['Matrix'], decisionAuthorities: [approvalLimit(h, '1000000')] },
    });
    const own = decision.body.data.id as string;
    const res = await h.svc.http.post(DELEGATIONS, {
      token: h.tokens.admin,
      body: { decisionId: own, status: 'ISSUED', delegationPathway: ['Matrix'], recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], delegationAuthorities: [approvalLimit(h, '100000')] },
    });
    expect(res.status).toBe(200);
    const ask = (at?: string) => h.svc.http.post(CHECK, { token: h.tokens.auditor, body: { decisionId: own, userId: manager, value: '1', unit: 'USD', ...(at ? { at } : {}) } });
    const held = new Date().toISOString();
    await pastInstant(held);
    expect((await ask()).body.data.allowed).toBe(true);
    expect((await ask(before)).body.data).toMatchObject({ allowed: false, reasons: [expect.stringMatching(/did not exist on/)] });
    expect((await h.svc.http.post(`${DELEGATIONS}/${res.body.data[0].id}/revoke`, { token: h.tokens.admin, body: {} })).status).toBe(200);
    expect((await h.svc.http.delete(`/decision/v1/decisions/${own}`, { token: h.tokens.admin })).status).toBe(200);
    expect((await ask()).body.data).toMatchObject({ allowed: false, reasons: [expect.stringMatching(/^decision \d+ was deleted on/)] });
    expect((await ask(held)).body.data.allowed).toBe(true);
  });

  it('the delegations list as of an instant: each delegation as it stood then, the filters applied to that state', async () => {
    const before = new Date().toISOString();
    await pastInstant(before);
    const decision = await h.svc.http.post('/decision/v1/decisions', {
      token: h.tokens.admin,
      body: { name: 'Approve marketing budgets (list-at spec)', status: 'PUBLISHED', delegationPathway: ['Matrix'], decisionAuthorities: [approvalLimit(h, '1000000')] },
    });
    const own = decision.body.data.id as string;
    const res = await h.svc.http.post(DELEGATIONS, {
      token: h.tokens.admin,
      body: { decisionId: own, status: 'ISSUED', delegationPathway: ['Matrix'], recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], delegationAuthorities: [approvalLimit(h, '100000')] },
    });
    const id = res.body.data[0].id as string;
    const issued = new Date().toISOString();
    await pastInstant(issued);
    expect((await h.svc.http.post(`${DELEGATIONS}/${id}/suspend`, { token: h.tokens.admin, body: {} })).status).toBe(200);
    const list = async (query: string) => {
      const r = await h.svc.http.get(`${DELEGATIONS}?decisionIds=${own}&${query}`, { token: h.tokens.admin });
      expect(r.status).toBe(200);
      return r.body.data as { total: number; data: { id: string; status: string; recipientUserId: string }[] };
    };
    expect((await list('')).data.map((d) => [d.id, d.status])).toEqual([[id, 'SUSPENDED']]);
    expect((await list(`at=${encodeURIComponent(issued)}`)).data.map((d) => [d.id, d.status, d.recipientUserId])).toEqual([[id, 'ISSUED', manager]]);
    expect((await list(`status=ISSUED&at=${encodeURIComponent(issued)}`)).total).toBe(1);
    expect((await list('status=ISSUED')).total).toBe(0);
    expect((await list(`recipientUserIds=${user}&at=${encodeURIComponent(issued)}`)).total).toBe(0);
    expect((await list(`at=${encodeURIComponent(before)}`)).total).toBe(0);
    // The same through the global search, and the get as of then.
    const searched = await h.svc.http.post(`${DELEGATIONS}/global-search`, { token: h.tokens.admin, body: { decisionIds: [own], at: issued } });
    expect(searched.body.data.data.map((d: { status: string }) => d.status)).toEqual(['ISSUED']);
    expect((await h.svc.http.get(`${DELEGATIONS}/${id}?at=${encodeURIComponent(issued)}`, { token: h.tokens.admin })).body.data.status).toBe('ISSUED');
    expectErrorBody(await h.svc.http.get(`${DELEGATIONS}?at=yesterday`, { token: h.tokens.admin }), 400);
  });

  describe("a person, position, group or authority type the tenant does not have: 404 naming the field", () => {
    const NOBODY = '0190a000-0000-7000-8000-00000000dead';
    /** Another tenant's record of each kind (Other Co's, as the decision area projects them). */
    const theirs = { userId: '', positionId: '', groupId: '', authorityTypeId: '' };
    let own = '';
    let base: { decisionId: string; userId: string; value: string; unit: string };
    const FIELDS = ['userId', 'positionId', 'groupId', 'authorityTypeId'] as const;
    /** The check `base` with `field` naming `id` (a position instead of the person). */
    const naming = (field: (typeof FIELDS)[number], id: string) => (field === 'positionId' ? { decisionId: own, positionId: id, value: '1', unit: 'USD' } : { ...base, [field]: id });
    const fieldsOf = (res: { body: { errors?: { field: string }[] } }) => (res.body.errors ?? []).map((e) => e.field);

    beforeAll(async () => {
      // Other Co's seed has no position or group: one of each made by its admin.
      const settings = httpClient(h.processes.settings.url);
      const position = await settings.post('/settings/v1/positions', { token: h.tokens.otherAdmin, body: { positionName: 'Other Co buyer (authority spec)' } });
      expect(position.status).toBe(200);
      const groupType = (await settings.get('/settings/v1/group-types?limit=1', { token: h.tokens.otherAdmin })).body.data.data[0].id as string;
      const group = await settings.post('/settings/v1/groups', { token: h.tokens.otherAdmin, body: { groupName: 'Other Co office (authority spec)', tenantGroupTypeId: groupType } });
      expect(group.status).toBe(200);
      // Each once it reached the decision area, by event; not also Demo Co's (a person may be a member of both).
      const first = (table: string) =>
        until(
          async () => (await h.db.query<{ id: string }>(`SELECT id FROM decision.${table} WHERE tenant_id = $1 AND id NOT IN (SELECT id FROM decision.${table} WHERE tenant_id = $2) ORDER BY id LIMIT 1`, [h.other.id, h.demo.id]))[0]?.id,
          `an Other Co record in decision.${table}`,
          20_000,
        );
      theirs.userId = await first('user_projection');
      theirs.positionId = await first('position_projection');
      theirs.groupId = await first('group_projection');
      theirs.authorityTypeId = await first('authority_type_projection');
      const made = await ownDecision('Approve refunds (unknown records spec)', '1000000');
      own = made.own;
      await made.give({ recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], delegationAuthorities: [approvalLimit(h, '100000')] });
      base = { decisionId: own, userId: manager, value: '1', unit: 'USD' };
    });

    it('an allowed check is answered as before; a refused one of the tenant\'s records too (a type the decision does not hold is a reason, not a 404)', async () => {
      const allowed = await check({ ...base, groupId: h.refs.groups.get('Finance')!, authorityTypeId: h.refs.authorityTypes.get('Approval')! });
      expect(allowed).toMatchObject({ allowed: true, reasons: [], limit: { value: '100000', unit: 'USD', operator: '<=' }, heldVia: 'SPECIFIC_PERSONNEL' });
      const notHeld = await check({ ...base, authorityTypeId: h.refs.authorityTypes.get('Signatory')! });
      expect(notHeld).toMatchObject({ allowed: false, reasons: [expect.stringMatching(/does not hold that authority type$/)] });
      expect((await check({ ...base, value: '100000.01' })).allowed).toBe(false);
      // Someone of the tenant who holds nothing: refused, not unknown.
      expect((await check({ ...base, userId: h.refs.users.get('auditor@demo.test')! })).allowed).toBe(false);
    });

    it.each(FIELDS)('%s: unknown, or another tenant\'s, in the check and in a batch', async (field) => {
      for (const id of [NOBODY, theirs[field]]) {
        const single = await h.svc.http.post(CHECK, { token: h.tokens.auditor, body: naming(field, id) });
        expectErrorBody(single, 404);
        expect(single.body.errors).toEqual([{ field, message: expect.stringContaining(`${id} not found`) }]);
        const inBatch = await h.svc.http.post('/decision/v1/authority/check-batch', { token: h.tokens.auditor, body: { checks: [base, naming(field, id), base] } });
        expectErrorBody(inBatch, 404);
        expect(fieldsOf(inBatch)).toEqual([`checks.1.${field}`]);
      }
    });

    it('a batch names every such field, in order, and only those', async () => {
      const res = await h.svc.http.post('/decision/v1/authority/check-batch', {
        token: h.tokens.auditor,
        body: { checks: [base, { ...base, userId: NOBODY, groupId: theirs.groupId }, base, naming('positionId', theirs.positionId), { ...base, authorityTypeId: NOBODY }] },
      });
      expectErrorBody(res, 404);
      expect(fieldsOf(res)).toEqual(['checks.1.userId', 'checks.1.groupId', 'checks.3.positionId', 'checks.4.authorityTypeId']);
    });

    it('"my authority" and holders: a userId, positionId or groupId (holders: groupId, authorityTypeId) the tenant does not have is a 404 naming the parameter', async () => {
      const mine = (query: string) => h.svc.http.get(`/decision/v1/authority/decisions?limit=100${query}`, { token: h.tokens.auditor });
      for (const [query, field] of [
        [`&userId=${NOBODY}`, 'userId'],
        [`&userId=${theirs.userId}`, 'userId'],
        [`&positionId=${theirs.positionId}`, 'positionId'],
        [`&userId=${manager}&groupId=${theirs.groupId}`, 'groupId'],
      ]) {
        const res = await mine(query);
        expectErrorBody(res, 404);
        expect(fieldsOf(res)).toEqual([field]);
      }
      // Of the tenant's records, nothing held is an empty page.
      expect((await mine(`&userId=${manager}&at=2001-01-01T00:00:00.000Z`)).body.data.total).toBe(0);
      expect((await mine(`&userId=${manager}`)).body.data.total).toBeGreaterThan(0);
      const holders = (query: string) => h.svc.http.get(`/decision/v1/authority/holders?decisionId=${own}${query}`, { token: h.tokens.auditor });
      expect((await holders(`&groupId=${h.refs.groups.get('Finance')!}`)).body.data.total).toBe(1);
      for (const [query, field] of [
        [`&groupId=${theirs.groupId}`, 'groupId'],
        [`&authorityTypeId=${theirs.authorityTypeId}`, 'authorityTypeId'],
      ]) {
        const res = await holders(query);
        expectErrorBody(res, 404);
        expect(fieldsOf(res)).toEqual([field]);
      }
    });

    it('a record deleted since is still one to ask about: a position deleted in settings answers as it stood, and refused now, never a 404', async () => {
      const settings = httpClient(h.processes.settings.url);
      const [position] = await h.db.query<{ id: string }>(`SELECT id FROM decision.position_projection WHERE tenant_id = $1 AND NOT is_deleted ORDER BY position_name DESC LIMIT 1`, [h.demo.id]);
      const made = await ownDecision('Approve rebates (deleted position spec)', '1000000');
      await made.give({ recipientType: 'POSITION_ONLY', delegationRecipients: [{ recipientPositionId: position.id }], delegationAuthorities: [approvalLimit(h, '50000')] });
      const ask = (at?: string) => h.svc.http.post(CHECK, { token: h.tokens.auditor, body: { decisionId: made.own, positionId: position.id, value: '1', unit: 'USD', ...(at ? { at } : {}) } });
      const held = new Date().toISOString();
      await pastInstant(held);
      expect((await ask()).body.data.allowed).toBe(true);
      expect((await settings.delete('/settings/v1/positions', { token: h.tokens.admin, body: { ids: [position.id] } })).status).toBe(200);
      await until(async () => (await h.db.query<{ is_deleted: boolean }>(`SELECT is_deleted FROM decision.position_projection WHERE id = $1`, [position.id]))[0].is_deleted, 'the deleted position in the decision area', 20_000);
      const now = await ask();
      expect(now.status).toBe(200);
      expect(now.body.data.allowed).toBe(false);
      expect((await ask(held)).body.data).toMatchObject({ allowed: true, limit: { value: '50000' } });
    });
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
