import { DEV_AUDIENCE, DEV_ISSUER, ensureDevKeys } from '@ddm/platform';
import { SignOptions, sign } from 'jsonwebtoken';
import { TEST_KEYS_DIR } from './env';

export interface MintOptions {
  /** Seconds from now (negative = already expired). Default 3600. */
  expiresIn?: number;
  issuer?: string;
  audience?: string;
  /** Seconds from now before which the token is not valid. */
  notBefore?: number;
  kid?: string;
  tenantId?: string;
  email?: string;
  name?: string;
}

/** Signs a token with the test dev key, as `npm run token` does with the local one. */
export function mintToken(sub: string, o: MintOptions = {}): string {
  const keys = ensureDevKeys(TEST_KEYS_DIR);
  const options: SignOptions = {
    algorithm: 'RS256',
    keyid: o.kid ?? keys.kid,
    issuer: o.issuer ?? DEV_ISSUER,
    audience: o.audience ?? DEV_AUDIENCE,
    expiresIn: o.expiresIn ?? 3600,
  };
  if (o.notBefore !== undefined) options.notBefore = o.notBefore;
  const claims: Record<string, unknown> = { sub };
  if (o.email) claims.email = o.email;
  if (o.name) claims.name = o.name;
  if (o.tenantId) claims.tid = o.tenantId;
  return sign(claims, keys.privatePem, options);
}

/** The token of a seeded dev user (`sub` = `dev|<email>`). */
export function tokenFor(email: string, o: MintOptions = {}): string {
  return mintToken(`dev|${email}`, { email, ...o });
}

/** Tokens of the seeded users of each role: Demo Co's admin, manager, user and auditor, and Other Co's admin. */
export function seededTokens(): { admin: string; manager: string; user: string; auditor: string; otherAdmin: string } {
  return {
    admin: tokenFor('admin@demo.test'),
    manager: tokenFor('manager@demo.test'),
    user: tokenFor('user@demo.test'),
    auditor: tokenFor('auditor@demo.test'),
    otherAdmin: tokenFor('admin@other.test'),
  };
}
