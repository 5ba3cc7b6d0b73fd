import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { TokenClaims } from './jwt.strategy';

/** The authenticated caller, put on the request by the guard. */
export interface Caller {
  /** users.id of the caller (auth area). */
  userId: string;
  /** The tenant this request acts in (ARCHITECTURE §4); the caller is a member of it. */
  tenantId: string;
  email: string;
  name: string;
  roleIds: readonly string[];
  keys: ReadonlySet<string>;
  claims: TokenClaims;
}

/** `@CurrentCaller() caller: Caller` in a controller. Fails loudly when the guard did not run. */
export const CurrentCaller = createParamDecorator((_data: unknown, ctx: ExecutionContext): Caller => {
  const caller = ctx.switchToHttp().getRequest<{ caller?: Caller }>().caller;
  if (!caller) throw new Error('CurrentCaller used on a route without an authenticated caller');
  return caller;
});

/**
 * A caller with every permission key, acting as `user` in `tenantId`: what the seeds (run by an
 * operator, not through the API) act as, so their changes go through the services like any other.
 */
export function seedCaller(tenantId: string, user: { id: string; email: string }, keys: Iterable<string>): Caller {
  return {
    userId: user.id,
    tenantId,
    email: user.email,
    name: 'Seed',
    roleIds: [],
    keys: new Set(keys),
    claims: { sub: user.id, iss: 'seed', aud: 'seed', exp: 0 },
  };
}
