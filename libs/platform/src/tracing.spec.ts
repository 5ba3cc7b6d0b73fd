import { SpanKind, context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { headers as natsHeaders } from 'nats';
import type { Queryable } from './queryable';
import { addManyToOutbox, addToOutbox } from './outbox';
import { currentTraceContext, inSpan, setTraceHeaders, spanUrl, traceContextOf } from './tracing';

const EVENT = 'evt.auth.tenant.created' as const;
const PAYLOAD = { tenantId: '0190a000-0000-7000-8000-0000000000aa', name: 'Acme' };
const PARENT = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: 'vendor=opaque' };

/** A Queryable that keeps the parameters of each statement, for the outbox rows' columns. */
function recorder(): Queryable & { params: unknown[][] } {
  const params: unknown[][] = [];
  return { params, query: async (_text: unknown, values?: readonly unknown[]) => (params.push([...(values ?? [])]), []) } as Queryable & { params: unknown[][] };
}

describe('trace context with tracing off (no SDK registered)', () => {
  it('is empty, writes no header, and inSpan still runs the work', async () => {
    expect(currentTraceContext()).toEqual({});
    const h = natsHeaders();
    setTraceHeaders(h, currentTraceContext());
    expect(h.has('traceparent')).toBe(false);
    await expect(inSpan('work', SpanKind.INTERNAL, PARENT, {}, async () => currentTraceContext())).resolves.toEqual({});
  });

  it('leaves the outbox trace columns null', async () => {
    const q = recorder();
    await addToOutbox(q, 'x', EVENT, PAYLOAD);
    // id, subject, payload, request_id, traceparent, tracestate, change_id
    expect(q.params[0].slice(4, 6)).toEqual([null, null]);
  });
});

describe('trace context with tracing on (W3C propagator, spans kept in memory)', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

  beforeAll(() => provider.register());
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });
  beforeEach(() => exporter.reset());

  it('inSpan continues the parent trace: same trace id, the parent span as parent, kind and attributes', async () => {
    const inside = await inSpan('publish evt.x', SpanKind.PRODUCER, PARENT, { 'messaging.system': 'nats' }, async () => currentTraceContext());
    const [span] = exporter.getFinishedSpans();
    expect(span.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(span.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    expect(span.kind).toBe(SpanKind.PRODUCER);
    expect(span.attributes).toEqual({ 'messaging.system': 'nats' });
    // Inside, the active context is the new span's, with the parent's trace state.
    expect(inside).toEqual({ traceparent: `00-0af7651916cd43dd8448eb211c80319c-${span.spanContext().spanId}-01`, tracestate: 'vendor=opaque' });
  });

  it('inSpan with an empty parent starts a new trace', async () => {
    await inSpan('process evt.x', SpanKind.CONSUMER, {}, {}, async () => undefined);
    const [span] = exporter.getFinishedSpans();
    expect(span.parentSpanContext).toBeUndefined();
  });

  it('inSpan records a failure on the span and rethrows it', async () => {
    await expect(inSpan('process evt.x', SpanKind.CONSUMER, PARENT, {}, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const [span] = exporter.getFinishedSpans();
    expect(span.status).toMatchObject({ code: 2, message: 'boom' });
    expect(span.events.map((e) => e.name)).toEqual(['exception']);
  });

  it('carries the context through NATS headers: the consumer span is a child of the publish span', async () => {
    const h = natsHeaders();
    await inSpan('publish evt.x', SpanKind.PRODUCER, PARENT, {}, async () => setTraceHeaders(h, currentTraceContext()));
    expect(traceContextOf(h).tracestate).toBe('vendor=opaque');
    await inSpan('process evt.x', SpanKind.CONSUMER, traceContextOf(h), {}, async () => undefined);
    const [publish, consume] = exporter.getFinishedSpans();
    expect(consume.spanContext().traceId).toBe(publish.spanContext().traceId);
    expect(consume.parentSpanContext?.spanId).toBe(publish.spanContext().spanId);
  });

  it('reads nothing from a message without trace headers', () => {
    expect(traceContextOf(natsHeaders())).toEqual({ traceparent: undefined, tracestate: undefined });
    expect(traceContextOf(undefined)).toEqual({ traceparent: undefined, tracestate: undefined });
  });

  it("writes the active context into the outbox rows' columns, one or many", async () => {
    const q = recorder();
    const tc = await inSpan('POST /things', SpanKind.SERVER, PARENT, {}, async () => {
      await addToOutbox(q, 'x', EVENT, PAYLOAD);
      await addManyToOutbox(q, 'x', EVENT, [PAYLOAD, PAYLOAD]);
      return currentTraceContext();
    });
    expect(tc.traceparent).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/);
    expect(q.params[0].slice(4, 6)).toEqual([tc.traceparent, 'vendor=opaque']);
    // subject, request_id, traceparent, tracestate, ids, payloads, change_id
    expect(q.params[1].slice(2, 4)).toEqual([tc.traceparent, 'vendor=opaque']);
  });
});

describe('spanUrl (the URL a server span records)', () => {
  it('splits path and query and redacts what the logs redact', () => {
    expect(spanUrl('/v1/notifications/stream?ticket=q0Zr3c8mJ1c2&lastEventId=7')).toEqual({ 'url.path': '/v1/notifications/stream', 'url.query': 'ticket=[redacted]&lastEventId=7' });
    expect(spanUrl('/matrix/v1/shared/s3cr3t-token')).toEqual({ 'url.path': '/matrix/v1/shared/[redacted]' });
    expect(spanUrl('/settings/v1/groups?limit=5')).toEqual({ 'url.path': '/settings/v1/groups', 'url.query': 'limit=5' });
  });
});
