import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cors from '@fastify/cors';
import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import Redis from 'ioredis';
import { Logger } from 'pino';
import { AppError, BODY_LIMIT, BODY_TOO_LARGE_MESSAGE, ErrorCode, UPLOAD_BODY_LIMIT, bodyLimitOf, errorBody } from '@ddm/contracts';
import { RateLimitConfig } from './config';

/**
 * helmet's default headers for an API (a CSP of 'self' that the Swagger UI, served from the same
 * origin with its own script files, keeps working under; HSTS; nosniff; frame denial...), worked
 * out once: they depend on nothing in the request. (@fastify/helmet rebuilt helmet's middleware,
 * CSP parsing included, on every request: about a sixth of a small read's CPU.)
 */
export function securityHeaders(): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => void (headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet()({} as IncomingMessage, response as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return Object.freeze(headers);
}

/**
 * The security headers above on every answer, and CORS for the allow-list. Queued: they apply to
 * the routes registered after this call.
 */
export function registerSecurityHeaders(fastify: FastifyInstance, corsOrigins: string[]): void {
  const headers = securityHeaders();
  fastify.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  // Only the listed origins get CORS headers; a foreign origin gets none (the browser refuses it).
  void fastify.register(cors, {
    origin: corsOrigins.length ? corsOrigins : false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    // last-event-id: an EventSource reconnecting to the notifications stream sends it.
    allowedHeaders: ['authorization', 'content-type', 'x-request-id', 'x-share-password', 'traceparent', 'idempotency-key', 'x-consistency-token', 'last-event-id'],
    exposedHeaders: ['x-request-id', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'content-disposition', 'idempotent-replayed', 'x-consistency-token'],
    maxAge: 600,
  });
}

/** The limit classes: each has its own counter per caller, the general one also a counter per tenant. */
export type LimitClass = 'caller' | 'bulk' | 'invite' | 'shared';

/** Which class a request path falls in (the global prefix included or not). */
export function limitClassOf(path: string): LimitClass {
  if (/\/v1\/shared\//.test(path)) return 'shared';
  if (/\/v1\/user\/(create|bulk-invite|bulk-resend-invite|resend-invite)$/.test(path)) return 'invite';
  if (/\/bulk-[a-z-]+$/.test(path)) return 'bulk';
  return 'caller';
}

const UNLIMITED = /^\/(health\/|metrics$)/;
const KEY = Symbol('rateLimitKey');
type Limited = FastifyRequest & { [KEY]?: string };

const pathOf = (url: string) => url.split('?')[0];

function bearerOf(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  if (typeof h !== 'string') return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m?.[1];
}

/**
 * The caller, before the guard has verified anyone: the SHA-256 of the bearer token (never the
 * token itself, never its unverified `sub`, which anyone could forge to spend someone else's
 * budget), or the client address when there is no token.
 */
export function callerKeyOf(request: FastifyRequest): string {
  const token = bearerOf(request);
  return token ? `t:${createHash('sha256').update(token).digest('hex').slice(0, 32)}` : `ip:${request.ip}`;
}

/** Counts a verified caller's request against its tenant's budget: a 429 (AppError) once it is spent. */
export type TenantLimit = (request: FastifyRequest, reply: FastifyReply, tenantId: string) => Promise<void>;

interface Outcome {
  max: number;
  remaining: number;
  ttlInSeconds: number;
  isExceeded: boolean;
  isAllowed: boolean;
}

/**
 * Abuse limits with @fastify/rate-limit's counters (Redis when REDIS_URL is set, so every
 * replica counts the same requests; in memory otherwise):
 * - per caller (onRequest, before the body is read): RATE_LIMIT_CALLER_MAX per window, or the
 *   stricter RATE_LIMIT_BULK_MAX / _INVITE_MAX / _SHARED_MAX for those classes (counted apart);
 * - per tenant (the answered `TenantLimit`, which RequestStepsGuard runs once the guard has verified the token and the
 *   caller's membership of the tenant): RATE_LIMIT_TENANT_MAX per window. Counting the tenant a
 *   request merely names (its tenantId, an unverified `tid`) would let anyone spend another
 *   tenant's budget; public routes are limited per caller only.
 * Health and metrics are not limited. Over a limit: 429, the house error body, Retry-After
 * (seconds until the window resets) and the RateLimit-Limit/-Remaining/-Reset headers, which
 * every limited response carries.
 */
export async function registerRateLimits(fastify: FastifyInstance, area: string, config: RateLimitConfig, logger: Logger): Promise<TenantLimit | undefined> {
  if (!config.enabled) return undefined;
  let redis: Redis | undefined;
  if (config.redisUrl) {
    // No offline queue: while Redis is away a count fails at once and the request goes through
    // (skipOnError), rather than every request waiting on it.
    redis = new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000, lazyConnect: false });
    // One warning per outage (ioredis retries on its own), one line when it is back.
    let down = false;
    redis.on('error', (err: Error) => {
      if (down) return;
      down = true;
      logger.warn({ err: { message: err.message } }, 'rate limit store (Redis) unavailable; requests are not limited meanwhile');
    });
    redis.on('ready', () => {
      if (down) logger.info('rate limit store (Redis) available again');
      down = false;
    });
    fastify.addHook('onClose', async () => void (await redis!.quit().catch(() => redis!.disconnect())));
  }
  const maxOf: Record<string, number> = { caller: config.callerMax, bulk: config.bulkMax, invite: config.inviteMax, shared: config.sharedMax, tenant: config.tenantMax };
  await fastify.register(rateLimit, {
    global: false,
    enableDraftSpec: true,
    timeWindow: config.windowMs,
    // The key carries its class first: `<class>:<who>`.
    max: (_req: FastifyRequest, key: string) => maxOf[key.slice(key.indexOf(':') + 1, key.indexOf(':', key.indexOf(':') + 1))] ?? config.callerMax,
    keyGenerator: (req: FastifyRequest) => (req as Limited)[KEY] as string,
    skipOnError: true,
    ...(redis ? { redis, nameSpace: config.redisPrefix } : {}),
  });
  const limiter = fastify.createRateLimit();

  const count = async (request: FastifyRequest, key: string): Promise<Outcome> => {
    (request as Limited)[KEY] = `${area}:${key}`;
    return (await limiter(request)) as Outcome;
  };
  const headers = (reply: FastifyReply, o: Outcome) => {
    reply.header('ratelimit-limit', o.max).header('ratelimit-remaining', o.remaining).header('ratelimit-reset', o.ttlInSeconds);
  };
  const refuse = (request: FastifyRequest, reply: FastifyReply, o: Outcome, what: string) => {
    headers(reply, o);
    reply.header('retry-after', String(Math.max(1, o.ttlInSeconds))).code(429);
    return reply.send(errorBody(429, `Too many requests ${what}; retry in ${Math.max(1, o.ttlInSeconds)} s`, pathOf(request.url), request.id));
  };

  fastify.addHook('onRequest', async (request, reply) => {
    const path = pathOf(request.url);
    if (UNLIMITED.test(path) || request.method === 'OPTIONS') return;
    const cls = limitClassOf(path);
    const o = await count(request, `${cls}:${callerKeyOf(request)}`);
    if (o.isAllowed) return;
    if (o.isExceeded) return refuse(request, reply, o, cls === 'caller' ? 'from this caller' : `of this kind (${cls}) from this caller`);
    headers(reply, o);
  });
  return async (request, reply, tenantId) => {
    const o = await count(request, `tenant:${tenantId}`);
    if (o.isAllowed) return;
    if (o.isExceeded) {
      headers(reply, o);
      reply.header('retry-after', String(Math.max(1, o.ttlInSeconds)));
      throw new AppError(ErrorCode.RateLimited, `Too many requests for this tenant; retry in ${Math.max(1, o.ttlInSeconds)} s`);
    }
    // The headers tell the tighter of the two budgets.
    if (o.remaining < Number(reply.getHeader('ratelimit-remaining') ?? Infinity)) headers(reply, o);
  };
}

