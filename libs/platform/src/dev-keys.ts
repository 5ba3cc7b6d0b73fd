import { createHash, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The local development signing key (RS256), created on first use under .data/dev-keys/:
 * private.pem signs tokens (`npm run token`), public.pem is trusted by services only when
 * AUTH_DEV_KEYS is on.
 */
export interface DevKeys {
  kid: string;
  privatePem?: string;
  publicPem: string;
}

export function devKid(publicPem: string): string {
  return 'dev-' + createHash('sha256').update(publicPem).digest('hex').slice(0, 16);
}

export function loadDevKeys(dir: string): DevKeys | null {
  const pub = join(dir, 'public.pem');
  if (!existsSync(pub)) return null;
  const publicPem = readFileSync(pub, 'utf8');
  const priv = join(dir, 'private.pem');
  return { kid: devKid(publicPem), publicPem, privatePem: existsSync(priv) ? readFileSync(priv, 'utf8') : undefined };
}

export function ensureDevKeys(dir: string): Required<DevKeys> {
  const existing = loadDevKeys(dir);
  if (existing?.privatePem) return existing as Required<DevKeys>;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  writeFileSync(join(dir, 'private.pem'), privateKey, { mode: 0o600 });
  writeFileSync(join(dir, 'public.pem'), publicKey);
  return { kid: devKid(publicKey), publicPem: publicKey, privatePem: privateKey };
}
