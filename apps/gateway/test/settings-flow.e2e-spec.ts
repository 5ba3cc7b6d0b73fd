import { randomUUID } from 'node:crypto';
import {
  ApiClient,
  NATS_URL,
  TestSystem,
  apiClient,
  startTestSystem,
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
  let system: TestSystem;
  /** The API as a client sees it, calling as Demo Co's System Admin (answers checked against docs/openapi.json). */
  let api: ApiClient;
  let nc: NatsConnection;
  let tenantId: string;
  let userId: string;

  beforeAll(async () => {
    system = await startTestSystem({ areas: ['auth', 'settings'], seed: ['settings'] });
    api = apiClient(system.gateway.url, tokenFor('admin@demo.test'));
    tenantId = system.seeded.tenantId('Demo Co');
    userId = system.seeded.tenants.find((t) => t.name === 'Demo Co')!.users.find((u) => u.email === 'user@demo.test')!.id;
    nc = await connect({ servers: NATS_URL });
  }, 120_000);

  afterAll(async () => {
    await nc?.close();
    await system?.close();
  });

  it("lists the spec's six settings operations in the merged OpenAPI document: status 200, bearer accessToken, fields deprecated", async () => {
    const doc = (await system.http.get('/docs-json')).body;
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
    const groups = await api.GET('/settings/v1/groups', { params: { query: { limit: 100 } } });
    expect(groups.response.status).toBe(200);
    expect(groups.data!.data.total).toBeGreaterThanOrEqual(10);
    type G = { id: string; parentGroups: { parentId: string }[] };
    const byId = new Map<string, G>((groups.data!.data.data as G[]).map((g) => [g.id, g]));
    const depth = (g: G): number => 1 + Math.max(0, ...g.parentGroups.map((p) => depth(byId.get(p.parentId)!)));
    expect(Math.max(...[...byId.values()].map(depth))).toBeGreaterThanOrEqual(3);

    const positions = await api.GET('/settings/v1/positions', { params: { query: { limit: 100 } } });
    expect(positions.data!.data.total).toBeGreaterThanOrEqual(20);
    expect(positions.data!.data.data.every((p) => (p.groups ?? []).length > 0)).toBe(true);
    const roles = await api.GET('/settings/v1/decision-roles', { params: { query: { limit: 100 } } });
    expect(roles.data!.data.total).toBe(5);
  });

  it('a position made in settings reaches auth by its event: given to a user, renamed, deleted', async () => {
    const [group] = (await api.GET('/settings/v1/groups', { params: { query: { search: 'Finance' } } })).data!.data.data;
    const created = await api.POST('/settings/v1/positions', { body: { tenantId, positionName: 'Flow Controller', groupIds: [group.id] } });
    expect(created.response.status).toBe(200);
    const positionId = created.data!.data.id;

    // Auth accepts the position once its projection holds it (it refuses ids it does not know).
    await until(async () => {
      const res = await api.PATCH('/auth/v1/user/update-entities/{id}', { params: { path: { id: userId } }, body: { positionIds: [positionId] } });
      return res.response.status === 200;
    }, 'auth to know the new position');
    const positionsOfUser = async () => (await api.GET('/auth/v1/user/{id}', { params: { path: { id: userId } } })).data!.data.userPositions;
    expect(await positionsOfUser()).toEqual([expect.objectContaining({ positionsId: positionId, positionName: 'Flow Controller' })]);

    const renamed = await api.PATCH('/settings/v1/positions/{id}', { params: { path: { id: positionId } }, body: { positionName: 'Flow Controller (EU)' } });
    expect(renamed.response.status).toBe(200);
    await until(async () => (await positionsOfUser())[0]?.positionName === 'Flow Controller (EU)', 'the rename to reach auth');

    const deleted = await api.DELETE('/settings/v1/positions', { body: { ids: [positionId] } });
    expect(deleted.response.status).toBe(200);
    await until(async () => (await positionsOfUser()).length === 0, 'the deleted position to leave the user');
  });

  it("the decision area's delegation events move the counts of settings and of auth", async () => {
    const [position] = (await api.GET('/settings/v1/positions', { params: { query: { limit: 1, sortBy: 'positionName' } } })).data!.data.data;
    const [group] = (await api.GET('/settings/v1/groups', { params: { query: { search: 'Legal' } } })).data!.data.data;
    const positionCounts = async () => (await api.GET('/settings/v1/positions/{id}', { params: { path: { id: position.id! } } })).data!.data;
    const groupCounts = async () => (await api.GET('/settings/v1/groups/{id}', { params: { path: { id: group.id } } })).data!.data;
    const userCounts = async () => (await api.GET('/auth/v1/user/{id}', { params: { path: { id: userId } } })).data!.data;
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
    await js.publish(system.ns.subjects.wire('evt.decision.delegation.issued'), codec.encode(delegation), { msgID: randomUUID() });

    await until(async () => (await positionCounts()).delegationsReceived === 1, 'settings to count the delegation');
    expect(await groupCounts()).toMatchObject({ delegationsCount: 1, decisionsCount: 1 });
    const filtered = await api.GET('/settings/v1/positions', { params: { query: { delegationIssuerType: 'ROOT_AUTHORITY', delegationPathway: ['Functional'] } } });
    expect(filtered.data!.data.data.map((p) => p.id)).toEqual([position.id]);
    await until(async () => (await userCounts()).delegationsReceived === 1, 'auth to count the delegation');

    await js.publish(system.ns.subjects.wire('evt.decision.delegation.revoked'), codec.encode(delegation), { msgID: randomUUID() });
    await until(async () => (await positionCounts()).delegationsReceived === 0, 'the revocation to count');
    expect(await groupCounts()).toMatchObject({ delegationsCount: 0, decisionsCount: 0 });
  });
});
