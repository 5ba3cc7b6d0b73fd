import { AREAS, AreaName, BODY_LIMIT, GATEWAY_PORT, routeOf } from '@ddm/contracts';
import { ConfigError, Env, envCorsOrigins, envInt as int, envLogLevel } from '@ddm/platform';

/** The gateway's configuration, read from the environment and validated at start-up. */
export interface GatewayConfig {
  host: string;
  port: number;
  logLevel: string;
  /** Origin (protocol://host:port) of each area's service. */
  upstreams: Record<AreaName, string>;
  /** How long an upstream may take to send its response headers (and between body chunks). */
  upstreamTimeoutMs: number;
  /** Keep-alive connections per upstream. */
  upstreamConnections: number;
  /** Larger declared bodies are refused here rather than streamed to a service that refuses them too. */
  bodyLimit: number;
  /** How long the merged OpenAPI document is reused. */
  docsCacheMs: number;
  shutdownTimeoutMs: number;
  /** Browser origins allowed by CORS (CORS_ORIGINS, comma-separated); none by default. */
  corsOrigins: string[];
}

/** `AUTH_URL`, `NOTIFICATIONS_URL`, ... */
export function upstreamEnvName(area: AreaName): string {
  return `${area.toUpperCase()}_URL`;
}

function origin(env: Env, name: string, fallback: string): string {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    throw new ConfigError(`${name} is not a valid URL (got "${v}")`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(`${name} must be an http or https URL (got "${v}")`);
  // Paths are kept as they are (no rewrite), so a base path on the upstream would be ignored.
  if (parsed.pathname !== '/' || parsed.search) throw new ConfigError(`${name} must be an origin without a path, like http://127.0.0.1:3005 (got "${v}")`);
  return parsed.origin;
}

export function loadGatewayConfig(env: Env = process.env): GatewayConfig {
  const logLevel = envLogLevel(env);
  const upstreams = {} as Record<AreaName, string>;
  for (const area of AREAS) upstreams[area] = origin(env, upstreamEnvName(area), `http://127.0.0.1:${routeOf(area).port}`);
  return {
    host: env.HOST || '0.0.0.0',
    port: int(env, 'PORT', GATEWAY_PORT, 0, 65535),
    logLevel,
    upstreams,
    upstreamTimeoutMs: int(env, 'UPSTREAM_TIMEOUT_MS', 30_000, 100, 600_000),
    upstreamConnections: int(env, 'UPSTREAM_CONNECTIONS', 128, 1, 4096),
    bodyLimit: int(env, 'BODY_LIMIT', BODY_LIMIT, 1024, 1024 * 1024 * 1024),
    docsCacheMs: int(env, 'DOCS_CACHE_MS', 10_000, 0, 3_600_000),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 1_000, 300_000),
    corsOrigins: envCorsOrigins(env),
  };
}
