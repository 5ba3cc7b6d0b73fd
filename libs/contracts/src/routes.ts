/**
 * The route table: which area lives behind which path prefix, in which service and schema.
 * The gateway, the dev launcher, the Kubernetes ingress and each service's global prefix are
 * all derived from (or tested against) this one list.
 */
export interface AreaRoute {
  /** Area name = service name = Postgres schema = Nx project. */
  area: AreaName;
  /** Nest global prefix of the service ('' for notifications, whose paths start with /v1). */
  globalPrefix: string;
  /** Path prefix the gateway and the ingress route to the service. */
  path: string;
  /** Port the service listens on when run locally. */
  port: number;
}

export const AREAS = ['decision', 'actions', 'settings', 'matrix', 'auth', 'document', 'notifications'] as const;
export type AreaName = (typeof AREAS)[number];

export const ROUTES: readonly AreaRoute[] = [
  { area: 'decision', globalPrefix: 'decision', path: '/decision', port: 3001 },
  { area: 'actions', globalPrefix: 'actions', path: '/actions', port: 3002 },
  { area: 'settings', globalPrefix: 'settings', path: '/settings', port: 3003 },
  { area: 'matrix', globalPrefix: 'matrix', path: '/matrix', port: 3004 },
  { area: 'auth', globalPrefix: 'auth', path: '/auth', port: 3005 },
  { area: 'document', globalPrefix: 'document', path: '/document', port: 3006 },
  { area: 'notifications', globalPrefix: '', path: '/v1/notifications', port: 3007 },
];

export const GATEWAY_PORT = 8080;

export function routeOf(area: AreaName): AreaRoute {
  const route = ROUTES.find((r) => r.area === area);
  if (!route) throw new Error(`unknown area ${area}`);
  return route;
}

/** Where a service serves its OpenAPI UI and document: /{prefix}/docs and /{prefix}/docs-json. */
export function docsPath(area: AreaName): string {
  const { globalPrefix } = routeOf(area);
  return globalPrefix ? `/${globalPrefix}/docs` : '/docs';
}
