import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AreaName, AuthOptions, routeOf } from '@ddm/contracts';
import { loadDevKeys } from './dev-keys';

/** A service's configuration, read from the environment and validated at boot. */
export interface ServiceConfig {
  area: AreaName;
  host: string;
  port: number;
  /** The services' own role (no superuser, no BYPASSRLS, owns nothing): row-level security applies to it. */
  databaseUrl: string;
  /** The schema owner's, for the migrations (MIGRATION_DATABASE_URL; DATABASE_URL when unset). */
  migrationDatabaseUrl: string;
  dbPoolSize: number;
  natsUrl: string;
  natsNamespace: string;
  auth: AuthOptions;
  devKeys: boolean;
  logLevel: string;
  shutdownTimeoutMs: number;
  runMigrations: boolean;
  callerCacheTtlMs: number;
  /**
   * How long a read that sends a consistency token waits for the change it names to be applied
   * here before it answers 503 (CONSISTENCY_WAIT_MS, default 5000).
   */
  consistencyWaitMs: number;
  /** The app's public base URL (APP_URL), without a trailing slash: records' `link` point into it. */
  appUrl: string;
  /** Browser origins allowed by CORS (CORS_ORIGINS, comma-separated); none by default. */
  corsOrigins: string[];
  rateLimit: RateLimitConfig;
  /**
   * Which proxies' X-Forwarded-For to believe for the client address (TRUST_PROXY): a number of
   * hops (1 behind the ingress or the gateway), or their addresses/CIDRs; false by default.
   */
  trustProxy: boolean | number | string;
}

/**
 * Abuse limits (RATE_LIMIT_*): requests per window per caller (the bearer token, or the client
 * address without one) and per tenant, and the stricter per-caller limits of the costly classes.
 * Counters live in Redis when REDIS_URL is set (shared by the replicas), in memory otherwise.
 */
export interface RateLimitConfig {
  enabled: boolean;
  windowMs: number;
  callerMax: number;
  tenantMax: number;
  /** `bulk-*` operations. */
  bulkMax: number;
  /** Invitations (create, bulk invite, resend). */
  inviteMax: number;
  /** The external (shared) matrix link, per client. */
  sharedMax: number;
  redisUrl?: string;
  /** Prefix of the counters' keys in Redis (RATE_LIMIT_PREFIX). */
  redisPrefix: string;
}

export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** LOG_LEVEL, default info. */
export function envLogLevel(env: Env): string {
  const level = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(level)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${level}")`);
  return level;
}

/** A boolean variable (true/false, 1/0, yes/no, on/off). */
export function envFlag(env: Env, name: string, fallback: boolean): boolean {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(v.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(v.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false (got "${v}")`);
}

/** An integer variable within [min, max]. */
export function envInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${v}")`);
  return n;
}

/** A required URL variable of one of the protocols. */
export function envUrl(env: Env, name: string, protocols: string[]): string {
  const v = env[name];
  if (!v) throw new ConfigError(`${name} is required (${protocols.join(' or ')} URL)`);
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) throw new ConfigError(`${name} must be a ${protocols.join(' or ')} URL`);
  return v;
}

/** APP_URL (http or https), the app's public base URL, without a trailing slash; default http://localhost:8080. */
export function envAppUrl(env: Env): string {
  return (env.APP_URL ? envUrl(env, 'APP_URL', ['http', 'https']) : 'http://localhost:8080').replace(/\/+$/, '');
}

/** Reads the auth settings: JWKS or PEM in production, the local dev key when AUTH_DEV_KEYS is on. */
export function loadAuthOptions(env: Env = process.env): { auth: AuthOptions; devKeys: boolean } {
  const devKeys = envFlag(env, 'AUTH_DEV_KEYS', false);
  const publicKeys: AuthOptions['publicKeys'] = [];
  let jwksUri: string | undefined;
  if (env.AUTH_JWKS_URI) jwksUri = envUrl(env, 'AUTH_JWKS_URI', ['https', 'http']);
  if (env.AUTH_PUBLIC_KEY) {
    const raw = env.AUTH_PUBLIC_KEY.includes('BEGIN') ? env.AUTH_PUBLIC_KEY : existsSync(env.AUTH_PUBLIC_KEY) ? readFileSync(env.AUTH_PUBLIC_KEY, 'utf8') : '';
    if (!raw.includes('BEGIN PUBLIC KEY')) throw new ConfigError('AUTH_PUBLIC_KEY must be a PEM public key or the path of one');
    publicKeys.push({ kid: env.AUTH_PUBLIC_KEY_ID || undefined, pem: raw });
  }
  if (devKeys) {
    const dir = resolve(env.DEV_KEYS_DIR || '.data/dev-keys');
    const dev = loadDevKeys(dir);
    if (!dev) throw new ConfigError(`AUTH_DEV_KEYS is on but no dev key pair is in ${dir} (DEV_KEYS_DIR); run "npm run token" once to create it`);
    publicKeys.push({ kid: dev.kid, pem: dev.publicPem });
  }
  if (!jwksUri && !publicKeys.length) throw new ConfigError('Set AUTH_JWKS_URI or AUTH_PUBLIC_KEY (or AUTH_DEV_KEYS=true in development)');
  const issuer = env.AUTH_ISSUER || (devKeys ? DEV_ISSUER : '');
  const audience = env.AUTH_AUDIENCE || (devKeys ? DEV_AUDIENCE : '');
  if (!issuer) throw new ConfigError('AUTH_ISSUER is required');
  if (!audience) throw new ConfigError('AUTH_AUDIENCE is required');
  const clockToleranceSec = envInt(env, 'AUTH_CLOCK_SKEW_SECONDS', 30, 0, 30);
  return { auth: { issuer, audience, jwksUri, publicKeys, clockToleranceSec }, devKeys };
}

