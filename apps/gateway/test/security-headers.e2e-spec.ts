import { AddressInfo } from 'node:net';
import { createServer, Server } from 'node:http';
import { FastifyInstance } from 'fastify';
import { buildGateway } from '../src/gateway';

/**
 * The gateway's security headers (helmet) and CORS allow-list (CORS_ORIGINS): on what it answers
 * itself (docs, errors, preflights) and on what it proxies. An upstream stand-in answers JSON.
 */
describe('gateway: security headers and CORS', () => {
  let upstream: Server;
  let gateway: FastifyInstance;
  let base: string;
  let upstreamSawPreflight = false;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      if (req.method === 'OPTIONS') upstreamSawPreflight = true;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    gateway = buildGateway({ config: { upstreams: { settings: url }, logLevel: 'error' }, env: { CORS_ORIGINS: 'https://app.example.com' } });
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await gateway?.close();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  it('sends helmet headers on proxied responses and on its own errors', async () => {
    for (const path of ['/settings/v1/anything', '/nowhere']) {
      const res = await fetch(`${base}${path}`);
      await res.text();
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=/);
      expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    }
  });

  it('keeps the merged Swagger UI loadable: its page and same-origin scripts answer 200 under script-src self (HTTP level; swagger-ui.e2e-spec.ts runs it in headless Chromium)', async () => {
    const page = await fetch(`${base}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    const html = await page.text();
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, inline] of scripts) {
      expect(inline.trim()).toBe('');
      const src = /src="([^"]+)"/.exec(attrs)![1];
      expect(src.startsWith('/')).toBe(true);
      const js = await fetch(`${base}${src}`);
      expect(js.status).toBe(200);
      expect((await js.text()).length).toBeGreaterThan(0);
    }
  });

  it('gives the allowed origin CORS headers, a foreign one none, and answers preflights itself', async () => {
    const allowed = await fetch(`${base}/settings/v1/anything`, { headers: { origin: 'https://app.example.com' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    await allowed.text();
    const foreign = await fetch(`${base}/settings/v1/anything`, { headers: { origin: 'https://evil.example.net' } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    await foreign.text();
    const preflight = await fetch(`${base}/settings/v1/anything`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(upstreamSawPreflight).toBe(false);
  });
});
