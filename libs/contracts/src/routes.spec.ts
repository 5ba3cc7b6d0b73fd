import { AREAS, AreaName, GATEWAY_PORT, ROUTES, docsPath, routeOf } from './routes';

/** spec §1 Conventions, the area table. */
const SPEC_PREFIXES: Record<AreaName, string> = {
  decision: '/decision',
  actions: '/actions',
  settings: '/settings',
  matrix: '/matrix',
  auth: '/auth',
  document: '/document',
  notifications: '/v1/notifications',
};

describe('route table', () => {
  it('has the seven areas of the spec, once each', async () => {
    expect([...AREAS].sort()).toEqual(Object.keys(SPEC_PREFIXES).sort());
    expect(ROUTES.map((r) => r.area).sort()).toEqual([...AREAS].sort());
  });

  it.each(Object.entries(SPEC_PREFIXES))('routes %s under the spec prefix %s', async (area, prefix) => {
    expect(routeOf(area as AreaName).path).toBe(prefix);
  });

  it('uses the path as global prefix so the ingress needs no rewrite; notifications has none', async () => {
    for (const r of ROUTES) {
      if (r.area === 'notifications') expect(r.globalPrefix).toBe('');
      else expect(`/${r.globalPrefix}`).toBe(r.path);
    }
  });

  it('gives every service its own port, none the gateway port', async () => {
    const ports = ROUTES.map((r) => r.port);
    expect(new Set(ports).size).toBe(ROUTES.length);
    expect(ports).not.toContain(GATEWAY_PORT);
    for (const p of ports) expect(Number.isInteger(p) && p > 1024 && p < 65536).toBe(true);
  });

  it('throws on an unknown area', async () => {
    expect(() => routeOf('billing' as AreaName)).toThrow(/unknown area billing/);
  });
});

describe('docsPath', () => {
  it.each(['decision', 'actions', 'settings', 'matrix', 'auth', 'document'] as AreaName[])('serves %s docs under its prefix', async (area) => {
    expect(docsPath(area)).toBe(`/${area}/docs`);
  });

  it('serves the notifications docs at /docs (no global prefix)', async () => {
    expect(docsPath('notifications')).toBe('/docs');
  });
});
