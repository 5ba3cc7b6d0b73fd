import { DecisionScope, DelegationLimit, DelegationState, Limit, OrgView, ProposedDelegation, Recipient, Violation } from './delegation.types';
import { UNLIMITED } from './decision-limits';
import { cascadeEffects, capOf, checkChange, checkRedelegation, checkRoot, holds, invalidFieldsOf, issuerOf, limitProblem, reachable, refusal, toState, withinGroups } from './delegation.rules';

// ------------------------------------------------------------------------------------------------
// An in-memory organisation.
//
//   Reporting line: boss <- mgr <- rep <- deep; boss <- peer; loner (no manager); cyc1 <-> cyc2 (a cycle).
//   Positions: pos-mgr (mgr), pos-rep (rep), pos-fin (rep, deep), pos-vacant (nobody), pos-closed (inactive, gone).
//   Groups: g-org > g-fin > g-fin-ap; g-hr; g-gone (deleted, under g-org); g-loop1 <-> g-loop2 (a cycle).
//   gone is a deactivated user.

interface OrgData {
  active: string[];
  managers: Record<string, string>;
  positions: Record<string, string[]>;
  activePositions: string[];
  userGroups: Record<string, string[]>;
  positionGroups: Record<string, string[]>;
  parentGroups: Record<string, string[]>;
  liveGroups: string[];
}

const ORG: OrgData = {
  active: ['boss', 'mgr', 'rep', 'deep', 'peer', 'loner', 'cyc1', 'cyc2'],
  managers: { mgr: 'boss', rep: 'mgr', deep: 'rep', peer: 'boss', cyc1: 'cyc2', cyc2: 'cyc1', gone: 'mgr' },
  positions: { mgr: ['pos-mgr'], rep: ['pos-rep', 'pos-fin'], deep: ['pos-fin'], gone: ['pos-rep'] },
  activePositions: ['pos-mgr', 'pos-rep', 'pos-fin', 'pos-vacant'],
  userGroups: { mgr: ['g-fin'], peer: ['g-hr'], deep: ['g-fin-ap'] },
  positionGroups: { 'pos-fin': ['g-fin-ap'], 'pos-vacant': ['g-hr'], 'pos-rep': [] },
  parentGroups: { 'g-fin': ['g-org'], 'g-fin-ap': ['g-fin'], 'g-gone': ['g-org'], 'g-loop1': ['g-loop2'], 'g-loop2': ['g-loop1'], 'g-two-parents': ['g-elsewhere', 'g-fin'] },
  liveGroups: ['g-org', 'g-fin', 'g-fin-ap', 'g-hr', 'g-loop1', 'g-loop2'],
};

function makeOrg(change: Partial<OrgData> = {}): OrgView {
  const d = { ...ORG, ...change };
  const positionsOf = (u: string) => (d.active.includes(u) ? (d.positions[u] ?? []) : []);
  return {
    isActiveUser: (u) => d.active.includes(u),
    managerOf: (u) => d.managers[u] ?? null,
    positionsOf,
    holdersOf: (p) => Object.keys(d.positions).filter((u) => d.positions[u].includes(p)),
    isActivePosition: (p) => d.activePositions.includes(p),
    groupsOfUser: (u) => [...(d.userGroups[u] ?? []), ...positionsOf(u).flatMap((p) => d.positionGroups[p] ?? [])],
    groupsOfPosition: (p) => d.positionGroups[p] ?? [],
    parentGroupsOf: (g) => d.parentGroups[g] ?? [],
    isLiveGroup: (g) => d.liveGroups.includes(g),
  };
}
const org = makeOrg();

// ------------------------------------------------------------------------------------------------
// Limits.

const TYPE = '0190f5c4-0000-7000-8000-000000000001';
const OTHER_TYPE = '0190f5c4-0000-7000-8000-000000000002';

const currency = (value: string | null, extra: Partial<Limit> = {}): Limit => ({
  authorityTypeId: TYPE,
  authorityLimitValueType: 'Currency',
  authorityLimitOperator: '<=',
  authorityLimitValue: value,
  authorityLimitValueUnit: 'USD',
  ...extra,
});
const number = (value: string, operator: '<' | '<=' = '<=') => currency(value, { authorityLimitValueType: 'Number', authorityLimitValueUnit: null, authorityLimitOperator: operator });
const percentage = (value: string, operator: '<' | '<=' = '<=') => currency(value, { authorityLimitValueType: 'Percentage', authorityLimitValueUnit: null, authorityLimitOperator: operator });
const time = (value: string, unit: string) => currency(value, { authorityLimitValueType: 'Time', authorityLimitValueUnit: unit });
const authorized = (): Limit => currency(null, { authorityLimitValueType: 'Authorized', authorityLimitOperator: null, authorityLimitValueUnit: null });

const held = (limit: Limit, extra: Partial<DelegationLimit> = {}): DelegationLimit => ({
  ...limit,
  redelegable: true,
  redelegationLimitValue: null,
  redelegationLimitValueUnit: null,
  ...extra,
});

// ------------------------------------------------------------------------------------------------
// A decision, a parent delegation held by mgr, and what mgr proposes to hand on to rep.

const NOW = new Date('2024-06-01T00:00:00.000Z');
const PARENT_EXPIRES = new Date('2025-01-01T00:00:00.000Z');

const DECISION: DecisionScope = {
  status: 'PUBLISHED',
  delegable: true,
  pathways: ['Matrix', 'Direct Line', 'Functional', 'Down-Line'],
  groupIds: ['g-org', 'g-hr'],
  authorities: [currency('1000000')],
};

const PARENT: DelegationState = {
  recipientType: 'SPECIFIC_PERSONNEL',
  recipientUserId: 'mgr',
  recipientPositionId: null,
  status: 'ISSUED',
  effectiveDate: new Date('2024-01-01T00:00:00.000Z'),
  expirationDate: PARENT_EXPIRES,
  isInvalid: false,
  issuerType: 'ROOT_AUTHORITY',
  issuerUserId: 'boss',
  issuerPositionId: null,
  pathways: ['Matrix', 'Direct Line', 'Down-Line'],
  groupIds: ['g-fin'],
  authorities: [held(currency('500000'))],
};

const PROPOSED: ProposedDelegation = {
  recipientType: 'SPECIFIC_PERSONNEL',
  recipients: [{ recipientUserId: 'rep', recipientPositionId: null }],
  pathways: ['Direct Line'],
  groupIds: ['g-fin-ap'],
  authorities: [held(currency('500000'))],
  effectiveDate: NOW,
  expirationDate: PARENT_EXPIRES,
};

interface Redo {
  proposed?: Partial<ProposedDelegation>;
  parent?: Partial<DelegationState>;
  decision?: Partial<DecisionScope>;
  issuer?: string;
  org?: OrgView;
  now?: Date;
}
const redo = (r: Redo = {}): Violation[] =>
  checkRedelegation({ ...PARENT, ...r.parent }, { ...DECISION, ...r.decision }, { ...PROPOSED, ...r.proposed }, r.issuer ?? 'mgr', r.org ?? org, r.now ?? NOW);
const root = (proposed: Partial<ProposedDelegation> = {}, decision: Partial<DecisionScope> = {}, canCreateRoot = true, o: OrgView = org): Violation[] =>
  checkRoot({ ...DECISION, ...decision }, { ...PROPOSED, pathways: ['Matrix'], groupIds: ['g-fin'], ...proposed }, canCreateRoot, o);
const fields = (vs: Violation[]) => vs.map((v) => v.field);
const only = (vs: Violation[]) => {
  expect(vs).toHaveLength(1);
  return vs[0];
};
const withAuthority = (limit: Limit, extra: Partial<DelegationLimit> = {}): Redo => ({ proposed: { authorities: [held(limit, extra)] } });
const parentHolds = (limit: Limit, extra: Partial<DelegationLimit> = {}): Partial<DelegationState> => ({ authorities: [held(limit, extra)] });
const ms = (d: Date, delta: number) => new Date(d.getTime() + delta);

// ------------------------------------------------------------------------------------------------

