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
    expect(c).toMatchObject({ area: 'auth', port: 3005, dbPoolSize: 10, natsNamespace: '', devKeys: true, runMigrations: true });
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
  ])('stops with a message naming %s when it is wrong or missing', (name, change) => {
    expect(() => loadConfig('auth', { ...base, ...change })).toThrow(ConfigError);
    expect(() => loadConfig('auth', { ...base, ...change })).toThrow(name);
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
