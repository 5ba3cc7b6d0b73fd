import { countRange, csvField, exportFileName, externalLinkOpen, formatLimit, pick, statusById, unknownSelectFields } from './matrix.rules';

describe('matrix rules', () => {
  it('statuses: Active by default, by id otherwise, unknown ids refused', () => {
    expect(statusById(undefined)?.statusName).toBe('Active');
    expect(statusById('0199a000-0000-7000-8000-000000000002')?.statusName).toBe('Draft');
    expect(statusById('0199A000-0000-7000-8000-000000000003')?.statusName).toBe('Archived');
    expect(statusById('0199a000-0000-7000-8000-000000000009')).toBeUndefined();
  });

  it('count ranges compare numbers; "Unlimited" (any case) or nothing is no upper bound', () => {
    expect(countRange(undefined)).toBeNull();
    expect(countRange({})).toBeNull();
    expect(countRange({ minValue: '2', maxValue: 'Unlimited' })).toEqual({ min: 2, max: null });
    expect(countRange({ minValue: '10', maxValue: 'unlimited' })).toEqual({ min: 10, max: null });
    expect(countRange({ maxValue: '9' })).toEqual({ min: null, max: 9 });
    expect(countRange({ minValue: '', maxValue: '' })).toBeNull();
  });

  it('select: unknown names are listed; pick keeps only the named fields', () => {
    expect(unknownSelectFields('id, matrixName,,decisionCount')).toEqual([]);
    expect(unknownSelectFields('id,secret,password')).toEqual(['secret', 'password']);
    expect(pick({ a: 1, b: 2, c: 3 }, ['a', 'c'])).toEqual({ a: 1, c: 3 });
    expect(pick({ a: 1 }, [])).toEqual({ a: 1 });
  });

  it('limits: abbreviations, rounding, currency code, percentages, time units, Authorized and Unlimited', () => {
    const currency = { valueType: 'Currency', operator: '<', value: '500000', unit: 'USD' };
    expect(formatLimit(currency)).toBe('< 500,000');
    expect(formatLimit(currency, { valueAbbrevations: 'Abbreviated' })).toBe('< 500K');
    expect(formatLimit(currency, { valueAbbrevations: 'Abbreviated', displayCurrencyCode: 'Yes' })).toBe('< 500K USD');
    expect(formatLimit({ ...currency, value: '1250000' }, { valueAbbrevations: 'Abbreviated', valueRounding: '1' })).toBe('< 1.3M');
    expect(formatLimit({ ...currency, value: '1250000' }, { valueAbbrevations: 'Abbreviated', valueRounding: '2' })).toBe('< 1.25M');
    expect(formatLimit({ ...currency, value: '2500000000' }, { valueAbbrevations: 'Abbreviated' })).toBe('< 2.5B');
    expect(formatLimit({ ...currency, value: '999' }, { valueAbbrevations: 'Abbreviated' })).toBe('< 999');
    expect(formatLimit({ ...currency, value: '1234.567' }, { valueRounding: '0' })).toBe('< 1,235');
    expect(formatLimit({ valueType: 'Percentage', operator: '<=', value: '12.5', unit: null })).toBe('<= 12.5%');
    expect(formatLimit({ valueType: 'Time', operator: '<', value: '14', unit: 'Days' }, { timeUnit: 'Weeks' })).toBe('< 2 Weeks');
    expect(formatLimit({ valueType: 'Time', operator: '<', value: '30', unit: 'Days' })).toBe('< 30 Days');
    expect(formatLimit({ valueType: 'Number', operator: null, value: '12', unit: 'units' })).toBe('12 units');
    expect(formatLimit({ valueType: 'Authorized', operator: null, value: null, unit: null })).toBe('Authorized');
    expect(formatLimit({ ...currency, value: 'Unlimited' })).toBe('< Unlimited');
  });

  it('exports: a safe download name; CSV fields quoted when needed, formulas neutralised', () => {
    expect(exportFileName('Finance, Q1 / "board"', 'csv')).toBe('Finance-Q1-board.csv');
    expect(exportFileName('***', 'xlsx', '2026-03-31T00:00:00.000Z')).toBe('matrix-as-of-2026-03-31.xlsx');
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvField(null)).toBe('');
  });

  it('external links: only enabled and unexpired ones open', () => {
    const now = new Date('2026-06-01T00:00:00.000Z');
    expect(externalLinkOpen({ enabled: false, expirationEnabled: false, expirationDate: null }, now)).toBe(false);
    expect(externalLinkOpen({ enabled: true, expirationEnabled: false, expirationDate: '2020-01-01T00:00:00.000Z' }, now)).toBe(true);
    expect(externalLinkOpen({ enabled: true, expirationEnabled: true, expirationDate: '2026-05-31T23:59:59.999Z' }, now)).toBe(false);
    expect(externalLinkOpen({ enabled: true, expirationEnabled: true, expirationDate: '2026-06-01T00:00:00.001Z' }, now)).toBe(true);
  });
});
