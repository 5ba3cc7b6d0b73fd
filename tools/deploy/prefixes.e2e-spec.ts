import { join } from 'node:path';
import { ROUTES, docsPath } from '@ddm/contracts';
import { asAppRole, createTestDatabase, createTestNamespace, freePort, NATS_URL, RunningProcess, spawnBuilt, TEST_KEYS_DIR, TestDatabase, TestNamespace } from '@ddm/testing';
import { K8S, byKind, kustomize } from './manifests';

/**
 * What each built service really mounts, against the Ingress: every path in each service's
 * OpenAPI document must be routed by the Ingress (longest Prefix match, as ingress-nginx does) to
 * that same service, and each Ingress path must be a prefix the service serves under. So an area
 * added to the route table but not to k8s/ (or the reverse), or a controller mounted outside its
 * service's prefix, fails here.
 */
describe('each service serves under its Ingress path', () => {
  let dbx: TestDatabase;
  let ns: TestNamespace;
  const services = new Map<string, RunningProcess>();
  const docs = new Map<string, { paths: Record<string, unknown> }>();
  const ingressPaths = (() => {
    const [ingress] = byKind(kustomize(join(K8S, 'base')).objects, 'Ingress');
    return (ingress.spec.rules[0].http.paths as { path: string; backend: { service: { name: string } } }[]).map((p) => ({ path: p.path, service: p.backend.service.name }));
  })();

  /** The backend ingress-nginx picks for a request path: the longest matching Prefix (whole segments). */
  const routeOfPath = (path: string) =>
    ingressPaths
      .filter((p) => path === p.path || path.startsWith(`${p.path}/`))
      .sort((a, b) => b.path.length - a.path.length)[0]?.service;

  beforeAll(async () => {
    dbx = await createTestDatabase();
    ns = createTestNamespace();
    const env = { DATABASE_URL: asAppRole(dbx.url), NATS_URL, NATS_NAMESPACE: ns.namespace, AUTH_DEV_KEYS: 'true', DEV_KEYS_DIR: TEST_KEYS_DIR, LOG_LEVEL: 'warn', DB_POOL_SIZE: '2', MIGRATIONS_RUN: 'false' };
    // allSettled: when one fails, the others have still finished starting (and are stopped in afterAll).
    const started = await Promise.allSettled(
      ROUTES.map(async (r) => {
        const p = await spawnBuilt(`apps/${r.area}/src/main.js`, { ...env, PORT: String(await freePort()) }, '/health/live');
        services.set(r.area, p);
        const res = await fetch(`${p.url}${docsPath(r.area)}-json`);
        if (res.status !== 200) throw new Error(`${r.area}: ${docsPath(r.area)}-json answered ${res.status}`);
        docs.set(r.area, (await res.json()) as { paths: Record<string, unknown> });
      }),
    );
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...services.values()].map((p) => p.stop()));
    await dbx?.drop();
    await ns?.cleanup();
  });

  it('the Ingress has one path per area of the route table, to that area', () => {
    expect(ingressPaths.sort((a, b) => a.path.localeCompare(b.path))).toEqual(ROUTES.map((r) => ({ path: r.path, service: r.area })).sort((a, b) => a.path.localeCompare(b.path)));
  });

  it.each(ROUTES.map((r) => r.area))('every path %s serves (its OpenAPI document) reaches %s through the Ingress', (area) => {
    const paths = Object.keys(docs.get(area)!.paths);
    const misrouted = paths.filter((p) => routeOfPath(p) !== area).map((p) => `${p} -> ${routeOfPath(p) ?? 'no route'}`);
    expect(misrouted).toEqual([]);
  });

  it('the services together serve endpoints under every Ingress path but the skeleton ones', () => {
    const served = new Set([...docs.entries()].filter(([, d]) => Object.keys(d.paths).length).map(([area]) => area));
    // Every area serves endpoints today; each serves only under its own Ingress path (the path itself, as POST /v1/notifications, or below it).
    expect([...served].sort()).toEqual([...ROUTES.map((r) => r.area)].sort());
    for (const area of served) {
      const prefix = ROUTES.find((r) => r.area === area)!.path;
      expect(Object.keys(docs.get(area)!.paths).filter((p) => p !== prefix && !p.startsWith(prefix + '/'))).toEqual([]);
    }
  });
});
