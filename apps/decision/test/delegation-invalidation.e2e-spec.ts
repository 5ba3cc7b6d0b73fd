import { HttpClient, httpClient, startHarness, until } from '@ddm/testing';
import { decisionApp, DecisionHarness } from './fixtures/decision-app';
import { approvalLimit } from './fixtures/limits';

const DELEGATIONS = '/decision/v1/delegations';

/**
 * Invalidation across services (auth and settings as their own processes, by their events): a
 * person leaving a position, a group deleted, a decision narrowed, a parent suspended. Nothing is
 * rewritten: the delegation is marked invalid with the fields it breaks, and marked valid again
 * when the break is mended.
 */
describe('delegation invalidation (e2e, auth and settings as child processes)', () => {
  let h: DecisionHarness;
  let auth: HttpClient;
  let settings: HttpClient;
  let decisionId: string;
  let user: string, manager: string;
  let positionId: string;

  const issue = async (body: object, token = h.tokens.admin) => {
    const res = await h.svc.http.post(DELEGATIONS, { token, body: { decisionId, status: 'ISSUED', ...body } });
    expect(res.status).toBe(200);
    return res.body.data[0] as { id: string };
  };
  const state = async (id: string) => (await h.svc.http.get(`${DELEGATIONS}/${id}`, { token: h.tokens.admin })).body.data as { isInvalid: boolean; invalidFields: string[] };
  const becomes = (id: string, want: { isInvalid: boolean; invalidFields: string[] }) =>
    until(async () => {
      const s = await state(id);
      return s.isInvalid === want.isInvalid && s.invalidFields.join() === want.invalidFields.join() && s;
    }, `delegation ${id} to be ${JSON.stringify(want)}`, 20_000);
  const setPositions = async (userId: string, positionIds: string[]) => {
    const res = await auth.patch(`/auth/v1/user/update-entities/${userId}`, { token: h.tokens.admin, body: { positionIds } });
    expect(res.status).toBe(200);
    await until(async () => {
      const [row] = await h.db.query<{ position_ids: string[] }>(`SELECT position_ids FROM decision.user_projection WHERE tenant_id = $1 AND id = $2`, [h.demo.id, userId]);
      return row && row.position_ids.slice().sort().join() === positionIds.slice().sort().join();
    }, "the user's positions to reach the decision area", 20_000);
  };

  beforeAll(async () => {
    h = await startHarness(decisionApp);
    auth = httpClient(h.processes.auth.url);
    settings = httpClient(h.processes.settings.url);
    [user, manager] = ['user', 'manager'].map((n) => h.refs.users.get(`${n}@demo.test`)!);
    const [p] = await h.db.query<{ id: string }>(`SELECT id FROM decision.position_projection WHERE tenant_id = $1 AND status = 'ACTIVE' AND NOT is_deleted ORDER BY position_name LIMIT 1`, [h.demo.id]);
    positionId = p.id;
    const res = await h.svc.http.post('/decision/v1/decisions', {
      token: h.tokens.admin,
      body: {
        name: 'Approve capital expenditure (invalidation spec)',
        status: 'PUBLISHED',
        delegationPathway: ['Matrix', 'Direct Line'],
        decisionGroups: [{ groupId: h.refs.groups.get('Finance') }, { groupId: h.refs.groups.get('Legal') }],
        decisionAuthorities: [approvalLimit(h, '1000000')],
      },
    });
    expect(res.status).toBe(200);
    decisionId = res.body.data.id;
  });
  afterAll(() => h?.close());

  it('a person removed from a position in auth marks their PERSONNEL_IN_POSITION delegation invalid (Recipient), and valid again when they are back', async () => {
    await setPositions(user, [positionId]);
    const d = await issue({ recipientType: 'PERSONNEL_IN_POSITION', delegationRecipients: [{ recipientUserId: user, recipientPositionId: positionId }], delegationAuthorities: [approvalLimit(h, '1000')] });
    expect(await state(d.id)).toMatchObject({ isInvalid: false, invalidFields: [] });

    await setPositions(user, []);
    await becomes(d.id, { isInvalid: true, invalidFields: ['Recipient'] });
    const notices = await h.db.query<{ subject: string; payload: { status: string; notifyUserIds: string[] } }>(
      `SELECT subject, payload FROM decision.outbox WHERE payload->>'delegationId' = $1 AND subject = 'evt.decision.delegation.invalidated'`,
      [d.id],
    );
    expect(notices).toHaveLength(1);
    expect(notices[0].payload.notifyUserIds).toContain(user);
    // Not rewritten: the recipient and the position are what was issued.
    expect(await state(d.id)).toMatchObject({ recipientUserId: user, recipientPositionId: positionId, status: 'ISSUED' });

    await setPositions(user, [positionId]);
    await becomes(d.id, { isInvalid: false, invalidFields: [] });
    // The history keeps each holding with its validity: held, left, held again.
    const holdings = await h.db.query<{ open: boolean }>(
      `SELECT valid_to IS NULL AS open FROM decision.position_holding_history WHERE tenant_id = $1 AND user_id = $2 AND position_id = $3 ORDER BY valid_from, id`,
      [h.demo.id, user, positionId],
    );
    expect(holdings.map((x) => x.open)).toEqual([false, true]);
    const listed = await h.svc.http.get(`${DELEGATIONS}?decisionIds=${decisionId}&isInvalid=true`, { token: h.tokens.admin });
    expect(listed.body.data.data.map((x: { id: string }) => x.id)).not.toContain(d.id);
  });

  it('a group deleted in settings marks the delegations scoped to it invalid (Groups)', async () => {
    const legal = h.refs.groups.get('Legal')!;
    const scoped = await issue({ recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], delegationGroups: [{ groupId: legal }], delegationAuthorities: [approvalLimit(h, '1000')] });
    const other = await issue({ recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], delegationGroups: [{ groupId: h.refs.groups.get('Finance') }], delegationAuthorities: [approvalLimit(h, '1000')] });
    const res = await settings.patch(`/settings/v1/groups/${legal}`, { token: h.tokens.admin, body: { isDeleted: true, disableOption: 'NA' } });
    expect(res.status).toBe(200);
    await becomes(scoped.id, { isInvalid: true, invalidFields: ['Groups'] });
    expect(await state(other.id)).toMatchObject({ isInvalid: false });
    const alerts = await h.svc.http.get(`${DELEGATIONS}?decisionIds=${decisionId}&isInvalid=true`, { token: h.tokens.admin });
    expect(alerts.body.data.data.map((x: { id: string }) => x.id)).toContain(scoped.id);
  });

  it("narrowing the decision's limit marks the delegations above it invalid (Authority) in the PATCH's transaction", async () => {
    const big = await issue({ recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], delegationAuthorities: [approvalLimit(h, '900000')] });
    const small = await issue({ recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], delegationAuthorities: [approvalLimit(h, '10')] });
    const res = await h.svc.http.patch(`/decision/v1/decisions/${decisionId}`, { token: h.tokens.admin, body: { decisionAuthorities: [approvalLimit(h, '500000')] } });
    expect(res.status).toBe(200);
    expect(await state(big.id)).toMatchObject({ isInvalid: true, invalidFields: ['Authority'] });
    expect(await state(small.id)).toMatchObject({ isInvalid: false });
  });

  it('suspending a parent marks its children invalid (Parent); resuming it mends them', async () => {
    const root = await issue({ recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: manager }], delegationPathway: ['Direct Line'], delegationAuthorities: [approvalLimit(h, '5000', { redelegable: true })] });
    const child = await issue({ parentDelegationId: root.id, recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: user }], delegationPathway: ['Direct Line'], delegationAuthorities: [approvalLimit(h, '100')] }, h.tokens.manager);
    expect((await h.svc.http.post(`${DELEGATIONS}/${root.id}/suspend`, { token: h.tokens.admin, body: {} })).status).toBe(200);
    expect(await state(child.id)).toMatchObject({ isInvalid: true, invalidFields: ['Parent'] });
    expect((await h.svc.http.post(`${DELEGATIONS}/${root.id}/resume`, { token: h.tokens.admin, body: {} })).status).toBe(200);
    expect(await state(child.id)).toMatchObject({ isInvalid: false, invalidFields: [] });
  });
});
