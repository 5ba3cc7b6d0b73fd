import { ChangeInput, changeFieldProblems, diffHoldings, holdingsOf, invalidatedBy, scopesWithoutHolder, unknownRecords } from './what-if.rules';

const U1 = '0190a000-0000-7000-8000-000000000001';
const U2 = '0190a000-0000-7000-8000-000000000002';
const P1 = '0190a000-0000-7000-8000-0000000000a1';
const G1 = '0190a000-0000-7000-8000-0000000000b1';
const D1 = '0190a000-0000-7000-8000-0000000000d1';
const D2 = '0190a000-0000-7000-8000-0000000000d2';
const T1 = '0190a000-0000-7000-8000-0000000000e1';
const T2 = '0190a000-0000-7000-8000-0000000000e2';

describe('changeFieldProblems', () => {
  it('each type needs exactly its fields: a missing one and one it does not take are named by index and field', () => {
    const changes: ChangeInput[] = [
      { type: 'user-leaves-position', userId: U1, positionId: P1 },
      { type: 'user-joins-position', userId: U1 },
      { type: 'position-deleted', positionId: P1, userId: U1 },
      { type: 'decision-limit-changed', decisionId: D1, authorityTypeId: T1 },
    ];
    expect(changeFieldProblems(changes)).toEqual([
      { field: 'changes.1.positionId', message: 'is required for user-joins-position' },
      { field: 'changes.2.userId', message: 'is not taken by position-deleted (it takes positionId)' },
      { field: 'changes.3.value', message: 'is required for decision-limit-changed' },
    ]);
  });

  it('managerId is required for manager-changed, null meaning no manager; nobody is their own manager', () => {
    expect(changeFieldProblems([{ type: 'manager-changed', userId: U1, managerId: null }])).toEqual([]);
    expect(changeFieldProblems([{ type: 'manager-changed', userId: U1 }])).toEqual([{ field: 'changes.0.managerId', message: 'is required for manager-changed (null: no manager)' }]);
    expect(changeFieldProblems([{ type: 'manager-changed', userId: U1, managerId: U1 }])).toEqual([{ field: 'changes.0.managerId', message: 'a person cannot be their own manager' }]);
  });

  it('a moved group needs its parents (none: the top) and cannot be its own parent', () => {
    expect(changeFieldProblems([{ type: 'group-moved', groupId: G1, parentGroupIds: [] }])).toEqual([]);
    expect(changeFieldProblems([{ type: 'group-moved', groupId: G1 }])).toEqual([{ field: 'changes.0.parentGroupIds', message: 'is required for group-moved' }]);
    expect(changeFieldProblems([{ type: 'group-moved', groupId: G1, parentGroupIds: [U1, G1] }])).toEqual([{ field: 'changes.0.parentGroupIds.1', message: 'a group cannot be its own parent' }]);
  });
});

describe('unknownRecords', () => {
  const known = new Set([`user ${U1}`, `position ${P1}`, `group ${G1}`, `decision ${D1}`, `authorityType ${T1}`, `authorityType ${T2}`, `authority ${D1} ${T1}`]);

  it('every field naming no live record of the tenant is missing (a 404), named by index and field, parents by their index too', () => {
    const changes: ChangeInput[] = [
      { type: 'user-leaves-position', userId: U1, positionId: P1 },
      { type: 'manager-changed', userId: U2, managerId: U2 },
      { type: 'group-moved', groupId: G1, parentGroupIds: [G1, D2] },
      { type: 'decision-limit-changed', decisionId: D2, authorityTypeId: T1, value: '1' },
      { type: 'decision-limit-changed', decisionId: D1, authorityTypeId: U2, value: '1' },
      { type: 'manager-changed', userId: U1, managerId: null },
    ];
    const { missing, notHeld } = unknownRecords(changes, known);
    expect(missing.map((e) => e.field)).toEqual([
      'changes.1.userId',
      'changes.1.managerId',
      'changes.2.parentGroupIds.1',
      'changes.3.decisionId',
      'changes.4.authorityTypeId',
    ]);
    expect(missing[0].message).toBe(`User ${U2} not found (not a live record of the tenant)`);
    // A decision or type not found is not also a type the decision does not hold.
    expect(notHeld).toEqual([]);
  });

  it("a decision and a type both the tenant's, the decision not holding the type: not held (a 400), not missing", () => {
    const { missing, notHeld } = unknownRecords([{ type: 'decision-limit-changed', decisionId: D1, authorityTypeId: T2, value: '1' }], known);
    expect(missing).toEqual([]);
    expect(notHeld).toEqual([{ field: 'changes.0.authorityTypeId', message: `decision ${D1} has no authority of type ${T2}` }]);
    expect(unknownRecords([{ type: 'decision-limit-changed', decisionId: D1, authorityTypeId: T1, value: '1' }], known)).toEqual({ missing: [], notHeld: [] });
  });
});

