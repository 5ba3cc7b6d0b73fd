import { randomUUID } from 'node:crypto';
import { NatsClient } from '@ddm/platform';
import { expectErrorBody, httpClient, ISO, publishEvent, startHarness, until } from '@ddm/testing';
import { JSONCodec, Subscription } from 'nats';
import { MAX_CAMPAIGN_ITEMS } from '../src/attestations/attestation.rules';
import { AttestationOverdueSweep } from '../src/sweeps/attestation-overdue.sweep';
import { decisionApp, DecisionHarness } from './fixtures/decision-app';
import { approvalLimit } from './fixtures/limits';
import { insertDelegations } from './fixtures/decision-rows';

const ATTESTATIONS = '/decision/v1/attestations';
const DELEGATIONS = '/decision/v1/delegations';
const codec = JSONCodec<Record<string, any>>();

interface Outboxed {
  subject: string;
  payload: Record<string, any>;
}

/**
 * Attestation campaigns (e2e, real Postgres and NATS; auth and settings as child processes): a
 * campaign covers exactly the delegations its scope names that are held when it opens, asks their
 * holders (one requested event each, seen on NATS), takes each holder's answer once (a dispute
 * flags the delegation for its issuer), marks the unanswered ones overdue at the due date (and
 * suspends them when the campaign says so), and reports as CSV.
 * Demo Co: admin (System Admin) issues; manager takes the position Chief Financial Officer (in auth).
 */
