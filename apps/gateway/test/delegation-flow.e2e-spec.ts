import { HttpClient, TestSystem, runSeed, startTestSystem, tokenFor, until } from '@ddm/testing';

const DELEGATIONS = '/decision/v1/delegations';
const ALL_STATUSES = 'DRAFT,PENDING,ISSUED,ACCEPTED,REJECTED,SUSPENDED,REVOKED,EXPIRED,ARCHIVED';
interface Delegation {
  id: string;
  decisionId: string;
  parentDelegationId: string | null;
  depth: number;
  status: string;
  recipientType: string;
  recipientUserId: string | null;
  recipientPositionId: string | null;
  delegationPathway: string[];
  isInvalid: boolean;
  invalidFields: string[];
  sourceDecision: { name: string };
}
interface Position {
  id: string;
  positionName: string;
  delegationsReceived: number;
  delegationsIssued: number;
}

/**
 * Delegations across the areas, as separate processes behind the gateway: the seeded tree, changes
 * of people and structure in auth and settings invalidating delegations by events, and the settings
 * area's positions list following the delegations' events.
 */
describe('system: delegations behind the gateway, with settings and auth, on events', () => {
  let system: TestSystem;
  let http: HttpClient;
  const admin = tokenFor('admin@demo.test');
  let users: Map<string, string>;

  const delegations = async (query = '') => {
    const res = await http.get(`${DELEGATIONS}?limit=100&status=${ALL_STATUSES}${query}`, { token: admin });
    expect(res.status).toBe(200);
    return res.body.data.data as Delegation[];
  };
  const positions = async (query = '') => {
    const res = await http.get(`/settings/v1/positions?limit=100${query}`, { token: admin });
    expect(res.status).toBe(200);
    return res.body.data.data as Position[];
  };
  const positionNamed = async (name: string) => (await positions(`&search=${encodeURIComponent(name)}`)).find((p) => p.positionName === name)!;
  const get = async (id: string) => (await http.get(`${DELEGATIONS}/${id}`, { token: admin })).body.data as Delegation;

  beforeAll(async () => {
    system = await startTestSystem({ areas: ['auth', 'settings', 'decision'] });
    http = system.http;
    users = new Map(system.seeded.tenants.find((t) => t.name === 'Demo Co')!.users.map((u) => [u.email, u.id]));
  }, 180_000);

  afterAll(async () => {
    await system?.close();
  });

  it("seeds Demo Co's tree: the Finance decisions to the CFO's position, handed down two levels along Direct Line and Functional, one suspended, one expired, one invalid", async () => {
    const all = await delegations();
    const cfo = await positionNamed('Chief Financial Officer');
    const roots = all.filter((d) => d.parentDelegationId === null);
    expect(roots.length).toBeGreaterThanOrEqual(6);
    expect(roots.every((d) => d.recipientType === 'POSITION_ONLY' && d.recipientPositionId === cfo.id)).toBe(true);
    expect(Math.max(...all.map((d) => d.depth))).toBe(2);
    const redelegations = all.filter((d) => d.parentDelegationId !== null);
    expect(new Set(redelegations.flatMap((d) => d.delegationPathway))).toEqual(new Set(['Direct Line', 'Functional']));
    expect(all.filter((d) => d.status === 'SUSPENDED')).toHaveLength(1);
    expect(all.filter((d) => d.status === 'EXPIRED')).toHaveLength(1);
    const invalid = all.filter((d) => d.isInvalid);
    expect(invalid).toHaveLength(1);
    expect(invalid[0]).toMatchObject({ recipientType: 'PERSONNEL_IN_POSITION', recipientUserId: users.get('staff02@demo.test'), invalidFields: ['Recipient'] });
    expect(invalid[0].recipientPositionId).toBe((await positionNamed('Treasurer')).id);

    // The seed runs again without making anything twice or mending what the organisation broke.
    runSeed(system.env);
    const again = await delegations();
    expect(again.length).toBe(all.length);
    expect(again.filter((d) => d.isInvalid).map((d) => d.id)).toEqual(invalid.map((d) => d.id));
  }, 120_000);

  it("the positions list counts each position's live delegations and filters by them, following the delegations' events", async () => {
    const all = await delegations();
    const live = all.filter((d) => !['REVOKED', 'REJECTED', 'EXPIRED', 'ARCHIVED', 'DELETED', 'DRAFT'].includes(d.status));
    const europe = await positionNamed('Financial Controller Europe');
    const received = (p: Position) => live.filter((d) => d.recipientPositionId === p.id).length;
    await until(async () => (await positionNamed('Financial Controller Europe')).delegationsReceived === received(europe), "the settings area's counts to follow the seed", 20_000);
    const cfo = await positionNamed('Chief Financial Officer');
    expect(cfo.delegationsReceived).toBe(received(cfo));
    expect(cfo.delegationsIssued).toBe(live.filter((d) => d.parentDelegationId !== null && all.find((p) => p.id === d.parentDelegationId)?.recipientPositionId === cfo.id).length);
    const functional = await positions('&delegationPathway=Functional');
    expect(functional.map((p) => p.positionName).sort()).toEqual(['Chief Financial Officer', 'Financial Controller North America', 'Treasurer']);

    // Revoking the Europe controller's delegations (their subtrees with them) through the gateway: the counts follow.
    const ap = await positionNamed('Accounts Payable Lead');
    await until(async () => (await positionNamed('Accounts Payable Lead')).delegationsReceived === received(ap), "the Accounts Payable Lead's count", 20_000);
    expect(received(ap)).toBeGreaterThan(0);
    const ofEurope = live.filter((d) => d.recipientPositionId === europe.id);
    for (const d of ofEurope) expect((await http.post(`${DELEGATIONS}/${d.id}/revoke`, { token: admin, body: {} })).status).toBe(200);
    await until(async () => (await positionNamed('Financial Controller Europe')).delegationsReceived === 0 && (await positionNamed('Accounts Payable Lead')).delegationsReceived === 0, 'the revocations to reach settings', 20_000);
  }, 60_000);

  it('a person removed from a position in auth marks their PERSONNEL_IN_POSITION delegations invalid (Recipient), through the gateway', async () => {
    const controller = users.get('user@demo.test')!;
    const na = await positionNamed('Financial Controller North America');
    const theirs = (await delegations(`&recipientUserIds=${controller}`)).filter((d) => d.status === 'ISSUED');
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.every((d) => !d.isInvalid && d.recipientPositionId === na.id)).toBe(true);
    const res = await http.patch(`/auth/v1/user/update-entities/${controller}`, { token: admin, body: { positionIds: [] } });
    expect(res.status).toBe(200);
    for (const d of theirs) await until(async () => (await get(d.id)).invalidFields.join() === 'Recipient', `delegation ${d.id} to be marked invalid`, 20_000);
    // Below them, the Treasurer's (invalid already, Recipient) now also breaks Parent and Issuer.
    const below = (await delegations()).filter((d) => theirs.some((t) => t.id === d.parentDelegationId));
    for (const d of below) await until(async () => (await get(d.id)).invalidFields.includes('Parent'), `delegation ${d.id} below to break Parent`, 20_000);
    const alerts = await http.get(`${DELEGATIONS}?isInvalid=true&invalidFields=Recipient&limit=100`, { token: admin });
    expect(alerts.body.data.data.map((d: Delegation) => d.id)).toEqual(expect.arrayContaining(theirs.map((d) => d.id)));
  }, 60_000);

  it('a group deleted in settings marks the delegations scoped to it invalid (Groups), through the gateway', async () => {
    const types = await http.get('/settings/v1/group-types?limit=1', { token: admin });
    const group = await http.post('/settings/v1/groups', { token: admin, body: { groupName: 'Delegation Flow Team', tenantGroupTypeId: types.body.data.data[0].id } });
    expect(group.status).toBe(200);
    const groupId = group.body.data.id as string;
    const approval = (await http.get('/settings/v1/authority-types?limit=100', { token: admin })).body.data.data.find((t: { authorityType: string }) => t.authorityType === 'Approval');
    // The decision area knows the group once settings' event arrives.
    const decision = await until(async () => {
      const res = await http.post('/decision/v1/decisions', {
        token: admin,
        body: {
          name: 'Approve team spend (delegation flow)',
          status: 'PUBLISHED',
          delegationPathway: ['Matrix'],
          decisionGroups: [{ groupId }],
          decisionAuthorities: [{ authorityTypeId: approval.id, authorityLimit: 'Primary', authorityLimitValueType: 'Currency', authorityLimitOperator: '<=', authorityLimitValue: '5000', authorityLimitValueUnit: 'USD' }],
        },
      });
      return res.status === 200 && (res.body.data.id as string);
    }, 'the group to reach the decision area', 20_000);
    const issued = await http.post(DELEGATIONS, {
      token: admin,
      body: {
        decisionId: decision,
        status: 'ISSUED',
        recipientType: 'SPECIFIC_PERSONNEL',
        delegationRecipients: [{ recipientUserId: users.get('auditor@demo.test') }],
        delegationPathway: ['Matrix'],
        delegationGroups: [{ groupId }],
        delegationAuthorities: [{ authorityTypeId: approval.id, authorityLimit: 'Primary', authorityLimitValueType: 'Currency', authorityLimitOperator: '<=', authorityLimitValue: '1000', authorityLimitValueUnit: 'USD' }],
      },
    });
    expect(issued.status).toBe(200);
    const id = issued.body.data[0].id as string;
    expect((await get(id)).isInvalid).toBe(false);
    expect((await http.patch(`/settings/v1/groups/${groupId}`, { token: admin, body: { isDeleted: true, disableOption: 'NA' } })).status).toBe(200);
    await until(async () => (await get(id)).invalidFields.join() === 'Groups', 'the delegation to be marked invalid (Groups)', 20_000);
  }, 60_000);
});