describe('limitProblem', () => {
  describe('Currency (value and unit)', () => {
    it('accepts the same value and a smaller one; refuses a millionth more', () => {
      expect(limitProblem(currency('500000'), currency('500000'))).toBeNull();
      expect(limitProblem(currency('499999.999999'), currency('500000'))).toBeNull();
      expect(limitProblem(currency('0'), currency('500000'))).toBeNull();
      expect(limitProblem(currency('500000.000001'), currency('500000'))).toMatch(/500000\.000001 USD is more than the cap allows \(<= 500000 USD\)/);
      expect(limitProblem(currency('600000'), currency('500000'))).toMatch(/600000 USD is more than/);
    });

    it('refuses another unit, even a smaller value', () => {
      expect(limitProblem(currency('1', { authorityLimitValueUnit: 'EUR' }), currency('500000'))).toMatch(/unit EUR is not the unit/);
      expect(limitProblem(currency('1', { authorityLimitValueUnit: null }), currency('500000'))).toMatch(/unit \(none\)/);
    });

    it('compares numerically, not as text', () => {
      expect(limitProblem(currency('1000'), currency('200000'))).toBeNull(); // "1000" > "200000" as text
      expect(limitProblem(currency('200000'), currency('1000'))).not.toBeNull();
      expect(limitProblem(currency('9'), currency('10'))).toBeNull();
      expect(limitProblem(currency('10'), currency('9'))).not.toBeNull();
      expect(limitProblem(currency('1.5'), currency('1.25'))).not.toBeNull();
      expect(limitProblem(currency('1.25'), currency('1.5'))).toBeNull();
    });

    it('compares 15-digit values exactly (beyond what a double holds)', () => {
      const cap = currency('999999999999999.999999');
      expect(limitProblem(currency('999999999999999.999999'), cap)).toBeNull();
      expect(limitProblem(currency('999999999999999.999998'), cap)).toBeNull();
      expect(limitProblem(currency('999999999999999.999999'), currency('999999999999999.999998'))).not.toBeNull();
      expect(limitProblem(currency('123456789012345.000001'), currency('123456789012345'))).not.toBeNull();
    });

    it('treats an unparseable value as out of bounds, never within', () => {
      for (const bad of ['abc', '-1', '1e3', '0123', '1.1234567', '1'.repeat(16), '', ' 1', 'NaN', 'Infinity']) {
        expect(limitProblem(currency(bad), currency('500000'))).toMatch(/is not a decimal/);
        expect(limitProblem(currency(bad), currency(UNLIMITED))).toMatch(/is not a decimal/);
        expect(limitProblem(currency('1'), currency(bad))).toMatch(/no valid value/);
      }
      expect(limitProblem(currency(null), currency('500000'))).toMatch(/needs a value/);
      expect(limitProblem(currency('1'), currency(null))).toMatch(/no valid value/);
    });
  });

  describe('operators', () => {
    it('"<" under "<=" of the same value is fine, "<=" under "<" of the same value is not', () => {
      expect(limitProblem(currency('500000', { authorityLimitOperator: '<' }), currency('500000'))).toBeNull();
      expect(limitProblem(currency('500000'), currency('500000', { authorityLimitOperator: '<' }))).toMatch(/<= 500000 USD is wider than the cap allows \(< 500000 USD\)/);
      expect(limitProblem(currency('500000', { authorityLimitOperator: '<' }), currency('500000', { authorityLimitOperator: '<' }))).toBeNull();
    });

    it('"<=" just below a "<" cap is fine; "<" just above a "<=" cap is not', () => {
      expect(limitProblem(currency('499999.999999'), currency('500000', { authorityLimitOperator: '<' }))).toBeNull();
      expect(limitProblem(currency('500000.000001', { authorityLimitOperator: '<' }), currency('500000'))).not.toBeNull();
    });

    it('a missing operator is never within', () => {
      expect(limitProblem(currency('1', { authorityLimitOperator: null }), currency('500000'))).toMatch(/needs an operator/);
      expect(limitProblem(currency('1'), currency('500000', { authorityLimitOperator: null }))).toMatch(/no valid value and operator/);
    });
  });

  describe('Unlimited', () => {
    it('is only within Unlimited; anything is within Unlimited', () => {
      expect(limitProblem(currency(UNLIMITED), currency(UNLIMITED))).toBeNull();
      expect(limitProblem(currency('999999999999999.999999'), currency(UNLIMITED))).toBeNull();
      expect(limitProblem(currency(UNLIMITED, { authorityLimitOperator: '<' }), currency(UNLIMITED))).toBeNull();
      expect(limitProblem(currency(UNLIMITED), currency('999999999999999.999999'))).toMatch(/Unlimited USD is more than/);
      expect(limitProblem(number(UNLIMITED), number('1'))).not.toBeNull();
    });
  });

  describe('Number', () => {
    it('has no unit and bounds the same way', () => {
      expect(limitProblem(number('10'), number('10'))).toBeNull();
      expect(limitProblem(number('10.000001'), number('10'))).not.toBeNull();
      expect(limitProblem(number('9'), number('10'))).toBeNull();
      expect(limitProblem(number('10'), number('10', '<'))).not.toBeNull();
      expect(limitProblem(number('3', '<'), number('3'))).toBeNull();
    });
  });

  describe('Percentage', () => {
    it('compares numerically and never goes over 100', () => {
      expect(limitProblem(percentage('99.5'), percentage('100'))).toBeNull(); // "99.5" > "100" as text
      expect(limitProblem(percentage('100'), percentage('100'))).toBeNull();
      expect(limitProblem(percentage('100.000001'), percentage('100'))).not.toBeNull();
      expect(limitProblem(percentage('100'), percentage(UNLIMITED))).toBeNull();
      expect(limitProblem(percentage('100.000001'), percentage(UNLIMITED))).toMatch(/more than 100 percent/);
      expect(limitProblem(percentage(UNLIMITED), percentage(UNLIMITED))).toBeNull();
    });
  });

  describe('Time', () => {
    it.each(['Days', 'Months', 'Years'])('bounds %s within the same unit', (unit) => {
      expect(limitProblem(time('12', unit), time('12', unit))).toBeNull();
      expect(limitProblem(time('11', unit), time('12', unit))).toBeNull();
      expect(limitProblem(time('12.000001', unit), time('12', unit))).toMatch(new RegExp(`12\\.000001 ${unit} is more than`));
    });

    it('refuses another unit (no conversion): 6 Months is not within 1 Years, 30 Days not within 1 Months', () => {
      expect(limitProblem(time('6', 'Months'), time('1', 'Years'))).toMatch(/unit Months is not the unit/);
      expect(limitProblem(time('30', 'Days'), time('1', 'Months'))).toMatch(/unit Days/);
      expect(limitProblem(time('1', 'Years'), time('365', 'Days'))).not.toBeNull();
    });
  });

  describe('Authorized', () => {
    it('is only within Authorized', () => {
      expect(limitProblem(authorized(), authorized())).toBeNull();
      expect(limitProblem(authorized(), currency(UNLIMITED))).toMatch(/value type Authorized is not the value type/);
      expect(limitProblem(currency('0'), authorized())).toMatch(/value type Currency/);
    });
  });

  it('refuses another value type, even a smaller value', () => {
    expect(limitProblem(number('1'), currency('500000'))).toMatch(/value type Number is not the value type the cap allows \(Currency: <= 500000 USD\)/);
    expect(limitProblem(percentage('1'), number('500000'))).not.toBeNull();
    expect(limitProblem(time('1', 'Days'), number('500000'))).not.toBeNull();
  });
});

describe('capOf', () => {
  it('is the limit itself when no redelegation limit is set', () => {
    expect(capOf(held(currency('500000', { authorityLimitOperator: '<' })))).toEqual(currency('500000', { authorityLimitOperator: '<' }));
    expect(capOf(held(authorized(), { redelegationLimitValue: '5' }))).toEqual(authorized());
  });

  it('is the redelegation limit (and its unit) when set, with the limit\'s operator', () => {
    expect(capOf(held(currency('500000'), { redelegationLimitValue: '100000' }))).toEqual(currency('100000'));
    expect(capOf(held(time('12', 'Months'), { redelegationLimitValue: '1', redelegationLimitValueUnit: 'Years' }))).toEqual(time('1', 'Years'));
    expect(capOf(held(currency(UNLIMITED), { redelegationLimitValue: '100' }))).toEqual(currency('100'));
    expect(capOf(held(currency(UNLIMITED), { redelegationLimitValue: UNLIMITED }))).toEqual(currency(UNLIMITED));
    expect(capOf(held(number('10', '<'), { redelegationLimitValue: '10' }))).toEqual(number('10', '<'));
  });

  it('never hands on more than the limit itself', () => {
    expect(capOf(held(currency('500000'), { redelegationLimitValue: '500000.000001' }))).toEqual(currency('500000'));
    expect(capOf(held(currency('500000'), { redelegationLimitValue: UNLIMITED }))).toEqual(currency('500000'));
  });

  it('bounds a child with the redelegation limit, not the limit', () => {
    const cap = capOf(held(currency('500000'), { redelegationLimitValue: '100000' }));
    expect(limitProblem(currency('100000'), cap)).toBeNull();
    expect(limitProblem(currency('100000.000001'), cap)).not.toBeNull();
  });
});

