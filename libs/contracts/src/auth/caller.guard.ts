import { ExecutionContext, Inject, Injectable, Type } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { AppError, ErrorCode, badRequest, forbidden, unauthenticated } from '../http/errors';
import { isUuid } from '../http/validation';
import { PermissionKey } from '../permission-keys';
import { Caller } from './caller';
import { CallerResolver } from './caller-resolver';
import { PERMISSION_KEY, PUBLIC_KEY, TENANT_PARAM_KEY, TICKET_KEY, TicketHolder, TicketRedeemer } from './decorators';
import { TokenClaims } from './jwt.strategy';
import { LRUCache } from 'lru-cache';

interface RouteRule {
  isPublic: boolean;
  permission?: PermissionKey;
  tenantParam: string;
  /** The provider redeeming `?ticket=` on this route (AcceptsTicket). */
  ticket?: TicketRedeemer;
}

interface GuardedRequest {
  id: string;
  headers: Record<string, string | string[] | undefined>;
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  user?: TokenClaims;
  caller?: Caller;
}

export const CALLER_RESOLVER = Symbol('CALLER_RESOLVER');

/** Readable 401 texts for what jsonwebtoken / passport-jwt report. */
function tokenProblem(info: unknown, err: unknown): string {
  const raw = ((err as Error)?.message || (info as Error)?.message || 'invalid token').split('. expected')[0];
  if (/No auth token/i.test(raw)) return 'Missing bearer token';
  if (/jwt expired/i.test(raw)) return 'Token has expired';
  if (/jwt not active/i.test(raw)) return 'Token is not valid yet (nbf)';
  if (/issuer/i.test(raw)) return 'Token issuer is not accepted';
  if (/audience/i.test(raw)) return 'Token audience is not accepted';
  return `Invalid token: ${raw}`;
}

/**
 * The one guard of every service (global): verifies the bearer token with passport-jwt
 * (verified tokens cached until `exp`, never past it), resolves the caller in the request's
 * tenant through the auth service, and checks the route's permission key.
 */
@Injectable()
export class CallerGuard extends AuthGuard('jwt') {
  private readonly rules = new WeakMap<object, RouteRule>();
  /** Verified tokens, each kept until its own `exp` and never past it (bounded). */
  private readonly verified = new LRUCache<string, TokenClaims>({ max: 20_000, ttlAutopurge: false });
  private readonly keySets = new WeakMap<object, ReadonlySet<string>>();

