import { Attributes, ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { MsgHdrs } from 'nats';
import { redactUrl } from './logger';

/**
 * A trace context as it travels between processes: the W3C `traceparent` and `tracestate`, in
 * HTTP headers, in outbox rows (columns of the same names) and in NATS message headers.
 */
export interface TraceContext {
  traceparent?: string;
  tracestate?: string;
}

export interface Tracing {
  /** Sends the spans still buffered and stops; bounded, so a collector that is down does not hold the exit. */
  shutdown(): Promise<void>;
}

/** How long the last spans may take to leave at shutdown (the exporter's own timeout is 10 s). */
const SHUTDOWN_FLUSH_MS = 3_000;
/** Probes and scrapes would otherwise make a trace every few seconds each. */
const UNTRACED = /^\/(health\/|metrics$)/;

/**
 * Starts OpenTelemetry tracing for this process when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, and
 * does nothing (loads nothing of the SDK) otherwise. Call it first, before the HTTP server, the
 * DataSource and `pg` exist: instrumentations patch modules as they are required (`pg` is required
 * by TypeORM when the DataSource is created) or in place (`http`), and Fastify instances are
 * instrumented as they are created. The SDK reads the standard variables itself (OTEL_EXPORTER_OTLP_PROTOCOL,
 * OTEL_TRACES_SAMPLER, OTEL_BSP_*, OTEL_RESOURCE_ATTRIBUTES...); the service name defaults to `ddm-<name>`.
 */
export function startTracing(name: string): Tracing | undefined {
  // process.env, not a service's test overrides: the SDK reads its variables from there.
  const env = process.env;
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  // Required here, not imported: with tracing off none of this is loaded.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const sdk = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { FastifyOtelInstrumentation } = require('@fastify/otel') as typeof import('@fastify/otel');
  const instance: NodeSDK = new sdk.NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || `ddm-${name}`,
    // The context crosses NATS and the outbox as W3C fields only (TraceContext), so HTTP uses the same.
    textMapPropagator: new sdk.core.W3CTraceContextPropagator(),
    // Traces only: metrics are Prometheus' (/metrics) and logs are pino's.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      // The URL as the logs have it (a stream ticket, a share-link token: redactUrl), over what the instrumentations record.
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => UNTRACED.test(req.url ?? ''), startIncomingSpanHook: (req) => spanUrl(req.url ?? '') }),
      // Request and handler spans; a span per lifecycle hook would multiply the spans of every request.
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        instrumentHooks: false,
        ignorePaths: (route) => UNTRACED.test(route.url),
        requestHook: (span, request) => span.setAttributes(spanUrl(request.url)),
      }),
      // Statements of a request, a consumed message or a publish; the relay's idle polling stays out.
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  instance.start();
  // Fastify loaded http and https before this ran; requiring them again is what lets the
  // instrumentation patch them (in place: the server already loaded is covered too).
  require('node:http');
  require('node:https');
  /* eslint-enable @typescript-eslint/no-require-imports */
  return {
    shutdown: async () => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_FLUSH_MS).unref()));
      await Promise.race([instance.shutdown().catch(() => undefined), timeout]);
      clearTimeout(timer);
    },
  };
}

/** A request URL as span attributes (OpenTelemetry's url.path and url.query), its secrets redacted as the logs redact them. */
export function spanUrl(url: string): Attributes {
  const redacted = redactUrl(url);
  const q = redacted.indexOf('?');
  return q < 0 ? { 'url.path': redacted } : { 'url.path': redacted.slice(0, q), 'url.query': redacted.slice(q + 1) };
}

/** The active trace context; empty when tracing is off (the API's propagator is then a no-op) or no span is active. */
export function currentTraceContext(): TraceContext {
  const carrier: TraceContext = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** Puts a trace context on NATS message headers. */
export function setTraceHeaders(headers: MsgHdrs, tc: TraceContext): void {
  if (tc.traceparent) headers.set('traceparent', tc.traceparent);
  if (tc.tracestate) headers.set('tracestate', tc.tracestate);
}

/** The trace context a NATS message carries (empty fields when it carries none). */
export function traceContextOf(headers: MsgHdrs | undefined): TraceContext {
  return { traceparent: headers?.get('traceparent') || undefined, tracestate: headers?.get('tracestate') || undefined };
}

const tracer = trace.getTracer('@ddm/platform');

/**
 * Runs `work` outside any trace: for background work (timers keep the context they were set in,
 * so a batch woken by a request would otherwise count as part of that request's trace).
 */
export function untraced<T>(work: () => T): T {
  return context.with(ROOT_CONTEXT, work);
}

/**
 * Runs `work` in a new span that continues the trace of `parent` (a new trace when it is empty);
 * what `work` does (statements, publishes, `currentTraceContext()`) belongs to that span. A failure
 * is recorded on the span and rethrown. With tracing off the span is the API's no-op one.
 */
export function inSpan<T>(name: string, kind: SpanKind, parent: TraceContext, attributes: Attributes, work: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { kind, attributes }, propagation.extract(ROOT_CONTEXT, parent), async (span) => {
    try {
      return await work();
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
}
