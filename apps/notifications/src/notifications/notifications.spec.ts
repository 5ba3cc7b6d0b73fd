import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { CountNotificationsQuery, CreateNotificationDto } from './dto/notification-request.dto';
import { isAllowedActionUrl, payloadBytes, periodStart, placeholderProblems } from './notification.rules';

const problems = async <T extends object>(cls: new () => T, plain: object) =>
  (await validate(plainToInstance(cls, plain), { whitelist: true, forbidNonWhitelisted: true })).map((e) => e.property).sort();

describe('notification rules', () => {
  it('a period reaches back by calendar months: 31 days ago is outside 1m, inside 3m; all has no start', () => {
    const now = new Date('2026-03-31T12:00:00.000Z');
    expect(periodStart('1m', now)?.toISOString()).toBe('2026-02-28T12:00:00.000Z');
    expect(periodStart('3m', now)?.toISOString()).toBe('2025-12-31T12:00:00.000Z');
    expect(periodStart('6m', now)?.toISOString()).toBe('2025-09-30T12:00:00.000Z');
    expect(periodStart('all', now)).toBeNull();
    const may = new Date('2026-05-15T00:00:00.000Z');
    const thirtyOneDaysAgo = new Date(may.getTime() - 31 * 24 * 3600 * 1000);
    expect(thirtyOneDaysAgo < periodStart('1m', may)!).toBe(true);
    expect(thirtyOneDaysAgo >= periodStart('3m', may)!).toBe(true);
  });

  it('actionUrl: a path of the app or an http/https URL; any other scheme, or a protocol-relative URL, is refused', () => {
    for (const ok of ['/delegations/1', '/a?b=c#d', 'https://app.example.com/x', 'http://localhost:8080/y']) expect([ok, isAllowedActionUrl(ok)]).toEqual([ok, true]);
    for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,x', 'ftp://h/x', '//evil.example.com', '/\\evil.example.com', 'relative/path', 'mailto:a@b.c', ''])
      expect([bad, isAllowedActionUrl(bad)]).toEqual([bad, false]);
  });

  it('placeholders: an object of at most 50 string values of at most 1000 characters', () => {
    expect(placeholderProblems({ a: 'x' })).toEqual([]);
    expect(placeholderProblems([])).toEqual([{ field: 'placeholders', message: 'placeholders must be an object of strings' }]);
    expect(placeholderProblems({ a: 1 })).toEqual([{ field: 'placeholders.a', message: 'placeholders.a must be a string' }]);
    expect(placeholderProblems({ a: 'x'.repeat(1001) })[0].field).toBe('placeholders.a');
    expect(placeholderProblems(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])))[0].field).toBe('placeholders');
    expect(payloadBytes({ a: 'é' })).toBe(10);
  });

  it('the create body: templateKey and userId required, unknown fields and oversized payloads refused', async () => {
    expect(await problems(CreateNotificationDto, {})).toEqual(['templateKey', 'userId']);
    expect(await problems(CreateNotificationDto, { templateKey: 'DELEGATION_ISSUED', userId: '0190c0de-0000-7000-8000-000000000000' })).toEqual([]);
    expect(await problems(CreateNotificationDto, { templateKey: 'X', userId: 'u', payload: { a: 'x'.repeat(16 * 1024) }, actionUrl: 'javascript:x', extra: 1 })).toEqual(
      ['actionUrl', 'extra', 'payload', 'templateKey', 'userId'],
    );
    expect(await problems(CreateNotificationDto, { templateKey: 'JOB_COMPLETED', userId: '0190c0de-0000-7000-8000-000000000000', tenantId: null })).toEqual(['tenantId']);
    expect(await problems(CountNotificationsQuery, { timePeriod: '12m' })).toEqual(['timePeriod']);
    expect(plainToInstance(CountNotificationsQuery, {}).timePeriod).toBe('all');
  });
});
