import { conditionsClosed, nothingToChange } from './condition.rules';

describe('changing a condition', () => {
  it('names at least one field: a name, a description (null clears it) or isActive', () => {
    expect(nothingToChange({})).toMatch(/Nothing to change/);
    expect(nothingToChange({ conditionName: 'Board approval' })).toBeNull();
    expect(nothingToChange({ conditionDescription: null })).toBeNull();
    expect(nothingToChange({ isActive: false })).toBeNull();
  });

  it("is refused (409) on a delegation whose decision does not take conditions, naming the decision", () => {
    expect(conditionsClosed({ condition_enabled: true, decision_name: 'Capex' })).toBeNull();
    expect(conditionsClosed({ condition_enabled: false, decision_name: 'Capex' })).toBe('Conditions are not enabled on decision "Capex" (conditionEnabled is false)');
  });
});