describe('invalidatedBy', () => {
  it('adds up the steps: the fields before the first and after the last, when they differ and some remain', () => {
    expect(
      invalidatedBy([
        { id: 'a', before: [], after: ['Recipient'] },
        { id: 'b', before: [], after: ['Groups'] },
        { id: 'b', before: ['Groups'], after: [] }, // invalidated, then mended by a later change
        { id: 'c', before: ['Recipient'], after: ['Recipient', 'Issuer'] }, // invalid for more
        { id: 'd', before: ['Authority'], after: [] }, // mended
        { id: 'e', before: ['Parent'], after: [] },
        { id: 'e', before: [], after: ['Parent'] }, // back where it was
      ]),
    ).toEqual([
      { id: 'a', invalidFields: ['Recipient'] },
      { id: 'c', invalidFields: ['Recipient', 'Issuer'] },
    ]);
  });
});

describe('holdings', () => {
  const person = (userId: string, types: string[], delegationId = 'g') => ({ holderType: 'USER' as const, userId, delegationId, limits: types.map((authorityTypeId) => ({ authorityTypeId })) });

  it('a person holds each type of each delegation they hold through; a position counts only for the people listed in it; each once', () => {
    const holders = [person(U1, [T1, T2]), { holderType: 'POSITION' as const, userId: null, delegationId: 'p', limits: [{ authorityTypeId: T1 }] }, person(U2, [T1], 'p'), person(U1, [T1], 'x')];
    expect(holdingsOf(D1, holders)).toEqual([
      { userId: U1, decisionId: D1, authorityTypeId: T1 },
      { userId: U1, decisionId: D1, authorityTypeId: T2 },
      { userId: U2, decisionId: D1, authorityTypeId: T1 },
    ]);
  });

  it('lost and gained, ordered by decision display id, person, type', () => {
    const h = (userId: string, decisionId: string, authorityTypeId = T1) => ({ userId, decisionId, authorityTypeId });
    const order = new Map([
      [D1, 10001],
      [D2, 10000],
    ]);
    expect(diffHoldings([h(U2, D1), h(U1, D1), h(U1, D2, T2), h(U1, D2)], [h(U1, D2), h(U2, D2)], order)).toEqual({
      lost: [h(U1, D2, T2), h(U1, D1), h(U2, D1)],
      gained: [h(U2, D2)],
    });
  });
});

describe('scopesWithoutHolder', () => {
  // Finance under Holdings; AP under Finance.
  const parents: Record<string, string[]> = { fin: ['holdings'], ap: ['fin'], legal: ['holdings'] };
  const within = (g: string, scope: readonly string[]) => {
    for (let todo = [g], seen = new Set<string>(); todo.length; ) {
      const x = todo.pop()!;
      if (scope.includes(x)) return true;
      if (seen.has(x)) continue;
      seen.add(x);
      todo.push(...(parents[x] ?? []));
    }
    return false;
  };

  it('a decision without groups: its whole scope, held by a delegation without groups', () => {
    expect(scopesWithoutHolder([], [[]], [], within, within)).toEqual([null]);
    expect(scopesWithoutHolder([], [[], []], [[]], within, within)).toEqual([]);
  });

  it("each of the decision's groups, and each group a holder's delegation names: held by a delegation without groups or one covering it", () => {
    // Before: someone everywhere, someone in Finance; after: only someone in AP.
    expect(scopesWithoutHolder(['fin', 'legal'], [[], ['fin']], [['ap']], within, within)).toEqual(['fin', 'legal']);
    // After: someone in Finance still covers Finance, not Legal.
    expect(scopesWithoutHolder(['fin', 'legal'], [[]], [['fin']], within, within)).toEqual(['legal']);
    // A scope nobody held before is not lost.
    expect(scopesWithoutHolder(['fin', 'legal'], [['ap']], [], within, within)).toEqual(['ap']);
  });

  it('coverage follows the hierarchy of each state: AP moved out from under Finance is no longer covered by a Finance delegation', () => {
    const moved = (g: string, scope: readonly string[]) => (g === 'ap' ? scope.includes('ap') : within(g, scope));
    expect(scopesWithoutHolder(['ap'], [['fin']], [['fin']], within, moved)).toEqual(['ap']);
  });
});
