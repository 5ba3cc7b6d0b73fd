import { randomUUID } from 'node:crypto';
import {
  NATS_URL,
  RunningProcess,
  TestDatabase,
  TestNamespace,
  createTestDatabase,
  createTestNamespace,
  freePort,
  httpClient,
  runSeed,
  spawnBuilt,
  testEnv,
  tokenFor,
  until,
} from '@ddm/testing';
import { JSONCodec, NatsConnection, connect } from 'nats';

/**
 * The settings area with the areas around it, as separate processes behind the gateway: the
 * seeded structure, and the flows that cross services on events — a position made in settings
 * is given to a user in auth (auth's projection knows it by name, follows a rename and a delete),
 * and the decision area's delegation events move the counts in both areas.
 */
describe('system: settings behind the gateway, with auth, on events', () => {
  let dbx: TestDatabase;
  let ns: TestNamespace;
  let auth: RunningProcess;
  let settings: RunningProcess;
  let gateway: RunningProcess;
  let gw: ReturnType<typeof httpClient>;
  let nc: NatsConnection;
  let tenantId: string;
  let userId: string;
  const admin = tokenFor('admin@demo.test');

  beforeAll(async () => {
    dbx = await createTestDatabase();
    ns = createTestNamespace();
    const env = testEnv(dbx, ns, { LOG_LEVEL: 'warn', DB_POOL_SIZE: '3' });
    [auth, settings] = await Promise.all([
      spawnBuilt('apps/auth/src/main.js', { ...env, PORT: String(await freePort()) }),
      spawnBuilt('apps/settings/src/main.js', { ...env, PORT: String(await freePort()) }),
    ]);
    gateway = await spawnBuilt('apps/gateway/src/main.js', { AUTH_URL: auth.url, SETTINGS_URL: settings.url, LOG_LEVEL: 'warn', PORT: String(await freePort()) }, '/health/live');
    gw = httpClient(gateway.url);
    const seeded = runSeed(env);
    tenantId = seeded.tenantId('Demo Co');
    userId = seeded.tenants.find((t) => t.name === 'Demo Co')!.users.find((u) => u.email === 'user@demo.test')!.id;
    nc = await connect({ servers: NATS_URL });
  }, 120_000);

  afterAll(async () => {
    await nc?.close();
    await gateway?.stop();
    await Promise.all([auth?.stop(), settings?.stop()]);
    await dbx?.drop();
    await ns?.cleanup();
  });

  it("lists the spec's six settings operations in the merged OpenAPI document: status 200, bearer accessToken, fields deprecated", async () => {
    const doc = (await gw.get('/docs-json')).body;
    const operations: [string, string][] = [
      ['post', '/settings/v1/groups'],
      ['get', '/settings/v1/groups/{id}'],
      ['get', '/settings/v1/positions'],
      ['get', '/settings/v1/positions/{id}'],
      ['delete', '/settings/v1/positions'],
      ['patch', '/settings/v1/decision-roles/{id}'],
    ];
    for (const [method, path] of operations) {
      const op = doc.paths[path]?.[method];
      expect({ path, method, ok: Boolean(op?.responses?.['200']), security: op?.security }).toEqual({ path, method, ok: true, security: [{ accessToken: [] }] });
    }
    const params = doc.paths['/settings/v1/positions'].get.parameters as { name: string; deprecated?: boolean }[];
    expect(params.find((p) => p.name === 'fields')?.deprecated).toBe(true);
    expect(params.map((p) => p.name)).toEqual(expect.arrayContaining(['select', 'sourceType', 'pinnedPositionIds', 'delegationIssuerType', 'createdAtStart']));
  });

  it('serves the seeded structure: a three-level group hierarchy of at least 10 groups, 20 positions, 5 decision roles', async () => {
    const groups = await gw.get(`/settings/v1/groups?limit=100`, { token: admin });
    expect(groups.status).toBe(200);
    expect(groups.body.data.total).toBeGreaterThanOrEqual(10);
    type G = { id: string; parentGroups: { parentId: string }[] };
    const byId = new Map<string, G>((groups.body.data.data as G[]).map((g) => [g.id, g]));
    const depth = (g: G): number => 1 + Math.max(0, ...g.parentGroups.map((p) => depth(byId.get(p.parentId)!)));
    expect(Math.max(...[...byId.values()].map(depth))).toBeGreaterThanOrEqual(3);

    const positions = await gw.get(`/settings/v1/positions?limit=100`, { token: admin });
    expect(positions.body.data.total).toBeGreaterThanOrEqual(20);
    expect((positions.body.data.data as { groups: unknown[] }[]).every((p) => p.groups.length > 0)).toBe(true);
    const roles = await gw.get(`/settings/v1/decision-roles?limit=100`, { token: admin });
    expect(roles.body.data.total).toBe(5);
  });

  it('a position made in settings reaches auth by its event: given to a user, renamed, deleted', async () => {
    const [group] = (await gw.get(`/settings/v1/groups?search=Finance`, { token: admin })).body.data.data;
    const created = await gw.post('/settings/v1/positions', { token: admin, body: { tenantId, positionName: 'Flow Controller', groupIds: [group.id] } });
    expect(created.status).toBe(200);
    const positionId = created.body.data.id;

    // Auth accepts the position once its projection holds it (it refuses ids it does not know).
    await until(async () => {
      const res = await gw.patch(`/auth/v1/user/update-entities/${userId}`, { token: admin, body: { positionIds: [positionId] } });
      return res.status === 200;
    }, 'auth to know the new position');
    const positionsOfUser = async () => ((await gw.get(`/auth/v1/user/${userId}`, { token: admin })).body.data.userPositions as { positionsId: string; positionName: string }[]);
    expect(await positionsOfUser()).toEqual([expect.objectContaining({ positionsId: positionId, positionName: 'Flow Controller' })]);

    expect((await gw.patch(`/settings/v1/positions/${positionId}`, { token: admin, body: { positionName: 'Flow Controller (EU)' } })).status).toBe(200);
    await until(async () => (await positionsOfUser())[0]?.positionName === 'Flow Controller (EU)', 'the rename to reach auth');

    const deleted = await gw.delete('/settings/v1/positions', { token: admin, body: { ids: [positionId] } });
    expect(deleted.status).toBe(200);
    await until(async () => (await positionsOfUser()).length === 0, 'the deleted position to leave the user');
  });

  it("the decision area's delegation events move the counts of settings and of auth", async () => {
    const [position] = (await gw.get(`/settings/v1/positions?limit=1&sortBy=positionName`, { token: admin })).body.data.data;
    const [group] = (await gw.get(`/settings/v1/groups?search=Legal`, { token: admin })).body.data.data;
    const codec = JSONCodec();
    const delegation = {
      tenantId,
      delegationId: randomUUID(),
      decisionId: randomUUID(),
      issuerType: 'ROOT_AUTHORITY',
      issuerUserId: null,
      issuerPositionId: null,
      recipientType: 'PERSONNEL_IN_POSITION',
      recipientUserId: userId,
      recipientPositionId: position.id,
      pathways: ['Functional'],
      groupIds: [group.id],
    };
    const js = nc.jetstream();
    await js.publish(ns.subjects.wire('evt.decision.delegation.issued'), codec.encode(delegation), { msgID: randomUUID() });

    await until(async () => (await gw.get(`/settings/v1/positions/${position.id}`, { token: admin })).body.data.delegationsReceived === 1, 'settings to count the delegation');
    expect((await gw.get(`/settings/v1/groups/${group.id}`, { token: admin })).body.data).toMatchObject({ delegationsCount: 1, decisionsCount: 1 });
    const filtered = await gw.get(`/settings/v1/positions?delegationIssuerType=ROOT_AUTHORITY&delegationPathway=Functional`, { token: admin });
    expect(filtered.body.data.data.map((p: { id: string }) => p.id)).toEqual([position.id]);
    await until(async () => (await gw.get(`/auth/v1/user/${userId}`, { token: admin })).body.data.delegationsReceived === 1, 'auth to count the delegation');

    await js.publish(ns.subjects.wire('evt.decision.delegation.revoked'), codec.encode(delegation), { msgID: randomUUID() });
    await until(async () => (await gw.get(`/settings/v1/positions/${position.id}`, { token: admin })).body.data.delegationsReceived === 0, 'the revocation to count');
    expect((await gw.get(`/settings/v1/groups/${group.id}`, { token: admin })).body.data).toMatchObject({ delegationsCount: 0, decisionsCount: 0 });
  });
});
