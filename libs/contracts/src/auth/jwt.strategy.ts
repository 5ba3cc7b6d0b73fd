import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { decode } from 'jsonwebtoken';
import { JwksClient } from 'jwks-rsa';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { ALLOWED_ALGORITHMS, AUTH_OPTIONS, AuthOptions } from './auth-options';

/** The claims we read (ARCHITECTURE §4). */
export interface TokenClaims {
  sub: string;
  tid?: string;
  email?: string;
  name?: string;
  iss: string;
  aud: string | string[];
  exp: number;
  nbf?: number;
  iat?: number;
}

type KeyCallback = (err: Error | null, key?: string) => void;

/**
 * passport-jwt strategy: signature by kid against the configured PEM keys or the JWKS URL,
 * algorithms RS256/ES256 only (never `none`, never HMAC), iss and aud pinned, exp/nbf with
 * at most 30 s skew.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(@Inject(AUTH_OPTIONS) options: AuthOptions) {
    const byKid = new Map(options.publicKeys.filter((k) => k.kid).map((k) => [k.kid as string, k.pem]));
    const noKid = options.publicKeys.filter((k) => !k.kid);
    const jwks = options.jwksUri
      ? new JwksClient({ jwksUri: options.jwksUri, cache: true, cacheMaxAge: 10 * 60_000, rateLimit: true, jwksRequestsPerMinute: 10, timeout: 5_000 })
      : undefined;
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      algorithms: [...ALLOWED_ALGORITHMS],
      issuer: options.issuer,
      audience: options.audience,
      ignoreExpiration: false,
      jsonWebTokenOptions: { clockTolerance: Math.min(options.clockToleranceSec, 30) },
      secretOrKeyProvider: (_req: unknown, rawJwt: string, done: KeyCallback) => {
        const header = (decode(rawJwt, { complete: true }) as { header?: { kid?: string; alg?: string } } | null)?.header;
        if (!header) return done(new Error('jwt malformed'));
        if (!header.alg || !(ALLOWED_ALGORITHMS as readonly string[]).includes(header.alg)) return done(new Error(`algorithm ${header.alg ?? 'none'} is not accepted`));
        const kid = header.kid;
        if (kid && byKid.has(kid)) return done(null, byKid.get(kid));
        if (!kid) return noKid.length === 1 ? done(null, noKid[0].pem) : done(new Error('token has no kid'));
        if (!jwks) return done(new Error(`unknown signing key "${kid}"`));
        jwks.getSigningKey(kid).then(
          (key) => done(null, key.getPublicKey()),
          () => done(new Error(`unknown signing key "${kid}"`)),
        );
      },
    });
  }

  validate(payload: TokenClaims): TokenClaims {
    return payload;
  }
}
