import { randomUUID } from 'node:crypto';
import { Transform, TransformCallback, pipeline } from 'node:stream';
import Fastify, { FastifyInstance, LogController } from 'fastify';
import proxy, { FastifyHttpProxyOptions } from '@fastify/http-proxy';
import { LevelWithSilent, Logger } from 'pino';
import { AREAS, AreaName, BODY_LIMIT, BODY_TOO_LARGE_MESSAGE, ROUTES, answerClientError, bodyLimitOf, errorBody } from '@ddm/contracts';
import { createLogger, currentTraceContext, redactUrl, registerSecurityHeaders } from '@ddm/platform';
import { GatewayConfig, loadGatewayConfig } from './config';
import { MergedDocs, registerDocs } from './docs';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const RETRY_AFTER_SECONDS = '5';
/** The upstream cannot be reached at all: nothing listens there (yet), or the name does not resolve. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'FST_REPLY_FROM_SERVICE_UNAVAILABLE']);
const TIMED_OUT = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'FST_REPLY_FROM_GATEWAY_TIMEOUT', 'FST_REPLY_FROM_TIMEOUT']);
const READY_CHECK_TIMEOUT_MS = 1_000;

export interface GatewayOptions {
  /** Overrides of the configuration read from `env` (e.g. `upstreams: { auth: 'http://127.0.0.1:4000' }` in a test). */
  config?: Partial<Omit<GatewayConfig, 'upstreams'>> & { upstreams?: Partial<Record<AreaName, string>> };
  /** Environment to read the configuration from (process.env by default). */
  env?: Record<string, string | undefined>;
  logger?: Logger;
}

const BODY_TOO_LARGE = 'FST_ERR_CTP_BODY_TOO_LARGE';
/** The services' wording (libs/contracts FASTIFY_ERRORS), so a 413 reads the same wherever it was decided. */
const bodyTooLargeMessage = (limit: number) => (limit === BODY_LIMIT ? BODY_TOO_LARGE_MESSAGE : `Request body is larger than the ${limit}-byte limit`);

/** Passes a chunked body through and fails it once it grows past the limit (the upstream request is then aborted). */
class BodyLimit extends Transform {
  private seen = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) callback(Object.assign(new Error(bodyTooLargeMessage(this.limit)), { code: BODY_TOO_LARGE, statusCode: 413 }));
    else callback(null, chunk);
  }
}

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

interface ReplyLike {
  header(key: string, value: string): unknown;
  code(status: number): unknown;
  send(payload: unknown): unknown;
}

/** Every failure the gateway itself answers leaves as the project's error body, with the request id. */
function sendError(request: { id: string; url: string }, reply: ReplyLike, status: number, message: string): unknown {
  if (status === 503) reply.header('retry-after', RETRY_AFTER_SECONDS);
  reply.header('x-request-id', request.id);
  reply.code(status);
  return reply.send(errorBody(status, message, pathOf(request.url), request.id));
}

/**
 * The local ingress: each prefix of the route table goes, path unchanged, to its service over
 * kept-alive connections; the merged OpenAPI document and Swagger UI live at /docs.
 * Returns the app not yet listening (`listen({ port: 0 })` in tests, `inject` works too).
 */
