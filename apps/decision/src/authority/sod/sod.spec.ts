import { Holding, SodConflict, SodRuleSpec, acknowledgements, conflictRefusal, findConflicts, groupsOverlap, holderKey, keepOverlapping, sidesProblem } from './sod.rules';

const PAY = '0190f5c4-0000-7000-8000-0000000000a1';
const APPROVE = '0190f5c4-0000-7000-8000-0000000000a2';
const APPROVAL = '0190f5c4-0000-7000-8000-0000000000b1';
const SIGNATORY = '0190f5c4-0000-7000-8000-0000000000b2';
const UMA = '0190f5c4-0000-7000-8000-0000000000c1';
const MAX = '0190f5c4-0000-7000-8000-0000000000c2';
const CFO = '0190f5c4-0000-7000-8000-0000000000d1';

const rule = (extra: Partial<SodRuleSpec> = {}): SodRuleSpec => ({
  id: 'rule-1',
  name: 'Approver does not pay',
  left: { decisionId: APPROVE, authorityTypeId: APPROVAL, decisionName: 'Approve invoices', authorityTypeName: 'Approval' },
  right: { decisionId: PAY, authorityTypeId: APPROVAL, decisionName: 'Pay suppliers', authorityTypeName: 'Approval' },
  sameGroupOnly: false,
  ...extra,
});
const user = (userId: string, delegationDisplayId: string, types = [APPROVAL], positionId: string | null = null): Holding => ({
  holderType: 'USER',
  userId,
  userName: userId === UMA ? 'Uma User' : null,
  positionId,
  delegationId: `d-${delegationDisplayId}`,
  delegationDisplayId,
  authorityTypeIds: types,
});
const position = (positionId: string, delegationDisplayId: string): Holding => ({
  holderType: 'POSITION',
  userId: null,
  userName: null,
  positionId,
  delegationId: `d-${delegationDisplayId}`,
  delegationDisplayId,
  authorityTypeIds: [APPROVAL],
});
const holdings = (entries: [string, Holding[]][]) => new Map(entries);
const pairs = (conflicts: readonly SodConflict[]) => conflicts.map((c) => [c.rule.id, holderKey(c), c.left.delegationDisplayId, c.right.delegationDisplayId]);

describe('findConflicts', () => {
  it('a person holding both sides, by one delegation each, is one conflict per pair; holding one side is none', () => {
    const held = holdings([
      [APPROVE, [user(UMA, '10001'), user(MAX, '10002')]],
      [PAY, [user(UMA, '10003'), user(UMA, '10004')]],
    ]);
    expect(pairs(findConflicts([rule()], held))).toEqual([
      ['rule-1', `USER:${UMA}`, '10001', '10003'],
      ['rule-1', `USER:${UMA}`, '10001', '10004'],
    ]);
    expect(findConflicts([rule()], holdings([[APPROVE, [user(UMA, '10001')]]]))).toEqual([]);
  });

  it('a side is an authority type of its decision: holding another type of it is not holding the side', () => {
    const held = holdings([
      [APPROVE, [user(UMA, '10001', [SIGNATORY])]],
      [PAY, [user(UMA, '10003')]],
    ]);
    expect(findConflicts([rule()], held)).toEqual([]);
  });

  it('two types of one decision: one delegation holding both is a conflict with itself', () => {
    const sameDecision = rule({ left: { decisionId: PAY, authorityTypeId: APPROVAL }, right: { decisionId: PAY, authorityTypeId: SIGNATORY } });
    const held = holdings([[PAY, [user(UMA, '10005', [APPROVAL, SIGNATORY])]]]);
    expect(pairs(findConflicts([sameDecision], held))).toEqual([['rule-1', `USER:${UMA}`, '10005', '10005']]);
  });

  it('a position holding both sides is a POSITION conflict; a person holds through a position as that person', () => {
    const held = holdings([
      [APPROVE, [position(CFO, '10001'), user(MAX, '10001', [APPROVAL], CFO)]],
      [PAY, [position(CFO, '10002'), user(MAX, '10003')]],
    ]);
    const found = findConflicts([rule()], held);
    expect(pairs(found)).toEqual([
      ['rule-1', `POSITION:${CFO}`, '10001', '10002'],
      ['rule-1', `USER:${MAX}`, '10001', '10003'],
    ]);
    expect(found[0]).toMatchObject({ holderType: 'POSITION', positionId: CFO, userId: null });
    expect(found[1]).toMatchObject({ holderType: 'USER', userId: MAX, positionId: null, left: { positionId: CFO }, right: { positionId: null } });
  });

  it('involving: only the pairs through the delegations named (what an issue changes)', () => {
    const held = holdings([
      [APPROVE, [user(UMA, '10001'), user(MAX, '10002')]],
      [PAY, [user(UMA, '10003'), user(MAX, '10004')]],
    ]);
    expect(pairs(findConflicts([rule()], held, new Set(['d-10004'])))).toEqual([['rule-1', `USER:${MAX}`, '10002', '10004']]);
    expect(findConflicts([rule()], held, new Set(['d-99999']))).toEqual([]);
  });

  it('in order of rule name, then holder, then display ids (numerically)', () => {
    const b = rule({ id: 'rule-b', name: 'b rule' });
    const a = rule({ id: 'rule-a', name: 'A rule' });
    const held = holdings([
      [APPROVE, [user(UMA, '9999'), user(UMA, '10000')]],
      [PAY, [user(UMA, '10001')]],
    ]);
    expect(pairs(findConflicts([b, a], held))).toEqual([
      ['rule-a', `USER:${UMA}`, '9999', '10001'],
      ['rule-a', `USER:${UMA}`, '10000', '10001'],
      ['rule-b', `USER:${UMA}`, '9999', '10001'],
      ['rule-b', `USER:${UMA}`, '10000', '10001'],
    ]);
  });
});

