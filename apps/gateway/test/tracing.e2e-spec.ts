import { randomBytes } from 'node:crypto';
import {
  OTLP_KIND,
  OtlpReceiver,
  ReceivedSpan,
  TestSystem,
  startOtlpReceiver,
  startTestSystem,
  tokenFor,
  until,
} from '@ddm/testing';

/**
 * Tracing on (OTEL_EXPORTER_OTLP_ENDPOINT set): the built gateway, settings and auth export their
 * spans to a receiver in this test, and one request's trace runs through all of them — the
 * gateway, the settings service and its statements, the outbox relay's publish, and auth's
 * consumer of the event with its statements.
 */
describe('system: one trace from the gateway through settings, Postgres and NATS to auth', () => {
  let otlp: OtlpReceiver;
  let system: TestSystem;
  let tenantId: string;
  const admin = tokenFor('admin@demo.test');

  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    system = await startTestSystem({ areas: ['auth', 'settings'], env: otlp.env, gatewayEnv: otlp.env });
    tenantId = system.seeded.tenantId('Demo Co');
  }, 120_000);

  afterAll(async () => {
    await system?.close();
    await otlp?.close();
  });

  it('creating a position: gateway -> settings -> its INSERT -> the relay publish -> auth consumes it and writes, all one trace', async () => {
    const [group] = (await system.http.get(`/settings/v1/groups?search=Finance`, { token: admin })).body.data.data;
    // The client's own trace context: every span of the request must join this trace.
    const traceId = randomBytes(16).toString('hex');
    const clientSpanId = randomBytes(8).toString('hex');
    const created = await system.http.post('/settings/v1/positions', {
      token: admin,
      headers: { traceparent: `00-${traceId}-${clientSpanId}-01` },
      body: { tenantId, positionName: 'Traced Controller', groupIds: [group.id] },
    });
    expect(created.status).toBe(200);

    const ofTrace = () => otlp.spans.filter((s) => s.traceId === traceId);
    const statement = (s: ReceivedSpan) => String(s.attributes['db.statement'] ?? s.attributes['db.query.text'] ?? '');
    // Each step's span descends from the previous step's (parent links, across processes).
    const descends = (span: ReceivedSpan, ancestor: ReceivedSpan) => {
      const byId = new Map(ofTrace().map((s) => [s.spanId, s]));
      for (let s: ReceivedSpan | undefined = span; s; s = s.parentSpanId ? byId.get(s.parentSpanId) : undefined) if (s.parentSpanId === ancestor.spanId) return true;
      return false;
    };
    const chain = () => {
      const find = (service: string, kind: number, test: (s: ReceivedSpan) => boolean) => ofTrace().find((s) => s.service === service && s.kind === kind && test(s));
      const gatewayServer = find('ddm-gateway', OTLP_KIND.server, (s) => s.parentSpanId === clientSpanId);
      const settingsServer = gatewayServer && find('ddm-settings', OTLP_KIND.server, (s) => descends(s, gatewayServer));
      const settingsInsert = settingsServer && find('ddm-settings', OTLP_KIND.client, (s) => statement(s).includes('INSERT INTO settings.positions') && descends(s, settingsServer));
      const publish = settingsServer && find('ddm-settings', OTLP_KIND.producer, (s) => s.name === 'publish evt.settings.position.created' && descends(s, settingsServer));
      const consume = publish && find('ddm-auth', OTLP_KIND.consumer, (s) => s.name === 'process evt.settings.position.created' && s.parentSpanId === publish.spanId);
      // The handler's own write: auth's copy of the position.
      const authStatement = consume && find('ddm-auth', OTLP_KIND.client, (s) => statement(s).includes('position_projection') && descends(s, consume));
      return settingsInsert && authStatement && { gatewayServer, settingsServer: settingsServer!, settingsInsert: settingsInsert!, publish: publish!, consume: consume!, authStatement };
    };
    const spans = await until(chain, `the spans of trace ${traceId}`, 15_000).catch((err: Error) => {
      throw new Error(`${err.message}; received: ${JSON.stringify(ofTrace().map((s) => [s.service, s.kind, s.name, s.spanId, s.parentSpanId]))}`);
    });

    // The service's server span is the gateway's child, not the client's: the gateway handed its own context on.
    expect(ofTrace().find((s) => s.spanId === spans.settingsServer.parentSpanId)?.service).toBe('ddm-gateway');
    expect(spans.publish.attributes).toMatchObject({ 'messaging.system': 'nats', 'messaging.destination.name': system.ns.subjects.wire('evt.settings.position.created') });
    expect(spans.consume.attributes).toMatchObject({ 'messaging.system': 'nats', 'messaging.operation.type': 'process' });
    // Server spans come from the http instrumentation (`POST <route>`), with Fastify's spans beneath them.
    expect([spans.gatewayServer.name, spans.settingsServer.name]).toEqual(['POST /settings/*', 'POST /settings/v1/positions']);
  });

  it('a secret in a URL (a stream ticket, a token, a share link) reaches no span: redacted as in the logs', async () => {
    const secret = randomBytes(12).toString('hex');
    const traceIds = [randomBytes(16).toString('hex'), randomBytes(16).toString('hex')];
    const traced = (traceId: string) => ({ token: admin, headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` } });
    // Answered by settings (a query it refuses), and by the gateway alone (no matrix service runs here): both record the URL.
    await system.http.get(`/settings/v1/groups?ticket=${secret}&access_token=${secret}&limit=5`, traced(traceIds[0]));
    await system.http.get(`/matrix/v1/shared/${secret}?page=1`, traced(traceIds[1]));
    const ofTrace = (traceId: string) => otlp.spans.filter((s) => s.traceId === traceId);
    // Every span that records the URL: the gateway's server and request spans, and settings' (the services end them as they answer).
    const recorded = await until(
      () => {
        const first = ofTrace(traceIds[0]).filter((s) => 'url.path' in s.attributes);
        const second = ofTrace(traceIds[1]).filter((s) => 'url.path' in s.attributes);
        const services = new Set(first.map((s) => s.service));
        return services.has('ddm-gateway') && services.has('ddm-settings') && first.length >= 4 && second.length >= 2 && [...first, ...second];
      },
      'the spans of both requests that record their URL',
      15_000,
    );
    for (const span of recorded) expect(JSON.stringify(span.attributes)).not.toContain(secret);
    expect(recorded.some((s) => s.attributes['url.query'] === 'ticket=[redacted]&access_token=[redacted]&limit=5')).toBe(true);
    expect(recorded.some((s) => s.attributes['url.path'] === '/matrix/v1/shared/[redacted]')).toBe(true);
  });
});