describe('holds', () => {
  const r = (recipientType: Recipient['recipientType'], recipientUserId: string | null, recipientPositionId: string | null): Recipient => ({ recipientType, recipientUserId, recipientPositionId });

  it('SPECIFIC_PERSONNEL: the user named', () => {
    expect(holds(r('SPECIFIC_PERSONNEL', 'rep', null), 'rep', org)).toBe(true);
    expect(holds(r('SPECIFIC_PERSONNEL', 'rep', null), 'deep', org)).toBe(false);
  });

  it('POSITION_ONLY: whoever holds the position today', () => {
    expect(holds(r('POSITION_ONLY', null, 'pos-fin'), 'rep', org)).toBe(true);
    expect(holds(r('POSITION_ONLY', null, 'pos-fin'), 'deep', org)).toBe(true);
    expect(holds(r('POSITION_ONLY', null, 'pos-fin'), 'mgr', org)).toBe(false);
    expect(holds(r('POSITION_ONLY', 'mgr', 'pos-fin'), 'mgr', org)).toBe(false);
  });

  it('PERSONNEL_IN_POSITION: the user named, while they hold the position', () => {
    expect(holds(r('PERSONNEL_IN_POSITION', 'rep', 'pos-fin'), 'rep', org)).toBe(true);
    expect(holds(r('PERSONNEL_IN_POSITION', 'rep', 'pos-fin'), 'deep', org)).toBe(false); // holds the position, not named
    expect(holds(r('PERSONNEL_IN_POSITION', 'rep', 'pos-mgr'), 'rep', org)).toBe(false); // named, not in the position
    const moved = makeOrg({ positions: { ...ORG.positions, rep: ['pos-rep'] } });
    expect(holds(r('PERSONNEL_IN_POSITION', 'rep', 'pos-fin'), 'rep', moved)).toBe(false);
  });

  it('an inactive user holds nothing', () => {
    const rep = makeOrg({ active: ORG.active.filter((u) => u !== 'rep') });
    expect(holds(r('SPECIFIC_PERSONNEL', 'rep', null), 'rep', rep)).toBe(false);
    expect(holds(r('POSITION_ONLY', null, 'pos-fin'), 'rep', rep)).toBe(false);
    expect(holds(r('PERSONNEL_IN_POSITION', 'rep', 'pos-fin'), 'rep', rep)).toBe(false);
    expect(holds(r('POSITION_ONLY', null, 'pos-rep'), 'gone', org)).toBe(false);
  });
});

describe('reachable', () => {
  const user = (id: string): Recipient => ({ recipientType: 'SPECIFIC_PERSONNEL', recipientUserId: id, recipientPositionId: null });
  const position = (id: string): Recipient => ({ recipientType: 'POSITION_ONLY', recipientUserId: null, recipientPositionId: id });

  it('Matrix: any active member, an active vacant position; not an inactive user', () => {
    expect(reachable('Matrix', 'mgr', user('loner'), org)).toBe(true);
    expect(reachable('Matrix', 'mgr', user('gone'), org)).toBe(false);
    expect(reachable('Matrix', 'mgr', user('nobody'), org)).toBe(false);
    expect(reachable('Matrix', 'mgr', position('pos-vacant'), org)).toBe(true);
    expect(reachable('Matrix', 'mgr', position('pos-closed'), org)).toBe(false);
  });

  it('Functional: shares a group (own or through a position), exactly, not through the hierarchy', () => {
    expect(reachable('Functional', 'rep', user('deep'), org)).toBe(true); // both g-fin-ap
    expect(reachable('Functional', 'mgr', user('peer'), org)).toBe(false); // g-fin vs g-hr
    expect(reachable('Functional', 'mgr', user('deep'), org)).toBe(false); // g-fin vs g-fin-ap: a descendant is not shared
    expect(reachable('Functional', 'loner', user('deep'), org)).toBe(false); // no groups at all
    expect(reachable('Functional', 'deep', position('pos-fin'), org)).toBe(true);
    expect(reachable('Functional', 'peer', position('pos-vacant'), org)).toBe(false); // groups meet, but vacant: only Matrix
  });

  it('Functional: a position whose own groups meet the issuer\'s, though its holder\'s do not', () => {
    // pos-mgr (groups g-hr) held by mgr, whose own groups are g-fin: peer (g-hr) meets the position's groups.
    const o = makeOrg({ positionGroups: { ...ORG.positionGroups, 'pos-mgr': ['g-hr'] } });
    const inPosition: Recipient = { recipientType: 'PERSONNEL_IN_POSITION', recipientUserId: 'mgr', recipientPositionId: 'pos-mgr' };
    expect(reachable('Functional', 'peer', position('pos-mgr'), o)).toBe(true);
    expect(reachable('Functional', 'peer', inPosition, o)).toBe(true);
    expect(reachable('Functional', 'peer', position('pos-mgr'), org)).toBe(false);
    // A position whose only holder is deactivated is vacant: its groups do not count.
    const inactiveHolder = makeOrg({ positions: { ...ORG.positions, gone: ['pos-vacant'] } });
    expect(reachable('Functional', 'peer', position('pos-vacant'), inactiveHolder)).toBe(false);
    expect(reachable('Matrix', 'peer', position('pos-vacant'), inactiveHolder)).toBe(true);
  });

  it('Direct Line: a direct report only', () => {
    expect(reachable('Direct Line', 'mgr', user('rep'), org)).toBe(true);
    expect(reachable('Direct Line', 'mgr', user('deep'), org)).toBe(false);
    expect(reachable('Direct Line', 'rep', user('mgr'), org)).toBe(false);
    expect(reachable('Direct Line', 'mgr', user('gone'), org)).toBe(false); // reports to mgr, but inactive
    expect(reachable('Direct Line', 'mgr', position('pos-rep'), org)).toBe(true);
    expect(reachable('Direct Line', 'mgr', position('pos-vacant'), org)).toBe(false);
  });

  it('Down-Line: anywhere below, not above nor beside', () => {
    expect(reachable('Down-Line', 'mgr', user('rep'), org)).toBe(true);
    expect(reachable('Down-Line', 'mgr', user('deep'), org)).toBe(true);
    expect(reachable('Down-Line', 'boss', user('deep'), org)).toBe(true);
    expect(reachable('Down-Line', 'deep', user('mgr'), org)).toBe(false);
    expect(reachable('Down-Line', 'mgr', user('peer'), org)).toBe(false);
    expect(reachable('Down-Line', 'mgr', user('loner'), org)).toBe(false);
    expect(reachable('Down-Line', 'mgr', position('pos-fin'), org)).toBe(true);
    expect(reachable('Down-Line', 'mgr', position('pos-vacant'), org)).toBe(false);
  });

  it('Down-Line: a reporting-line cycle ends', () => {
    expect(reachable('Down-Line', 'boss', user('cyc1'), org)).toBe(false);
    expect(reachable('Down-Line', 'cyc2', user('cyc1'), org)).toBe(true);
    expect(reachable('Down-Line', 'cyc1', user('cyc2'), org)).toBe(true);
    const longLoop = makeOrg({ managers: { ...ORG.managers, deep: 'rep', rep: 'mgr', mgr: 'deep' } });
    expect(reachable('Down-Line', 'boss', user('deep'), longLoop)).toBe(false);
  });

  it('PERSONNEL_IN_POSITION reaches the user named', () => {
    const r: Recipient = { recipientType: 'PERSONNEL_IN_POSITION', recipientUserId: 'rep', recipientPositionId: 'pos-fin' };
    expect(reachable('Direct Line', 'mgr', r, org)).toBe(true);
    expect(reachable('Direct Line', 'rep', r, org)).toBe(false);
  });

  it('an unknown pathway reaches no one', () => {
    expect(reachable('Sideways', 'mgr', user('rep'), org)).toBe(false);
  });
});

