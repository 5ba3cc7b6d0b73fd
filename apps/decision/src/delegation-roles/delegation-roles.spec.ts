import { designeesAfter, rolesClosed } from './delegation-role.rules';

const U = '0190F5C4-0000-7000-8000-0000000000AA';
const P = '0190f5c4-0000-7000-8000-0000000000bb';

describe("a delegation's role after a change", () => {
  it('takes the type and designees sent, ids in lower case, and reads them as people', () => {
    const after = designeesAfter({ designeeRecipientType: 'PERSONNEL_IN_POSITION', roleDesignees: [{ designeeUserId: U, designeePositionId: P }] }, null);
    expect(after).toEqual({
      type: 'PERSONNEL_IN_POSITION',
      designees: [{ designeeUserId: U.toLowerCase(), designeePositionId: P }],
      people: [{ recipientUserId: U.toLowerCase(), recipientPositionId: P }],
    });
  });

  it('keeps what the role had when the change leaves type and designees out; null clears the type', () => {
    const current = { designee_recipient_type: 'POSITION_ONLY', role_designees: [{ designeeUserId: null, designeePositionId: P }] };
    expect(designeesAfter({}, current)).toEqual({ type: 'POSITION_ONLY', designees: current.role_designees, people: [{ recipientUserId: null, recipientPositionId: P }] });
    expect(designeesAfter({ designeeRecipientType: null }, current).type).toBeNull();
    expect(designeesAfter({ roleDesignees: [] }, current).designees).toEqual([]);
  });

  it('names nobody on a role never set when the change names no one', () => {
    expect(designeesAfter({}, null)).toEqual({ type: null, designees: [], people: [] });
  });

  it("is refused (409) on a delegation whose decision does not take roles, naming the decision", () => {
    expect(rolesClosed({ role_enabled: true, decision_name: 'Capex' })).toBeNull();
    expect(rolesClosed({ role_enabled: false, decision_name: 'Capex' })).toBe('Roles are not enabled on decision "Capex" (roleEnabled is false)');
  });
});
