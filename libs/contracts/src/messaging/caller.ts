/** `auth.caller.resolve`: a NATS request/reply (not an event), answered by the auth service. */

/** The request. */
export interface CallerResolveRequest {
  sub: string;
  email?: string;
  /** The tenant the request names; null = the user's active tenant. */
  tenantId: string | null;
}

/** The answer. */
export type CallerResolveReply =
  | { found: false; reason: string; /** the auth service could not answer (answer is not cached) */ unavailable?: boolean }
  | {
      found: true;
      userId: string;
      email: string;
      name: string;
      tenantId: string | null;
      member: boolean;
      roleIds: string[];
      keys: string[];
    };
