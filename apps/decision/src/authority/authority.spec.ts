import { DelegationLimit } from '../core/delegation.types';
import { ChainLink, admits, amount, compareLimits, coverage, evaluateChain, formatLimit, mayAsk } from './authority.rules';

const TYPE = '0190f5c4-0000-7000-8000-000000000001';
const OTHER = '0190f5c4-0000-7000-8000-000000000002';
const usd = (value: string, operator: '<' | '<=' = '<='): DelegationLimit => ({
  authorityTypeId: TYPE,
  authorityLimitValueType: 'Currency',
  authorityLimitOperator: operator,
  authorityLimitValue: value,
  authorityLimitValueUnit: 'USD',
  redelegable: true,
  redelegationLimitValue: null,
  redelegationLimitValueUnit: null,
});
const AT = new Date('2026-03-31T12:00:00.000Z');
const link = (id: string, limit: DelegationLimit, extra: Partial<ChainLink> = {}): ChainLink => ({
  delegationId: `id-${id}`,
  delegationDisplayId: id,
  status: 'ISSUED',
  isInvalid: false,
  effectiveDate: new Date('2026-01-01T00:00:00.000Z'),
  expirationDate: null,
  groupIds: [],
  authorities: [limit],
  ...extra,
});
const ask = (value: string | null, extra: object = {}) => ({ authorityTypeId: TYPE, value, unit: 'USD', groupId: null, at: AT, ...extra });
const noGroups = () => false;

describe('admits', () => {
  it('a value just inside and just outside each operator', () => {
    expect(admits(usd('1000'), '1000', 'USD')).toBeNull();
    expect(admits(usd('1000'), '1000.000001', 'USD')).not.toBeNull();
    expect(admits(usd('1000', '<'), '999.999999', 'USD')).toBeNull();
    expect(admits(usd('1000', '<'), '1000', 'USD')).not.toBeNull();
  });

  it('numbers compare as numbers, units must match, Unlimited admits any value of its unit', () => {
    expect(admits(usd('200000'), '99999', 'USD')).toBeNull();
    expect(admits(usd('1000'), '500', 'EUR')).not.toBeNull();
    expect(admits(usd('Unlimited'), '999999999999', 'USD')).toBeNull();
    expect(admits(usd('Unlimited'), '1', 'EUR')).not.toBeNull();
  });

  it('Authorized needs no value and admits any (the authority is not bounded by an amount); a valued type needs one', () => {
    const authorized: DelegationLimit = { ...usd('0'), authorityLimitValueType: 'Authorized', authorityLimitOperator: null, authorityLimitValue: null, authorityLimitValueUnit: null };
    expect(admits(authorized, null, null)).toBeNull();
    expect(admits(authorized, '1', null)).toBeNull();
    expect(admits(authorized, '999999999999999.999999', 'USD')).toBeNull();
    expect(admits(usd('1000'), null, 'USD')).toMatch(/Currency value is needed/);
  });
});

describe('amount (a decimal as a person reads it)', () => {
  it('groups the whole part and keeps every digit a limit can have, never rounding through a double', () => {
    expect(amount('999999999999999.999999')).toBe('999,999,999,999,999.999999');
    expect(amount('9007199254740993')).toBe('9,007,199,254,740,993');
    expect(amount('1234567.50')).toBe('1,234,567.5');
    expect(amount('1000.000000')).toBe('1,000');
    expect(amount('0.000001')).toBe('0.000001');
    expect(amount('007')).toBe('7');
    expect(amount('-1200')).toBe('-1,200');
    expect(amount('Unlimited')).toBe('Unlimited');
  });
});

