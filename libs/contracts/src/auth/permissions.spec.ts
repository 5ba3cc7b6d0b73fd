import { AppError } from '../http/errors';
import { PermissionRule, isAllowed, recordPermissions, relationshipsOf, requireAllowed } from './permissions';

const caller = (...keys: string[]) => ({ keys: new Set(keys) });
const DECISION: PermissionRule[] = [
  { key: 'view:decisions', grantedTo: ['owner'] },
  { key: 'edit:decisions', grantedTo: ['owner'] },
  { key: 'delete:decisions' },
];

describe('record permissions', () => {
  it('allows by the role key, or by a relationship the rule names', () => {
    expect(isAllowed(caller('edit:decisions'), DECISION[1])).toBe(true);
    expect(isAllowed(caller(), DECISION[1], ['owner'])).toBe(true);
    expect(isAllowed(caller(), DECISION[1], ['assignee'])).toBe(false);
    expect(isAllowed(caller(), DECISION[2], ['owner'])).toBe(false);
  });

  it("answers every rule of the record's kind, in order, with allowed", () => {
    expect(recordPermissions(caller('view:decisions'), DECISION, ['owner'])).toEqual([
      { relationship_key: 'view:decisions', allowed: true },
      { relationship_key: 'edit:decisions', allowed: true },
      { relationship_key: 'delete:decisions', allowed: false },
    ]);
    expect(recordPermissions(caller(), DECISION).every((p) => !p.allowed)).toBe(true);
  });

  it('refuses with a 403 naming the key', () => {
    expect(() => requireAllowed(caller(), DECISION[2], ['owner'])).toThrow(AppError);
    expect(() => requireAllowed(caller(), DECISION[2])).toThrow('Missing permission "delete:decisions"');
    expect(() => requireAllowed(caller(), DECISION[1], ['owner'])).not.toThrow();
  });

  it('finds the caller among the people of a record', () => {
    expect(relationshipsOf('u1', { owner: 'u1', assignee: ['u2', 'u1'], reviewer: null })).toEqual(['owner', 'assignee']);
    expect(relationshipsOf('u3', { owner: 'u1', assignee: ['u2'] })).toEqual([]);
  });
});
