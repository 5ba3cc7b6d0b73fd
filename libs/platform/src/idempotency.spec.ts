import { AppError } from '@ddm/contracts';
import { canonicalJson, isIdempotentOperation, isStoredStatus, parseIdempotencyKey, requestFingerprint } from './idempotency';

describe('which operations take an Idempotency-Key', () => {
  it.each([
    ['POST', '/settings/v1/positions', true],
    ['POST', '/decision/v1/decisions/global-search', true],
    ['PATCH', '/decision/v1/decisions/bulk-delete', true],
    ['PATCH', '/decision/v1/delegations/bulk-reassign-recipients?tenantId=x', true],
    ['PATCH', '/settings/v1/positions/bulk-status-update/', true],
    ['patch', '/actions/v1/actions/bulk-reassign', true],
    ['PATCH', '/settings/v1/positions/0190a000-0000-7000-8000-000000000001', false],
    ['PATCH', '/decision/v1/bulk-things/one', false],
    ['PUT', '/decision/v1/authority/currency-rates', false],
    ['DELETE', '/settings/v1/positions', false],
    ['GET', '/settings/v1/positions', false],
  ])('%s %s: %s', (method, url, expected) => expect(isIdempotentOperation(method, url)).toBe(expected));
});

describe('the key', () => {
  it('is absent without the header', () => expect(parseIdempotencyKey(undefined)).toBeUndefined());

  it.each(['a', 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6', '~!#$%&*+/=?^_`{|}', 'k'.repeat(255)])('accepts %s', (key) => expect(parseIdempotencyKey(key)).toBe(key));

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a space', 'two words'],
    ['a control character', 'tab\there'],
    ['non-ASCII', 'clé'],
    ['sent twice (joined by Node)', 'a, b'],
  ])('refuses %s with a 400 naming the header', (_what, key) => {
    let error: unknown;
    try {
      parseIdempotencyKey(key);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).getStatus()).toBe(400);
    expect((error as AppError).errors).toEqual([{ field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }]);
  });

  it('refuses the header as an array', () => expect(() => parseIdempotencyKey(['a', 'b'])).toThrow(AppError));
});

describe('canonical JSON', () => {
  it('sorts keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
  });

  it('answers the same for bodies equal as JSON, and null for no body', () => {
    expect(canonicalJson(JSON.parse('{ "x": "é", "n": 1.0 }'))).toBe(canonicalJson({ n: 1, x: 'é' }));
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });

  it('tells strings from numbers and booleans', () => {
    expect(canonicalJson({ a: '1' })).not.toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson({ a: 'true' })).not.toBe(canonicalJson({ a: true }));
  });
});

describe('request fingerprint', () => {
  const json = { 'content-type': 'application/json' };
  const base = { method: 'POST', url: '/settings/v1/positions', headers: json, body: { positionName: 'A', status: 'ACTIVE' } };
  const fp = requestFingerprint;

  it('is a SHA-256 in hex, the same for the same request whatever the key order', () => {
    expect(fp(base)).toMatch(/^[0-9a-f]{64}$/);
    expect(fp({ ...base, body: { status: 'ACTIVE', positionName: 'A' } })).toBe(fp(base));
  });

  it('differs with the method, the path, the query or the body', () => {
    const all = [
      fp(base),
      fp({ ...base, method: 'PATCH' }),
      fp({ ...base, url: '/settings/v1/groups' }),
      fp({ ...base, url: '/settings/v1/positions?tenantId=0190a000-0000-7000-8000-000000000001' }),
      fp({ ...base, body: { positionName: 'B', status: 'ACTIVE' } }),
      fp({ ...base, body: undefined }),
    ];
    expect(new Set(all).size).toBe(all.length);
  });

  it('covers a multipart body by its media type and declared length (the file is streamed, never held whole)', () => {
    const upload = (length: string, boundary = 'x') => ({ method: 'POST', url: '/document/v1/files', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': length } });
    expect(fp(upload('1000'))).toBe(fp(upload('1000', 'another-boundary')));
    expect(fp(upload('1000'))).not.toBe(fp(upload('1001')));
  });
});

describe('which answers are stored', () => {
  it.each([
    [200, true],
    [201, true],
    [400, true],
    [404, true],
    [409, true],
    [429, false],
    [500, false],
    [503, false],
  ])('%i: %s', (status, stored) => expect(isStoredStatus(status)).toBe(stored));
});