describe('evaluateChain', () => {
  const chain = [link('10001', usd('1000000')), link('10002', usd('250000')), link('10003', usd('100000'))];

  it('allows a value every link admits, with the holder\'s own limit', () => {
    expect(evaluateChain(chain, ask('100000'), noGroups)).toEqual({ allowed: true, limit: usd('100000') });
  });

  it('names the first link, root first, that does not admit the value', () => {
    const answer = evaluateChain(chain, ask('400000'), noGroups);
    expect(answer).toMatchObject({ allowed: false, blockedBy: { delegationDisplayId: '10002' } });
    expect(answer.allowed === false && answer.reason).toMatch(/^limit <= USD 250,000 < USD 400,000 via 10002/);
  });

  it('a link suspended, revoked, invalid, not yet effective or expired at the instant blocks, naming it and the date', () => {
    const blocked = (extra: Partial<ChainLink>) => {
      const answer = evaluateChain([chain[0], link('10002', usd('250000'), extra), chain[2]], ask('1'), noGroups);
      return answer.allowed === false ? answer.reason : 'allowed';
    };
    expect(blocked({ status: 'SUSPENDED' })).toBe('delegation 10002 was SUSPENDED on 2026-03-31');
    expect(blocked({ status: 'REVOKED' })).toBe('delegation 10002 was REVOKED on 2026-03-31');
    expect(blocked({ status: 'PENDING' })).toBe('delegation 10002 was PENDING on 2026-03-31');
    expect(blocked({ isInvalid: true })).toBe('delegation 10002 was invalid on 2026-03-31');
    expect(blocked({ effectiveDate: new Date('2026-03-31T12:00:00.001Z') })).toBe('delegation 10002 was not effective until 2026-03-31');
    expect(blocked({ expirationDate: AT })).toBe('delegation 10002 expired on 2026-03-31');
    expect(blocked({ expirationDate: new Date(AT.getTime() + 1) })).toBe('allowed');
    expect(blocked({ status: 'ACCEPTED' })).toBe('allowed');
  });

  it('a link without the authority type blocks; groups: a link scoped elsewhere blocks, one covering the group (by the hierarchy) does not', () => {
    const other = evaluateChain([link('10001', { ...usd('1000'), authorityTypeId: OTHER })], ask('1'), noGroups);
    expect(other.allowed === false && other.reason).toBe('delegation 10001 does not hold that authority type');
    const scoped = [link('10001', usd('1000'), { groupIds: ['g-fin'] })];
    const open = ['g-fin', 'g-fin-ap', 'g-hr'];
    const hierarchy = (g: string | null, target: string) => open.includes(target) && (g === null || g === target || (g === 'g-fin' && target === 'g-fin-ap'));
    expect(evaluateChain(scoped, ask('1', { groupId: 'g-fin-ap' }), hierarchy).allowed).toBe(true);
    expect(evaluateChain(scoped, ask('1', { groupId: 'g-hr' }), hierarchy)).toMatchObject({ allowed: false, reason: 'delegation 10001 does not cover group g-hr' });
    expect(evaluateChain([link('10001', usd('1000'))], ask('1', { groupId: 'g-hr' }), hierarchy).allowed).toBe(true); // no groups: the decision's whole scope
    // ... but not a group that was closed (or never existed) then: nothing covers it.
    expect(evaluateChain([link('10001', usd('1000'))], ask('1', { groupId: 'g-closed' }), hierarchy)).toMatchObject({ allowed: false, reason: 'delegation 10001 does not cover group g-closed' });
  });

  it('formats limits as people read them', () => {
    expect(formatLimit(usd('250000'))).toBe('<= USD 250,000');
    expect(formatLimit(usd('Unlimited'))).toBe('Unlimited');
  });
});

describe('compareLimits (which limit of one type is higher)', () => {
  it('by value, digit for digit; at one value <= above <; Unlimited above any value; Authorized all equal', () => {
    expect(compareLimits(usd('200000'), usd('100000'))).toBeGreaterThan(0);
    expect(compareLimits(usd('100000'), usd('200000'))).toBeLessThan(0);
    expect(compareLimits(usd('999999999999999.999999'), usd('999999999999999.999998'))).toBeGreaterThan(0);
    expect(compareLimits(usd('1000'), usd('1000', '<'))).toBeGreaterThan(0);
    expect(compareLimits(usd('1000'), usd('1000'))).toBe(0);
    expect(compareLimits(usd('Unlimited'), usd('999999999999999'))).toBeGreaterThan(0);
    const authorized: DelegationLimit = { ...usd('0'), authorityLimitValueType: 'Authorized', authorityLimitOperator: null, authorityLimitValue: null, authorityLimitValueUnit: null };
    expect(compareLimits(authorized, { ...authorized })).toBe(0);
  });
});

describe('coverage (the group hierarchy as it stood)', () => {
  //   org > fin > ap; hr (closed); fin > closed-mid > deep
  const groups = [
    { group_id: 'org', parent_group_ids: [], live: true },
    { group_id: 'fin', parent_group_ids: ['org'], live: true },
    { group_id: 'ap', parent_group_ids: ['fin'], live: true },
    { group_id: 'hr', parent_group_ids: ['org'], live: false },
    { group_id: 'closed-mid', parent_group_ids: ['fin'], live: false },
    { group_id: 'deep', parent_group_ids: ['closed-mid'], live: true },
  ];
  const covers = coverage(groups);

  it('a group covers itself and everything below it, both live', () => {
    expect(covers('org', 'ap')).toBe(true);
    expect(covers('fin', 'fin')).toBe(true);
    expect(covers('ap', 'fin')).toBe(false);
    expect(covers('org', 'hr')).toBe(false);
    expect(covers('hr', 'hr')).toBe(false);
  });

  it('a closed group between them cuts the line', () => {
    expect(covers('fin', 'deep')).toBe(false);
    expect(covers('org', 'deep')).toBe(false);
  });

  it("no groups (the decision's whole scope) covers any live group, never a closed or unknown one", () => {
    expect(covers(null, 'deep')).toBe(true);
    expect(covers(null, 'hr')).toBe(false);
    expect(covers(null, 'nowhere')).toBe(false);
  });
});

describe('mayAsk (who may ask what a person may decide)', () => {
  const plain = { userId: 'u-1', keys: new Set<string>() };
  const viewer = { userId: 'u-1', keys: new Set(['view:decisions']) };
  it('a person of themselves, without view:decisions; of anyone else or a position, only with it', () => {
    expect(mayAsk(plain, 'u-1')).toBe(true);
    expect(mayAsk(plain, 'U-1')).toBe(true);
    expect(mayAsk(plain, 'u-2')).toBe(false);
    expect(mayAsk(plain, null)).toBe(false);
    expect(mayAsk(viewer, 'u-2')).toBe(true);
    expect(mayAsk(viewer, null)).toBe(true);
  });
});
