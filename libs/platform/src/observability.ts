import { FastifyInstance } from 'fastify';
import { Logger } from 'pino';
import { redactUrl } from './logger';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One Prometheus registry per process (tests may boot several apps in one process). */
let registry: Registry | undefined;
let httpDuration: Histogram<'method' | 'route' | 'status'>;
let httpTotal: Counter<'method' | 'route' | 'status'>;
let consumerRestarts: Counter<'consumer'>;

export function metricsRegistry(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
    httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    });
    httpTotal = new Counter({ name: 'http_requests_total', help: 'HTTP requests', labelNames: ['method', 'route', 'status'], registers: [registry] });
    consumerRestarts = new Counter({
      name: 'ddm_consumer_restarts_total',
      help: 'Consumer loops that ended (iterator closed, error) and were started again',
      labelNames: ['consumer'],
      registers: [registry],
    });
  }
  return registry;
}

/** Counts one restart of a consumer's loop (`ddm_consumer_restarts_total{consumer}`). */
export function countConsumerRestart(consumer: string): void {
  metricsRegistry();
  consumerRestarts.inc({ consumer });
}

export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

/**
 * `/health/live`, `/health/ready` and `/metrics` on the service port, outside the global prefix
 * and the guard; a per-request access log line and request metrics.
 */
export function registerObservability(fastify: FastifyInstance, checks: () => ReadinessCheck[], state: { shuttingDown: boolean }, log: Logger): void {
  const reg = metricsRegistry();
  fastify.get('/health/live', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  fastify.get('/health/ready', { logLevel: 'warn' }, async (_req, reply) => {
    if (state.shuttingDown) return reply.code(503).send({ status: 'shutting-down' });
    const results: Record<string, string> = {};
    let ok = true;
    for (const c of checks()) {
      try {
        await c.check();
        results[c.name] = 'up';
      } catch (err) {
        ok = false;
        results[c.name] = `down: ${(err as Error).message}`;
      }
    }
    if (!ok) reply.header('Retry-After', '5');
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', checks: results });
  });
  fastify.get('/metrics', { logLevel: 'warn' }, async (_req, reply) => reply.type(reg.contentType).send(await reg.metrics()));

  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route, status: String(reply.statusCode) };
    const seconds = reply.elapsedTime / 1000;
    httpDuration.observe(labels, seconds);
    httpTotal.inc(labels);
    // A 503 (a dependency down, draining) was said by whoever refused it; a 500 is a fault.
    const level = reply.statusCode >= 500 && reply.statusCode !== 503 ? 'error' : reply.statusCode === 503 ? 'warn' : 'info';
    if (!route.startsWith('/health') && route !== '/metrics' && log.isLevelEnabled(level)) {
      log[level]({ requestId: request.id, method: request.method, url: redactUrl(request.url), statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 }, 'request completed');
    }
    done();
  });
}
