import { authorityProblems, authorityRows } from './decision-limits';

const TYPE = '0190f5c4-0000-7000-8000-000000000001';
const currency = (extra: object = {}) => ({ authorityTypeId: TYPE, authorityLimit: 'Primary', authorityLimitValueType: 'Currency', authorityLimitOperator: '<=', authorityLimitValue: '500000', authorityLimitValueUnit: 'USD', ...extra });
const fields = (items: object[]) => authorityProblems(items as never).map((p) => p.field);

describe('decision authorities', () => {
  it('accepts each value type in its shape', () => {
    expect(fields([currency()])).toEqual([]);
    expect(fields([currency({ authorityLimitValue: 'Unlimited' })])).toEqual([]);
    expect(fields([currency({ authorityLimitValue: '12.5', authorityLimitValueUnit: 'EUR' })])).toEqual([]);
    expect(fields([currency({ authorityLimitValueType: 'Number', authorityLimitValueUnit: null, authorityLimitValue: '3' })])).toEqual([]);
    expect(fields([currency({ authorityLimitValueType: 'Percentage', authorityLimitValueUnit: null, authorityLimitValue: '100' })])).toEqual([]);
    expect(fields([currency({ authorityLimitValueType: 'Time', authorityLimitValueUnit: 'Months', authorityLimitValue: '6' })])).toEqual([]);
    expect(fields([{ authorityTypeId: TYPE, authorityLimit: 'Primary', authorityLimitValueType: 'Authorized' }])).toEqual([]);
  });

  it('names the field of each bad combination, with its place in the list', () => {
    expect(fields([currency(), currency({ authorityLimitValueUnit: null })])).toEqual(['decisionAuthorities.1.authorityLimitValueUnit']);
    expect(fields([currency({ authorityLimitValueUnit: 'usd' })])).toEqual(['decisionAuthorities.0.authorityLimitValueUnit']);
    expect(fields([currency({ authorityLimitValue: null })])).toEqual(['decisionAuthorities.0.authorityLimitValue']);
    expect(fields([currency({ authorityLimitValue: '-1' })])).toEqual(['decisionAuthorities.0.authorityLimitValue']);
    expect(fields([currency({ authorityLimitValue: '1e6' })])).toEqual(['decisionAuthorities.0.authorityLimitValue']);
    expect(fields([currency({ authorityLimitValue: '0123' })])).toEqual(['decisionAuthorities.0.authorityLimitValue']);
    expect(fields([currency({ authorityLimitValue: '1'.repeat(16) })])).toEqual(['decisionAuthorities.0.authorityLimitValue']);
    expect(fields([currency({ authorityLimitOperator: null })])).toEqual(['decisionAuthorities.0.authorityLimitOperator']);
    expect(fields([currency({ authorityLimitValueType: 'Percentage', authorityLimitValueUnit: null, authorityLimitValue: '100.5' })])).toEqual(['decisionAuthorities.0.authorityLimitValue']);
    expect(fields([currency({ authorityLimitValueType: 'Number', authorityLimitValueUnit: 'USD', authorityLimitValue: '3' })])).toEqual(['decisionAuthorities.0.authorityLimitValueUnit']);
    expect(fields([currency({ authorityLimitValueType: 'Time', authorityLimitValueUnit: 'Weeks' })])).toEqual(['decisionAuthorities.0.authorityLimitValueUnit']);
    expect(fields([currency({ authorityLimitValueType: 'Time', authorityLimitValueUnit: null })])).toEqual(['decisionAuthorities.0.authorityLimitValueUnit']);
    // Authorized takes no value or unit; its operator (clients send one on every row) is ignored.
    expect(fields([currency({ authorityLimitValueType: 'Authorized' })]).sort()).toEqual(['decisionAuthorities.0.authorityLimitValue', 'decisionAuthorities.0.authorityLimitValueUnit'].sort());
    expect(fields([currency({ authorityLimitOperator: '' })])).toEqual(['decisionAuthorities.0.authorityLimitOperator']);
    expect(fields([currency({ authorityLimitValueType: 'Number', authorityLimitValueUnit: '', authorityLimitValue: '' })])).toEqual(['decisionAuthorities.0.authorityLimitValue']);
  });

  it('Authorized with an operator (or an empty one) and empty value and unit: accepted, and stored as absent', () => {
    const authorized = (extra: object) => ({ authorityTypeId: TYPE, authorityLimit: 'Primary', authorityLimitValueType: 'Authorized', ...extra });
    const sent = [authorized({ authorityLimitOperator: '<=' }), authorized({ authorityLimitOperator: '<', authorityLimitValue: '', authorityLimitValueUnit: '' }), authorized({ authorityLimitOperator: '' })];
    expect(fields(sent)).toEqual([]);
    expect(authorityRows(sent as never).map((r) => [r.operator, r.valueText, r.valueNumber, r.unit])).toEqual([
      [null, null, null, null],
      [null, null, null, null],
      [null, null, null, null],
    ]);
  });

  it('stores the value as sent and the number it means (none for Unlimited and Authorized); the order defaults to the place', () => {
    const rows = authorityRows([
      currency({ authorityTypeId: TYPE.toUpperCase() }),
      currency({ authorityLimitValue: 'Unlimited', authorityTypeOrder: 7 }),
      { authorityTypeId: TYPE, authorityLimit: 'Primary', authorityLimitValueType: 'Authorized' },
    ]);
    expect(rows.map((r) => [r.authorityTypeId, r.authorityTypeOrder, r.valueText, r.valueNumber, r.operator, r.unit])).toEqual([
      [TYPE, 1, '500000', '500000', '<=', 'USD'],
      [TYPE, 7, 'Unlimited', null, '<=', 'USD'],
      [TYPE, 3, null, null, null, null],
    ]);
  });
});
