import { countRange, pick, unknownSelectFields } from './matrix.rules';

describe('matrix rules', () => {
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
});