describe('withinGroups', () => {
  it('a group in scope, or any descendant of one', () => {
    expect(withinGroups('g-fin', ['g-fin'], org)).toBe(true);
    expect(withinGroups('g-fin-ap', ['g-fin'], org)).toBe(true);
    expect(withinGroups('g-fin-ap', ['g-org'], org)).toBe(true);
  });

  it('a group with several parents is within the scope of any of them (and their ancestors)', () => {
    expect(withinGroups('g-two-parents', ['g-fin'], org)).toBe(true);
    expect(withinGroups('g-two-parents', ['g-elsewhere'], org)).toBe(true);
    expect(withinGroups('g-two-parents', ['g-org'], org)).toBe(true);
    expect(withinGroups('g-two-parents', ['g-hr'], org)).toBe(false);
  });

  it('not an ancestor, a sibling, or anything under an empty scope', () => {
    expect(withinGroups('g-org', ['g-fin'], org)).toBe(false);
    expect(withinGroups('g-hr', ['g-fin'], org)).toBe(false);
    expect(withinGroups('g-fin', [], org)).toBe(false);
  });

  it('a cycle in the hierarchy ends', () => {
    expect(withinGroups('g-loop1', ['g-org'], org)).toBe(false);
    expect(withinGroups('g-loop1', ['g-loop2'], org)).toBe(true);
  });
});

