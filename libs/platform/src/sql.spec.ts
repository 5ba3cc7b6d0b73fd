import { SetClause, containsPattern, dateRangeConditions, escapeLike, rowsOf } from './sql';

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

describe('SetClause and rowsOf', () => {
  it('binds each set column as the next parameter after those given, keeping the fixed fragments first', () => {
    const sets = new SetClause(['id', 'tenant'], ['updated_on = now()']).set('name', 'N').raw('deleted_on = now()').set('status', 'ACTIVE');
    expect(sets.sql).toBe('updated_on = now(), name = $3, deleted_on = now(), status = $4');
    expect(sets.params).toEqual(['id', 'tenant', 'N', 'ACTIVE']);
  });

  it("answers the rows of TypeORM's [rows, count] (UPDATE/DELETE ... RETURNING) and of a plain result alike", () => {
    expect(rowsOf([[{ id: 1 }], 1])).toEqual([{ id: 1 }]);
    expect(rowsOf([[], 0])).toEqual([]);
    expect(rowsOf([{ id: 1 }, { id: 2 }])).toEqual([{ id: 1 }, { id: 2 }]);
    expect(rowsOf([])).toEqual([]);
  });
});
