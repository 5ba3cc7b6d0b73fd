import { AddressInfo } from 'node:net';
import { createServer, Server } from 'node:http';
import { Writable } from 'node:stream';
import { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildGateway } from '../src/gateway';
import { until } from '@ddm/testing';

/**
 * What the gateway logs of an answer above 499: one line per request, an error for a failure, a
 * warning for a 503 that tells the client to retry (Retry-After), and never a share-link token of
 * the path. An upstream stand-in answers what each path asks for.
 */
describe('gateway: the log line of a failed request', () => {
  let upstream: Server;
  let gateway: FastifyInstance;
  let base: string;
  const lines: { level: number; msg: string; url?: string; statusCode?: number }[] = [];

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      if (req.url!.includes('/busy')) res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"statusCode":503}');
      else if (req.url!.includes('/no-retry')) res.writeHead(503, { 'content-type': 'application/json' }).end('{"statusCode":503}');
      else res.writeHead(500, { 'content-type': 'application/json' }).end('{"statusCode":500}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    gateway = buildGateway({ config: { upstreams: { settings: url, matrix: url }, logLevel: 'info' }, logger: pino({ level: 'info' }, sink) });
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await gateway?.close();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  const logged = async (path: string, status: number) => {
    lines.length = 0;
    const res = await fetch(`${base}${path}`);
    await res.text();
    expect(res.status).toBe(status);
    // The request's completion line, written after the answer was sent.
    return until(() => {
      const completed = lines.filter((l) => l.statusCode !== undefined);
      return completed.length > 0 && completed;
    }, `the log line of ${path}`, 5_000);
  };

  it('logs a 503 with Retry-After as a warning, other 5xx as errors', async () => {
    expect(await logged('/settings/v1/busy', 503)).toEqual([expect.objectContaining({ level: 40, statusCode: 503, url: '/settings/v1/busy' })]);
    expect(await logged('/settings/v1/no-retry', 503)).toEqual([expect.objectContaining({ level: 50, statusCode: 503 })]);
    expect(await logged('/settings/v1/broken', 500)).toEqual([expect.objectContaining({ level: 50, statusCode: 500, msg: 'request failed', requestId: expect.any(String) })]);
  });

  it('never writes the token of a shared matrix link (a credential in the path)', async () => {
    const token = 'sharetoken-3b1f9c0e7d2a4e8f';
    const entries = await logged(`/matrix/v1/shared/${token}?password=hunter2`, 500);
    expect(entries).toHaveLength(1);
    expect(entries[0].url).toBe('/matrix/v1/shared/[redacted]?password=[redacted]');
    expect(JSON.stringify(lines)).not.toContain(token);
    expect(JSON.stringify(lines)).not.toContain('hunter2');
  });
});
