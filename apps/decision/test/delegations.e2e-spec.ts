import { expectErrorBody, httpClient, startHarness, until } from '@ddm/testing';
import { ExpirySweep } from '../src/sweeps/expiry.sweep';
import { decisionApp, DecisionHarness } from './fixtures/decision-app';
import { approvalLimit } from './fixtures/limits';

const DELEGATIONS = '/decision/v1/delegations';

interface Outboxed {
  subject: string;
  payload: Record<string, unknown>;
}

/**
 * Delegations through the HTTP API against real Postgres and NATS (auth and settings as child
 * processes): root delegations and redelegations within the rules, the refusals naming rule and
 * field, status moves by who may make them, revoking a subtree, the decision's count and its delete.
 * Demo Co's reporting line (auth seed): admin → manager → user, admin → auditor.
 */
describe('delegations (e2e, real Postgres and NATS)', () => {
  let h: DecisionHarness;
  let decisionId: string;
  let admin: string, manager: string, user: string, auditor: string;

  const post = (body: object, token = h.tokens.admin) => h.svc.http.post(DELEGATIONS, { token, body });
  const move = (id: string, action: string, token = h.tokens.admin) => h.svc.http.post(`${DELEGATIONS}/${id}/${action}`, { token, body: {} });
  const to = (recipientUserId: string) => ({ recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId }] });
  const issue = async (body: object, token = h.tokens.admin) => {
    const res = await post({ decisionId, status: 'ISSUED', ...body }, token);
    expect(res.status).toBe(200);
    return res.body.data[0];
  };
  const eventsOf = (id: string) =>
    h.db.query<Outboxed>(`SELECT subject, payload FROM decision.outbox WHERE payload->>'delegationId' = $1 ORDER BY created_at, id`, [id]);

  beforeAll(async () => {
    h = await startHarness(decisionApp);
    [admin, manager, user, auditor] = ['admin', 'manager', 'user', 'auditor'].map((n) => h.refs.users.get(`${n}@demo.test`)!);
    const res = await h.svc.http.post('/decision/v1/decisions', {
      token: h.tokens.admin,
      body: {
        name: 'Approve purchase orders (delegations spec)',
        status: 'PUBLISHED',
        delegationPathway: ['Matrix', 'Direct Line', 'Down-Line', 'Functional'],
        decisionGroups: [{ groupId: h.refs.groups.get('Finance') }],
        decisionAuthorities: [approvalLimit(h, '500000')],
      },
    });
    expect(res.status).toBe(200);
    decisionId = res.body.data.id;
  });
  afterAll(() => h?.close());

  describe('a root delegation', () => {
    it('is issued by a holder of create:root_delegations within the decision, with every field, and published with its version and status', async () => {
      const res = await post({
        decisionId,
        ...to(manager),
        status: 'ISSUED',
        delegationPathway: ['Direct Line', 'Down-Line', 'Matrix'],
        delegationGroups: [{ groupId: h.refs.groups.get('Finance') }],
        delegationAuthorities: [approvalLimit(h, '400000', { redelegable: true, redelegationLimitValue: '300000' })],
        isNoExpiration: true,
      });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Delegations created successfully');
      const [d] = res.body.data;
      expect(d).toMatchObject({
        decisionId,
        parentDelegationId: null,
        isRootDelegation: true,
        depth: 0,
        issuerType: 'ROOT_AUTHORITY',
        issuerUserId: admin,
        recipientType: 'SPECIFIC_PERSONNEL',
        recipientUserId: manager,
        delegationRecipients: [{ recipientUserId: manager, recipientPositionId: null }],
        status: 'ISSUED',
        isNoExpiration: true,
        expirationDate: null,
        delegationPathway: ['Direct Line', 'Down-Line', 'Matrix'],
        delegationGroups: [{ groupId: h.refs.groups.get('Finance'), tenantGroupTypeId: null }],
        isInvalid: false,
        invalidFields: [],
        sourceDecision: { id: decisionId, name: 'Approve purchase orders (delegations spec)' },
      });
      expect(d.delegationAuthorities[0]).toMatchObject({ authorityLimitValue: '400000', redelegable: true, redelegationLimitValue: '300000', authorityLimitValueUnit: 'USD' });
      expect(d.issuedDate).toEqual(expect.any(String));
      expect(d.link).toMatch(new RegExp(`/delegations/${d.id}$`));
      const events = await eventsOf(d.id);
      expect(events.map((e) => e.subject)).toEqual(['evt.decision.delegation.issued']);
      expect(events[0].payload).toMatchObject({ delegationId: d.id, decisionId, recipientUserId: manager, status: 'ISSUED', version: 1, issuerType: 'ROOT_AUTHORITY' });

      const got = await h.svc.http.get(`${DELEGATIONS}/${d.id}`, { token: h.tokens.admin });
      expect(got.status).toBe(200);
      expect(got.body.data).toMatchObject({ id: d.id, status: 'ISSUED', actionIssuerApproval: false, actionDelegationAcceptance: false });
    });

    it('refuses limits above the decision (400 naming the field) and a caller without create:root_delegations (403)', async () => {
      const over = await post({ decisionId, ...to(manager), delegationAuthorities: [approvalLimit(h, '500000.01')] });
      expectErrorBody(over, 400);
      expect(JSON.stringify(over.body)).toContain('delegationAuthorities.0.authorityLimitValue');
      const denied = await post({ decisionId, ...to(manager), delegationAuthorities: [approvalLimit(h, '1000')] }, h.tokens.user);
      expectErrorBody(denied, 403);
      const pathway = await post({ decisionId, ...to(manager), delegationPathway: ['Matrix'], delegationAuthorities: [approvalLimit(h, '1000')] });
      expect(pathway.status).toBe(200);
    });

    it('gives one delegation per recipient in one request, and 404 names an unknown recipient', async () => {
      const res = await post({ decisionId, recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: user }, { recipientUserId: auditor }], delegationAuthorities: [approvalLimit(h, '10')] });
      expect(res.status).toBe(200);
      expect(res.body.data.map((d: { recipientUserId: string; status: string }) => [d.recipientUserId, d.status])).toEqual([
        [user, 'DRAFT'],
        [auditor, 'DRAFT'],
      ]);
      expect(await eventsOf(res.body.data[0].id)).toEqual([]); // a draft is not published
      const unknown = await post({ decisionId, ...to('0190a000-0000-7000-8000-00000000dead'), delegationAuthorities: [approvalLimit(h, '10')] });
      expectErrorBody(unknown, 404);
    });
  });

  describe('a redelegation', () => {
    let root: { id: string };
    beforeAll(async () => {
      root = await issue({
        ...to(manager),
        delegationPathway: ['Direct Line', 'Matrix'],
        delegationAuthorities: [approvalLimit(h, '400000', { redelegable: true, redelegationLimitValue: '300000' })],
        isNoExpiration: true,
      });
    });

    it("is issued by the parent's holder up to what the parent hands on, to a direct report along Direct Line", async () => {
      const child = await issue({ parentDelegationId: root.id, ...to(user), delegationPathway: ['Direct Line'], delegationAuthorities: [approvalLimit(h, '300000')] }, h.tokens.manager);
      expect(child).toMatchObject({ parentDelegationId: root.id, isRootDelegation: false, depth: 1, issuerType: 'SPECIFIC_PERSONNEL', issuerUserId: manager, recipientUserId: user, status: 'ISSUED' });
    });

    it('refuses a limit just above the cap, numerically (400 naming the field)', async () => {
      const res = await post({ decisionId, parentDelegationId: root.id, status: 'ISSUED', ...to(user), delegationPathway: ['Direct Line'], delegationAuthorities: [approvalLimit(h, '300000.000001')] }, h.tokens.manager);
      expectErrorBody(res, 400);
      expect(JSON.stringify(res.body)).toContain('delegationAuthorities.0.authorityLimitValue');
    });

    it('refuses a recipient out of reach of the pathways, and takes them along Matrix', async () => {
      const direct = await post({ decisionId, parentDelegationId: root.id, ...to(auditor), delegationPathway: ['Direct Line'], delegationAuthorities: [approvalLimit(h, '1000')] }, h.tokens.manager);
      expectErrorBody(direct, 400);
      expect(JSON.stringify(direct.body)).toContain('delegationRecipients.0');
      const matrix = await post({ decisionId, parentDelegationId: root.id, ...to(auditor), delegationPathway: ['Matrix'], delegationAuthorities: [approvalLimit(h, '1000')] }, h.tokens.manager);
      expect(matrix.status).toBe(200);
    });

    it("refuses a pathway the parent does not have, and anyone who does not hold the parent (403)", async () => {
      const pathway = await post({ decisionId, parentDelegationId: root.id, ...to(user), delegationPathway: ['Down-Line'], delegationAuthorities: [approvalLimit(h, '1000')] }, h.tokens.manager);
      expectErrorBody(pathway, 400);
      expect(JSON.stringify(pathway.body)).toContain('delegationPathway');
      const stranger = await post({ decisionId, parentDelegationId: root.id, ...to(user), delegationPathway: ['Matrix'], delegationAuthorities: [approvalLimit(h, '1000')] }, h.tokens.auditor);
      expectErrorBody(stranger, 403);
    });

    it('refuses handing on what is not redelegable', async () => {
      const fixed = await issue({ ...to(manager), delegationPathway: ['Matrix'], delegationAuthorities: [approvalLimit(h, '1000')] });
      const res = await post({ decisionId, parentDelegationId: fixed.id, ...to(user), delegationPathway: ['Matrix'], delegationAuthorities: [approvalLimit(h, '1')] }, h.tokens.manager);
      expectErrorBody(res, 400);
      expect(JSON.stringify(res.body)).toContain('redelegable');
    });
  });

  describe('status moves', () => {
    it('suspend and resume by the issuer, accept by the recipient only, and a forbidden move is a 409 naming both states', async () => {
      const d = await issue({ ...to(manager), delegationAuthorities: [approvalLimit(h, '100')] });
      expect((await move(d.id, 'suspend')).body.data.status).toBe('SUSPENDED');
      const again = await move(d.id, 'suspend');
      expectErrorBody(again, 409);
      expect(again.body.message).toMatch(/SUSPENDED/);
      expect((await move(d.id, 'resume')).body.data.status).toBe('ISSUED');
      expectErrorBody(await move(d.id, 'accept', h.tokens.user), 403);
      const accepted = await move(d.id, 'accept', h.tokens.manager);
      expect(accepted.status).toBe(200);
      expect(accepted.body.data).toMatchObject({ status: 'ACCEPTED', acceptedDate: expect.any(String) });
      const subjects = (await eventsOf(d.id)).map((e) => e.subject);
      expect(subjects).toEqual([
        'evt.decision.delegation.issued',
        'evt.decision.delegation.updated',
        'evt.decision.delegation.suspended',
        'evt.decision.delegation.updated',
        'evt.decision.delegation.updated',
        'evt.decision.delegation.accepted',
      ]);
      const versions = (await eventsOf(d.id)).filter((e) => e.subject !== 'evt.decision.delegation.suspended' && e.subject !== 'evt.decision.delegation.accepted').map((e) => e.payload.version);
      expect(versions).toEqual([1, 2, 3, 4]);
      expectErrorBody(await move(d.id, 'fly'), 400);
      expectErrorBody(await move('0190a000-0000-7000-8000-00000000dead', 'suspend'), 404);
    });

    it('a draft is issued by its issuer; an unrelated Global User may not move it', async () => {
      const [d] = (await post({ decisionId, ...to(manager), delegationAuthorities: [approvalLimit(h, '100')] })).body.data;
      expectErrorBody(await move(d.id, 'issue', h.tokens.user), 403);
      expect((await move(d.id, 'issue')).body.data.status).toBe('ISSUED');
    });

    it('revoking a delegation revokes its whole subtree in one move, one event each', async () => {
      const root = await issue({ ...to(manager), delegationPathway: ['Direct Line', 'Matrix'], delegationAuthorities: [approvalLimit(h, '5000', { redelegable: true })] });
      const child = await issue({ parentDelegationId: root.id, ...to(user), delegationPathway: ['Matrix'], delegationAuthorities: [approvalLimit(h, '4000', { redelegable: true })] }, h.tokens.manager);
      const grandchild = await issue({ parentDelegationId: child.id, ...to(auditor), delegationPathway: ['Matrix'], delegationAuthorities: [approvalLimit(h, '3000')] }, h.tokens.user);
      expect(grandchild.depth).toBe(2);
      const res = await move(root.id, 'revoke');
      expect(res.body.data.status).toBe('REVOKED');
      for (const id of [root.id, child.id, grandchild.id]) {
        expect((await h.svc.http.get(`${DELEGATIONS}/${id}`, { token: h.tokens.admin })).body.data.status).toBe('REVOKED');
        const revoked = (await eventsOf(id)).filter((e) => e.subject === 'evt.decision.delegation.revoked');
        expect(revoked).toHaveLength(1);
        expect(revoked[0].payload.status).toBe('REVOKED');
      }
      expectErrorBody(await move(root.id, 'resume'), 409);
    });
  });

  describe("with the tenant's settings requiring approval and acceptance (auth's settings, by event)", () => {
    const setSettings = async (body: object) => {
      const auth = httpClient(h.processes.auth.url);
      const res = await auth.patch(`/auth/v1/tenants/${h.demo.id}/settings`, { token: h.tokens.admin, body });
      expect(res.status).toBe(200);
      const want = body as { delegationApprovalRequired: boolean; delegationAcceptanceRequired: boolean };
      await until(async () => {
        const [row] = await h.db.query<{ approval_required: boolean; acceptance_required: boolean }>(
          `SELECT approval_required, acceptance_required FROM decision.tenant_settings_projection WHERE id = $1`,
          [h.demo.id],
        );
        return row?.approval_required === want.delegationApprovalRequired && row?.acceptance_required === want.delegationAcceptanceRequired;
      }, 'the settings to reach the decision area', 15_000);
    };
    beforeAll(() => setSettings({ delegationApprovalRequired: true, delegationAcceptanceRequired: true }));
    afterAll(() => setSettings({ delegationApprovalRequired: false, delegationAcceptanceRequired: false }));

    it('issuing waits for an approver, then for the recipient; each step by who may take it, each told', async () => {
      const d = await issue({ ...to(user), delegationAuthorities: [approvalLimit(h, '100')] });
      expect(d).toMatchObject({ status: 'PENDING', pendingStage: 'APPROVAL' });
      const seen = await h.svc.http.get(`${DELEGATIONS}/${d.id}`, { token: h.tokens.admin });
      expect(seen.body.data).toMatchObject({ actionIssuerApproval: true, actionDelegationAcceptance: false, approvalActionExistForUser: true, acceptanceActionExistForUser: false });
      expectErrorBody(await move(d.id, 'approve', h.tokens.user), 403);
      expectErrorBody(await move(d.id, 'accept', h.tokens.user), 409); // not yet: it waits for an approver
      const approved = await move(d.id, 'approve', h.tokens.manager);
      expect(approved.body.data).toMatchObject({ status: 'PENDING', pendingStage: 'ACCEPTANCE', actionDelegationAcceptance: true });
      const forRecipient = await h.svc.http.get(`${DELEGATIONS}/${d.id}`, { token: h.tokens.user });
      expect(forRecipient.body.data.acceptanceActionExistForUser).toBe(true);
      expectErrorBody(await move(d.id, 'accept', h.tokens.manager), 403);
      const accepted = await move(d.id, 'accept', h.tokens.user);
      expect(accepted.body.data).toMatchObject({ status: 'ACCEPTED', pendingStage: null, acceptedDate: expect.any(String) });
      const subjects = (await eventsOf(d.id)).map((e) => e.subject);
      expect(subjects).toEqual([
        'evt.decision.delegation.issued',
        'evt.decision.delegation.pending',
        'evt.decision.delegation.updated',
        'evt.decision.delegation.pending',
        'evt.decision.delegation.updated',
        'evt.decision.delegation.accepted',
      ]);
    });

    it('an approver may deny (REJECTED), and a recipient may reject what waits for them', async () => {
      const denied = await issue({ ...to(user), delegationAuthorities: [approvalLimit(h, '100')] });
      expect((await move(denied.id, 'deny', h.tokens.manager)).body.data.status).toBe('REJECTED');
      expectErrorBody(await move(denied.id, 'approve', h.tokens.manager), 409);
      const rejected = await issue({ ...to(user), delegationAuthorities: [approvalLimit(h, '100')] });
      await move(rejected.id, 'approve', h.tokens.manager);
      expect((await move(rejected.id, 'reject', h.tokens.user)).body.data.status).toBe('REJECTED');
      expect((await move(rejected.id, 'archive')).body.data.status).toBe('ARCHIVED');
      expect((await eventsOf(rejected.id)).map((e) => e.subject)).toContain('evt.decision.delegation.rejected');
    });
  });

  it('expiration: the sweep moves ISSUED and ACCEPTED delegations past their date to EXPIRED, each once even with two sweeps at a time', async () => {
    const at = new Date(Date.now() + 1500).toISOString();
    const root = await issue({ ...to(manager), delegationPathway: ['Matrix'], expirationDate: at, delegationAuthorities: [approvalLimit(h, '100', { redelegable: true })] });
    const child = await issue({ parentDelegationId: root.id, ...to(user), delegationPathway: ['Matrix'], expirationDate: at, delegationAuthorities: [approvalLimit(h, '50')] }, h.tokens.manager);
    const later = await issue({ ...to(manager), expirationDate: new Date(Date.now() + 3_600_000).toISOString(), delegationAuthorities: [approvalLimit(h, '100')] });
    const tooLate = await post({ decisionId, parentDelegationId: root.id, ...to(user), delegationPathway: ['Matrix'], expirationDate: new Date(Date.parse(at) + 1).toISOString(), delegationAuthorities: [approvalLimit(h, '50')] }, h.tokens.manager);
    expectErrorBody(tooLate, 400);
    expect(JSON.stringify(tooLate.body)).toContain('expirationDate');
    await until(() => Date.now() > Date.parse(at) + 50, 'the expiration date to pass', 5_000);
    const sweep = h.svc.app.get(ExpirySweep);
    const [a, b] = await Promise.all([sweep.sweep(), sweep.sweep()]);
    expect(a + b).toBeGreaterThanOrEqual(2);
    for (const id of [root.id, child.id]) {
      expect((await h.svc.http.get(`${DELEGATIONS}/${id}`, { token: h.tokens.admin })).body.data.status).toBe('EXPIRED');
      expect((await eventsOf(id)).filter((e) => e.subject === 'evt.decision.delegation.expired')).toHaveLength(1);
    }
    expect((await h.svc.http.get(`${DELEGATIONS}/${later.id}`, { token: h.tokens.admin })).body.data.status).toBe('ISSUED');
    expect(await sweep.sweep()).toBe(0);
    expectErrorBody(await move(root.id, 'resume'), 409);
  });

  it("lists the tenant's delegations with filters; another tenant's id is a 404", async () => {
    const all = await h.svc.http.get(`${DELEGATIONS}?decisionIds=${decisionId}&limit=100`, { token: h.tokens.admin });
    expect(all.status).toBe(200);
    const items = all.body.data.data as { id: string; parentDelegationId: string | null; recipientUserId: string; status: string }[];
    expect(all.body.data.total).toBe(items.length);
    const roots = await h.svc.http.get(`${DELEGATIONS}?decisionIds=${decisionId}&rootOnly=true&limit=100`, { token: h.tokens.admin });
    expect(roots.body.data.data.map((d: { id: string }) => d.id).sort()).toEqual(items.filter((d) => d.parentDelegationId === null).map((d) => d.id).sort());
    const mine = await h.svc.http.post(`${DELEGATIONS}/global-search`, { token: h.tokens.admin, body: { decisionIds: [decisionId], recipientUserIds: [user], status: ['REVOKED'], limit: 100 } });
    expect(mine.status).toBe(200);
    expect(mine.body.data.data.every((d: { recipientUserId: string; status: string }) => d.recipientUserId === user && d.status === 'REVOKED')).toBe(true);
    expect(mine.body.data.total).toBeGreaterThan(0);
    expectErrorBody(await h.svc.http.get(`${DELEGATIONS}/${items[0].id}`, { token: h.tokens.otherAdmin }), 404);
    expectErrorBody(await h.svc.http.get(`${DELEGATIONS}?sortBy=nope`, { token: h.tokens.admin }), 400);
  });

  it("searches by the decision's name in any case or by the display id, every status filter kept, and by group; another tenant's search finds none of them", async () => {
    type Item = { id: string; decisionId: string; delegationDisplayId: string; status: string; delegationGroups: { groupId: string }[] };
    const STATUSES = ['ISSUED', 'ACCEPTED', 'REVOKED', 'SUSPENDED', 'EXPIRED', 'PENDING', 'REJECTED', 'DRAFT'];
    const search = async (body: object, token = h.tokens.admin) => {
      const res = await h.svc.http.post(`${DELEGATIONS}/global-search`, { token, body: { status: STATUSES, limit: 100, ...body } });
      expect(res.status).toBe(200);
      return { items: res.body.data.data as Item[], total: res.body.data.total as number };
    };
    const everything = (await search({ decisionIds: [decisionId] })).items;
    expect(everything.length).toBeGreaterThan(3);
    const ids = (items: Item[]) => items.map((d) => d.id).sort();
    // The decision's name, any case, part of it: every delegation of the decision (and of no decision not so named).
    const byName = await search({ search: 'PURCHASE ORDERS (DELEGATIONS' });
    expect(ids(byName.items)).toEqual(ids(everything));
    expect(byName.total).toBe(everything.length);
    // A display id: that delegation, and only ones whose display id or decision name hold the term.
    const one = everything[everything.length - 1];
    const byDisplayId = await search({ search: one.delegationDisplayId });
    expect(byDisplayId.items.map((d) => d.id)).toContain(one.id);
    expect(byDisplayId.items.every((d) => d.delegationDisplayId.includes(one.delegationDisplayId))).toBe(true);
    // Kept with the other filters: one status only; the list's query string too.
    const revoked = await search({ search: 'purchase orders (delegations', status: ['REVOKED'] });
    expect(ids(revoked.items)).toEqual(ids(everything.filter((d) => d.status === 'REVOKED')));
    const viaGet = await h.svc.http.get(`${DELEGATIONS}?search=${encodeURIComponent('Orders (Delegations spec')}&status=${STATUSES.join(',')}&limit=100`, { token: h.tokens.admin });
    expect(viaGet.body.data.total).toBe(everything.length);
    // LIKE's own characters are the term's: none matches everything.
    expect((await search({ search: '%' })).total).toBe(0);
    expect((await search({ search: '_' })).total).toBe(0);
    // Scoped to a group: through the group index's function, the same as the groups the views show.
    const finance = h.refs.groups.get('Finance')!;
    const inFinance = await search({ decisionIds: [decisionId], groupIds: [finance] });
    expect(inFinance.total).toBeGreaterThan(0);
    expect(ids(inFinance.items)).toEqual(ids(everything.filter((d) => d.delegationGroups.some((g) => g.groupId === finance))));
    expect(ids((await search({ search: 'purchase orders (delegations', groupIds: [finance] })).items)).toEqual(ids(inFinance.items));
    // Another tenant searching the same name finds none of this tenant's.
    expect((await search({ search: 'purchase orders (delegations' }, h.tokens.otherAdmin)).total).toBe(0);
  });

  it('filters by issuer type, pathway, redelegable, limit range, issue and expiration dates, invalid fields; sorts by limit; select', async () => {
    type Item = { id: string; issuerType: string; delegationPathway: string[]; delegationAuthorities: { authorityLimitValue: string; redelegable: boolean }[]; issuedDate: string | null; expirationDate: string | null };
    const search = async (body: object) => {
      const res = await h.svc.http.post(`${DELEGATIONS}/global-search`, { token: h.tokens.admin, body: { decisionIds: [decisionId], status: ['ISSUED', 'ACCEPTED', 'REVOKED', 'SUSPENDED', 'EXPIRED', 'PENDING', 'REJECTED', 'DRAFT'], limit: 100, ...body } });
      expect(res.status).toBe(200);
      return res.body.data.data as Item[];
    };
    const everything = await search({});
    expect(everything.length).toBeGreaterThan(3);
    const roots = await search({ issuerType: ['ROOT_AUTHORITY'] });
    expect(roots.map((d) => d.id).sort()).toEqual(everything.filter((d) => d.issuerType === 'ROOT_AUTHORITY').map((d) => d.id).sort());
    expect((await search({ delegationPathway: ['Down-Line'] })).map((d) => d.id).sort()).toEqual(everything.filter((d) => d.delegationPathway.includes('Down-Line')).map((d) => d.id).sort());
    const handOn = (d: Item) => d.delegationAuthorities.some((a) => a.redelegable);
    expect((await search({ redelegable: true })).map((d) => d.id).sort()).toEqual(everything.filter(handOn).map((d) => d.id).sort());
    expect((await search({ redelegable: false })).map((d) => d.id).sort()).toEqual(everything.filter((d) => !handOn(d)).map((d) => d.id).sort());
    const inRange = (d: Item) => d.delegationAuthorities.some((a) => Number(a.authorityLimitValue) >= 1000 && Number(a.authorityLimitValue) <= 5000);
    const ranged = await search({ authorityLimitValueFilters: [{ authorityLimitValueType: 'Currency', minValue: '1000', maxValue: '5000' }] });
    expect(ranged.length).toBeGreaterThan(0);
    expect(ranged.map((d) => d.id).sort()).toEqual(everything.filter(inRange).map((d) => d.id).sort());
    const q = encodeURIComponent(JSON.stringify([{ authorityLimitValueType: 'Currency', minValue: '1000', maxValue: '5000' }]));
    const viaGet = await h.svc.http.get(`${DELEGATIONS}?decisionIds=${decisionId}&status=ISSUED,ACCEPTED,REVOKED,SUSPENDED,EXPIRED,PENDING,REJECTED,DRAFT&limit=100&authorityLimitValueFilters=${q}`, { token: h.tokens.admin });
    expect(viaGet.body.data.total).toBe(ranged.length);
    const issued = everything.filter((d) => d.issuedDate).map((d) => d.issuedDate!).sort();
    const from = issued[Math.floor(issued.length / 2)];
    expect((await search({ issuedDateStart: from })).map((d) => d.id).sort()).toEqual(everything.filter((d) => d.issuedDate && d.issuedDate >= from).map((d) => d.id).sort());
    expect((await search({ issuedDateEnd: from })).map((d) => d.id).sort()).toEqual(everything.filter((d) => d.issuedDate && d.issuedDate <= from).map((d) => d.id).sort());
    const expiring = everything.filter((d) => d.expirationDate);
    expect((await search({ expirationDateStart: '2000-01-01T00:00:00.000Z' })).length).toBe(expiring.length);
    expect(await search({ invalidFields: ['Groups'] })).toEqual([]);
    const byLimit = await search({ sortBy: 'authorityLimitValue', sortOrder: 'desc' });
    const values = byLimit.map((d) => Number(d.delegationAuthorities[0].authorityLimitValue));
    expect(values).toEqual([...values].sort((a, b) => b - a));
    const slim = await h.svc.http.get(`${DELEGATIONS}?decisionIds=${decisionId}&select=id,status&limit=1`, { token: h.tokens.admin });
    expect(Object.keys(slim.body.data.data[0]).sort()).toEqual(['id', 'status']);
    expectErrorBody(await h.svc.http.get(`${DELEGATIONS}?select=nope`, { token: h.tokens.admin }), 400);
    expectErrorBody(await h.svc.http.get(`${DELEGATIONS}?issuerType=KING`, { token: h.tokens.admin }), 400);
    expectErrorBody(await h.svc.http.post(`${DELEGATIONS}/global-search`, { token: h.tokens.admin, body: { authorityLimitValueFilters: [{ authorityLimitValueType: 'Currency', minValue: 'lots' }] } }), 400);
  });

  it("counts the decision's live delegations, and deleting a decision that has some is a 409 saying to revoke them first", async () => {
    const decision = await h.svc.http.get(`/decision/v1/decisions/${decisionId}`, { token: h.tokens.admin });
    const live = await h.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM decision.delegations WHERE decision_id = $1 AND status IN ('DRAFT', 'PENDING', 'ISSUED', 'ACCEPTED', 'SUSPENDED')`,
      [decisionId],
    );
    expect(live[0].n).toBeGreaterThan(0);
    expect(decision.body.data.delegations).toBe(live[0].n);
    const res = await h.svc.http.delete(`/decision/v1/decisions/${decisionId}`, { token: h.tokens.admin });
    expectErrorBody(res, 409);
    expect(res.body.message).toMatch(/Revoke the live delegations/);
  });
});
