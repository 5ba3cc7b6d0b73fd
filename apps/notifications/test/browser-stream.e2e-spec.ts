import { createHash } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { Pool } from 'pg';
import { TestSystem, assertChromium, launchChromium, startTestSystem, tokenFor, until } from '@ddm/testing';

/**
 * A web app listening for notifications in a real browser (headless Chromium, playwright-core):
 * a page of the app's origin asks the gateway for a stream ticket (its bearer token in a CORS
 * request) and opens an `EventSource` on the notifications stream with it, through the gateway in
 * front of the built auth and notifications services; a notification created meanwhile arrives.
 * A page of an origin not in CORS_ORIGINS cannot, nor can a used or an expired ticket; the tickets
 * never reach the logs.
 *
 * Needs Debian's chromium (`apt-get install -y chromium`), or CHROMIUM_PATH naming another build.
 */
const TIMEOUT_MS = 15_000;

/** What the page keeps of its EventSource (its global __stream). */
interface StreamState {
  opened: boolean;
  /** readyState at each error event (2: CLOSED, the browser gave up). */
  errors: number[];
  notifications: { id: string; userId: string; title: string }[];
}

/** The page's globals the spec uses (the specs compile without the DOM library). */
interface PageGlobals {
  __stream: StreamState;
  __source: BrowserEventSource;
  EventSource: new (url: string) => BrowserEventSource;
}
interface BrowserEventSource {
  readyState: number;
  onopen: (() => void) | null;
  onerror: (() => void) | null;
  addEventListener(type: string, listener: (e: { data: string }) => void): void;
  close(): void;
}

