import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { ROOT, RunningProcess, freePort, TestService, createTestDatabase, createTestNamespace, expectErrorBody, spawnBuilt, startTestService, testEnv, until } from '@ddm/testing';
import { limitClassOf } from '../src/hardening';
import { LimitsModule } from './fixtures/limits-service';
import { widgetsDataSource } from './fixtures/widgets';

const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const TENANT_A = '0190a000-0000-7000-8000-0000000000a1';

async function start(env: Record<string, string>): Promise<TestService> {
  return startTestService(LimitsModule, { area: 'decision', dataSource: widgetsDataSource }, { env });
}

/** fetch with the body read at once (an unread body holds its connection open and the server's close waits for it). */
async function call(url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, init);
  const body = await res.arrayBuffer();
  return new Response(res.status === 204 || res.status === 304 ? null : body, { status: res.status, headers: res.headers });
}
const get = (url: string, headers: Record<string, string> = {}) => call(url, { headers });

function expectLimitHeaders(res: Response, limit: number) {
  expect(res.headers.get('ratelimit-limit')).toBe(String(limit));
  expect(Number(res.headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
  expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
}

async function expect429(res: Response, path: string, limit: number) {
  expect(res.status).toBe(429);
  expectLimitHeaders(res, limit);
  expect(res.headers.get('ratelimit-remaining')).toBe('0');
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  const body = await res.json();
  expectErrorBody({ status: res.status, headers: res.headers, body, text: '' }, 429, path);
  expect(body).toMatchObject({ error: 'Too Many Requests', requestId: res.headers.get('x-request-id') });
}

describe('limit classes', () => {
  it.each([
    ['/decision/v1/things/bulk-delete', 'bulk'],
    ['/auth/v1/user/bulk-invite', 'invite'],
    ['/auth/v1/user/create', 'invite'],
    ['/matrix/v1/shared/abc/export', 'shared'],
    ['/decision/v1/decisions', 'caller'],
  ])('%s is %s', (path, cls) => expect(limitClassOf(path)).toBe(cls));
});

describe('abuse limits (in memory: REDIS_URL unset)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await start({ RATE_LIMIT_CALLER_MAX: '5', RATE_LIMIT_TENANT_MAX: '8', RATE_LIMIT_BULK_MAX: '2' });
  });
  afterAll(() => svc?.close());

  it('lets the limit through with RateLimit-* headers, then answers 429 with the house error body and Retry-After', async () => {
    const headers = { authorization: `Bearer caller-${randomUUID()}` };
    for (let i = 0; i < 5; i++) {
      const ok = await get(`${svc.url}/decision/v1/things`, headers);
      expect(ok.status).toBe(200);
      expectLimitHeaders(ok, 5);
      expect(ok.headers.get('ratelimit-remaining')).toBe(String(4 - i));
    }
    await expect429(await get(`${svc.url}/decision/v1/things?x=1`, headers), '/decision/v1/things', 5);
    // Another caller (another token) has its own budget; health and metrics are never limited.
    expect((await get(`${svc.url}/decision/v1/things`, { authorization: `Bearer other-${randomUUID()}` })).status).toBe(200);
    for (let i = 0; i < 8; i++) expect((await get(`${svc.url}/health/live`, headers)).status).toBe(200);
    expect((await get(`${svc.url}/metrics`, headers)).status).toBe(200);
  });

  it('counts bulk operations apart, with their stricter limit', async () => {
    const headers = { authorization: `Bearer bulk-${randomUUID()}` };
    for (let i = 0; i < 2; i++) expect((await call(`${svc.url}/decision/v1/things/bulk-delete`, { method: 'PATCH', headers })).status).toBe(200);
    await expect429(await call(`${svc.url}/decision/v1/things/bulk-delete`, { method: 'PATCH', headers }), '/decision/v1/things/bulk-delete', 2);
    expect((await get(`${svc.url}/decision/v1/things`, headers)).status).toBe(200);
  });

  it('does not count a tenant a request only names (tenantId, an unverified tid): nobody can spend another tenant\'s budget', async () => {
    const tenant = randomUUID();
    const forged = `eyJhbGciOiJub25lIn0.${Buffer.from(JSON.stringify({ sub: 'x', tid: tenant })).toString('base64url')}`;
    for (let i = 0; i < 10; i++) {
      const res = await get(`${svc.url}/decision/v1/things?tenantId=${tenant}`, { authorization: `Bearer ${forged}.${randomUUID()}` });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('5');
    }
  });
});