  constructor(
    private readonly reflector: Reflector,
    @Inject(CALLER_RESOLVER) private readonly resolver: CallerResolver,
    private readonly moduleRef: ModuleRef,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.ruleFor(context);
    if (rule.isPublic) return true;
    const request = context.switchToHttp().getRequest<GuardedRequest>();
    const header = request.headers.authorization;
    const token = typeof header === 'string' && /^Bearer /i.test(header) ? header.slice(7).trim() : '';
    const ticket = rule.ticket ? request.query?.ticket : undefined;
    if (!token && (ticket === undefined || ticket === '')) throw unauthenticated(rule.ticket ? 'Missing bearer token or ticket' : 'Missing bearer token');

    let claims: TokenClaims | undefined;
    if (token) {
      claims = this.verified.get(token);
      if (!claims) {
        await super.canActivate(context);
        claims = request.user as TokenClaims;
        if (typeof claims.exp !== 'number') throw unauthenticated('Token has no expiry (exp)');
        if (typeof claims.sub !== 'string' || !claims.sub) throw unauthenticated('Token has no subject (sub)');
        const ttl = Math.floor(claims.exp * 1000 - Date.now());
        if (ttl > 0) this.verified.set(token, claims, { ttl });
      }
    }
    let holder: TicketHolder | null = null;
    if (rule.ticket && ticket !== undefined && ticket !== '') {
      if (typeof ticket !== 'string') throw badRequest('ticket must be a string', [{ field: 'ticket', message: 'must be a string' }]);
      holder = await rule.ticket.redeem(ticket);
      if (!holder) throw unauthenticated('The ticket is unknown, used or expired');
      if (claims && claims.sub !== holder.sub) throw forbidden('The ticket was issued to another caller');
      const named = this.requestedTenant(request, rule);
      if (named && named !== holder.tenantId) throw forbidden('The ticket was issued for another tenant');
      claims ??= { sub: holder.sub, email: holder.email, tid: holder.tenantId, iss: 'ticket', aud: 'ticket', exp: Math.floor(holder.expiresAt.getTime() / 1000) };
    }
    if (!claims) throw unauthenticated('Missing bearer token');

    const tenantId = holder?.tenantId ?? this.requestedTenant(request, rule) ?? (isUuid(claims.tid) ? claims.tid : null);
    let reply;
    try {
      reply = await this.resolver.resolve({ sub: claims.sub, email: claims.email, tenantId }, request.id);
    } catch {
      throw new AppError(ErrorCode.DependencyDown, 'The identity service is unavailable; retry shortly');
    }
    if (!reply.found) throw forbidden(reply.reason);
    if (!reply.tenantId) throw forbidden('No tenant named and no active tenant for this user');
    if (!reply.member) throw forbidden(`You are not a member of tenant ${reply.tenantId}`);
    const caller: Caller = {
      userId: reply.userId,
      tenantId: reply.tenantId,
      email: reply.email,
      name: reply.name,
      roleIds: reply.roleIds,
      keys: this.keySetOf(reply),
      claims,
    };
    if (holder && holder.userId !== caller.userId) throw forbidden('The ticket was issued to another caller');
    if (rule.permission && !caller.keys.has(rule.permission)) throw forbidden(`Missing permission "${rule.permission}"`);
    request.caller = caller;
    return true;
  }

  /** Cached answers are the same object on every hit, so their key set is built once. */
  private keySetOf(reply: { keys: string[] }): ReadonlySet<string> {
    let set = this.keySets.get(reply);
    if (!set) {
      set = new Set(reply.keys);
      this.keySets.set(reply, set);
    }
    return set;
  }

  override handleRequest<T>(err: unknown, user: T, info: unknown): T {
    if (err || !user) throw unauthenticated(tokenProblem(info, err));
    return user;
  }

  /**
   * The tenant the request names in its path, query or body (ARCHITECTURE §4). Naming two
   * different tenants is a 400, so no handler can act in a tenant other than the one checked.
   */
  private requestedTenant(request: GuardedRequest, rule: RouteRule): string | null {
    const body = request.body;
    const candidates: [string, unknown][] = [
      [rule.tenantParam, request.params?.[rule.tenantParam]],
      ['tenantId', request.query?.tenantId],
      ['tenantId', body && typeof body === 'object' && !Array.isArray(body) ? (body as { tenantId?: unknown }).tenantId : undefined],
    ];
    let tenant: string | null = null;
    for (const [field, value] of candidates) {
      if (value === undefined || value === null || value === '') continue;
      if (!isUuid(value)) throw badRequest(`${field} must be a UUID`, [{ field, message: 'must be a UUID' }]);
      const id = value.toLowerCase();
      if (tenant && tenant !== id) throw badRequest('The request names two different tenants', [{ field, message: 'must name the same tenant as the rest of the request' }]);
      tenant = id;
    }
    return tenant;
  }

  private ruleFor(context: ExecutionContext): RouteRule {
    const handler = context.getHandler();
    let rule = this.rules.get(handler);
    if (!rule) {
      const targets = [handler, context.getClass()];
      rule = {
        isPublic: this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets) ?? false,
        permission: this.reflector.getAllAndOverride<PermissionKey>(PERMISSION_KEY, targets),
        tenantParam: this.reflector.getAllAndOverride<string>(TENANT_PARAM_KEY, targets) ?? 'tenantId',
      };
      const redeemer = this.reflector.getAllAndOverride<Type<TicketRedeemer> | undefined>(TICKET_KEY, targets);
      if (redeemer) rule.ticket = this.moduleRef.get(redeemer, { strict: false });
      this.rules.set(handler, rule);
    }
    return rule;
  }
}