describe('keepOverlapping', () => {
  const held = holdings([
    [APPROVE, [user(UMA, '10001')]],
    [PAY, [user(UMA, '10003')]],
  ]);

  it('a sameGroupOnly rule keeps only pairs whose groups overlap; another rule keeps every pair', () => {
    const never = () => false;
    expect(keepOverlapping(findConflicts([rule({ sameGroupOnly: true })], held), never)).toEqual([]);
    expect(keepOverlapping(findConflicts([rule({ sameGroupOnly: true })], held), () => true)).toHaveLength(1);
    expect(keepOverlapping(findConflicts([rule()], held), never)).toHaveLength(1);
  });
});

describe('groupsOverlap', () => {
  // Group → children: Company > (Finance, Legal); Finance > North; Shared sits below Finance and Legal.
  const tree: Record<string, string[]> = { company: ['finance', 'legal'], finance: ['north', 'shared'], legal: ['shared'] };
  const childrenOf = (g: string) => tree[g] ?? [];

  it('no groups covers the whole scope: it overlaps anything', () => {
    expect(groupsOverlap([], ['north'], childrenOf)).toBe(true);
    expect(groupsOverlap(['north'], [], childrenOf)).toBe(true);
  });

  it('the same group, or a group and one below it, overlap; siblings do not', () => {
    expect(groupsOverlap(['finance'], ['finance'], childrenOf)).toBe(true);
    expect(groupsOverlap(['company'], ['north'], childrenOf)).toBe(true);
    expect(groupsOverlap(['north'], ['company'], childrenOf)).toBe(true);
    expect(groupsOverlap(['north'], ['legal'], childrenOf)).toBe(false);
  });

  it('two groups with a child in common overlap (a group may have several parents); a cycle ends', () => {
    expect(groupsOverlap(['finance'], ['legal'], childrenOf)).toBe(true);
    const cyclic = (g: string) => ({ a: ['b'], b: ['a'] })[g] ?? [];
    expect(groupsOverlap(['a'], ['c'], cyclic)).toBe(false);
  });

  it('ids compare case-insensitively', () => {
    expect(groupsOverlap(['FINANCE'], ['finance'], childrenOf)).toBe(true);
  });
});

describe('sidesProblem', () => {
  it('the same authority type of the same decision on both sides is refused, naming right', () => {
    expect(sidesProblem({ decisionId: PAY, authorityTypeId: APPROVAL }, { decisionId: PAY.toUpperCase(), authorityTypeId: APPROVAL })).toEqual({ field: 'right', message: expect.any(String) });
    expect(sidesProblem({ decisionId: PAY, authorityTypeId: APPROVAL }, { decisionId: PAY, authorityTypeId: SIGNATORY })).toBeNull();
    expect(sidesProblem({ decisionId: PAY, authorityTypeId: APPROVAL }, { decisionId: APPROVE, authorityTypeId: APPROVAL })).toBeNull();
  });
});

describe('acknowledgements', () => {
  it('records each rule on the issued delegation the conflict holds through (itself or one below it), once', () => {
    const held = holdings([
      [APPROVE, [user(UMA, '10001'), user(MAX, '10002')]],
      [PAY, [user(UMA, '10003'), user(MAX, '10004')]],
    ]);
    const second = rule({ id: 'rule-2', name: 'Second' });
    const conflicts = findConflicts([rule(), second], held);
    // 10003 was issued; 10004 is a redelegation below resumed 10009.
    const issuedOf = new Map([
      ['d-10003', 'd-10003'],
      ['d-10009', 'd-10009'],
      ['d-10004', 'd-10009'],
    ]);
    expect(acknowledgements(conflicts, issuedOf)).toEqual(
      new Map([
        ['d-10003', ['rule-1', 'rule-2']],
        ['d-10009', ['rule-1', 'rule-2']],
      ]),
    );
  });
});

describe('conflictRefusal', () => {
  it('names the first rule (name and id) in the message and every conflict in errors under sodRules.<ruleId>', () => {
    const held = holdings([
      [APPROVE, [user(UMA, '10001')]],
      [PAY, [user(UMA, '10003')]],
    ]);
    const refusal = conflictRefusal(findConflicts([rule()], held));
    expect(refusal.message).toMatch(/rule "Approver does not pay" \(rule-1\)/);
    expect(refusal.message).toMatch(/acknowledgeSodConflict: true/);
    expect(refusal.errors).toEqual([
      {
        field: 'sodRules.rule-1',
        message: `rule "Approver does not pay": user Uma User (${UMA}) would hold "Approve invoices" (Approval) through delegation 10001 and "Pay suppliers" (Approval) through delegation 10003`,
      },
    ]);
  });

  it('counts the other rules broken and lists at most 50 conflicts', () => {
    const many = Array.from({ length: 60 }, (_, i) => user(UMA, String(20000 + i)));
    const conflicts = findConflicts([rule(), rule({ id: 'rule-2', name: 'Zed' })], holdings([[APPROVE, many], [PAY, [user(UMA, '10003')]]]));
    const refusal = conflictRefusal(conflicts);
    expect(refusal.message).toMatch(/\(and 1 more rule\)/);
    expect(refusal.errors).toHaveLength(50);
  });
});