describe('attestation campaigns (e2e)', () => {
  let h: DecisionHarness;
  let admin: string, manager: string, user: string;
  let finance: { id: string }, legal: { id: string }, empty: { id: string }, holdings: { id: string };
  let cfo: string;
  const d: Record<string, { id: string; delegationDisplayId: string }> = {};
  let nats: { messages: { subject: string; data: Record<string, any> }[]; sub: Subscription };

  const decision = async (name: string, groupName: string) => {
    const res = await h.svc.http.post('/decision/v1/decisions', {
      token: h.tokens.admin,
      body: { name, status: 'PUBLISHED', delegationPathway: ['Matrix'], decisionGroups: [{ groupId: h.refs.groups.get(groupName) }], decisionAuthorities: [approvalLimit(h, '1000000')] },
    });
    expect(res.status).toBe(200);
    return res.body.data as { id: string };
  };
  const issue = async (decisionId: string, recipient: object, status = 'ISSUED') => {
    const res = await h.svc.http.post(DELEGATIONS, {
      token: h.tokens.admin,
      body: { decisionId, status, delegationPathway: ['Matrix'], delegationAuthorities: [approvalLimit(h, '1000')], ...recipient },
    });
    expect(res.status).toBe(200);
    return res.body.data[0] as { id: string; delegationDisplayId: string };
  };
  const toUser = (recipientUserId: string) => ({ recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId }] });
  const open = (body: object, token = h.tokens.admin) =>
    h.svc.http.post(ATTESTATIONS, { token, body: { name: 'Q3 review', dueDate: new Date(Date.now() + 3_600_000).toISOString(), ...body } });
  const respond = (campaignId: string, delegationId: string, body: object, token: string) =>
    h.svc.http.post(`${ATTESTATIONS}/${campaignId}/items/${delegationId}/respond`, { token, body });
  const campaign = async (id: string) => {
    const res = await h.svc.http.get(`${ATTESTATIONS}/${id}`, { token: h.tokens.auditor });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const delegation = async (id: string) => (await h.svc.http.get(`${DELEGATIONS}/${id}`, { token: h.tokens.admin })).body.data;
  const outbox = (subject: string, campaignId: string) =>
    h.db.query<Outboxed>(`SELECT subject, payload FROM decision.outbox WHERE subject = $1 AND payload->>'campaignId' = $2 ORDER BY created_at, id`, [subject, campaignId]);
  /** Moves a campaign's due date into the past, as time would. */
  const fallDue = (id: string) => h.db.query(`UPDATE decision.attestation_campaigns SET due_date = now() - interval '1 second' WHERE id = $1`, [id]);

  beforeAll(async () => {
    h = await startHarness(decisionApp);
    [admin, manager, user] = ['admin', 'manager', 'user'].map((n) => h.refs.users.get(`${n}@demo.test`)!);
    [{ id: cfo }] = await h.db.query<{ id: string }>(`SELECT id FROM decision.position_projection WHERE tenant_id = $1 AND position_name = 'Chief Financial Officer'`, [h.demo.id]);
    // The manager takes the CFO position in the auth area; its event reaches the decision area's projection.
    expect((await httpClient(h.processes.auth.url).patch(`/auth/v1/user/update-entities/${manager}`, { token: h.tokens.admin, body: { positionIds: [cfo] } })).status).toBe(200);
    await until(
      async () => (await h.db.query(`SELECT 1 FROM decision.user_projection WHERE tenant_id = $1 AND id = $2 AND position_ids @> ARRAY[$3::uuid]`, [h.demo.id, manager, cfo])).length > 0,
      'the manager holding the CFO position in the projection',
      20_000,
    );
    finance = await decision('Approve invoices (attestation spec)', 'Finance');
    legal = await decision('Sign contracts (attestation spec)', 'Legal');
    empty = await decision('Approve travel (attestation spec)', 'Finance');
    d.managerFinance = await issue(finance.id, toUser(manager));
    d.userFinance = await issue(finance.id, toUser(user));
    d.positionFinance = await issue(finance.id, { recipientType: 'POSITION_ONLY', delegationRecipients: [{ recipientPositionId: cfo }] });
    d.draftFinance = await issue(finance.id, toUser(user), 'DRAFT');
    d.suspendedFinance = await issue(finance.id, toUser(manager));
    expect((await h.svc.http.post(`${DELEGATIONS}/${d.suspendedFinance.id}/suspend`, { token: h.tokens.admin, body: {} })).status).toBe(200);
    d.managerLegal = await issue(legal.id, toUser(manager));
    // A decision of the whole company, delegated for Engineering only (a group below Demo Co Europe).
    holdings = await decision('Approve hires (attestation spec)', 'Demo Co Holdings');
    d.userEngineering = await issue(holdings.id, { ...toUser(user), delegationGroups: [{ groupId: h.refs.groups.get('Engineering') }] });

    const client = h.svc.app.get(NatsClient);
    const messages: { subject: string; data: Record<string, any> }[] = [];
    const sub = client.nc.subscribe(h.svc.ns.subjects.wire('evt.decision.attestation.>'), {
      callback: (_err, msg) => messages.push({ subject: h.svc.ns.subjects.logical(msg.subject), data: codec.decode(msg.data) }),
    });
    await client.nc.flush();
    nats = { messages, sub };
  });
  afterAll(async () => {
    nats?.sub.unsubscribe();
    await h?.close();
  });

  let c1: { id: string };

  it('opens over a scope: an item for exactly the delegations held now, one requested event each (on NATS) naming their holders', async () => {
    const res = await open({ name: '  Q3 finance review  ', scope: { decisionIds: [finance.id] } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Attestation campaign opened successfully');
    c1 = res.body.data;
    expect(res.body.data).toEqual({
      id: expect.any(String),
      campaignDisplayId: expect.stringMatching(/^\d+$/),
      tenantId: h.demo.id,
      name: 'Q3 finance review',
      status: 'OPEN',
      dueDate: expect.stringMatching(ISO),
      suspendOverdue: false,
      scope: { decisionIds: [finance.id], groupIds: [], all: false },
      total: 3,
      confirmed: 0,
      disputed: 0,
      pending: 3,
      overdue: 0,
      createdBy: admin,
      createdAt: expect.stringMatching(ISO),
      closedAt: null,
    });
    const items = await h.svc.http.get(`${ATTESTATIONS}/${c1.id}/items`, { token: h.tokens.auditor });
    expect(items.status).toBe(200);
    expect(items.body.data.total).toBe(3);
    expect(items.body.data.data.map((i: { delegationId: string }) => i.delegationId)).toEqual([d.managerFinance.id, d.userFinance.id, d.positionFinance.id]);
    expect(items.body.data.data[2]).toMatchObject({ recipientType: 'POSITION_ONLY', recipientPositionId: cfo, recipientPositionName: 'Chief Financial Officer', status: 'PENDING', respondedAt: null });

    const expected = [
      [d.managerFinance.id, [manager]],
      [d.userFinance.id, [user]],
      [d.positionFinance.id, [manager]],
    ];
    const requested = await outbox('evt.decision.attestation.requested', c1.id);
    expect(requested.map((e) => [e.payload.delegationId, e.payload.holderUserIds])).toEqual(expected);
    expect(requested[0].payload).toMatchObject({ tenantId: h.demo.id, campaignName: 'Q3 finance review', decisionId: finance.id, issuerUserId: admin, requestedById: admin, dueDate: res.body.data.dueDate });
    const seen = await until(() => {
      const mine = nats.messages.filter((m) => m.subject === 'evt.decision.attestation.requested' && m.data.campaignId === c1.id);
      return mine.length === 3 && mine;
    }, 'the three requested events on NATS', 15_000);
    expect(seen.map((m) => [m.data.delegationId, m.data.holderUserIds])).toEqual(expected);
  });

  it('refuses what it cannot open: no permission (403), bad scope or due date (400), unknown ids (404), nothing held in scope (400)', async () => {
    expectErrorBody(await open({ scope: { decisionIds: [finance.id] } }, h.tokens.user), 403);
    let res = await open({ scope: {} });
    expectErrorBody(res, 400);
    expect(res.body.errors).toEqual([{ field: 'scope', message: expect.any(String) }]);
    expectErrorBody(await open({ scope: { all: true, decisionIds: [finance.id] } }), 400);
    res = await open({ scope: { decisionIds: [finance.id] }, dueDate: new Date(Date.now() - 1000).toISOString() });
    expectErrorBody(res, 400);
    expect(res.body.errors[0].field).toBe('dueDate');
    res = await open({ scope: { groupIds: Array.from({ length: 501 }, () => randomUUID()) } });
    expectErrorBody(res, 400);
    res = await open({ name: 'x'.repeat(201), scope: { decisionIds: [finance.id] } });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['name']);
    const unknown = randomUUID();
    res = await open({ scope: { decisionIds: [finance.id, unknown] } });
    expectErrorBody(res, 404);
    expect(res.body.errors).toEqual([{ field: 'scope.decisionIds.1', message: `Decision ${unknown} not found` }]);
    res = await open({ scope: { decisionIds: [empty.id] } });
    expectErrorBody(res, 400);
    expect(res.body.message).toMatch(/no delegation held today/);
    expect((await h.db.query(`SELECT 1 FROM decision.attestation_campaigns WHERE scope->'decisionIds' ? $1`, [empty.id])).length).toBe(0);
  });

  it("reads are the tenant's own: another tenant's campaign is a 404; the list pages", async () => {
    expectErrorBody(await h.svc.http.get(`${ATTESTATIONS}/${c1.id}`, { token: h.tokens.otherAdmin }), 404);
    expectErrorBody(await h.svc.http.get(`${ATTESTATIONS}/${c1.id}/items`, { token: h.tokens.otherAdmin }), 404);
    expectErrorBody(await h.svc.http.get(`${ATTESTATIONS}/${c1.id}/report?format=csv`, { token: h.tokens.otherAdmin }), 404);
    expectErrorBody(await respond(c1.id, d.managerFinance.id, { outcome: 'CONFIRMED' }, h.tokens.otherAdmin), 404);
    expectErrorBody(await h.svc.http.get(`${ATTESTATIONS}/not-a-uuid`, { token: h.tokens.admin }), 400);
    const mine = await h.svc.http.get(`${ATTESTATIONS}?status=OPEN&search=finance`, { token: h.tokens.auditor });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({ page: 1, limit: 10, total: 1, data: [{ id: c1.id, total: 3, pending: 3 }] });
    expect((await h.svc.http.get(ATTESTATIONS, { token: h.tokens.otherAdmin })).body.data.total).toBe(0);
    expectErrorBody(await h.svc.http.get(`${ATTESTATIONS}?limit=101`, { token: h.tokens.admin }), 400);
  });

  it('takes each holder\'s answer once: counts move, a dispute flags the delegation for its issuer, a non-holder is a 403, a second answer a 409', async () => {
    const confirmed = await respond(c1.id, d.userFinance.id, { outcome: 'CONFIRMED' }, h.tokens.user);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toMatchObject({ delegationId: d.userFinance.id, status: 'CONFIRMED', respondedBy: user, respondedAt: expect.stringMatching(ISO), respondedVia: 'API', comment: null });
    expect(await campaign(c1.id)).toMatchObject({ total: 3, confirmed: 1, disputed: 0, pending: 2, status: 'OPEN' });

    expectErrorBody(await respond(c1.id, d.userFinance.id, { outcome: 'DISPUTED' }, h.tokens.user), 409);
    expectErrorBody(await respond(c1.id, d.managerFinance.id, { outcome: 'CONFIRMED' }, h.tokens.user), 403);
    expectErrorBody(await respond(c1.id, d.managerFinance.id, { outcome: 'CONFIRMED' }, h.tokens.admin), 403);
    expectErrorBody(await respond(c1.id, d.managerLegal.id, { outcome: 'CONFIRMED' }, h.tokens.manager), 404);
    expectErrorBody(await respond(c1.id, d.managerFinance.id, { outcome: 'MAYBE' }, h.tokens.manager), 400);

    const comment = '=HYPERLINK("http://evil"), "not mine"\nsecond line';
    const disputed = await respond(c1.id, d.managerFinance.id, { outcome: 'DISPUTED', comment }, h.tokens.manager);
    expect(disputed.status).toBe(200);
    expect(disputed.body.data).toMatchObject({ status: 'DISPUTED', comment, respondedBy: manager, respondedByUser: { id: manager, email: 'manager@demo.test' } });
    expect(await campaign(c1.id)).toMatchObject({ total: 3, confirmed: 1, disputed: 1, pending: 1, overdue: 0, status: 'OPEN' });

    expect(await delegation(d.managerFinance.id)).toMatchObject({ status: 'ISSUED', attestationDisputed: true, attestationDisputedCampaignId: c1.id });
    expect(await delegation(d.userFinance.id)).toMatchObject({ attestationDisputed: false, attestationDisputedCampaignId: null });
    const listed = await h.svc.http.get(`${DELEGATIONS}?decisionIds=${finance.id}&select=id,attestationDisputed`, { token: h.tokens.admin });
    expect(listed.body.data.data).toEqual(expect.arrayContaining([{ id: d.managerFinance.id, attestationDisputed: true }, { id: d.userFinance.id, attestationDisputed: false }]));
    const flagged = await h.svc.http.get(`${DELEGATIONS}?attestationDisputed=true&issuerUserId=${admin}&select=id`, { token: h.tokens.admin });
    expect(flagged.body.data).toMatchObject({ total: 1, data: [{ id: d.managerFinance.id }] });
    const log = await h.svc.http.get(`${DELEGATIONS}/${d.managerFinance.id}/changelog?limit=1`, { token: h.tokens.admin });
    expect(log.body.data.data[0]).toMatchObject({ change: 'attestation disputed', revisedById: manager });
    expect(log.body.data.data[0].changes).toEqual([
      { field: 'attestationDisputed', from: false, to: true },
      { field: 'attestationDisputedCampaignId', from: null, to: c1.id },
    ]);

    const [notice] = await outbox('evt.decision.attestation.disputed', c1.id);
    expect(notice.payload).toMatchObject({ delegationId: d.managerFinance.id, outcome: 'DISPUTED', comment, respondedById: manager, issuerUserId: admin, notifyUserIds: [admin] });
    expect((await outbox('evt.decision.attestation.responded', c1.id)).map((e) => [e.payload.delegationId, e.payload.outcome])).toEqual([
      [d.userFinance.id, 'CONFIRMED'],
      [d.managerFinance.id, 'DISPUTED'],
    ]);
    const updated = await h.db.query<Outboxed>(`SELECT subject, payload FROM decision.outbox WHERE subject = 'evt.decision.delegation.updated' AND payload->>'delegationId' = $1`, [d.managerFinance.id]);
    expect(updated.length).toBeGreaterThanOrEqual(1);
  });

  it('records an answer given in the actions area (evt.actions.attestation.responded) by the same rules', async () => {
    // The CFO position's delegation: its holder (manager) answers through the Attestation action.
    await publishEvent(h.svc, 'evt.actions.attestation.responded', {
      tenantId: h.demo.id, actionId: randomUUID(), campaignId: c1.id, delegationId: d.positionFinance.id, outcome: 'CONFIRMED', comment: 'Still mine',
      respondedById: manager, respondedAt: new Date().toISOString(),
    });
    const answered = await until(async () => {
      const c = await campaign(c1.id);
      return c.pending === 0 && c;
    }, 'the answer from the actions area recorded', 15_000);
    expect(answered).toMatchObject({ confirmed: 2, disputed: 1, pending: 0, status: 'CLOSED', closedAt: expect.stringMatching(ISO) });
    const items = await h.svc.http.get(`${ATTESTATIONS}/${c1.id}/items?status=CONFIRMED&sortOrder=desc`, { token: h.tokens.auditor });
    expect(items.body.data.data[0]).toMatchObject({ delegationId: d.positionFinance.id, respondedVia: 'ACTION', respondedBy: manager, comment: 'Still mine' });
    expectErrorBody(await respond(c1.id, d.positionFinance.id, { outcome: 'DISPUTED' }, h.tokens.manager), 409);
  });

  it('reports as CSV: one line per item, escaped (quotes, commas, line breaks) and formula-safe; format other than csv is a 400', async () => {
    const res = await h.svc.http.get(`${ATTESTATIONS}/${c1.id}/report?format=csv`, { token: h.tokens.auditor });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="attestation-campaign-${(await campaign(c1.id)).campaignDisplayId}.csv"`);
    const [header, ...rest] = res.text.split('\r\n');
    expect(header).toBe('Delegation ID,Decision ID,Decision,Recipient type,Holder,Holder email,Holder position,Status,Responded by,Responded by email,Responded at,Comment');
    expect(rest.pop()).toBe('');
    expect(rest).toHaveLength(3);
    const [disputedLine, confirmedLine, positionLine] = rest;
    expect(disputedLine.startsWith(`${d.managerFinance.delegationDisplayId},`)).toBe(true);
    expect(disputedLine).toContain(',Approve invoices (attestation spec),SPECIFIC_PERSONNEL,');
    expect(disputedLine).toContain(',manager@demo.test,,DISPUTED,');
    expect(disputedLine.endsWith(`,"'=HYPERLINK(""http://evil""), ""not mine""\nsecond line"`)).toBe(true);
    expect(confirmedLine).toMatch(new RegExp(`^${d.userFinance.delegationDisplayId},.*,user@demo\\.test,,CONFIRMED,.*,user@demo\\.test,\\d{4}-\\d\\d-\\d\\dT[^,]+Z,$`));
    expect(positionLine).toMatch(new RegExp(`^${d.positionFinance.delegationDisplayId},.*,POSITION_ONLY,,,Chief Financial Officer,CONFIRMED,.*,Still mine$`));
    // The report read as a whole is the same with the default format.
    expect((await h.svc.http.get(`${ATTESTATIONS}/${c1.id}/report`, { token: h.tokens.auditor })).text).toBe(res.text);
    expectErrorBody(await h.svc.http.get(`${ATTESTATIONS}/${c1.id}/report?format=xlsx`, { token: h.tokens.auditor }), 400);
    expectErrorBody(await h.svc.http.get(`${ATTESTATIONS}/${c1.id}/report?format=json`, { token: h.tokens.auditor }), 400);
  });

  it('groups: covers delegations covering the groups named or a group below, or of a decision in them or below; all covers every held one', async () => {
    const covered = async (id: string) =>
      (await h.svc.http.get(`${ATTESTATIONS}/${id}/items?limit=100`, { token: h.tokens.auditor })).body.data.data.map((i: { delegationId: string }) => i.delegationId).sort();
    const res = await open({ name: 'Europe review', scope: { groupIds: [h.refs.groups.get('Demo Co Europe')] } });
    expect(res.status).toBe(200);
    // Finance and Legal sit below Demo Co Europe, and so does Engineering, which the holdings delegation covers; the draft and the suspended one hold nothing.
    expect(await covered(res.body.data.id)).toEqual([d.managerFinance.id, d.userFinance.id, d.positionFinance.id, d.managerLegal.id, d.userEngineering.id].sort());
    const legalOnly = await open({ name: 'Legal review', scope: { groupIds: [h.refs.groups.get('Legal')] } });
    expect(await covered(legalOnly.body.data.id)).toEqual([d.managerLegal.id]);
    const engineering = await open({ name: 'Engineering review', scope: { groupIds: [h.refs.groups.get('Engineering')], decisionIds: [legal.id] } });
    expect(await covered(engineering.body.data.id)).toEqual([d.userEngineering.id, d.managerLegal.id].sort());
    const all = await open({ name: 'Everything', scope: { all: true } });
    const [{ held }] = await h.db.query<{ held: number }>(
      `SELECT count(*)::int AS held FROM decision.delegations WHERE tenant_id = $1 AND status IN ('ISSUED', 'ACCEPTED') AND NOT is_invalid`,
      [h.demo.id],
    );
    expect(all.body.data).toMatchObject({ total: held, scope: { all: true, decisionIds: [], groupIds: [] } });
    expect(held).toBe(5);

    expect((await respond(res.body.data.id, d.managerFinance.id, { outcome: 'CONFIRMED' }, h.tokens.manager)).status).toBe(200);
    expect(await delegation(d.managerFinance.id)).toMatchObject({ attestationDisputed: false, attestationDisputedCampaignId: null });
  });

  it('the overdue sweep marks what is unanswered at the due date, without suspending unless the campaign says so', async () => {
    const res = await open({ name: 'No suspension', scope: { decisionIds: [legal.id] } });
    const c = res.body.data;
    await fallDue(c.id);
    expectErrorBody(await respond(c.id, d.managerLegal.id, { outcome: 'CONFIRMED' }, h.tokens.manager), 409);
    const sweep = h.svc.app.get(AttestationOverdueSweep);
    expect(await sweep.sweep()).toBeGreaterThanOrEqual(1);
    expect(await campaign(c.id)).toMatchObject({ total: 1, overdue: 1, pending: 0, status: 'CLOSED' });
    expect((await delegation(d.managerLegal.id)).status).toBe('ISSUED');
    const [overdue] = await outbox('evt.decision.attestation.overdue', c.id);
    expect(overdue.payload).toMatchObject({ delegationId: d.managerLegal.id, suspended: false, notifyUserIds: [admin, manager] });
    expectErrorBody(await respond(c.id, d.managerLegal.id, { outcome: 'CONFIRMED' }, h.tokens.manager), 409);
  });

  it('with suspendOverdue, the sweep suspends the overdue delegations through their own move (a revision, the suspended notice)', async () => {
    const res = await open({ name: 'With suspension', scope: { decisionIds: [legal.id] }, suspendOverdue: true });
    expect(res.body.data).toMatchObject({ suspendOverdue: true, total: 1 });
    const c = res.body.data;
    await fallDue(c.id);
    const sweep = h.svc.app.get(AttestationOverdueSweep);
    const [a, b] = await Promise.all([sweep.sweep(), sweep.sweep()]);
    expect(a + b).toBeGreaterThanOrEqual(1);
    expect(await sweep.sweep()).toBe(0);
    expect(await campaign(c.id)).toMatchObject({ overdue: 1, pending: 0, status: 'CLOSED' });
    expect((await delegation(d.managerLegal.id)).status).toBe('SUSPENDED');
    const log = await h.svc.http.get(`${DELEGATIONS}/${d.managerLegal.id}/changelog?limit=1`, { token: h.tokens.admin });
    expect(log.body.data.data[0]).toMatchObject({ change: 'suspend', revisedById: null, changes: [{ field: 'status', from: 'ISSUED', to: 'SUSPENDED' }] });
    const notices = await h.db.query<Outboxed>(`SELECT subject, payload FROM decision.outbox WHERE subject = 'evt.decision.delegation.suspended' AND payload->>'delegationId' = $1`, [d.managerLegal.id]);
    expect(notices).toHaveLength(1);
    const [overdue] = await outbox('evt.decision.attestation.overdue', c.id);
    expect(overdue.payload).toMatchObject({ delegationId: d.managerLegal.id, suspended: true });
    // The Legal campaign opened earlier is still open and its item, never answered, is now moot: the delegation is no longer held.
    const legalOpen = await h.db.query<{ id: string }>(`SELECT id FROM decision.attestation_campaigns WHERE name = 'Legal review'`);
    expectErrorBody(await respond(legalOpen[0].id, d.managerLegal.id, { outcome: 'CONFIRMED' }, h.tokens.manager), 409);
  });

  it(`refuses a scope covering more than ${MAX_CAMPAIGN_ITEMS} held delegations (400), opening nothing`, async () => {
    const big = await decision('Approve small purchases (attestation spec)', 'Operations');
    await insertDelegations((text, params) => h.db.query(text, params), h.demo.id, h.refs, big.id, admin, user, MAX_CAMPAIGN_ITEMS + 1);
    const before = await h.db.query(`SELECT id FROM decision.attestation_campaigns WHERE tenant_id = $1`, [h.demo.id]);
    const res = await open({ name: 'Too much', scope: { decisionIds: [big.id] } });
    expectErrorBody(res, 400);
    expect(res.body.message).toMatch(new RegExp(`more than ${MAX_CAMPAIGN_ITEMS} delegations`));
    expect(await h.db.query(`SELECT id FROM decision.attestation_campaigns WHERE tenant_id = $1`, [h.demo.id])).toEqual(before);
  });

  it('streams a report longer than one batch, every item once, in display id order', async () => {
    const many = await decision('Approve tiny purchases (attestation spec)', 'Operations');
    const ids = await insertDelegations((text, params) => h.db.query(text, params), h.demo.id, h.refs, many.id, admin, user, 1_201);
    const c = (await open({ name: 'Long report', scope: { decisionIds: [many.id] } })).body.data;
    expect(c).toMatchObject({ total: 1_201, pending: 1_201 });
    const res = await h.svc.http.get(`${ATTESTATIONS}/${c.id}/report`, { token: h.tokens.auditor });
    expect(res.status).toBe(200);
    const lines = res.text.split('\r\n').slice(1, -1);
    const displayIds = lines.map((l) => Number(l.split(',')[0]));
    expect(lines).toHaveLength(ids.length);
    expect(new Set(displayIds).size).toBe(ids.length);
    expect(displayIds).toEqual([...displayIds].sort((a, b) => a - b));
    expect(lines.every((l) => l.includes(',PENDING,'))).toBe(true);
  });
});
