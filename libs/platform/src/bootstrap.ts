import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyError, FastifyReply, FastifyRequest, LogController } from 'fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AreaName, BODY_LIMIT, CallerGuard, RETRY_AFTER_SECONDS, RequestInputChecks, ResponseEnvelope, answerClientError, docsPath, errorBody, frameworkErrorBody, routeOf } from '@ddm/contracts';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ConfigError, ServiceConfig, loadConfig } from './config';
import { ServiceDataSource } from './database';
import { auditModule } from './audit.controller';
import { IdempotencyModule, IdempotencyStore, registerIdempotency } from './idempotency';
import { PinoNestLogger, createLogger, requestLogger } from './logger';
import { NatsClient } from './nats';
import { registerDeclaredBodyLimits, registerRateLimits, registerSecurityHeaders } from './hardening';
import { registerObservability } from './observability';
import { PlatformModule } from './platform.module';
import { RequestStepsGuard, ServiceHttpAdapter } from './request-steps';
import { describeEnvelopes } from './openapi';
import { CONSISTENCY_TOKEN_HEADER, encodeConsistencyToken } from './consistency';
import { WorkContext, requestContext } from './request-context';
import { exitGracefullyOnSignals } from './shutdown';
import { startTracing } from './tracing';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Where a request keeps its work context (the one its handler runs in). */
const WORK = Symbol('work');
type WorkingRequest = FastifyRequest & { [WORK]?: WorkContext };


export interface ServiceDefinition {
  area: AreaName;
  dataSource: ServiceDataSource;
  /** Overrides for tests (environment otherwise). */
  env?: Record<string, string | undefined>;
}

export interface ServiceApp {
  app: NestFastifyApplication;
  config: ServiceConfig;
  logger: Logger;
  state: { shuttingDown: boolean };
}