export function buildGateway(options: GatewayOptions = {}): FastifyInstance {
  const base = loadGatewayConfig(options.env ?? process.env);
  const upstreams = { ...base.upstreams };
  for (const [area, url] of Object.entries(options.config?.upstreams ?? {})) if (url) upstreams[area as AreaName] = new URL(url).origin;
  const config: GatewayConfig = { ...base, ...options.config, upstreams };
  const logger = options.logger ?? createLogger('gateway', config.logLevel);
  // reply-from warns on every upstream failure; the one line per failed request comes from onResponse below.
  const proxyLogLevel = (['debug', 'trace'].includes(config.logLevel) ? config.logLevel : 'error') as LevelWithSilent;
  const upstreamFailures = new WeakMap<object, string>();
  let closing = false;

  const app = Fastify({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: config.bodyLimit,
    return503OnClosing: false,
    // What Node's HTTP parser refuses (an invalid Content-Length...) leaves as the house error body too.
    clientErrorHandler: answerClientError,
  }) as unknown as FastifyInstance;

  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (closing) {
      reply.header('connection', 'close');
      sendError(request, reply, 503, 'The gateway is shutting down; retry shortly');
      return;
    }
    // Bodies are streamed, not parsed, so fastify's bodyLimit does not apply to proxied routes.
    // The upload route takes a 25 MiB file (streamed to the document service); every other route the configured limit.
    const limit = bodyLimitOf(request.method, request.url, config.bodyLimit);
    const declared = request.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) {
      reply.header('connection', 'close');
      sendError(request, reply, 413, bodyTooLargeMessage(limit));
      return;
    }
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode >= 500) {
      const entry = {
        requestId: request.id,
        method: request.method,
        url: redactUrl(request.url),
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        upstreamError: upstreamFailures.get(request),
      };
      // A 503 with Retry-After is an answer the client is told to retry (a service waiting on its
      // database, a shutdown): a warning. Anything else above 499 is a failure. (The gateway's own
      // logger: a proxied route's request logger is at the proxy's level, 'error'.)
      if (reply.statusCode === 503 && reply.getHeader('retry-after') !== undefined) logger.warn(entry, 'request refused for now (503, retry)');
      else logger.error(entry, 'request failed');
    }
    done();
  });

  app.setNotFoundHandler((request, reply) => sendError(request, reply, 404, `No route for ${request.method} ${pathOf(request.url)}`));
  app.setErrorHandler((err: Error & { statusCode?: number }, request, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
    if (status >= 500) upstreamFailures.set(request, err.message);
    return sendError(request, reply, status, status < 500 ? err.message : 'Internal server error');
  });

  const undici = {
    connections: config.upstreamConnections,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    headersTimeout: config.upstreamTimeoutMs,
    bodyTimeout: config.upstreamTimeoutMs,
    connect: { timeout: 5_000 },
  };

  type UpstreamError = Error & { code?: string; statusCode?: number; cause?: { code?: string } };
  function replyOptions(area: AreaName): NonNullable<FastifyHttpProxyOptions['replyOptions']> {
    return {
      // Also turns off reply-from's own retry of GETs answered 503 (a service's 503 must reach the client);
      // a GET on a kept-alive socket the service just closed is retried once.
      retriesCount: 1,
      rewriteRequestHeaders: (request, headers) => {
        headers['x-request-id'] = request.id;
        // undici is not instrumented: the gateway's span is handed on here, so the service's span is its child (nothing when tracing is off).
        Object.assign(headers, currentTraceContext());
        // Node already answered the client's `Expect: 100-continue`; undici refuses to send the header.
        if (headers.expect !== undefined) delete headers.expect;
        const forwarded = headers['x-forwarded-for'];
        headers['x-forwarded-for'] = forwarded ? `${forwarded}, ${request.ip}` : request.ip;
        headers['x-forwarded-proto'] ??= request.protocol;
        headers['x-forwarded-host'] ??= request.headers.host;
        return headers;
      },
      // Hop-by-hop: the gateway's own server decides how the client connection is kept.
      rewriteHeaders: (headers) => {
        if (headers.connection !== undefined) delete headers.connection;
        if (headers['keep-alive'] !== undefined) delete headers['keep-alive'];
        return headers;
      },
      onError: (reply, { error: err }) => {
        const error = err as UpstreamError;
        const code = error.cause?.code ?? error.code ?? '';
        upstreamFailures.set(reply.request, code || error.message);
        if (code === BODY_TOO_LARGE) {
          reply.header('connection', 'close');
          sendError(reply.request, reply, 413, bodyTooLargeMessage(bodyLimitOf(reply.request.method, reply.request.url, config.bodyLimit)));
        } else if (UNREACHABLE.has(code) || UNREACHABLE.has(error.code ?? '')) {
          sendError(reply.request, reply, 503, `The ${area} service is unavailable; retry shortly`);
        } else if (TIMED_OUT.has(code) || error.statusCode === 504) {
          sendError(reply.request, reply, 504, `The ${area} service did not answer in time`);
        } else {
          sendError(reply.request, reply, 502, `The ${area} service failed to answer`);
        }
      },
    };
  }

  // The services' security headers and CORS allow-list, on everything the gateway answers (before
  // the proxies are registered, so their routes get the hooks too); preflights are answered here.
  registerSecurityHeaders(app, config.corsOrigins);

  // All proxies share one scope whose only body "parser" hands the raw stream on: bodies are never parsed here.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (request, payload, done) => {
      // A declared length is checked in onRequest and enforced by Node; a chunked body is counted on the way.
      if (request.headers['content-length'] !== undefined) return done(null, payload);
      // pipeline, not pipe: a client that goes away mid-body must abort the upstream request too.
      done(null, pipeline(payload, new BodyLimit(bodyLimitOf(request.method, request.url, config.bodyLimit)), () => undefined));
    });
    for (const route of ROUTES) {
      await scope.register(proxy, {
        upstream: config.upstreams[route.area],
        prefix: route.path,
        rewritePrefix: route.path,
        proxyPayloads: false,
        internalRewriteLocationHeader: false,
        disableRequestLogging: true,
        destroyAgent: true,
        undici,
        replyOptions: replyOptions(route.area),
        logLevel: proxyLogLevel,
      });
    }
    // The notifications service serves its own document at /docs-json, which is the merged one here.
    await scope.register(proxy, {
      upstream: config.upstreams.notifications,
      prefix: '/docs/notifications-json',
      rewritePrefix: '/docs-json',
      routes: ['/'],
      httpMethods: ['GET', 'HEAD'],
      proxyPayloads: false,
      internalRewriteLocationHeader: false,
      disableRequestLogging: true,
      destroyAgent: true,
      undici: { ...undici, connections: 2 },
      replyOptions: replyOptions('notifications'),
      logLevel: proxyLogLevel,
    });
  });

  app.get('/health/live', async () => ({ status: 'ok' }));
  app.get('/health/ready', async (_request, reply) => {
    if (closing) return reply.code(503).header('retry-after', RETRY_AFTER_SECONDS).send({ status: 'shutting-down' });
    // The gateway is ready as long as it runs; the services' state is reported for information.
    const states = await Promise.all(AREAS.map((area) => serviceState(config.upstreams[area])));
    return { status: 'ok', services: Object.fromEntries(AREAS.map((area, i) => [area, states[i]])) };
  });

  registerDocs(app, new MergedDocs(config.upstreams, config.docsCacheMs, logger));
  return app;
}

async function serviceState(upstream: string): Promise<string> {
  try {
    const res = await fetch(`${upstream}/health/ready`, { signal: AbortSignal.timeout(READY_CHECK_TIMEOUT_MS) });
    await res.body?.cancel();
    return res.ok ? 'up' : `not ready (${res.status})`;
  } catch (err) {
    return `down (${(err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name})`;
  }
}
