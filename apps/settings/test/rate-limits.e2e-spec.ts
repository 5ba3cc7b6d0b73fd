import { TestService, expectErrorBody, seededTokens, startHarness } from '@ddm/testing';
import { settingsApp, SettingsHarness } from './fixtures/settings-app';

/**
 * The per-tenant abuse limit counts verified callers only: after the guard has checked the token
 * and the caller's membership, so the tenant is the one the caller acts in. Two members of Demo Co
 * share its budget; Other Co keeps its own; a caller naming a tenant it is not a member of is
 * refused (403) without spending that tenant's budget. Settings with the auth service beside it
 * (callers resolved over NATS), the auth seed only, a low RATE_LIMIT_TENANT_MAX.
 */
describe('settings: the per-tenant rate limit (verified callers)', () => {
  let h: SettingsHarness;
  let svc: TestService;
  let demoId: string;
  const tokens = seededTokens();
  const TENANT_MAX = 6;

  beforeAll(async () => {
    h = await startHarness({ ...settingsApp, env: { DB_POOL_SIZE: '3', RATE_LIMIT_TENANT_MAX: String(TENANT_MAX) } });
    svc = h.svc;
    demoId = h.demo.id;
  });
  afterAll(() => h?.close());

  it('is shared by the tenant\'s callers, answered 429 with the house body, Retry-After and RateLimit-*; another tenant is not affected', async () => {
    // Someone of another tenant names Demo Co: refused by the guard, not counted against Demo Co.
    for (let i = 0; i < 3; i++) expect((await svc.http.get(`/settings/v1/decision-categories?tenantId=${demoId}`, { token: tokens.otherAdmin })).status).toBe(403);
    for (let i = 0; i < TENANT_MAX; i++) {
      const res = await svc.http.get('/settings/v1/decision-categories', { token: i % 2 ? tokens.admin : tokens.manager });
      expect(res.status).toBe(200);
      // The tenant's budget is the tighter one, so the headers tell it.
      expect(res.headers.get('ratelimit-limit')).toBe(String(TENANT_MAX));
      expect(res.headers.get('ratelimit-remaining')).toBe(String(TENANT_MAX - 1 - i));
    }
    const refused = await svc.http.get('/settings/v1/decision-categories?page=1', { token: tokens.user });
    expectErrorBody(refused, 429, '/settings/v1/decision-categories');
    expect(refused.body.message).toMatch(/tenant/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-limit')).toBe(String(TENANT_MAX));
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('ratelimit-reset'))).toBeGreaterThan(0);

    expect((await svc.http.get('/settings/v1/decision-categories', { token: tokens.otherAdmin })).status).toBe(200);
  });
});
