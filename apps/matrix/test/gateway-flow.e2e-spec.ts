import { TestSystem, startTestSystem, tokenFor, until } from '@ddm/testing';
import { Pool } from 'pg';

/**
 * The matrix area with the areas it builds on, as separate processes behind the gateway: the seeded
 * matrices, and a delegation issued, suspended and revoked in the decision area changing the grid
 * (with its limit), the grid as of a date, and the external link answering without a token.
 */
describe('system: matrices behind the gateway, with auth, settings and decision, on events', () => {
  let system: TestSystem;
  let pool: Pool;
  let demoId: string;
  let userId: string;
  const admin = () => tokenFor('admin@demo.test');
  const user = () => tokenFor('user@demo.test');

  beforeAll(async () => {
    system = await startTestSystem({ areas: ['auth', 'settings', 'decision', 'matrix'], seed: ['matrix'] });
    pool = new Pool({ connectionString: system.db.url, max: 1 });
    const demo = system.seeded.tenants.find((t) => t.name === 'Demo Co')!;
    demoId = demo.id;
    userId = demo.users.find((u) => u.email === 'user@demo.test')!.id;
  }, 180_000);

  afterAll(async () => {
    await pool?.end();
    await system?.close();
  });

  it('serves the seeded matrices through the gateway: the Global User sees the Finance matrix shared with them, and its saved view', async () => {
    const res = await system.http.post('/matrix/v1/matrix/global-search', { token: user(), body: { select: 'id,matrixName,isUserSavedPersonalView' } });
    expect(res.status).toBe(200);
    expect(res.body.data.data).toEqual([{ id: expect.any(String), matrixName: 'Finance Authority Matrix', isUserSavedPersonalView: true }]);
    const counts = await system.http.post('/matrix/v1/matrix/status-counts', { token: admin(), body: {} });
    expect(counts.body.data).toEqual({ Active: 3, Draft: 1, Archived: 1, all: 5 });
  });

  it('a delegation issued, suspended and revoked in the decision area changes the grid; ?at= answers each state; the external link needs no token', async () => {
    const settings = await system.http.patch(`/auth/v1/tenants/${demoId}/settings`, { token: admin(), body: { delegationApprovalRequired: false, delegationAcceptanceRequired: false } });
    expect(settings.status).toBe(200);
    await until(async () => {
      const { rows } = await pool.query(`SELECT approval_required, acceptance_required FROM decision.tenant_settings_projection WHERE id = $1`, [demoId]);
      return rows[0]?.approval_required === false && rows[0]?.acceptance_required === false;
    }, 'the settings in the decision area', 20_000);

    const decision = (await system.http.get('/decision/v1/decisions?search=Approve%20purchase%20orders&limit=1', { token: admin() })).body.data.data[0];
    const authority = decision.decisionAuthorities.find((a: { authorityType: string }) => a.authorityType === 'Approval');
    const created = await system.http.post('/matrix/v1/matrix', {
      token: admin(),
      body: {
        matrixName: 'Purchase orders',
        matrixDecisions: [{ decisionId: decision.id }],
        userIds: [userId],
        matrixAuthorityFormatting: { valueAbbrevations: 'Abbreviated', displayCurrencyCode: 'Yes' },
        matrixExternalSharing: { isEnabled: true },
      },
    });
    expect(created.status).toBe(200);
    const matrix = created.body.data;
    const cellOf = async (qs = '') => {
      const res = await system.http.get(`/matrix/v1/matrix/${matrix.id}/grid${qs}`, { token: admin() });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe('deflate'); // fetch takes deflate; the gateway passes it through
      return res.body.data.rows[0].cells[0].delegations as { delegationId: string; status: string; formattedLimit: string; authorityType: string }[];
    };
    const seededHeld = (await cellOf()).map((e) => e.delegationId); // the seed's delegations to the user on this decision
    const before = new Date().toISOString();

    const issued = await system.http.post('/decision/v1/delegations', {
      token: admin(),
      body: {
        decisionId: decision.id,
        status: 'ISSUED',
        recipientType: 'SPECIFIC_PERSONNEL',
        delegationRecipients: [{ recipientUserId: userId }],
        delegationAuthorities: [{ authorityTypeId: authority.authorityTypeId, authorityLimit: 'Primary', authorityLimitValueType: 'Currency', authorityLimitOperator: '<=', authorityLimitValue: '250000', authorityLimitValueUnit: 'USD' }],
      },
    });
    expect(issued.status).toBe(200);
    const delegation = issued.body.data[0];
    expect(delegation.status).toBe('ISSUED');
    const ours = async (qs = '') => (await cellOf(qs)).filter((e) => e.delegationId === delegation.id);
    const held = await until(async () => {
      const cell = await ours();
      return cell.length > 0 && cell;
    }, 'the issued delegation in the grid', 20_000);
    expect(held).toContainEqual(expect.objectContaining({ status: 'ISSUED', formattedLimit: '<= 250K USD', authorityType: 'Approval' }));
    const whileIssued = new Date().toISOString();

    expect((await system.http.post(`/decision/v1/delegations/${delegation.id}/suspend`, { token: admin(), body: {} })).status).toBe(200);
    await until(async () => (await ours())[0]?.status === 'SUSPENDED', 'the suspension in the grid', 20_000);
    expect((await system.http.post(`/decision/v1/delegations/${delegation.id}/revoke`, { token: admin(), body: {} })).status).toBe(200);
    await until(async () => (await ours()).length === 0, 'the revocation in the grid', 20_000);
    expect((await cellOf()).map((e) => e.delegationId)).toEqual(seededHeld);

    expect(await ours(`?at=${encodeURIComponent(before)}`)).toEqual([]);
    expect([...new Set((await ours(`?at=${encodeURIComponent(whileIssued)}`)).map((e) => e.status))]).toEqual(['ISSUED']);

    const shared = await system.http.get(`/matrix/v1/shared/${matrix.matrixExternalSharing.token}?at=${encodeURIComponent(whileIssued)}`);
    expect(shared.status).toBe(200);
    expect(shared.body.data.grid.rows[0].cells[0].delegations.map((e: { delegationId: string }) => e.delegationId)).toContain(delegation.id);
    expect((await system.http.get(`/matrix/v1/matrix/${matrix.id}`)).status).toBe(401);
  });
});
