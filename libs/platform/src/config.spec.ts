import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './config';
import { ensureDevKeys } from './dev-keys';

describe('service configuration (validated at boot)', () => {
  const keysDir = mkdtempSync(join(tmpdir(), 'ddm-keys-'));
  ensureDevKeys(keysDir);
  const base = {
    DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/ddm',
    NATS_URL: 'nats://127.0.0.1:4222',
    AUTH_DEV_KEYS: 'true',
    DEV_KEYS_DIR: keysDir,
  };

  it('reads a complete development environment, with defaults', () => {
    const c = loadConfig('auth', base);
    expect(c).toMatchObject({ area: 'auth', port: 3005, dbPoolSize: 10, natsNamespace: '', devKeys: true, runMigrations: true, consistencyWaitMs: 5_000 });
    expect(c.auth).toMatchObject({ issuer: 'ddm-dev', audience: 'ddm-api', clockToleranceSec: 30 });
    expect(c.auth.publicKeys).toHaveLength(1);
  });

  it.each([
    ['DATABASE_URL', { DATABASE_URL: undefined }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x/y' }],
    ['NATS_URL', { NATS_URL: 'not a url' }],
    ['PORT', { PORT: '70000' }],
    ['DB_POOL_SIZE', { DB_POOL_SIZE: 'ten' }],
    ['AUTH_DEV_KEYS', { AUTH_DEV_KEYS: 'maybe' }],
    ['AUTH_CLOCK_SKEW_SECONDS', { AUTH_CLOCK_SKEW_SECONDS: '300' }],
    ['NATS_NAMESPACE', { NATS_NAMESPACE: 'a.b' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['REDIS_URL', { REDIS_URL: 'http://cache:6379' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'https://app.example.com/path' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: '*' }],
    ['RATE_LIMIT_ENABLED', { RATE_LIMIT_ENABLED: 'sometimes' }],
    ['RATE_LIMIT_CALLER_MAX', { RATE_LIMIT_CALLER_MAX: '0' }],
    ['RATE_LIMIT_WINDOW_MS', { RATE_LIMIT_WINDOW_MS: '10' }],
    ['RATE_LIMIT_PREFIX', { RATE_LIMIT_PREFIX: 'a b' }],
    ['TRUST_PROXY', { TRUST_PROXY: '11' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'ingress.local' }],
    ['CONSISTENCY_WAIT_MS', { CONSISTENCY_WAIT_MS: '-1' }],
  ])('stops with a message naming %s when it is wrong or missing', (name, change) => {
    expect(() => loadConfig('auth', { ...base, ...change })).toThrow(ConfigError);
    expect(() => loadConfig('auth', { ...base, ...change })).toThrow(name);
  });

  it('reads the abuse limits and the CORS allow-list, generous and empty by default', () => {
    const c = loadConfig('auth', base);
    expect(c.corsOrigins).toEqual([]);
    expect(c.rateLimit).toEqual({ enabled: true, windowMs: 60_000, callerMax: 6_000, tenantMax: 30_000, bulkMax: 120, inviteMax: 120, sharedMax: 300, redisUrl: undefined, redisPrefix: 'ddm-rl:' });
    const set = loadConfig('auth', { ...base, CORS_ORIGINS: 'https://app.example.com, http://localhost:4200/', REDIS_URL: 'redis://cache:6379/0', RATE_LIMIT_ENABLED: 'false' });
    expect(set.corsOrigins).toEqual(['https://app.example.com', 'http://localhost:4200']);
    expect(set.rateLimit).toMatchObject({ enabled: false, redisUrl: 'redis://cache:6379/0' });
    expect(c.trustProxy).toBe(false);
    expect(loadConfig('auth', { ...base, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig('auth', { ...base, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8,127.0.0.1');
  });

  it('trusts no dev key unless the dev flag is on, and then needs a production key source', () => {
    const prod = { DATABASE_URL: base.DATABASE_URL, NATS_URL: base.NATS_URL };
    expect(() => loadConfig('auth', prod)).toThrow(/AUTH_JWKS_URI or AUTH_PUBLIC_KEY/);
    expect(() => loadConfig('auth', { ...prod, AUTH_JWKS_URI: 'https://idp.example/.well-known/jwks.json' })).toThrow(/AUTH_ISSUER/);
    const c = loadConfig('auth', { ...prod, AUTH_JWKS_URI: 'https://idp.example/.well-known/jwks.json', AUTH_ISSUER: 'https://idp.example/', AUTH_AUDIENCE: 'ddm' });
    expect(c.devKeys).toBe(false);
    expect(c.auth.publicKeys).toEqual([]);
    expect(c.auth.jwksUri).toBe('https://idp.example/.well-known/jwks.json');
  });

  it('refuses the dev flag without a dev key pair', () => {
    expect(() => loadConfig('auth', { ...base, DEV_KEYS_DIR: join(keysDir, 'missing') })).toThrow(/dev key pair/);
  });
});
