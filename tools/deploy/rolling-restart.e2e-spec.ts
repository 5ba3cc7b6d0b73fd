import { once } from 'node:events';
import { Agent, IncomingHttpHeaders, Server, createServer, request } from 'node:http';
import {
  RunningProcess,
  TestDatabase,
  TestNamespace,
  createTestDatabase,
  createTestNamespace,
  freePort,
  runSeed,
  spawnBuilt,
  testEnv,
  tokenFor,
} from '@ddm/testing';

/**
 * A rolling restart, as Kubernetes does it, on this machine: two instances of the auth service
 * behind a Service-like balancer (round robin over its endpoints), the gateway in front of it,
 * requests running without pause. One instance is taken out of the endpoints (what the preStop
 * pause waits for) and sent SIGTERM at once, while it still has requests in flight. Every request
 * must succeed, the stopped instance must finish its in-flight ones and exit 0, and the other must
 * carry the load.
 */

const CONCURRENCY = 8;
const LOAD_MS = 4_000;
const SIGTERM_AT_MS = 1_500;
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

interface Endpoint {
  name: string;
  port: number;
  active: number;
  served: number;
  servedAfterSigterm: number;
}

/** The fixture a Kubernetes Service is: an endpoint list, round robin, kept-alive connections. */
class Balancer {
  readonly endpoints: Endpoint[] = [];
  readonly errors: string[] = [];
  private next = 0;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  private server?: Server;
  sigtermSent = false;

  add(name: string, url: string): Endpoint {
    const ep: Endpoint = { name, port: Number(new URL(url).port), active: 0, served: 0, servedAfterSigterm: 0 };
    this.endpoints.push(ep);
    return ep;
  }

  /** Removes an instance from the endpoints: no new request goes there; the ones in flight go on. */
  remove(ep: Endpoint): void {
    this.endpoints.splice(this.endpoints.indexOf(ep), 1);
  }

