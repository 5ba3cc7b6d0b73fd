import { AddressInfo } from 'node:net';
import { createServer, Server } from 'node:http';
import { FastifyInstance } from 'fastify';
import { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { AREAS, docsPath } from '@ddm/contracts';
import { RunningProcess, TestDatabase, TestNamespace, createTestDatabase, createTestNamespace, assertChromium, launchChromium, spawnBuilt, testEnv, until } from '@ddm/testing';
import { buildGateway } from '../src/gateway';
import { MERGED_TITLE } from '../src/openapi-merge';

/**
 * The Swagger UIs in a real browser (headless Chromium driven by playwright-core), under the
 * security headers they are served with in production (helmet's defaults, CSP included): the
 * gateway's /docs (the merged document, and each area's through the dropdown) in front of the real
 * settings service (built, as its own process, on its own database and NATS namespace) and a
 * stand-in decision service, and the settings service's own UI. Nothing
 * may be refused by the Content-Security-Policy, nothing may throw; that the detector sees a
 * refusal at all is checked on a page with an inline script, served under the same headers.
 *
 * Each UI is opened twice: at 127.0.0.1, and at a host name of its own (mapped to 127.0.0.1 and
 * treated as a secure origin, as it is behind TLS in production: over plain HTTP helmet's
 * upgrade-insecure-requests would send every script to https://). Swagger UI behaves differently
 * off loopback: it shows the online validator's badge, an image from validator.swagger.io, which
 * img-src 'self' refuses (and which would hand the document's address to a third party).
 *
 * Needs Debian's chromium (`apt-get install -y chromium`), or CHROMIUM_PATH naming another build.
 */
const UI_TIMEOUT_MS = 20_000;

/** A small valid OpenAPI document: the stand-in decision service's. */
const DECISION_DOC = {
  openapi: '3.0.0',
  info: { title: 'Decision and Delegation Management: decision', version: '1.0' },
  tags: [{ name: 'probes', description: 'The probes' }],
  paths: {
    '/decision/v1/probes': {
      get: { operationId: 'listProbes', tags: ['probes'], summary: 'List probes', responses: { '200': { description: 'The probes' } } },
    },
    '/decision/v1/probes/{id}': {
      delete: {
        operationId: 'deleteProbe',
        tags: ['probes'],
        summary: 'Delete a probe',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '204': { description: 'Deleted' } },
      },
    },
  },
  components: { securitySchemes: { accessToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
  security: [{ accessToken: [] }],
};

/** What went wrong on a page: CSP refusals (console and event), uncaught errors, failed requests, requests to another origin. */
interface PageTrouble {
  refusals: string[];
  violations: string[];
  errors: string[];
  failedRequests: string[];
  foreignRequests: string[];
}
const NO_TROUBLE: PageTrouble = { refusals: [], violations: [], errors: [], failedRequests: [], foreignRequests: [] };

/** Where the browser reaches the gateway and the settings service: loopback, or a host name (see above). */
type Host = '127.0.0.1' | 'a host name';
const HOSTS: Host[] = ['127.0.0.1', 'a host name'];

describe('Swagger UI in headless Chromium under the security headers (helmet CSP)', () => {
  let browser: Browser;
  let context: BrowserContext;
  let db: TestDatabase;
  let ns: TestNamespace;
  let settings: RunningProcess;
  let upstream: Server;
  let gateway: FastifyInstance;
  let origins: Record<Host, { gateway: string; settings: string }>;
  let base: string;
  /** The Authorization header of each call the stand-in got on GET /decision/v1/probes (Swagger UI's "Try it out"). */
  const probeCalls: (string | undefined)[] = [];

  beforeAll(async () => {
    assertChromium();
    db = await createTestDatabase();
    ns = createTestNamespace();
    settings = await spawnBuilt('apps/settings/src/main.js', testEnv(db, ns, { DB_POOL_SIZE: '2' }));
    // The stand-in for every other area: the decision document; nothing else (the merged document lists those areas as unavailable).
    upstream = createServer((req, res) => {
      if (req.method === 'GET' && req.url === `${docsPath('decision')}-json`) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(DECISION_DOC));
        return;
      }
      if (req.method === 'GET' && req.url === '/decision/v1/probes') {
        probeCalls.push(req.headers.authorization);
        res.writeHead(200, { 'content-type': 'application/json' }).end('[{"id":"p1"}]');
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"statusCode":404}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const standIn = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const upstreams = Object.fromEntries(AREAS.map((area) => [area, area === 'settings' ? settings.url : standIn]));
    gateway = buildGateway({ config: { upstreams, logLevel: 'error', docsCacheMs: 0 }, env: {} });
    // The detector's own check: an inline script, served by the gateway under the same headers (helmet hooks every route).
    gateway.get('/csp-probe', (_request, reply) => {
      void reply.type('text/html; charset=utf-8').send('<!DOCTYPE html><html><head><title>probe</title></head><body><p id="p">static</p><script>document.getElementById("p").textContent = "inline ran";</script></body></html>');
    });
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    const gatewayPort = (gateway.server.address() as AddressInfo).port;
    const settingsPort = new URL(settings.url).port;
    base = `http://127.0.0.1:${gatewayPort}`;
    origins = {
      '127.0.0.1': { gateway: base, settings: settings.url },
      'a host name': { gateway: `http://gateway.ddm.test:${gatewayPort}`, settings: `http://settings.ddm.test:${settingsPort}` },
    };
    const named = origins['a host name'];
    browser = await launchChromium(['--host-resolver-rules=MAP *.ddm.test 127.0.0.1', `--unsafely-treat-insecure-origin-as-secure=${named.gateway},${named.settings}`]);
    context = await browser.newContext();
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await gateway?.close();
    await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
    await settings?.stop();
    await db?.drop();
    await ns?.cleanup();
  });

  /** A new page whose CSP refusals, errors and failed requests are collected from the first script on. */
  async function watchedPage(): Promise<{ page: Page; trouble: PageTrouble }> {
    const page = await context.newPage();
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    const trouble: PageTrouble = { refusals: [], violations: [], errors: [], failedRequests: [], foreignRequests: [] };
    page.on('console', (msg: ConsoleMessage) => {
      if (/Refused to|Content Security Policy/i.test(msg.text())) trouble.refusals.push(msg.text());
    });
    page.on('pageerror', (err) => trouble.errors.push(err.message));
    page.on('requestfailed', (req) => trouble.failedRequests.push(`${req.method()} ${req.url()}: ${req.failure()?.errorText}`));
    page.on('request', (req) => {
      const pageUrl = page.url();
      if (pageUrl.startsWith('http') && new URL(req.url()).origin !== new URL(pageUrl).origin) trouble.foreignRequests.push(`${req.method()} ${req.url()}`);
    });
    page.on('response', (res) => {
      if (res.status() >= 400) trouble.failedRequests.push(`${res.request().method()} ${res.url()}: HTTP ${res.status()}`);
    });
    await page.exposeFunction('__cspViolation', (v: string) => trouble.violations.push(v));
    // Runs before the page's own scripts (through the DevTools protocol, so the page's CSP does not stop it).
    await page.addInitScript(
      `document.addEventListener('securitypolicyviolation', (e) => void window.__cspViolation(e.effectiveDirective + ' blocked ' + (e.blockedURI || '(inline)')));`,
    );
    return { page, trouble };
  }

  /** Lets late events (a violation is reported asynchronously) arrive before the checks. */
  const settle = (page: Page) => page.waitForTimeout(300);

  it('the detector works: an inline script on a page served under the same headers is refused and reported', async () => {
    const { page, trouble } = await watchedPage();
    try {
      const res = await page.goto(`${base}/csp-probe`);
      const docs = await fetch(`${base}/docs`);
      await docs.text();
      expect(res!.headers()['content-security-policy']).toBe(docs.headers.get('content-security-policy'));
      expect(res!.headers()['content-security-policy']).toMatch(/script-src 'self'/);
      await until(() => trouble.violations.length > 0, 'the inline script\'s CSP violation to be reported');
      await settle(page);
      expect(await page.textContent('#p')).toBe('static');
      expect(trouble.violations.join('\n')).toMatch(/script-src/);
      // Chromium 156 words it "Executing inline script violates the following Content Security Policy directive 'script-src 'self''..." (older ones: "Refused to execute inline script...").
      expect(trouble.refusals.join('\n')).toMatch(/inline script.*Content Security Policy directive.*script-src|Refused to execute inline script/);
    } finally {
      await page.close();
    }
  });

  it.each(HOSTS)("the gateway's /docs at %s renders the merged document, switches to the areas' through the dropdown, authorizes (bearer) and tries a call, with no CSP refusal or error", async (host) => {
    const { page, trouble } = await watchedPage();
    try {
      const res = await page.goto(`${origins[host].gateway}/docs`);
      expect(res!.status()).toBe(200);
      expect(res!.headers()['content-security-policy']).toMatch(/default-src 'self'/);

      // The merged document: its title, and operations of the real settings service and of the stand-in.
      await page.locator('.info .title', { hasText: MERGED_TITLE }).waitFor();
      await page.locator('.opblock').first().waitFor();
      const merged = await page.locator('.opblock').count();
      expect(merged).toBeGreaterThan(2);
      await page.locator('.opblock-summary-path', { hasText: '/settings/v1/' }).first().waitFor();
      await page.locator('.opblock-summary-path', { hasText: '/decision/v1/probes' }).first().waitFor();

      // Every tag heading has operations under it: no area shows as an empty heading above its groups.
      const sections = page.locator('.opblock-tag-section');
      const headings = await sections.count();
      expect(headings).toBeGreaterThan(1);
      const empty: string[] = [];
      for (let i = 0; i < headings; i++) {
        const section = sections.nth(i);
        if ((await section.locator('.opblock').count()) === 0) empty.push((await section.locator('.opblock-tag').textContent()) ?? '');
      }
      expect(empty).toEqual([]);
      await page.locator('.opblock-tag', { hasText: 'decision: probes' }).waitFor();

      // The top bar's definition dropdown: the stand-in decision document (through the gateway's proxy).
      const select = page.locator('.topbar select');
      await select.selectOption({ label: 'decision' });
      await page.locator('.info .title', { hasText: 'Decision and Delegation Management: decision' }).waitFor();
      await until(async () => (await page.locator('.opblock').count()) === 2, "the decision document's 2 operations", UI_TIMEOUT_MS);

      // Authorize: the dialog offers the bearer scheme, takes a token, and then offers to log out.
      const token = `token.for.${host.replace(/\W/g, '-')}`;
      await page.locator('.auth-wrapper button.authorize').click();
      const dialog = page.locator('.dialog-ux .modal-ux');
      await dialog.waitFor();
      await expect(dialog.textContent()).resolves.toMatch(/accessToken\s*\(http, Bearer\)/);
      await dialog.locator('input').first().fill(token);
      await dialog.locator('button.modal-btn.auth', { hasText: 'Authorize' }).click();
      await dialog.locator('button', { hasText: 'Logout' }).waitFor();
      await dialog.locator('button.close-modal').click();
      await dialog.waitFor({ state: 'detached' });

      // Try it out: the browser calls the API through the gateway (connect-src 'self') with the token.
      const calls = probeCalls.length;
      await page.locator('.opblock-summary-path', { hasText: '/decision/v1/probes' }).first().click();
      await page.locator('button.try-out__btn').click();
      await page.locator('button.execute').click();
      await page.locator('.live-responses-table .response-col_status', { hasText: '200' }).waitFor();
      expect(probeCalls.slice(calls)).toEqual([`Bearer ${token}`]);

      // And the real settings service's document, through the gateway's proxy.
      await select.selectOption({ label: 'settings' });
      await page.locator('.info .title', { hasText: 'Decision and Delegation Management: settings' }).waitFor();
      await page.locator('.opblock-summary-path', { hasText: '/settings/v1/' }).first().waitFor();
      expect(await page.locator('.opblock-summary-path', { hasText: '/decision/v1/' }).count()).toBe(0);

      await settle(page);
      expect(trouble).toEqual(NO_TROUBLE);
    } finally {
      await page.close();
    }
  });

  it.each(HOSTS)("the settings service's own Swagger UI at %s renders its operations with no CSP refusal or error", async (host) => {
    const { page, trouble } = await watchedPage();
    try {
      const res = await page.goto(`${origins[host].settings}${docsPath('settings')}`);
      expect(res!.status()).toBe(200);
      expect(res!.headers()['content-security-policy']).toMatch(/script-src 'self'/);
      await page.locator('.info .title', { hasText: 'Decision and Delegation Management: settings' }).waitFor();
      await page.locator('.opblock-summary-path', { hasText: '/settings/v1/' }).first().waitFor();
      expect(await page.locator('.opblock').count()).toBeGreaterThan(2);
      await page.locator('.auth-wrapper button.authorize').click();
      await expect(page.locator('.dialog-ux .modal-ux').textContent()).resolves.toMatch(/accessToken\s*\(http, Bearer\)/);

      await settle(page);
      expect(trouble).toEqual(NO_TROUBLE);
    } finally {
      await page.close();
    }
  });
});
