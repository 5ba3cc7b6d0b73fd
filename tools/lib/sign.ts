import { DEV_AUDIENCE, DEV_ISSUER, ensureDevKeys } from '@ddm/platform';
import { sign } from 'jsonwebtoken';

export interface DevTokenClaims {
  sub: string;
  email?: string;
  name?: string;
  tid?: string;
}

/** Signs a token with the local dev key (created on first use). */
export function signDevToken(claims: DevTokenClaims, keysDir: string, ttl: string | number = '1h'): string {
  const keys = ensureDevKeys(keysDir);
  return sign(claims, keys.privatePem, {
    algorithm: 'RS256',
    keyid: keys.kid,
    issuer: DEV_ISSUER,
    audience: DEV_AUDIENCE,
    expiresIn: ttl as never,
  });
}