describe('callers without a token are told apart by address, through trusted proxies only (TRUST_PROXY)', () => {
  const burst = async (svc: TestService, forwardedFor: string[]) => {
    const statuses: number[] = [];
    for (const ip of forwardedFor) statuses.push((await get(`${svc.url}/decision/v1/things`, { 'x-forwarded-for': ip })).status);
    return statuses;
  };

  it('behind one trusted hop, each client address has its own budget', async () => {
    const svc = await start({ RATE_LIMIT_CALLER_MAX: '2', TRUST_PROXY: '1' });
    try {
      expect(await burst(svc, ['203.0.113.1', '203.0.113.1', '203.0.113.1', '203.0.113.2'])).toEqual([200, 200, 429, 200]);
    } finally {
      await svc.close();
    }
  });

  it('without TRUST_PROXY a forged X-Forwarded-For changes nothing: one budget for the connection address', async () => {
    const svc = await start({ RATE_LIMIT_CALLER_MAX: '2' });
    try {
      expect(await burst(svc, ['203.0.113.1', '203.0.113.2', '203.0.113.3'])).toEqual([200, 200, 429]);
    } finally {
      await svc.close();
    }
  });
});

describe('abuse limits shared by two replicas through Redis (REDIS_URL)', () => {
  let one: TestService;
  let two: TestService;
  beforeAll(async () => {
    const env = { REDIS_URL, RATE_LIMIT_PREFIX: `ddm-test-${randomUUID().slice(0, 8)}:`, RATE_LIMIT_CALLER_MAX: '6' };
    one = await start(env);
    two = await start(env);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
  });

  it('counts requests split across both replicas against one limit', async () => {
    const headers = { authorization: `Bearer shared-${randomUUID()}` };
    for (let i = 0; i < 6; i++) {
      const res = await get(`${(i % 2 ? two : one).url}/decision/v1/things`, headers);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(5 - i));
    }
    await expect429(await get(`${one.url}/decision/v1/things`, headers), '/decision/v1/things', 6);
    await expect429(await get(`${two.url}/decision/v1/things`, headers), '/decision/v1/things', 6);
  });
});

describe('abuse limits while Redis is unreachable', () => {
  it('let requests through (counted nowhere) rather than failing them', async () => {
    const svc = await start({ REDIS_URL: `redis://127.0.0.1:${await freePort()}`, RATE_LIMIT_CALLER_MAX: '1' });
    try {
      for (let i = 0; i < 3; i++) expect((await get(`${svc.url}/decision/v1/things`)).status).toBe(200);
    } finally {
      await svc.close();
    }
  });
});

