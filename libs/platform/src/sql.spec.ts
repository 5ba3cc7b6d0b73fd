import { containsPattern, dateRangeConditions, escapeLike } from './sql';

describe('list SQL helpers', () => {
  it('escapes LIKE wildcards so a search term matches itself', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
    expect(containsPattern('a_b')).toBe('%a\\_b%');
  });

  it('makes date-range ends inclusive at the millisecond shown', () => {
    expect(dateRangeConditions({ createdAtStart: 'S', createdAtEnd: 'E', updatedAtEnd: 'U' }, { created: 'p.created_on', updated: 'p.updated_on' })).toEqual([
      { sql: 'p.created_on >= ?::timestamptz', value: 'S' },
      { sql: `p.created_on < ?::timestamptz + interval '1 millisecond'`, value: 'E' },
      { sql: `p.updated_on < ?::timestamptz + interval '1 millisecond'`, value: 'U' },
    ]);
    expect(dateRangeConditions({}, { created: 'c', updated: 'u' })).toEqual([]);
  });
});
