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
