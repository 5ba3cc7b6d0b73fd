import {
  RunningProcess,
  apiClient,
  TestDatabase,
  TestNamespace,
  createTestDatabase,
  createTestNamespace,
  expectErrorBody,
  freePort,
  httpClient,
  mintToken,
  runSeed,
  spawnBuilt,
  testEnv,
  tokenFor,
} from '@ddm/testing';

/**
 * Revocation across services, through the gateway: after a role loses a key, the very next
 * request of a user holding that role to another service is a 403, and records there show the
 * key with allowed: false. The other service is a stand-in mounted as the decision area.
 */
describe('system: a revoked key stops working at once in another service', () => {
  let dbx: TestDatabase;
  let ns: TestNamespace;
  let auth: RunningProcess;
  let probe: RunningProcess;
  let gateway: RunningProcess;
  let gw: ReturnType<typeof httpClient>;
  let tenantId: string;
  const admin = tokenFor('admin@demo.test');
  const viewer = mintToken('idp|viewer-1', { email: 'viewer@demo.test' });

  beforeAll(async () => {
    dbx = await createTestDatabase();
    ns = createTestNamespace();
    const env = testEnv(dbx, ns, { LOG_LEVEL: 'warn', DB_POOL_SIZE: '3' });
    [auth, probe] = await Promise.all([
      spawnBuilt('apps/auth/src/main.js', { ...env, PORT: String(await freePort()) }),
      spawnBuilt('libs/platform/test/fixtures/probe-service.js', { ...env, PORT: String(await freePort()) }),
    ]);
    gateway = await spawnBuilt('apps/gateway/src/main.js', { AUTH_URL: auth.url, DECISION_URL: probe.url, LOG_LEVEL: 'warn', PORT: String(await freePort()) }, '/health/live');
    gw = httpClient(gateway.url);
    tenantId = runSeed(env).tenantId('Demo Co');
  }, 120_000);

  afterAll(async () => {
    await gateway?.stop();
    await Promise.all([auth?.stop(), probe?.stop()]);
    await dbx?.drop();
    await ns?.cleanup();
  });

  it('refuses the very next request after the role loses the key, and shows allowed: false', async () => {
    // The auth calls through the typed client (answers checked against docs/openapi.json); the probe is not part of the API.
    const api = apiClient(gateway.url, admin);
    const role = await api.POST('/auth/v1/tenants/{id}/roles', {
      params: { path: { id: tenantId } },
      body: { roleName: 'Decision Viewer', description: 'Sees decisions', relationshipMappings: [{ relationshipKeyName: 'view:decisions', isEnabled: true }] },
    });
    expect(role.response.status).toBe(200);
    const roleId = role.data!.data.id;
    const invited = await api.POST('/auth/v1/user/create', {
      body: { tenantId, email: 'viewer@demo.test', firstName: 'Vera', lastName: 'Viewer', roleIds: [roleId], inviteViaEmail: false },
    });
    expect(invited.response.status).toBe(200);

    // First sign-in links the identity; the probe service caches the caller with the key.
    const before = await gw.get('/decision/v1/__probe', { token: viewer });
    expect(before.status).toBe(200);
    expect(before.body.data.permissions).toEqual([
      { relationship_key: 'view:decisions', allowed: true },
      { relationship_key: 'edit:decisions', allowed: false },
    ]);
    expect((await gw.get('/decision/v1/__probe', { token: viewer })).status).toBe(200);

    const revoked = await api.PATCH('/auth/v1/tenants/{id}/roles/{roleId}', {
      params: { path: { id: tenantId, roleId } },
      body: { relationshipMappings: [{ relationshipKeyName: 'view:decisions', isEnabled: false }] },
    });
    expect(revoked.response.status).toBe(200);

    const after = await gw.get('/decision/v1/__probe', { token: viewer });
    expectErrorBody(after, 403, '/decision/v1/__probe');
    expect(after.body.message).toBe('Missing permission "view:decisions"');
    const record = await gw.get('/decision/v1/__probe/record', { token: viewer });
    expect(record.status).toBe(200);
    expect(record.body.data.permissions).toEqual([
      { relationship_key: 'view:decisions', allowed: false },
      { relationship_key: 'edit:decisions', allowed: false },
    ]);
  });
});