describe('security headers and CORS', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await start({ CORS_ORIGINS: 'https://app.example.com, http://localhost:4200' });
  });
  afterAll(() => svc?.close());

  it('sends helmet headers on API responses', async () => {
    const res = await get(`${svc.url}/decision/v1/things`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=/);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('keeps the Swagger UI working: its page, scripts and document answer 200 under a CSP that allows them (HTTP level; no headless browser was run)', async () => {
    const page = await get(`${svc.url}/decision/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).toMatch(/style-src 'self'[^;]*'unsafe-inline'/);
    // Only same-origin scripts, no inline ones (which script-src 'self' would block).
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, inline] of scripts) {
      expect(inline.trim()).toBe('');
      const src = /src="([^"]+)"/.exec(attrs)![1];
      expect(src).not.toMatch(/^https?:/);
      const js = await get(new URL(src, `${svc.url}/decision/docs/`).toString());
      expect(js.status).toBe(200);
      expect((await js.text()).length).toBeGreaterThan(0);
    }
    for (const [, href] of html.matchAll(/<link[^>]+href="([^"]+)"/g)) {
      if (/^https?:/.test(href)) continue;
      expect((await get(new URL(href, `${svc.url}/decision/docs/`).toString())).status).toBe(200);
    }
    expect((await get(`${svc.url}/decision/docs-json`)).status).toBe(200);
  });

  it('allows the listed origins only', async () => {
    const allowed = await get(`${svc.url}/decision/v1/things`, { origin: 'https://app.example.com' });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const foreign = await get(`${svc.url}/decision/v1/things`, { origin: 'https://evil.example.net' });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await call(`${svc.url}/decision/v1/things/bulk-delete`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:4200', 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:4200');
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/PATCH/);
  });

  it('allows no origin when CORS_ORIGINS is empty', async () => {
    const bare = await start({});
    try {
      const res = await get(`${bare.url}/decision/v1/things`, { origin: 'https://app.example.com' });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await bare.close();
    }
  });
});

describe('secrets never reach the logs', () => {
  let proc: RunningProcess;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const dbx = await createTestDatabase();
    const ns = createTestNamespace();
    proc = await spawnBuilt('libs/platform/test/fixtures/limits-service.js', testEnv(dbx, ns, { LOG_LEVEL: 'trace' }), '/health/live');
    close = async () => {
      await proc?.stop();
      await dbx.drop();
      await ns.cleanup();
    };
  });
  afterAll(() => close?.());

  it('logs the requests (at trace) without the bearer token, the password or the share-link password', async () => {
    const bearer = `eyJhbGciOiJub25lIn0.${Buffer.from(JSON.stringify({ sub: 'x', tid: TENANT_A })).toString('base64url')}.sig-${randomUUID()}`;
    const password = `pw-${randomUUID()}`;
    const sharePassword = `share-${randomUUID()}`;
    const refreshToken = `rt-${randomUUID()}`;
    const res = await call(`${proc.url}/decision/v1/things/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}`, cookie: `session=${refreshToken}`, 'x-share-password': sharePassword },
      body: JSON.stringify({ email: 'a@example.com', password, refreshToken, nested: { secret: password } }),
    });
    expect(res.status).toBe(200);
    // A guarded route refusing the token logs too.
    expect((await call(`${proc.url}/decision/v1/unknown`, { headers: { authorization: `Bearer ${bearer}` } })).status).toBe(404);
    // The external matrix link's token is in its path; a token in a query.
    const shareToken = `st-${randomUUID()}`;
    expect((await call(`${proc.url}/decision/v1/shared/${shareToken}/export?format=xlsx&token=${refreshToken}`)).status).toBe(404);
    // The last request's log line written: what the rest is read after.
    await until(() => proc.output().includes('/decision/v1/shared/[redacted]/export'), 'the log line of the share link request', 10_000);
    const logs = proc.output();
    expect(logs).toMatch(/request completed/);
    expect(logs).toContain('/decision/v1/shared/[redacted]/export?format=xlsx&token=[redacted]');
    for (const secret of [bearer, bearer.split('.')[2], password, sharePassword, refreshToken, shareToken]) expect(logs).not.toContain(secret);
  });
});

describe('the logger redacts secrets wherever a service would log them', () => {
  it('replaces tokens, passwords, secrets and secret headers, at the top level and nested', () => {
    const secret = `s-${randomUUID()}`;
    const entry = {
      password: secret,
      token: secret,
      body: { accessToken: secret, refreshToken: secret, user: { password: secret }, items: [{ secret: secret }] },
      req: { headers: { authorization: `Bearer ${secret}`, cookie: `sid=${secret}`, 'x-share-password': secret, accept: 'application/json' } },
      headers: { authorization: `Bearer ${secret}` },
    };
    const script = `require(${JSON.stringify(join(ROOT, 'dist/libs/platform/src/logger.js'))}).createLogger('spec', 'info').info(JSON.parse(process.argv[1]), 'entry')`;
    const run = spawnSync(process.execPath, ['-e', script, JSON.stringify(entry)], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/"msg":"entry"/);
    expect(run.stdout).not.toContain(secret);
    const logged = JSON.parse(run.stdout);
    expect(logged.req.headers).toEqual({ authorization: '[redacted]', cookie: '[redacted]', 'x-share-password': '[redacted]', accept: 'application/json' });
    expect(logged.body.user.password).toBe('[redacted]');
    expect(logged.body.items[0].secret).toBe('[redacted]');
  });
});