describe('browser: EventSource on the notifications stream through the gateway, with a ticket', () => {
  let system: TestSystem;
  let pool: Pool;
  let pages: Server;
  let browser: Browser;
  let context: BrowserContext;
  let gateway: string;
  let allowed: string;
  let foreign: string;
  let userId: string;
  const used: string[] = [];

  beforeAll(async () => {
    assertChromium();
    // The app's pages: an empty document on any host (the origin is what matters).
    pages = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!DOCTYPE html><html><head><title>app</title></head><body>app</body></html>'));
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    const port = (pages.address() as AddressInfo).port;
    allowed = `http://app.ddm.test:${port}`;
    foreign = `http://elsewhere.ddm.test:${port}`;
    // CORS_ORIGINS on the gateway and the services alike, as the Kubernetes config gives it to all.
    system = await startTestSystem({
      areas: ['auth', 'notifications'],
      seed: ['auth'],
      env: { CORS_ORIGINS: allowed, LOG_LEVEL: 'info' },
      gatewayEnv: { CORS_ORIGINS: allowed },
    });
    gateway = system.gateway.url;
    pool = new Pool({ connectionString: system.db.url, max: 1 });
    userId = system.seeded.tenants.find((t) => t.name === 'Demo Co')!.users.find((u) => u.email === 'user@demo.test')!.id;
    // The notifications area knows the person once auth's user events reached it (a notification needs a member).
    await until(async () => (await pool.query(`SELECT 1 FROM notifications.user_projection WHERE id = $1`, [userId])).rowCount, 'the user projected', TIMEOUT_MS);
    browser = await launchChromium(['--host-resolver-rules=MAP *.ddm.test 127.0.0.1']);
    context = await browser.newContext();
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await pool?.end();
    await system?.close();
    await new Promise((resolve) => (pages ? pages.close(resolve) : resolve(undefined)));
  });

  async function pageAt(origin: string): Promise<Page> {
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT_MS);
    await page.goto(`${origin}/`);
    return page;
  }

  /** The page asks the gateway for a ticket with the user's bearer token (a CORS request: preflight, then POST). */
  const ticketFromPage = (page: Page) =>
    page.evaluate(
      async ({ url, token }) => {
        try {
          const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
          return { status: res.status, body: (await res.json()) as { data: { ticket: string; expiresAt: string } } };
        } catch (err) {
          return { error: String(err) };
        }
      },
      { url: `${gateway}/v1/notifications/stream-tickets`, token: tokenFor('user@demo.test') },
    );

  /** A ticket asked for outside the browser (to try it from a page it was not issued to). */
  async function ticketFromNode(): Promise<string> {
    const res = await system.http.post('/v1/notifications/stream-tickets', { token: tokenFor('user@demo.test') });
    expect(res.status).toBe(200);
    return res.body.data.ticket;
  }

  /** Opens an EventSource on the stream with the ticket; what happens is kept in its global __stream. */
  async function listen(page: Page, ticket: string): Promise<void> {
    used.push(ticket);
    await page.evaluate((url) => {
      const page = globalThis as unknown as PageGlobals;
      page.__stream = { opened: false, errors: [], notifications: [] };
      const source = new page.EventSource(url);
      page.__source = source;
      source.onopen = () => void (page.__stream.opened = true);
      source.onerror = () => void page.__stream.errors.push(source.readyState);
      source.addEventListener('notification', (e) => void page.__stream.notifications.push(JSON.parse(e.data)));
    }, `${gateway}/v1/notifications/stream?ticket=${encodeURIComponent(ticket)}`);
  }

  const state = (page: Page) => page.evaluate(() => (globalThis as unknown as PageGlobals).__stream);
  /** The browser gave up on the stream: an error with readyState CLOSED (it does not retry a refusal). */
  const refused = (page: Page) => page.waitForFunction(() => (globalThis as unknown as PageGlobals).__stream.errors.includes(2));

  async function createFor(n: string): Promise<string> {
    const res = await system.http.post('/v1/notifications', { token: tokenFor('admin@demo.test'), body: { templateKey: 'DELEGATION_ISSUED', userId, placeholders: { delegationDisplayId: n } } });
    expect(res.status).toBe(200);
    return res.body.data.id;
  }

  it('a page of an allowed origin gets a ticket, opens an EventSource with it and receives a notification created meanwhile; the used ticket is then refused', async () => {
    const page = await pageAt(allowed);
    try {
      const answer = await ticketFromPage(page);
      expect(answer).toMatchObject({ status: 200, body: { data: { ticket: expect.any(String), expiresAt: expect.any(String) } } });
      const { ticket } = (answer as { body: { data: { ticket: string } } }).body.data;
      await listen(page, ticket);
      await page.waitForFunction(() => (globalThis as unknown as PageGlobals).__stream.opened);
      const id = await createFor('80001');
      await page.waitForFunction((want) => (globalThis as unknown as PageGlobals).__stream.notifications.some((n) => n.id === want), id);
      const got = (await state(page)).notifications.find((n) => n.id === id)!;
      expect(got).toMatchObject({ id, userId, title: 'Delegation 80001 issued to you' });
      expect((await state(page)).errors).toEqual([]);
      await page.evaluate(() => (globalThis as unknown as PageGlobals).__source.close());

      // The same ticket again, from the same page: refused, the browser gives up.
      await listen(page, ticket);
      await refused(page);
      expect(await state(page)).toMatchObject({ opened: false, notifications: [] });
    } finally {
      await page.close();
    }
  });

  it('an expired ticket is refused', async () => {
    const page = await pageAt(allowed);
    try {
      const ticket = await ticketFromNode();
      const hash = createHash('sha256').update(ticket).digest('hex');
      const res = await pool.query(`UPDATE notifications.stream_tickets SET expires_at = now() - interval '1 second' WHERE ticket_hash = $1`, [hash]);
      expect(res.rowCount).toBe(1);
      await listen(page, ticket);
      await refused(page);
      expect(await state(page)).toMatchObject({ opened: false, notifications: [] });
    } finally {
      await page.close();
    }
  });

  it('a page of an origin not allowed can neither get a ticket nor open the stream with a good one', async () => {
    const page = await pageAt(foreign);
    try {
      // The preflight gets no CORS headers: the browser does not send the POST.
      const answer = await ticketFromPage(page);
      expect(answer).toEqual({ error: expect.stringMatching(/Failed to fetch/) });
      // A valid ticket (asked for elsewhere): the stream's answer has no Access-Control-Allow-Origin for this origin, so the browser refuses it.
      await listen(page, await ticketFromNode());
      await refused(page);
      await createFor('80002');
      expect(await state(page)).toMatchObject({ opened: false, notifications: [] });
    } finally {
      await page.close();
    }
  });

  it('no ticket reached the logs: the request lines name ticket=[redacted]', async () => {
    const logs = system.services.get('notifications')!.output() + system.gateway.output();
    expect(used.length).toBeGreaterThanOrEqual(4);
    for (const ticket of used) expect(logs).not.toContain(ticket);
    expect(logs).toContain('ticket=[redacted]');
  });
});
