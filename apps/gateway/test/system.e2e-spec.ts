import { AREAS, ROUTES } from '@ddm/contracts';
import {
  RunningProcess,
  TestDatabase,
  TestNamespace,
  createTestDatabase,
  createTestNamespace,
  expectErrorBody,
  freePort,
  httpClient,
  runSeed,
  spawnBuilt,
  testEnv,
  tokenFor,
} from '@ddm/testing';

/**
 * The whole system as `npm start` runs it: the seven built services and the gateway as separate
 * processes, on one database and one NATS namespace; requests go through the gateway.
 */
describe('system: seven services behind the gateway', () => {
  let dbx: TestDatabase;
  let ns: TestNamespace;
  const services = new Map<string, RunningProcess>();
  let gateway: RunningProcess;
  let gw: ReturnType<typeof httpClient>;
  let tenantId: string;
  let otherTenantId: string;

  beforeAll(async () => {
    dbx = await createTestDatabase();
    ns = createTestNamespace();
    const env = testEnv(dbx, ns, { LOG_LEVEL: 'warn', DB_POOL_SIZE: '3' });
    const started = await Promise.all(ROUTES.map(async (r) => [r.area, await spawnBuilt(`apps/${r.area}/src/main.js`, { ...env, PORT: String(await freePort()) })] as const));
    for (const [area, p] of started) services.set(area, p);
    const upstreams = Object.fromEntries(ROUTES.map((r) => [`${r.area.toUpperCase()}_URL`, services.get(r.area)!.url]));
    gateway = await spawnBuilt('apps/gateway/src/main.js', { ...upstreams, LOG_LEVEL: 'warn', PORT: String(await freePort()) }, '/health/live');
    gw = httpClient(gateway.url);

    const seeded = runSeed(env);
    tenantId = seeded.tenantId('Demo Co');
    otherTenantId = seeded.tenantId('Other Co');
  }, 120_000);

  afterAll(async () => {
    await gateway?.stop();
    await Promise.all([...services.values()].map((p) => p.stop()));
    await dbx?.drop();
    await ns?.cleanup();
  });

  it('answers the details endpoint through the gateway, in the envelope, passing x-request-id', async () => {
    const res = await gw.get(`/auth/v1/user/tenant/${tenantId}/details`, { token: tokenFor('admin@demo.test'), headers: { 'x-request-id': 'sys-req-1' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ statusCode: 200, data: { email: 'admin@demo.test', userRoles: [expect.objectContaining({ roleName: 'System Admin' })] } });
    expect(res.headers.get('x-request-id')).toBe('sys-req-1');
    // The service itself saw the id: it is in the body the service built.
    const unauthenticated = await gw.get(`/auth/v1/user/tenant/${tenantId}/details`, { headers: { 'x-request-id': 'sys-req-2' } });
    expect(unauthenticated.body.requestId).toBe('sys-req-2');
  });

  it('keeps the error body through the gateway (401, 403, 400)', async () => {
    expectErrorBody(await gw.get(`/auth/v1/user/tenant/${tenantId}/details`), 401);
    expectErrorBody(await gw.get(`/auth/v1/user/tenant/${otherTenantId}/details`, { token: tokenFor('admin@demo.test') }), 403);
    expectErrorBody(await gw.get(`/auth/v1/tenants/${tenantId}/roles/list?limit=101`, { token: tokenFor('admin@demo.test') }), 400);
  });

  it('routes every area prefix to its own service', async () => {
    for (const r of ROUTES) {
      const docPath = r.globalPrefix ? `/${r.globalPrefix}/docs-json` : '/docs/notifications-json';
      const doc = await gw.get(docPath);
      expect(doc.status).toBe(200);
      expect(doc.body.info.title).toContain(r.area);
    }
    for (const r of ROUTES) {
      const path = `${r.path}/v1/no-such-route`.replace('/v1/notifications/v1/', '/v1/notifications/');
      const res = await gw.get(path, { token: tokenFor('admin@demo.test') });
      expectErrorBody(res, 404, path);
    }
  });

  it('serves one merged OpenAPI document that lists all seven areas, and the Swagger UI', async () => {
    const doc = await gw.get('/docs-json');
    expect(doc.status).toBe(200);
    expect(doc.body.components.securitySchemes.accessToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    const tags = (doc.body.tags as { name: string }[]).map((t) => t.name.toLowerCase());
    for (const area of AREAS) expect(tags.some((t) => t.includes(area))).toBe(true);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/auth/v1/user/tenant/{tenantId}/details', '/auth/v1/tenants/{id}/roles/list']));
    const ui = await gw.get('/docs');
    expect(ui.status).toBe(200);
    expect(ui.text).toMatch(/swagger/i);
  });

  it('answers 503 in the error body while a service is down', async () => {
    const matrix = services.get('matrix')!;
    expect(await matrix.stop()).toBe(0);
    const res = await gw.get('/matrix/v1/matrix/anything', { token: tokenFor('admin@demo.test'), headers: { 'x-request-id': 'sys-down-1' } });
    expectErrorBody(res, 503, '/matrix/v1/matrix/anything');
    expect(res.body.requestId).toBe('sys-down-1');
    expect(res.headers.get('retry-after')).toBeTruthy();
    // The rest of the system is unaffected.
    expect((await gw.get(`/auth/v1/user/tenant/${tenantId}/details`, { token: tokenFor('admin@demo.test') })).status).toBe(200);
  });
});
