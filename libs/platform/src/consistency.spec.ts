import { AppError } from '@ddm/contracts';
import { v7 as uuidv7 } from 'uuid';
import {
  CONSISTENCY_TOKEN_PREFIX,
  CommittedChange,
  MAX_TOKEN_CHANGES,
  MAX_TOKEN_LENGTH,
  changeTime,
  encodeConsistencyToken,
  parseConsistencyToken,
  readConsistencyToken,
} from './consistency';
import { CHANGE_HORIZON_MS, expectedApplications } from './freshness';

const A = '0190a000-0000-7000-8000-00000000000a';
const B = '0190a000-0000-7000-8000-00000000000b';
const FIELD = 'consistency.atLeastAsFresh';
const token = (value: unknown) => CONSISTENCY_TOKEN_PREFIX + Buffer.from(JSON.stringify(value)).toString('base64url');

describe('consistency token', () => {
  it('round-trips the changes a request committed', () => {
    const changes: CommittedChange[] = [
      { changeId: A, counts: { 'evt.auth.user.updated': 2, 'auth.caller.changed': 1 } },
      { changeId: B, counts: { 'evt.settings.group.created': 1 } },
    ];
    const t = encodeConsistencyToken(changes)!;
    expect(t.startsWith('ct1.')).toBe(true);
    expect(t).toMatch(/^ct1\.[A-Za-z0-9_-]+$/);
    expect(parseConsistencyToken(t, FIELD)).toEqual(changes);
  });

  it('makes none for no change, and none rather than a partial one past 16 changes or 4 KB', () => {
    expect(encodeConsistencyToken([])).toBeUndefined();
    const many = Array.from({ length: MAX_TOKEN_CHANGES + 1 }, () => ({ changeId: uuidv7(), counts: { 'evt.auth.user.updated': 1 } }));
    expect(encodeConsistencyToken(many.slice(0, MAX_TOKEN_CHANGES))).toBeDefined();
    expect(encodeConsistencyToken(many)).toBeUndefined();
    const wide = [{ changeId: A, counts: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`evt.area${i}.some-long-entity-name.something-happened`, 1])) }];
    expect(encodeConsistencyToken(wide)).toBeUndefined();
  });

  it.each([
    ['a plain string', 'hello'],
    ['another version', 'ct2.W10'],
    ['not base64url', 'ct1.a+b/c='],
    ['not JSON', `ct1.${Buffer.from('{nope').toString('base64url')}`],
    ['no changes', token([])],
    ['an object, not a list', token({ changeId: A, counts: { 'evt.auth.user.updated': 1 } })],
    ['a change id that is not a uuid v7', token([{ changeId: '0190a000-0000-4000-8000-00000000000a', counts: { 'evt.auth.user.updated': 1 } }])],
    ['an extra field', token([{ changeId: A, counts: { 'evt.auth.user.updated': 1 }, more: 1 }])],
    ['no counts', token([{ changeId: A, counts: {} }])],
    ['a count of zero', token([{ changeId: A, counts: { 'evt.auth.user.updated': 0 } }])],
    ['a fractional count', token([{ changeId: A, counts: { 'evt.auth.user.updated': 1.5 } }])],
    ['a bad subject', token([{ changeId: A, counts: { 'evt auth': 1 } }])],
    ['too many changes', token(Array.from({ length: MAX_TOKEN_CHANGES + 1 }, () => ({ changeId: A, counts: { 'evt.auth.user.updated': 1 } })))],
    ['too long', `ct1.${'A'.repeat(MAX_TOKEN_LENGTH)}`],
  ])('refuses %s with a 400 naming the field', (_what, text) => {
    expect('problem' in readConsistencyToken(text)).toBe(true);
    let thrown: unknown;
    try {
      parseConsistencyToken(text, FIELD);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).getStatus()).toBe(400);
    expect((thrown as AppError).errors).toEqual([{ field: FIELD, message: expect.any(String) }]);
  });

  it('refuses a header sent twice (not one string)', () => {
    expect(() => parseConsistencyToken(['a', 'b'], 'x-consistency-token')).toThrow(/x-consistency-token must be one consistency token/);
  });

  it("reads a change's time from its uuid v7", () => {
    const before = Date.now();
    const id = uuidv7();
    expect(changeTime(id)).toBeGreaterThanOrEqual(before);
    expect(changeTime(id)).toBeLessThanOrEqual(Date.now());
  });
});

describe('the counting rule (expectedApplications)', () => {
  const users = { name: 'decision-auth-users', subjects: ['evt.auth.user.created', 'evt.auth.user.updated', 'evt.auth.user.deleted'] };
  const positions = { name: 'decision-settings-positions', subjects: ['evt.settings.position.created', 'evt.settings.position.updated'] };
  const now = changeTime(A) + 1_000;

  it("expects of each consumer the change's events of the subjects it follows, summed", () => {
    const change = { changeId: A, counts: { 'evt.auth.user.updated': 2, 'evt.auth.user.created': 1, 'evt.settings.position.updated': 1 } };
    expect(expectedApplications([change], [users, positions], now)).toEqual([
      { consumer: 'decision-auth-users', changeId: A, expected: 3 },
      { consumer: 'decision-settings-positions', changeId: A, expected: 1 },
    ]);
  });

  it('expects nothing of subjects nobody here follows (another area, this area its own events)', () => {
    const change = { changeId: A, counts: { 'evt.settings.document-type.created': 1, 'evt.decision.delegation.issued': 3, 'auth.caller.changed': 1 } };
    expect(expectedApplications([change], [users, positions], now)).toEqual([]);
    expect(expectedApplications([{ changeId: A, counts: { 'evt.auth.user.updated': 1 } }], [], now)).toEqual([]);
  });

  it('expects nothing of a change older than the stream keeps', () => {
    const change = { changeId: A, counts: { 'evt.auth.user.updated': 1 } };
    expect(expectedApplications([change], [users], changeTime(A) + CHANGE_HORIZON_MS - 1)).toHaveLength(1);
    expect(expectedApplications([change], [users], changeTime(A) + CHANGE_HORIZON_MS + 1)).toEqual([]);
  });

  it('counts each change once per consumer, however many times it is named, and each change apart', () => {
    const first = { changeId: A, counts: { 'evt.auth.user.updated': 1 } };
    const second = { changeId: B, counts: { 'evt.auth.user.updated': 2 } };
    expect(expectedApplications([first, second, first], [users], now)).toEqual([
      { consumer: 'decision-auth-users', changeId: A, expected: 1 },
      { consumer: 'decision-auth-users', changeId: B, expected: 2 },
    ]);
  });
});
