/** How tokens are checked. Built from the environment by libs/platform (config.ts). */
export interface AuthOptions {
  issuer: string;
  audience: string;
  /** JWKS URL of the identity provider (production). */
  jwksUri?: string;
  /** PEM public keys; `kid` undefined = used for tokens without a kid. Holds the dev key when the dev flag is on. */
  publicKeys: { kid?: string; pem: string }[];
  /** Allowed clock skew for exp/nbf, seconds (at most 30). */
  clockToleranceSec: number;
}

export const AUTH_OPTIONS = Symbol('AUTH_OPTIONS');
export const ALLOWED_ALGORITHMS = ['RS256', 'ES256'] as const;