/** How long a connection whose request was refused as too large may go on sending (read and thrown away) before it is closed. */
export const LINGER_MS = 10_000;

/**
 * A request whose Content-Length is over its route's body limit (bodyLimitOf: the upload route's,
 * 1 MiB elsewhere) is answered 413 in the house error body at once, before its body is read, with
 * Connection: close. The connection is then closed the way a client still sending can read the
 * answer: our side is ended after the answer, and what the client goes on sending is read and thrown
 * away until it stops or LINGER_MS pass. (Closing at once, with its bytes unread, resets the
 * connection, and a client still sending loses the answer with it.)
 */
export function registerDeclaredBodyLimits(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const declared = Number(request.headers['content-length']);
    const limit = bodyLimitOf(request.method, request.url, BODY_LIMIT);
    if (!(declared > limit)) return done();
    lingerOnClose(request.raw.socket);
    const message =
      limit === UPLOAD_BODY_LIMIT
        ? `A file may hold at most 25 MiB: this request declares ${declared} bytes (at most ${UPLOAD_BODY_LIMIT} with the multipart framing)`
        : BODY_TOO_LARGE_MESSAGE;
    void reply.header('connection', 'close').code(413).send(errorBody(413, message, pathOf(request.url), request.id));
  });
}

/**
 * Node closes a connection after an answer with Connection: close by `socket.destroySoon()`, which
 * destroys it as soon as the answer is written, whatever the client is still sending. This socket
 * ends its side instead and is destroyed once the client has ended its own, or after LINGER_MS; Node
 * reads (and drops) the rest of the request's body meanwhile.
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function (this: Socket) {
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    this.once('end', () => this.destroy());
    if (this.writable) this.end();
  };
}
