import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AREAS, ROUTES } from '@ddm/contracts';
import {
  ROOT,
  RunningProcess,
  TestSystem,
  apiClient,
  expectErrorBody,
  httpClient,
  startTestSystem,
  tokenFor,
} from '@ddm/testing';

/**
 * The whole system as `npm start` runs it: the seven built services and the gateway as separate
 * processes, on one database and one NATS namespace; requests go through the gateway.
 */
describe('system: seven services behind the gateway', () => {
  let system: TestSystem;
  let services: Map<string, RunningProcess>;
  let gw: ReturnType<typeof httpClient>;
  let tenantId: string;
  let otherTenantId: string;

  beforeAll(async () => {
    system = await startTestSystem();
    services = system.services;
    gw = system.http;

    tenantId = system.seeded.tenantId('Demo Co');
    otherTenantId = system.seeded.tenantId('Other Co');
  }, 120_000);

  afterAll(async () => {
    await system?.close();
  });

  it('answers the details endpoint through the gateway, in the envelope, passing x-request-id', async () => {
    const api = apiClient(system.gateway.url, tokenFor('admin@demo.test'));
    const { data, response } = await api.GET('/auth/v1/user/tenant/{tenantId}/details', { params: { path: { tenantId } }, headers: { 'x-request-id': 'sys-req-1' } });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ statusCode: 200, data: { email: 'admin@demo.test', userRoles: [expect.objectContaining({ roleName: 'System Admin' })] } });
    expect(response.headers.get('x-request-id')).toBe('sys-req-1');
    // The service itself saw the id: it is in the body the service built.
    const unauthenticated = await apiClient(system.gateway.url).GET('/auth/v1/user/tenant/{tenantId}/details', { params: { path: { tenantId } }, headers: { 'x-request-id': 'sys-req-2' } });
    expect(unauthenticated.error?.requestId).toBe('sys-req-2');
  });

  it('keeps the error body through the gateway (401, 403, 400)', async () => {
    const anonymous = apiClient(system.gateway.url);
    const admin = apiClient(system.gateway.url, tokenFor('admin@demo.test'));
    const none = await anonymous.GET('/auth/v1/user/tenant/{tenantId}/details', { params: { path: { tenantId } } });
    expect([none.response.status, none.error?.statusCode]).toEqual([401, 401]);
    const other = await admin.GET('/auth/v1/user/tenant/{tenantId}/details', { params: { path: { tenantId: otherTenantId } } });
    expect([other.response.status, other.error?.statusCode]).toEqual([403, 403]);
    const tooMany = await admin.GET('/auth/v1/tenants/{id}/roles/list', { params: { path: { id: tenantId }, query: { limit: 101 } } });
    expect([tooMany.response.status, tooMany.error?.errors?.[0]?.field]).toEqual([400, 'limit']);
  });

  it(`serves the committed contract: /docs-json is docs/openapi.json and /docs/asyncapi.json is docs/asyncapi.json (run \`npm run docs\` after a contract change)`, async () => {
    const served = await gw.get('/docs-json');
    expect(served.body).toEqual(JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8')));
    const events = await gw.get('/docs/asyncapi.json');
    expect(events.status).toBe(200);
    expect(events.body).toEqual(JSON.parse(readFileSync(join(ROOT, 'docs/asyncapi.json'), 'utf8')));
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
