import { DelegationLimit } from '../core/delegation.types';
import { ChainLink, admits, evaluateChain, formatLimit } from './authority.rules';

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

  it('Authorized needs no value; a valued type needs one', () => {
    const authorized: DelegationLimit = { ...usd('0'), authorityLimitValueType: 'Authorized', authorityLimitOperator: null, authorityLimitValue: null, authorityLimitValueUnit: null };
    expect(admits(authorized, null, null)).toBeNull();
    expect(admits(authorized, '1', null)).not.toBeNull();
    expect(admits(usd('1000'), null, 'USD')).toMatch(/Currency value is needed/);
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
    const hierarchy = (g: string, target: string) => g === target || (g === 'g-fin' && target === 'g-fin-ap');
    expect(evaluateChain(scoped, ask('1', { groupId: 'g-fin-ap' }), hierarchy).allowed).toBe(true);
    expect(evaluateChain(scoped, ask('1', { groupId: 'g-hr' }), hierarchy)).toMatchObject({ allowed: false, reason: 'delegation 10001 does not cover group g-hr' });
    expect(evaluateChain([link('10001', usd('1000'))], ask('1', { groupId: 'g-hr' }), hierarchy).allowed).toBe(true); // no groups: the decision's whole scope
  });

  it('formats limits as people read them', () => {
    expect(formatLimit(usd('250000'))).toBe('<= USD 250,000');
    expect(formatLimit(usd('Unlimited'))).toBe('Unlimited');
  });
});