/** CORS_ORIGINS: comma-separated origins (scheme://host[:port]), each validated; empty = no cross-origin browser access. */
export function envCorsOrigins(env: Env): string[] {
  const raw = (env.CORS_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  return raw.map((o) => {
    let u: URL;
    try {
      u = new URL(o);
    } catch {
      throw new ConfigError(`CORS_ORIGINS holds "${o}", not an origin (scheme://host[:port])`);
    }
    if (!['http:', 'https:'].includes(u.protocol) || u.origin !== o.replace(/\/+$/, '')) throw new ConfigError(`CORS_ORIGINS holds "${o}", not an origin (scheme://host[:port])`);
    return u.origin;
  });
}

/** TRUST_PROXY: unset or 0 = trust no proxy; 1..10 = that many hops; else comma-separated addresses or CIDRs. */
export function envTrustProxy(env: Env): boolean | number | string {
  const v = (env.TRUST_PROXY ?? '').trim();
  if (!v || v === '0' || v.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(v)) return envInt(env, 'TRUST_PROXY', 0, 0, 10);
  const parts = v.split(',').map((p) => p.trim());
  if (!parts.every((p) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(p))) throw new ConfigError(`TRUST_PROXY must be a number of hops or comma-separated addresses/CIDRs (got "${v}")`);
  return parts.join(',');
}

/** RATE_LIMIT_* and REDIS_URL. */
export function envRateLimit(env: Env): RateLimitConfig {
  const prefix = env.RATE_LIMIT_PREFIX ?? 'ddm-rl:';
  if (!/^[A-Za-z0-9_:.-]{1,64}$/.test(prefix)) throw new ConfigError('RATE_LIMIT_PREFIX may hold only letters, digits, _ : . and - (1 to 64)');
  return {
    enabled: envFlag(env, 'RATE_LIMIT_ENABLED', true),
    windowMs: envInt(env, 'RATE_LIMIT_WINDOW_MS', 60_000, 1_000, 3_600_000),
    callerMax: envInt(env, 'RATE_LIMIT_CALLER_MAX', 6_000, 1, 10_000_000),
    tenantMax: envInt(env, 'RATE_LIMIT_TENANT_MAX', 30_000, 1, 10_000_000),
    bulkMax: envInt(env, 'RATE_LIMIT_BULK_MAX', 120, 1, 10_000_000),
    inviteMax: envInt(env, 'RATE_LIMIT_INVITE_MAX', 120, 1, 10_000_000),
    sharedMax: envInt(env, 'RATE_LIMIT_SHARED_MAX', 300, 1, 10_000_000),
    redisUrl: env.REDIS_URL ? envUrl(env, 'REDIS_URL', ['redis', 'rediss']) : undefined,
    redisPrefix: prefix,
  };
}

export const DEV_ISSUER = 'ddm-dev';
export const DEV_AUDIENCE = 'ddm-api';

export function loadConfig(area: AreaName, env: Env = process.env): ServiceConfig {
  const { auth, devKeys } = loadAuthOptions(env);
  const namespace = env.NATS_NAMESPACE ?? '';
  if (!/^[A-Za-z0-9_-]{0,40}$/.test(namespace)) throw new ConfigError('NATS_NAMESPACE may hold only letters, digits, _ and - (at most 40)');
  const logLevel = envLogLevel(env);
  return {
    area,
    host: env.HOST || '0.0.0.0',
    port: envInt(env, 'PORT', routeOf(area).port, 0, 65535),
    databaseUrl: envUrl(env, 'DATABASE_URL', ['postgres', 'postgresql']),
    migrationDatabaseUrl: envUrl(env, env.MIGRATION_DATABASE_URL ? 'MIGRATION_DATABASE_URL' : 'DATABASE_URL', ['postgres', 'postgresql']),
    dbPoolSize: envInt(env, 'DB_POOL_SIZE', 10, 2, 200),
    natsUrl: envUrl(env, 'NATS_URL', ['nats', 'tls']),
    natsNamespace: namespace,
    auth,
    devKeys,
    logLevel,
    shutdownTimeoutMs: envInt(env, 'SHUTDOWN_TIMEOUT_MS', 15_000, 1_000, 300_000),
    runMigrations: envFlag(env, 'MIGRATIONS_RUN', true),
    callerCacheTtlMs: envInt(env, 'CALLER_CACHE_TTL_MS', 30_000, 0, 3_600_000),
    consistencyWaitMs: envInt(env, 'CONSISTENCY_WAIT_MS', 5_000, 0, 60_000),
    appUrl: envAppUrl(env),
    corsOrigins: envCorsOrigins(env),
    rateLimit: envRateLimit(env),
    trustProxy: envTrustProxy(env),
  };
}