/** Builds a service (not yet listening): Fastify, platform module, prefix, swagger, health, metrics. */
export async function createServiceApp(appModule: Type<unknown>, def: ServiceDefinition): Promise<ServiceApp> {
  const config = loadConfig(def.area, def.env ?? process.env);
  const logger = createLogger(def.area, config.logLevel);
  const state = { shuttingDown: false };

  @Module({ imports: [PlatformModule.forRoot({ config, logger, dataSource: def.dataSource }), IdempotencyModule, auditModule(def.area), appModule] })
  class ServiceRootModule {}

  const adapter = new ServiceHttpAdapter({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    childLoggerFactory: requestLogger,
    bodyLimit: BODY_LIMIT,
    // The client address (request.ip, the rate-limit key of callers without a token) from X-Forwarded-For of trusted proxies only.
    trustProxy: config.trustProxy,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Requests arriving while draining get our own 503 body (hook below), not fastify's.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // What Node's HTTP parser refuses (an invalid Content-Length...) leaves as the house error body too.
    clientErrorHandler: answerClientError,
    // The router's own refusals (a path parameter over 100 characters, a malformed URL) leave as the project's error body too.
    frameworkErrors: (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const body = frameworkErrorBody(err, request.url, request.id);
      void reply.header('x-request-id', request.id).code(body.statusCode).send(body);
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(ServiceRootModule, adapter, {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  // JSON only: anything else is a 415 (fastify's default text/plain parser is removed).
  fastify.removeContentTypeParser('text/plain');
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (state.shuttingDown) {
      reply.header('connection', 'close').header('retry-after', RETRY_AFTER_SECONDS).code(503);
      reply.send(errorBody(503, 'The service is shutting down; retry shortly', request.url.split('?')[0], request.id));
      return;
    }
    // The request's work context, kept on the request too: what the request commits (`changes`) is answered as its consistency token.
    const work: WorkContext = { requestId: request.id, changes: [] };
    requestContext.enterWith(work);
    (request as WorkingRequest)[WORK] = work;
    done();
  });
  // While draining, answer with Connection: close, so keep-alive sockets end with their last
  // response instead of holding the shutdown open. A successful answer of a request that committed
  // changes names them in x-consistency-token (consistency.ts); this hook comes before the
  // idempotency hook (registerIdempotency, below), which keeps the header for a replay.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (state.shuttingDown) reply.header('connection', 'close');
    const changes = (request as WorkingRequest)[WORK]?.changes;
    if (changes?.length && reply.statusCode >= 200 && reply.statusCode < 300) {
      const token = encodeConsistencyToken(changes);
      if (token) reply.header(CONSISTENCY_TOKEN_HEADER, token);
      else logger.warn({ requestId: request.id, changes: changes.length }, 'the changes of this request do not fit in a consistency token: none answered');
    }
    done(null, payload);
  });
  // Security headers, CORS from CORS_ORIGINS, then the abuse limits (after the request id is set).
  registerSecurityHeaders(fastify, config.corsOrigins);
  const tenantLimit = await registerRateLimits(fastify, def.area, config.rateLimit, logger);
  // A body declared over its route's limit: a 413 before it is read (the upload route's included).
  registerDeclaredBodyLimits(fastify);
  // The one guard: the caller, its tenant to the work's context (row-level security), the
  // tenant's rate budget, the input checks, the Idempotency-Key; the adapter adds the envelope.
  const idempotency = registerIdempotency(fastify, app.get(IdempotencyStore), logger);
  app.useGlobalGuards(new RequestStepsGuard(app.get(CallerGuard), tenantLimit, app.get(RequestInputChecks), idempotency, app.get(ResponseEnvelope)));
  const ds = app.get(DataSource);
  const nats = app.get(NatsClient);
  // Ready only once the schema is migrated (with MIGRATIONS_RUN=false another process migrates,
  // e.g. the Kubernetes init container); checked until true, then remembered.
  let migrated = false;
  registerObservability(
    fastify,
    () => [
      { name: 'postgres', check: async () => void (await ds.query('SELECT 1')) },
      { name: 'nats', check: () => nats.ping() },
      {
        name: 'migrations',
        check: async () => {
          if (migrated) return;
          const pending = await ds.showMigrations().catch((err: Error) => {
            throw new Error(`pending migrations (${err.message})`);
          });
          if (pending) throw new Error('pending migrations');
          migrated = true;
        },
      },
    ],
    state,
    logger,
  );

  const route = routeOf(def.area);
  if (route.globalPrefix) app.setGlobalPrefix(route.globalPrefix);
  const docs = new DocumentBuilder()
    .setTitle(`Decision and Delegation Management: ${def.area}`)
    .setVersion('1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'accessToken')
    .addSecurityRequirements('accessToken')
    .build();
  const document = describeEnvelopes(SwaggerModule.createDocument(app, docs));
  const path = docsPath(def.area);
  SwaggerModule.setup(path.slice(1), app, document, { jsonDocumentUrl: `${path}-json`, useGlobalPrefix: false, raw: ['json'] });
  await app.init();
  return { app, config, logger, state };
}

/**
 * Starts a service: tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set, then listens on PORT, and on
 * SIGTERM/SIGINT stops taking requests, lets the in-flight ones finish, drains NATS, closes the
 * pool, sends the last spans and exits 0 (1 past SHUTDOWN_TIMEOUT_MS).
 */
export async function bootstrapService(appModule: Type<unknown>, def: ServiceDefinition): Promise<ServiceApp> {
  // First of all: the instrumentations must be in place before the HTTP server and pg exist.
  const tracing = startTracing(def.area);
  let service: ServiceApp;
  try {
    service = await createServiceApp(appModule, def);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${def.area}: configuration error: ${err.message}\n`);
    } else {
      process.stderr.write(`${def.area}: failed to start: ${(err as Error).stack ?? err}\n`);
    }
    process.exit(1);
  }
  const { app, config, logger, state } = service;
  await app.listen({ port: config.port, host: config.host });
  logger.info({ port: config.port, docs: `${docsPath(def.area)}` }, `${def.area} service listening`);

  const close = async () => {
    await app.close();
    // After HTTP, NATS and the pool: the spans of the drained work are sent too.
    await tracing?.shutdown();
  };
  exitGracefullyOnSignals(close, logger, config.shutdownTimeoutMs, () => (state.shuttingDown = true));
  return service;
}