describe('checkRoot', () => {
  it('accepts a root delegation within the decision', () => {
    expect(root()).toEqual([]);
    expect(root({ authorities: [held(currency('1000000'))], groupIds: ['g-fin-ap', 'g-hr'], pathways: DECISION.pathways, expirationDate: null })).toEqual([]);
  });

  it('needs create:root_delegations (403, nothing else checked)', () => {
    const v = only(root({ authorities: [held(currency('9999999'))] }, {}, false));
    expect(v).toMatchObject({ rule: 'root', status: 403, field: 'decisionId', invalidField: 'Issuer' });
    expect(v.message).toMatch(/create:root_delegations/);
  });

  it('needs a PUBLISHED and delegable decision', () => {
    for (const status of ['DRAFT', 'ARCHIVED'] as const) {
      expect(only(root({}, { status }))).toMatchObject({ rule: 'root', status: 400, field: 'decisionId', invalidField: 'Parent', message: expect.stringContaining(status) });
    }
    expect(only(root({}, { delegable: false }))).toMatchObject({ rule: 'root', field: 'decisionId', message: expect.stringMatching(/not delegable/) });
  });

  it('pathways within the decision\'s', () => {
    const v = only(root({ pathways: ['Matrix', 'Functional'] }, { pathways: ['Matrix'] }));
    expect(v).toMatchObject({ rule: 'pathway', field: 'delegationPathway', invalidField: 'Pathway', status: 400 });
    expect(v.message).toMatch(/^delegationPathway: Functional is not among the decision's \(Matrix\) pathways$/);
  });

  it('groups within the decision\'s: descendants count, ancestors and deleted groups do not', () => {
    expect(root({ groupIds: ['g-fin-ap'] }, { groupIds: ['g-fin'] })).toEqual([]);
    expect(only(root({ groupIds: ['g-fin-ap', 'g-org'] }, { groupIds: ['g-fin'] }))).toMatchObject({ rule: 'groups', field: 'delegationGroups.1.groupId', invalidField: 'Groups' });
    expect(only(root({ groupIds: ['g-gone'] })).message).toMatch(/^delegationGroups\.0\.groupId: group g-gone does not exist or is deleted/);
  });

  it('limits no more than the decision\'s, for the same authority type', () => {
    expect(root({ authorities: [held(currency('1000000'))] })).toEqual([]);
    const v = only(root({ authorities: [held(currency('1000000.000001'))] }));
    expect(v).toMatchObject({ rule: 'authority', field: 'delegationAuthorities.0.authorityLimitValue', invalidField: 'Authority', status: 400 });
    expect(v.message).toBe('delegationAuthorities.0.authorityLimitValue: 1000000.000001 USD is more than the decision allows (<= 1000000 USD)');
    expect(only(root({ authorities: [held(currency('1'), { authorityTypeId: OTHER_TYPE })] }))).toMatchObject({ field: 'delegationAuthorities.0.authorityTypeId', message: expect.stringMatching(/decision has no authority of type/) });
    expect(root({ authorities: [held(currency('1', { authorityTypeId: TYPE.toUpperCase() }))] })).toEqual([]);
  });

  it('names the unit, value type and operator fields', () => {
    expect(fields(root({ authorities: [held(currency('1', { authorityLimitValueUnit: 'EUR' }))] }))).toEqual(['delegationAuthorities.0.authorityLimitValueUnit']);
    expect(fields(root({ authorities: [held(number('1'))] }))).toEqual(['delegationAuthorities.0.authorityLimitValueType']);
    expect(fields(root({ authorities: [held(currency('1000000'))] }, { authorities: [currency('1000000', { authorityLimitOperator: '<' })] }))).toEqual(['delegationAuthorities.0.authorityLimitOperator']);
  });

  it('an expiration after the effective date', () => {
    expect(root({ expirationDate: ms(NOW, 1) })).toEqual([]);
    expect(only(root({ expirationDate: NOW }))).toMatchObject({ rule: 'expiration', field: 'expirationDate' });
  });

  it('recipients that exist and are active', () => {
    expect(only(root({ recipients: [{ recipientUserId: 'gone', recipientPositionId: null }] }))).toMatchObject({ rule: 'recipient', field: 'delegationRecipients.0.recipientUserId', invalidField: 'Recipient' });
    expect(fields(root({ recipientType: 'POSITION_ONLY', recipients: [{ recipientUserId: null, recipientPositionId: 'pos-vacant' }, { recipientUserId: null, recipientPositionId: 'pos-closed' }] }))).toEqual([
      'delegationRecipients.1.recipientPositionId',
    ]);
    expect(fields(root({ recipientType: 'PERSONNEL_IN_POSITION', recipients: [{ recipientUserId: 'rep', recipientPositionId: 'pos-fin' }, { recipientUserId: 'rep', recipientPositionId: 'pos-mgr' }] }))).toEqual([
      'delegationRecipients.1.recipientPositionId',
    ]);
    expect(fields(root({ recipientType: 'PERSONNEL_IN_POSITION', recipients: [{ recipientUserId: null, recipientPositionId: null }] }))).toEqual([
      'delegationRecipients.0.recipientUserId',
      'delegationRecipients.0.recipientPositionId',
    ]);
  });

  it('reports every problem at once', () => {
    const vs = root({ pathways: ['Sideways'], groupIds: ['g-gone'], authorities: [held(currency('2000000'))] }, { status: 'DRAFT' });
    expect(vs.map((v) => v.rule)).toEqual(['root', 'authority', 'pathway', 'groups']);
  });
});

describe('checkRedelegation', () => {
  it('accepts a redelegation within the parent and the decision', () => {
    expect(redo()).toEqual([]);
  });

  describe('rule 1: the issuer holds the parent', () => {
    it('someone else is refused with 403 and nothing else is checked', () => {
      const v = only(redo({ issuer: 'rep', proposed: { pathways: ['Sideways'] } }));
      expect(v).toMatchObject({ rule: 'parent-held', status: 403, field: 'parentDelegationId', invalidField: 'Issuer' });
    });

    it('a deactivated holder holds nothing', () => {
      const o = makeOrg({ active: ORG.active.filter((u) => u !== 'mgr') });
      expect(only(redo({ org: o })).status).toBe(403);
    });

    it('a position parent is held by whoever holds the position', () => {
      const parent: Partial<DelegationState> = { recipientType: 'POSITION_ONLY', recipientUserId: null, recipientPositionId: 'pos-mgr' };
      expect(redo({ parent })).toEqual([]);
      expect(only(redo({ parent, issuer: 'boss' })).status).toBe(403);
    });
  });

  describe('rule 2: the parent is live', () => {
    it.each(['ISSUED', 'ACCEPTED'] as const)('%s gives authority', (status) => {
      expect(redo({ parent: { status } })).toEqual([]);
    });

    it.each(['DRAFT', 'PENDING', 'REJECTED', 'SUSPENDED', 'REVOKED', 'EXPIRED', 'ARCHIVED', 'DELETED'] as const)('%s does not', (status) => {
      const v = only(redo({ parent: { status } }));
      expect(v).toMatchObject({ rule: 'parent-live', status: 400, field: 'parentDelegationId', invalidField: 'Parent' });
      expect(v.message).toContain(status);
    });

    it('effective from its effectiveDate on: now ok, one ms in the future not', () => {
      expect(redo({ parent: { effectiveDate: NOW } })).toEqual([]);
      const later = ms(NOW, 1);
      const vs = redo({ parent: { effectiveDate: later }, proposed: { effectiveDate: later } });
      expect(only(vs)).toMatchObject({ rule: 'parent-live', field: 'parentDelegationId', message: expect.stringMatching(/not effective until/) });
    });

    it('expired from its expirationDate on: one ms before is live', () => {
      expect(redo({ now: ms(PARENT_EXPIRES, -1), proposed: { effectiveDate: ms(PARENT_EXPIRES, -1) } })).toEqual([]);
      expect(only(redo({ now: PARENT_EXPIRES, proposed: { effectiveDate: ms(PARENT_EXPIRES, -1) } })).message).toMatch(/expired at 2025-01-01/);
    });

    it('not invalid', () => {
      expect(only(redo({ parent: { isInvalid: true } }))).toMatchObject({ rule: 'parent-live', invalidField: 'Parent', message: expect.stringMatching(/invalid/) });
    });

    it('its decision PUBLISHED and delegable', () => {
      expect(only(redo({ decision: { status: 'ARCHIVED' } }))).toMatchObject({ rule: 'parent-live', field: 'decisionId' });
      expect(only(redo({ decision: { delegable: false } }))).toMatchObject({ rule: 'parent-live', field: 'decisionId' });
    });
  });

  describe('rule 3: authorities', () => {
    it('Currency: the cap itself is within, a millionth more is not', () => {
      expect(redo(withAuthority(currency('500000')))).toEqual([]);
      const v = only(redo(withAuthority(currency('500000.000001'))));
      expect(v).toMatchObject({ rule: 'authority', field: 'delegationAuthorities.0.authorityLimitValue', status: 400, invalidField: 'Authority' });
      expect(only(redo(withAuthority(currency('600000')))).message).toBe('delegationAuthorities.0.authorityLimitValue: 600000 USD is more than the parent hands on (<= 500000 USD)');
    });

    it('operators: "<=" under a "<" parent at the same value is refused, "<" under "<=" is fine', () => {
      expect(only(redo({ parent: parentHolds(currency('500000', { authorityLimitOperator: '<' })) })).field).toBe('delegationAuthorities.0.authorityLimitOperator');
      expect(redo(withAuthority(currency('500000', { authorityLimitOperator: '<' })))).toEqual([]);
    });

    it('numbers compare numerically, not as text', () => {
      expect(redo({ ...withAuthority(currency('1000')), parent: parentHolds(currency('200000')) })).toEqual([]);
      expect(fields(redo({ ...withAuthority(currency('200000')), parent: parentHolds(currency('1000')) }))).toEqual(['delegationAuthorities.0.authorityLimitValue']);
    });

    it('each value type, within and just outside', () => {
      const cases: [Limit, Limit, Limit][] = [
        [number('10'), number('10'), number('10.000001')],
        [percentage('100'), percentage('99.5'), percentage('100.000001')],
        [time('30', 'Days'), time('30', 'Days'), time('30.000001', 'Days')],
        [time('6', 'Months'), time('6', 'Months'), time('6.000001', 'Months')],
        [time('2', 'Years'), time('1.5', 'Years'), time('2.000001', 'Years')],
        [currency(UNLIMITED), currency(UNLIMITED), currency(UNLIMITED, { authorityLimitValueUnit: 'EUR' })],
      ];
      for (const [cap, inside, outside] of cases) {
        const decision = { authorities: [cap] };
        expect(redo({ decision, parent: parentHolds(cap), ...withAuthority(inside) })).toEqual([]);
        expect(redo({ decision, parent: parentHolds(cap), ...withAuthority(outside) })).toHaveLength(1);
      }
    });

    it('Authorized hands on Authorized only', () => {
      const decision = { authorities: [authorized()] };
      expect(redo({ decision, parent: parentHolds(authorized()), ...withAuthority(authorized()) })).toEqual([]);
      expect(fields(redo({ decision, parent: parentHolds(authorized()), ...withAuthority(currency('0')) }))).toEqual(['delegationAuthorities.0.authorityLimitValueType']);
    });

    it('Unlimited only under Unlimited', () => {
      expect(fields(redo(withAuthority(currency(UNLIMITED))))).toEqual(['delegationAuthorities.0.authorityLimitValue']);
      expect(redo({ decision: { authorities: [currency(UNLIMITED)] }, parent: parentHolds(currency(UNLIMITED)), ...withAuthority(currency('999999999999999.999999')) })).toEqual([]);
    });

    it('a unit or value type mismatch is refused', () => {
      expect(fields(redo(withAuthority(currency('1', { authorityLimitValueUnit: 'EUR' }))))).toEqual(['delegationAuthorities.0.authorityLimitValueUnit']);
      expect(fields(redo(withAuthority(number('1'))))).toEqual(['delegationAuthorities.0.authorityLimitValueType']);
      const months = { decision: { authorities: [time('12', 'Months')] }, parent: parentHolds(time('12', 'Months')) };
      expect(fields(redo({ ...months, ...withAuthority(time('1', 'Years')) }))).toEqual(['delegationAuthorities.0.authorityLimitValueUnit']);
    });

    it('an unparseable value is refused', () => {
      expect(fields(redo(withAuthority(currency('1,000'))))).toEqual(['delegationAuthorities.0.authorityLimitValue']);
    });

    it('the parent\'s redelegation limit is the cap', () => {
      const parent = parentHolds(currency('500000'), { redelegationLimitValue: '100000' });
      expect(redo({ parent, ...withAuthority(currency('100000')) })).toEqual([]);
      expect(fields(redo({ parent, ...withAuthority(currency('100000.000001')) }))).toEqual(['delegationAuthorities.0.authorityLimitValue']);
    });

    it('the parent\'s authority must be redelegable', () => {
      const v = only(redo({ parent: parentHolds(currency('500000'), { redelegable: false }) }));
      expect(v).toMatchObject({ rule: 'authority', field: 'delegationAuthorities.0.redelegable', invalidField: 'Authority' });
      expect(v.message).toMatch(/not redelegable/);
    });

    it('matched by authority type: a type the parent or the decision lacks is refused; fewer types are fine', () => {
      const two = [held(currency('500000')), held(number('5'), { authorityTypeId: OTHER_TYPE })];
      const decision = { authorities: [currency('1000000'), number('5', '<=')].map((l, i) => ({ ...l, authorityTypeId: i === 0 ? TYPE : OTHER_TYPE })) };
      expect(redo({ decision, parent: { authorities: two }, proposed: { authorities: [held(number('5'), { authorityTypeId: OTHER_TYPE })] } })).toEqual([]);
      expect(redo({ decision, parent: { authorities: two }, proposed: { authorities: [...two].reverse() } })).toEqual([]);
      const v = only(redo({ decision, proposed: { authorities: [held(currency('1')), held(number('5'), { authorityTypeId: OTHER_TYPE })] } }));
      expect(v).toMatchObject({ field: 'delegationAuthorities.1.authorityTypeId', message: expect.stringMatching(/parent delegation holds no authority/) });
      expect(only(redo({ parent: { authorities: two }, proposed: { authorities: two } }))).toMatchObject({ field: 'delegationAuthorities.1.authorityTypeId', message: expect.stringMatching(/decision has no authority/) });
    });

    it('also within the decision\'s limit (the decision may have been lowered)', () => {
      expect(only(redo({ decision: { authorities: [currency('400000')] } })).message).toMatch(/more than the decision allows \(<= 400000 USD\)/);
    });
  });

  describe('pathways', () => {
    it('proposed within the parent\'s and the decision\'s', () => {
      expect(redo({ proposed: { pathways: ['Direct Line', 'Down-Line'] } })).toEqual([]);
      const v = only(redo({ proposed: { pathways: ['Direct Line', 'Functional'] } }));
      expect(v).toMatchObject({ rule: 'pathway', field: 'delegationPathway', invalidField: 'Pathway', status: 400 });
      expect(v.message).toMatch(/Functional is not among the parent's/);
    });

    it('a pathway the parent has but the decision no longer has is refused', () => {
      const v = only(redo({ decision: { pathways: ['Matrix', 'Down-Line'] }, proposed: { pathways: ['Direct Line', 'Down-Line'] } }));
      expect(v.message).toMatch(/Direct Line is not among the decision's/);
    });
  });

  describe('groups', () => {
    it('within the parent\'s: the group itself and descendants count', () => {
      expect(redo({ proposed: { groupIds: ['g-fin'] } })).toEqual([]);
      expect(redo({ proposed: { groupIds: ['g-fin-ap'] } })).toEqual([]);
      expect(redo({ proposed: { groupIds: [] } })).toEqual([]);
    });

    it('an ancestor, a sibling or a deleted group is refused, by its place', () => {
      expect(only(redo({ proposed: { groupIds: ['g-fin-ap', 'g-org'] } }))).toMatchObject({ rule: 'groups', field: 'delegationGroups.1.groupId', invalidField: 'Groups' });
      expect(only(redo({ proposed: { groupIds: ['g-hr'] } })).message).toBe("delegationGroups.0.groupId: group g-hr is not within the parent's groups (neither one of them nor below one)"); // within the decision, not the parent
      expect(only(redo({ proposed: { groupIds: ['g-gone'] } })).message).toMatch(/deleted/);
    });

    it('also within the decision\'s', () => {
      expect(only(redo({ decision: { groupIds: ['g-hr'] } })).message).toMatch(/the decision's/);
    });
  });

  describe('rule 4: expiration', () => {
    it('equal to the parent\'s is fine, one ms later is refused', () => {
      expect(redo({ proposed: { expirationDate: PARENT_EXPIRES } })).toEqual([]);
      expect(redo({ proposed: { expirationDate: ms(PARENT_EXPIRES, -1) } })).toEqual([]);
      const v = only(redo({ proposed: { expirationDate: ms(PARENT_EXPIRES, 1) } }));
      expect(v).toMatchObject({ rule: 'expiration', field: 'expirationDate', invalidField: 'Parent', status: 400 });
    });

    it('none under a parent with one is refused; a parent without one allows any', () => {
      expect(only(redo({ proposed: { expirationDate: null } })).message).toMatch(/^expirationDate: is required/);
      expect(redo({ parent: { expirationDate: null }, proposed: { expirationDate: null } })).toEqual([]);
      expect(redo({ parent: { expirationDate: null }, proposed: { expirationDate: new Date('2099-01-01T00:00:00Z') } })).toEqual([]);
    });

    it('after the child\'s own effective date, which is not before the parent\'s', () => {
      expect(only(redo({ proposed: { expirationDate: NOW } })).field).toBe('expirationDate');
      expect(redo({ proposed: { effectiveDate: PARENT.effectiveDate } })).toEqual([]);
      expect(only(redo({ proposed: { effectiveDate: ms(PARENT.effectiveDate, -1) } }))).toMatchObject({ rule: 'expiration', field: 'effectiveDate' });
    });
  });

  describe('reach', () => {
    const to = (recipientUserId: string, pathways: string[]): Redo => ({ proposed: { pathways, recipients: [{ recipientUserId, recipientPositionId: null }] } });

    it('along at least one proposed pathway', () => {
      expect(redo(to('deep', ['Down-Line']))).toEqual([]);
      expect(redo(to('deep', ['Direct Line', 'Down-Line']))).toEqual([]);
      const v = only(redo(to('deep', ['Direct Line'])));
      expect(v).toMatchObject({ rule: 'reach', field: 'delegationRecipients.0.recipientUserId', invalidField: 'Recipient', status: 400 });
      expect(v.message).toMatch(/user deep cannot be reached from the issuer along any of the proposed pathways \(Direct Line\)/);
    });

    it('only the proposed pathways count, not the parent\'s', () => {
      expect(only(redo(to('loner', ['Down-Line']))).rule).toBe('reach');
      expect(redo(to('loner', ['Matrix']))).toEqual([]);
    });

    it('Functional, when the parent and the decision allow it', () => {
      const allow = { parent: { pathways: ['Functional'] } };
      const o = makeOrg({ userGroups: { ...ORG.userGroups, mgr: ['g-fin', 'g-hr'] } });
      expect(redo({ ...allow, ...to('peer', ['Functional']), org: o })).toEqual([]);
      expect(only(redo({ ...allow, ...to('peer', ['Functional']) })).rule).toBe('reach');
    });

    it('no pathway reaches no one', () => {
      expect(only(redo(to('rep', []))).message).toMatch(/as no pathway is given/);
    });

    it('a Down-Line through a reporting-line cycle ends (refused, not hung)', () => {
      expect(only(redo(to('cyc1', ['Down-Line']))).rule).toBe('reach');
    });

    it('each recipient on its own: the second is named', () => {
      expect(fields(redo({ proposed: { pathways: ['Direct Line'], recipients: [{ recipientUserId: 'rep', recipientPositionId: null }, { recipientUserId: 'peer', recipientPositionId: null }] } }))).toEqual([
        'delegationRecipients.1.recipientUserId',
      ]);
    });

    it('a position recipient is named by its position', () => {
      const proposed = (positionId: string): Partial<ProposedDelegation> => ({ recipientType: 'POSITION_ONLY', recipients: [{ recipientUserId: null, recipientPositionId: positionId }] });
      expect(redo({ proposed: proposed('pos-rep') })).toEqual([]);
      expect(only(redo({ proposed: proposed('pos-vacant') }))).toMatchObject({ rule: 'reach', field: 'delegationRecipients.0.recipientPositionId' });
      expect(redo({ proposed: { ...proposed('pos-vacant'), pathways: ['Matrix'] } })).toEqual([]);
    });

    it('an invalid recipient is reported as such, not also as unreachable', () => {
      expect(only(redo(to('gone', ['Direct Line'])))).toMatchObject({ rule: 'recipient', field: 'delegationRecipients.0.recipientUserId' });
    });
  });
});

describe('checkChange', () => {
  const change = (proposed: Partial<ProposedDelegation> = {}, parent: DelegationState | null = PARENT, issuer: string | null = 'mgr', o: OrgView = org): Violation[] =>
    checkChange(parent, DECISION, { ...PROPOSED, ...proposed }, issuer, o);

  it('accepts terms within the parent', () => {
    expect(change()).toEqual([]);
  });

  it('does not ask again whether the issuer holds the parent (a change of terms is not a new hand-on)', () => {
    const o = makeOrg({ active: ORG.active.filter((u) => u !== 'mgr'), managers: { ...ORG.managers, rep: 'mgr' } });
    expect(change({}, PARENT, 'mgr', o).map((v) => v.rule)).not.toContain('parent-held');
  });

  it('a limit just inside the parent is fine, just outside is refused naming the field', () => {
    expect(change({ authorities: [held(currency('500000'))] })).toEqual([]);
    expect(only(change({ authorities: [held(currency('500000.000001'))] }))).toMatchObject({ rule: 'authority', field: 'delegationAuthorities.0.authorityLimitValue' });
  });

  it('pathways, groups and expiration stay within the parent', () => {
    expect(change({ pathways: ['Functional', 'Direct Line'] }).map((v) => v.rule)).toEqual(['pathway']);
    expect(fields(change({ groupIds: ['g-hr'] }))).toEqual(['delegationGroups.0.groupId']);
    expect(change({ expirationDate: PARENT_EXPIRES })).toEqual([]);
    expect(only(change({ expirationDate: ms(PARENT_EXPIRES, 1) }))).toMatchObject({ rule: 'expiration', field: 'expirationDate' });
  });

  it('a new recipient must be reachable from the issuer along the pathways', () => {
    expect(change({ recipients: [{ recipientUserId: 'rep', recipientPositionId: null }] })).toEqual([]);
    expect(only(change({ recipients: [{ recipientUserId: 'peer', recipientPositionId: null }] }))).toMatchObject({ rule: 'reach', field: 'delegationRecipients.0.recipientUserId' });
    expect(only(change({ recipients: [{ recipientUserId: 'gone', recipientPositionId: null }] })).rule).toBe('recipient');
  });

  it('a root delegation is held to the decision, and any sound recipient is reachable', () => {
    expect(change({ pathways: ['Matrix'], groupIds: ['g-fin'], authorities: [held(currency('1000000'))], expirationDate: null, recipients: [{ recipientUserId: 'peer', recipientPositionId: null }] }, null, null)).toEqual([]);
    expect(only(change({ pathways: ['Matrix'], groupIds: ['g-fin'], authorities: [held(currency('1000000.01'))], expirationDate: null }, null, null)).rule).toBe('authority');
  });
});

describe('invalidFieldsOf', () => {
  // rep holds a delegation issued by mgr (in pos-mgr) from PARENT.
  const LIVE: DelegationState = {
    ...PARENT,
    recipientType: 'PERSONNEL_IN_POSITION',
    recipientUserId: 'rep',
    recipientPositionId: 'pos-fin',
    issuerType: 'PERSONNEL_IN_POSITION',
    issuerUserId: 'mgr',
    issuerPositionId: 'pos-mgr',
    pathways: ['Direct Line'],
    groupIds: ['g-fin-ap'],
    authorities: [held(currency('500000'))],
  };
  const check = (d: Partial<DelegationState> = {}, p: Partial<DelegationState> | null = {}, dec: Partial<DecisionScope> = {}, o: OrgView = org) =>
    invalidFieldsOf({ ...LIVE, ...d }, p === null ? null : { ...PARENT, ...p }, { ...DECISION, ...dec }, o);

  it('none when all still holds', () => {
    expect(check()).toEqual([]);
    expect(check({}, null)).toEqual([]);
  });

  it('Recipient: no longer in the position, deactivated, or the position inactive', () => {
    expect(check({}, {}, {}, makeOrg({ positions: { ...ORG.positions, rep: ['pos-rep'] } }))).toEqual(['Recipient']);
    expect(check({}, {}, {}, makeOrg({ active: ORG.active.filter((u) => u !== 'rep') }))).toEqual(['Recipient']);
    expect(check({}, {}, {}, makeOrg({ activePositions: ['pos-mgr'] }))).toEqual(['Recipient']);
    expect(check({ recipientType: 'SPECIFIC_PERSONNEL', recipientUserId: 'gone', recipientPositionId: null })).toEqual(['Recipient']);
    expect(check({ recipientType: 'POSITION_ONLY', recipientUserId: null, recipientPositionId: 'pos-vacant' })).toEqual([]);
    expect(check({ recipientType: 'POSITION_ONLY', recipientUserId: null, recipientPositionId: 'pos-closed' })).toEqual(['Recipient']);
  });

  it('Issuer: a position issuer no longer in the position it issued from', () => {
    const moved = makeOrg({ positions: { ...ORG.positions, mgr: [] } });
    expect(check({}, {}, {}, moved)).toEqual(['Issuer']);
    expect(check({ issuerType: 'POSITION_ONLY' }, {}, {}, moved)).toEqual(['Issuer']);
    expect(check({ issuerType: 'SPECIFIC_PERSONNEL', issuerPositionId: null }, {}, {}, moved)).toEqual([]);
    expect(check({ issuerType: 'ROOT_AUTHORITY', issuerPositionId: null }, null, {}, moved)).toEqual([]);
    expect(check({}, {}, {}, makeOrg({ active: ORG.active.filter((u) => u !== 'mgr') }))).toEqual(['Issuer']);
  });

  it('Issuer: the issuing user no longer holds the parent (it was given to someone else)', () => {
    expect(check({ issuerType: 'SPECIFIC_PERSONNEL', issuerPositionId: null }, { recipientUserId: 'peer' })).toEqual(['Issuer']);
    expect(check({ issuerType: 'SPECIFIC_PERSONNEL', issuerPositionId: null }, { recipientUserId: 'mgr' })).toEqual([]);
    expect(check({}, { recipientType: 'POSITION_ONLY', recipientUserId: null, recipientPositionId: 'pos-mgr' })).toEqual([]);
    expect(check({}, { recipientType: 'POSITION_ONLY', recipientUserId: null, recipientPositionId: 'pos-rep' })).toEqual(['Issuer']);
  });

  it('Pathway: no longer within the parent\'s or the decision\'s', () => {
    expect(check({}, { pathways: ['Matrix'] })).toEqual(['Pathway']);
    expect(check({}, {}, { pathways: ['Matrix'] })).toEqual(['Pathway']);
    expect(check({ pathways: ['Functional'] }, null)).toEqual([]);
    expect(check({ pathways: ['Functional'] }, null, { pathways: ['Matrix'] })).toEqual(['Pathway']);
  });

  it("Pathway: a redelegation's sound recipient no longer reachable from its issuer along any of its pathways", () => {
    // Direct Line: rep's manager is now someone else than the issuer (or nobody).
    expect(check({}, {}, {}, makeOrg({ managers: { ...ORG.managers, rep: 'boss' } }))).toEqual(['Pathway']);
    expect(check({}, {}, {}, makeOrg({ managers: Object.fromEntries(Object.entries(ORG.managers).filter(([u]) => u !== 'rep')) }))).toEqual(['Pathway']);
    // Down-Line: deep is below mgr through rep; moving rep (not deep) away takes deep out of mgr's line too.
    const deep = { recipientUserId: 'deep', pathways: ['Down-Line'] };
    expect(check(deep)).toEqual([]);
    expect(check(deep, {}, {}, makeOrg({ managers: { ...ORG.managers, rep: 'peer' } }))).toEqual(['Pathway']);
    expect(check({ ...deep, pathways: ['Direct Line'] })).toEqual(['Pathway']);
    // One pathway that still reaches is enough.
    expect(check({ pathways: ['Direct Line', 'Matrix'] }, { pathways: ['Direct Line', 'Matrix'] }, { pathways: ['Direct Line', 'Matrix'] }, makeOrg({ managers: { ...ORG.managers, rep: 'boss' } }))).toEqual([]);
    // Functional: the issuer and a POSITION_ONLY recipient's holders no longer share a group.
    const functional = { recipientType: 'POSITION_ONLY' as const, recipientUserId: null, recipientPositionId: 'pos-fin', pathways: ['Functional'] };
    expect(check(functional, { pathways: ['Functional'] }, {}, makeOrg({ userGroups: { ...ORG.userGroups, mgr: ['g-fin-ap'] } }))).toEqual([]);
    expect(check(functional, { pathways: ['Functional'] }, {}, makeOrg({ userGroups: { ...ORG.userGroups, mgr: ['g-hr'] } }))).toEqual(['Pathway']);
    // A vacant position is not a broken line: its next holder is asked when they arrive.
    expect(check({ ...functional, recipientPositionId: 'pos-vacant' }, { pathways: ['Functional'] })).toEqual([]);
    // A recipient with a problem of its own is Recipient only; a root delegation is not issued along a pathway from anyone.
    expect(check({}, {}, {}, makeOrg({ managers: { ...ORG.managers, rep: 'boss' }, active: ORG.active.filter((u) => u !== 'rep') }))).toEqual(['Recipient']);
    expect(check({}, null, {}, makeOrg({ managers: { ...ORG.managers, rep: 'boss' } }))).toEqual([]);
  });

  it('Authority: no longer within the parent\'s cap or the decision\'s limit', () => {
    expect(check({}, parentHolds(currency('499999.999999')))).toEqual(['Authority']);
    expect(check({}, parentHolds(currency('500000'), { redelegable: false }))).toEqual(['Authority']);
    expect(check({}, parentHolds(currency('500000'), { redelegationLimitValue: '1' }))).toEqual(['Authority']);
    expect(check({}, {}, { authorities: [currency('500000', { authorityLimitOperator: '<' })] })).toEqual(['Authority']);
    expect(check({}, {}, { authorities: [] })).toEqual(['Authority']);
    expect(check({}, {}, { authorities: [currency('500000')] })).toEqual([]);
  });

  it('a root delegation is checked against the decision only', () => {
    const big = { authorities: [held(currency('1000000'))], groupIds: ['g-hr'], pathways: ['Functional'] };
    expect(check(big, null)).toEqual([]);
    expect(check(big, {})).toEqual(['Pathway', 'Authority', 'Groups']);
    expect(check({ ...big, authorities: [held(currency('1000000.000001'))] }, null)).toEqual(['Authority']);
    expect(check({}, { status: 'REVOKED' })).toEqual(['Parent']);
    expect(check({}, null)).toEqual([]);
  });

  it('Groups: a group deleted, or no longer within the parent\'s or the decision\'s', () => {
    expect(check({ groupIds: ['g-gone'] }, null)).toEqual(['Groups']);
    expect(check({}, { groupIds: ['g-hr'] })).toEqual(['Groups']);
    expect(check({}, {}, { groupIds: ['g-hr'] })).toEqual(['Groups']);
    expect(check({}, {}, { groupIds: ['g-fin-ap'] })).toEqual([]);
  });

  it('Parent: not ISSUED/ACCEPTED, invalid itself, or now expiring before this delegation', () => {
    expect(check({}, { status: 'ACCEPTED' })).toEqual([]);
    for (const status of ['SUSPENDED', 'REVOKED', 'EXPIRED', 'PENDING'] as const) expect(check({}, { status })).toEqual(['Parent']);
    expect(check({}, { isInvalid: true })).toEqual(['Parent']);
    expect(check({}, { expirationDate: ms(PARENT_EXPIRES, -1) })).toEqual(['Parent']);
    expect(check({ expirationDate: null }, {})).toEqual(['Parent']);
    expect(check({ expirationDate: null }, { expirationDate: null })).toEqual([]);
  });

  it('every field at once, in the order of INVALID_FIELDS, each once', () => {
    const o = makeOrg({ active: ORG.active.filter((u) => u !== 'rep' && u !== 'mgr'), liveGroups: [] });
    const d = { pathways: ['Functional', 'Sideways'], groupIds: ['g-fin-ap', 'g-gone'], authorities: [held(number('1')), held(currency('1'), { authorityTypeId: OTHER_TYPE })] };
    expect(check(d, { status: 'REVOKED' }, {}, o)).toEqual(['Recipient', 'Issuer', 'Pathway', 'Authority', 'Groups', 'Parent']);
  });
});

describe('issuerOf (from which holding a redelegation is issued)', () => {
  const byPosition = { recipient_type: 'PERSONNEL_IN_POSITION' as const, recipient_position_id: 'pos-fin' };
  const inPerson = { recipient_type: 'SPECIFIC_PERSONNEL' as const, recipient_position_id: null };

  it('as the person when the parent was given to a person', () => {
    expect(issuerOf(inPerson, 'rep', {}, org)).toEqual({ issuerType: 'SPECIFIC_PERSONNEL', issuerPositionId: null });
    expect(issuerOf(inPerson, 'rep', { issuerType: 'SPECIFIC_PERSONNEL', issuerPositionId: null }, org)).toEqual({ issuerType: 'SPECIFIC_PERSONNEL', issuerPositionId: null });
  });

  it("from the parent's position when the issuer holds it today (what is sent, when it says the same, changes nothing)", () => {
    expect(issuerOf(byPosition, 'rep', {}, org)).toEqual({ issuerType: 'PERSONNEL_IN_POSITION', issuerPositionId: 'pos-fin' });
    expect(issuerOf(byPosition, 'rep', { issuerType: 'PERSONNEL_IN_POSITION', issuerPositionId: 'POS-FIN' }, org)).toEqual({ issuerType: 'PERSONNEL_IN_POSITION', issuerPositionId: 'pos-fin' });
    expect(issuerOf({ recipient_type: 'POSITION_ONLY', recipient_position_id: 'pos-fin' }, 'deep', { issuerType: 'POSITION_ONLY' }, org)).toEqual({ issuerType: 'POSITION_ONLY', issuerPositionId: 'pos-fin' });
  });

  it('a 403 naming the position when the issuer does not hold it (or is no longer active)', () => {
    expect(issuerOf(byPosition, 'mgr', {}, org)).toMatchObject({ rule: 'issuer', status: 403, field: 'issuerPositionId', message: 'You do not hold position pos-fin' });
    expect(issuerOf(byPosition, 'rep', {}, makeOrg({ active: ORG.active.filter((u) => u !== 'rep') }))).toMatchObject({ status: 403 });
  });

  it('a 400 naming issuerType or issuerPositionId when what is sent is not how the issuer holds the parent', () => {
    expect(issuerOf(byPosition, 'rep', { issuerType: 'POSITION_ONLY' }, org)).toMatchObject({ status: 400, field: 'issuerType', message: 'must be PERSONNEL_IN_POSITION: you hold the parent delegation as PERSONNEL_IN_POSITION from position pos-fin' });
    expect(issuerOf(byPosition, 'rep', { issuerType: 'SPECIFIC_PERSONNEL' }, org)).toMatchObject({ status: 400, field: 'issuerType' });
    expect(issuerOf(byPosition, 'rep', { issuerType: 'ROOT_AUTHORITY' }, org)).toMatchObject({ status: 400, field: 'issuerType' });
    expect(issuerOf(byPosition, 'rep', { issuerPositionId: 'pos-rep' }, org)).toMatchObject({ status: 400, field: 'issuerPositionId', message: 'must be pos-fin: you hold the parent delegation as PERSONNEL_IN_POSITION from position pos-fin' });
    expect(issuerOf(byPosition, 'rep', { issuerType: 'PERSONNEL_IN_POSITION', issuerPositionId: 'pos-mgr' }, org)).toMatchObject({ status: 400, field: 'issuerPositionId' });
    expect(issuerOf(inPerson, 'rep', { issuerType: 'PERSONNEL_IN_POSITION' }, org)).toMatchObject({ status: 400, field: 'issuerType', message: 'must be SPECIFIC_PERSONNEL: you hold the parent delegation as SPECIFIC_PERSONNEL (in person)' });
    expect(issuerOf(inPerson, 'rep', { issuerPositionId: 'pos-rep' }, org)).toMatchObject({ status: 400, field: 'issuerPositionId', message: 'must be empty: you hold the parent delegation as SPECIFIC_PERSONNEL (in person)' });
  });
});

describe('refusal (the answer to broken rules)', () => {
  it('a 403 when any rule says the caller may not, with its message', () => {
    const denied = refusal([...redo(withAuthority(currency('600000'))), ...redo({ issuer: 'peer' })]);
    expect(denied.getStatus()).toBe(403);
    expect(denied.message).toMatch(/does not hold the parent/);
  });

  it('else a 400 naming every field, the first rule in its message', () => {
    const bad = refusal(redo({ proposed: { groupIds: ['g-hr'], authorities: [held(currency('600000'))] } }));
    expect(bad.getStatus()).toBe(400);
    expect(bad.message).toMatch(/^The delegation breaks 2 rules: delegationAuthorities\.0\.authorityLimitValue: /);
    expect(bad.errors?.map((e) => e.field)).toEqual(['delegationAuthorities.0.authorityLimitValue', 'delegationGroups.0.groupId']);
    expect(refusal(redo({ proposed: { groupIds: ['g-hr'] } })).message).toMatch(/^The delegation breaks a rule: delegationGroups\.0\.groupId: /);
  });
});

describe('cascadeEffects (what a proposed change does below it)', () => {
  const row = (id: string, parent: string | null, rel: number, d: Partial<DelegationState> = {}) => {
    const st = { ...PARENT, ...d };
    return {
      id,
      decision_id: 'dec',
      parent_delegation_id: parent,
      depth: rel,
      status: st.status,
      effective_date: st.effectiveDate,
      expiration_date: st.expirationDate,
      is_invalid: st.isInvalid,
      issuer_type: st.issuerType,
      issuer_user_id: st.issuerUserId,
      issuer_position_id: st.issuerPositionId,
      recipient_type: st.recipientType,
      recipient_user_id: st.recipientUserId,
      recipient_position_id: st.recipientPositionId,
      delegation_pathway: [...st.pathways],
      group_ids: [...st.groupIds],
      delegation_authorities: [...st.authorities],
      accepted_date: null,
      pending_stage: null,
      delegation_display_id: `1000${rel}`,
      rel,
    };
  };
  // mgr holds the top (PARENT); rep holds a child from mgr; deep a grandchild from rep.
  const child = { recipientUserId: 'rep', issuerUserId: 'mgr', issuerType: 'SPECIFIC_PERSONNEL' as const, pathways: ['Direct Line'], groupIds: ['g-fin-ap'], authorities: [held(currency('400000'))] };
  const grandchild = { recipientUserId: 'deep', issuerUserId: 'rep', issuerType: 'SPECIFIC_PERSONNEL' as const, pathways: ['Direct Line'], groupIds: ['g-fin-ap'], authorities: [held(currency('300000'))] };
  const rows = [row('top', null, 0), row('child', 'top', 1, child), row('grand', 'child', 2, grandchild)];

  it('toState reads a row as the rules see it', () => {
    expect(toState(rows[1])).toEqual({ ...PARENT, ...child });
  });

  it('nothing when the proposal keeps every descendant within bounds', () => {
    expect(cascadeEffects(rows, { id: 'top', proposed: { ...PARENT, authorities: [held(currency('450000'))] } }, DECISION, DECISION, org)).toEqual([]);
  });

  it('a narrowed top breaks its child; the child, now invalid, breaks its own child (Parent), each with its depth', () => {
    const narrowed = { ...PARENT, authorities: [held(currency('350000'))] };
    expect(cascadeEffects(rows, { id: 'top', proposed: narrowed }, DECISION, DECISION, org)).toEqual([
      { id: 'child', delegationDisplayId: '10001', depth: 1, invalidFields: ['Authority'] },
      { id: 'grand', delegationDisplayId: '10002', depth: 2, invalidFields: ['Parent'] },
    ]);
  });

  it('a narrowed decision (no changed delegation) reaches every root and what hangs below; fields broken already are not news', () => {
    const narrower = { ...DECISION, pathways: ['Matrix', 'Down-Line'] };
    expect(cascadeEffects(rows, null, DECISION, narrower, org).map((a) => [a.id, a.invalidFields])).toEqual([
      ['top', ['Pathway']],
      ['child', ['Pathway', 'Parent']],
      ['grand', ['Pathway', 'Parent']],
    ]);
    const alreadyBroken = [row('top', null, 0, { pathways: ['Sideways'] })];
    expect(cascadeEffects(alreadyBroken, null, DECISION, narrower, org)).toEqual([]);
  });

  it('leaves out a descendant whose parent is not in the live subtree', () => {
    expect(cascadeEffects([rows[0], rows[2]], { id: 'top', proposed: { ...PARENT, authorities: [held(currency('1'))] } }, DECISION, DECISION, org)).toEqual([]);
  });
});
