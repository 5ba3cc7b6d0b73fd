import { KnownRefs, customAttributesProblem, groupsProblem, keysBeyondCaller, linkProblem } from './user-fields.rules';

const G1 = '0190a000-0000-7000-8000-000000000001';
const G2 = '0190a000-0000-7000-8000-000000000002';

describe('the rules of the fields a user carries (users and invitations)', () => {
  describe('groups: at most one primary organisation', () => {
    it('accepts no primary and one primary', async () => {
      expect(groupsProblem([])).toBeNull();
      expect(groupsProblem([{ groupId: G1 }, { groupId: G2, isPrimaryOrg: false }])).toBeNull();
      expect(groupsProblem([{ groupId: G1, isPrimaryOrg: true }, { groupId: G2 }])).toBeNull();
    });

    it('refuses two primaries', async () => {
      expect(groupsProblem([{ groupId: G1, isPrimaryOrg: true }, { groupId: G2, isPrimaryOrg: true }])).toMatch(/at most one group can be the primary/);
    });

    it('refuses the same group twice, whatever the case of its id', async () => {
      expect(groupsProblem([{ groupId: G1 }, { groupId: G1.toUpperCase() }])).toMatch(/each group once/);
    });
  });

  describe('customAttributes', () => {
    it('accepts a flat object of strings, numbers, booleans and nulls', async () => {
      expect(customAttributesProblem({ costCentre: 'CC-1', level: 3, remote: true, badge: null })).toBeNull();
      expect(customAttributesProblem({})).toBeNull();
    });

    it.each([
      ['an array', [1], /object/],
      ['a string', 'x', /object/],
      ['null', null, /object/],
      ['a nested object', { a: { b: 1 } }, /"a" must be a string, number, boolean or null/],
      ['an array value', { a: [1] }, /"a" must be/],
      ['a value past 1000 characters', { a: 'x'.repeat(1001) }, /at most 1000/],
      ['more than 50 keys', Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])), /at most 50 keys/],
      ['a key past 100 characters', { ['k'.repeat(101)]: 1 }, /keys must be 1 to 100/],
    ])('refuses %s', async (_name, value, message) => {
      expect(customAttributesProblem(value)).toMatch(message);
    });
  });

  it('lists the keys a grant would give beyond what the caller holds', async () => {
    expect(keysBeyondCaller(['view:decisions', 'manage:users', 'view:decisions'], new Set(['view:decisions']))).toEqual(['manage:users']);
    expect(keysBeyondCaller(['view:decisions'], new Set(['view:decisions', 'manage:users']))).toEqual([]);
  });

  it("names the first link the tenant does not know, then roles granting keys the caller does not hold", async () => {
    const known: KnownRefs = { roles: new Map([['r1', ['view:decisions']], ['r2', ['manage:users']]]), positions: new Set(['p1']), groups: new Set([G1]), members: new Set(['m1']) };
    const held = new Set(['view:decisions']);
    expect(linkProblem({ roleIds: ['r1'], positionIds: ['p1'], groups: [{ groupId: G1 }], managerId: 'm1' }, known, held)).toBeNull();
    expect(linkProblem({ roleIds: ['r9'], positionIds: ['p9'] }, known, held)).toEqual({ kind: 'not_found', field: 'roleIds.0', message: 'Role r9 not found in this tenant' });
    expect(linkProblem({ roleIds: ['r1', 'r9'] }, known, held)).toMatchObject({ kind: 'not_found', field: 'roleIds.1' });
    expect(linkProblem({ positionIds: ['p1', 'p9'] }, known, held)).toEqual({ kind: 'not_found', field: 'positionIds.1', message: 'Position p9 not found in this tenant' });
    expect(linkProblem({ groups: [{ groupId: G1 }, { groupId: G2 }] }, known, held)).toMatchObject({ kind: 'not_found', field: 'groups.1.groupId' });
    expect(linkProblem({ managerId: 'm9' }, known, held)).toMatchObject({ kind: 'not_found', field: 'managerId' });
    expect(linkProblem({ roleIds: ['r2'] }, known, held)).toEqual({ kind: 'forbidden', field: 'roleIds', message: 'You cannot grant permissions you do not hold: manage:users' });
  });
});