  async listen(): Promise<string> {
    const port = await freePort();
    this.server = createServer((req, res) => {
      const ep = this.endpoints[this.next++ % this.endpoints.length];
      if (!ep) {
        res.writeHead(503).end();
        return;
      }
      ep.active++;
      ep.served++;
      if (this.sigtermSent) ep.servedAfterSigterm++;
      const headers: IncomingHttpHeaders = { ...req.headers };
      for (const h of HOP_BY_HOP) delete headers[h];
      const upstream = request({ host: '127.0.0.1', port: ep.port, method: req.method, path: req.url, headers, agent: this.agent }, (up) => {
        const back: IncomingHttpHeaders = { ...up.headers };
        for (const h of HOP_BY_HOP) delete back[h];
        res.writeHead(up.statusCode ?? 502, back);
        up.pipe(res);
        up.on('end', () => ep.active--);
      });
      upstream.on('error', (err) => {
        ep.active--;
        this.errors.push(`${ep.name}: ${(err as NodeJS.ErrnoException).code ?? err.message}`);
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      req.pipe(upstream);
    });
    this.server.keepAliveTimeout = 30_000;
    this.server.listen(port, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${port}`;
  }

  async close(): Promise<void> {
    this.agent.destroy();
    this.server?.closeAllConnections();
    if (this.server?.listening) await new Promise((r) => this.server!.close(r));
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

describe('rolling restart: SIGTERM to one of two auth instances under load, behind the gateway', () => {
  let dbx: TestDatabase;
  let ns: TestNamespace;
  let a: RunningProcess;
  let b: RunningProcess;
  let gateway: RunningProcess;
  const balancer = new Balancer();
  let tenantId: string;

  beforeAll(async () => {
    dbx = await createTestDatabase();
    ns = createTestNamespace();
    const env = testEnv(dbx, ns, { LOG_LEVEL: 'warn', SHUTDOWN_TIMEOUT_MS: '15000' });
    [a, b] = await Promise.all([spawnBuilt('apps/auth/src/main.js', { ...env, PORT: String(await freePort()) }), spawnBuilt('apps/auth/src/main.js', { ...env, PORT: String(await freePort()) })]);
    balancer.add('A', a.url);
    balancer.add('B', b.url);
    const upstream = await balancer.listen();
    gateway = await spawnBuilt('apps/gateway/src/main.js', { AUTH_URL: upstream, LOG_LEVEL: 'warn', PORT: String(await freePort()) }, '/health/live');

    tenantId = runSeed(env).tenantId('Demo Co');
  }, 120_000);

  afterAll(async () => {
    await gateway?.stop();
    await Promise.all([a?.stop(), b?.stop()]);
    await balancer.close();
    await dbx?.drop();
    await ns?.cleanup();
  });

  it('answers every request (zero failures); the stopped instance drains and exits 0; the other takes over', async () => {
    const url = `${gateway.url}/auth/v1/user/tenant/${tenantId}/details`;
    const headers = { authorization: `Bearer ${tokenFor('admin@demo.test')}` };
    const latencies: number[] = [];
    const failures: string[] = [];
    const started = Date.now();
    const deadline = started + LOAD_MS;

    const loop = async () => {
      while (Date.now() < deadline) {
        const t0 = performance.now();
        try {
          const res = await fetch(url, { headers });
          const body = (await res.json()) as { data?: { email?: string } };
          if (res.status !== 200 || body.data?.email !== 'admin@demo.test') failures.push(`${res.status} ${JSON.stringify(body).slice(0, 200)}`);
        } catch (err) {
          failures.push(String((err as Error).cause ?? err));
        }
        latencies.push(performance.now() - t0);
      }
    };

    const [epA, epB] = balancer.endpoints;
    const terminate = (async () => {
      await new Promise((r) => setTimeout(r, SIGTERM_AT_MS));
      // Wait (briefly) for a moment with requests in flight on A, so the drain has work to finish.
      const waitUntil = Date.now() + 500;
      while (epA.active === 0 && Date.now() < waitUntil) await new Promise((r) => setImmediate(r));
      const inFlight = epA.active;
      balancer.remove(epA);
      balancer.sigtermSent = true;
      const t0 = Date.now();
      const exited = once(a.child, 'exit');
      a.child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      return { inFlight, code, shutdownMs: Date.now() - t0, atMs: t0 - started };
    })();

    await Promise.all(Array.from({ length: CONCURRENCY }, loop));
    const stop = await terminate;
    const elapsed = (Date.now() - started) / 1000;
    const sorted = [...latencies].sort((x, y) => x - y);
    const figures = {
      requests: latencies.length,
      failures: failures.length,
      rps: Math.round(latencies.length / elapsed),
      p50ms: Number(percentile(sorted, 50).toFixed(1)),
      p95ms: Number(percentile(sorted, 95).toFixed(1)),
      p99ms: Number(percentile(sorted, 99).toFixed(1)),
      maxMs: Number(sorted[sorted.length - 1].toFixed(1)),
      sigtermAtMs: stop.atMs,
      inFlightOnAAtSigterm: stop.inFlight,
      aShutdownMs: stop.shutdownMs,
      aExitCode: stop.code,
      servedByA: epA.served,
      servedByB: epB.served,
      servedByBAfterSigterm: epB.servedAfterSigterm,
      balancerErrors: balancer.errors.length,
    };
    console.log(`rolling restart (${CONCURRENCY} concurrent loops, ${LOAD_MS} ms): ${JSON.stringify(figures)}`);

    expect(failures.slice(0, 5)).toEqual([]);
    expect(balancer.errors).toEqual([]);
    expect(stop.code).toBe(0);
    expect(stop.inFlight).toBeGreaterThan(0);
    expect(epA.servedAfterSigterm).toBe(0);
    // Both carried the load before; B alone after (the counts depend on the machine's speed).
    expect(epA.served).toBeGreaterThan(10);
    expect(epB.servedAfterSigterm).toBeGreaterThan(10);
    // B answers alone now, through the same gateway.
    const after = await fetch(url, { headers });
    expect(after.status).toBe(200);
  });
});
