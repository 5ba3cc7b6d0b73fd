import { SetClause, containsPattern, dateRangeConditions, escapeLike, isEmpty, join, raw, sql } from './sql';

describe('sql: values are parameters by construction', () => {
  it('never puts a value into the text, however fragments nest; $1..$n follow the values in order', () => {
    const hostile = "x'); DROP TABLE settings.positions; --";
    const conditions = [sql`p.tenant_id = ${'T1'}`, sql`p.name ILIKE ${containsPattern(hostile)}`, ...dateRangeConditions({ createdAtStart: '2026-01-01' }, { created: 'p.created_on', updated: 'p.updated_on' })];
    const sets = new SetClause().raw(sql`updated_by = ${'U1'}`).set('status', 'ACTIVE');
    const statement = sql`WITH s AS (UPDATE t SET ${sets.sql} WHERE id = ${hostile}) SELECT ${raw('p.id')} FROM p WHERE ${join(conditions, ' AND ')} LIMIT ${10}`;

    expect(statement.values).toEqual(['U1', 'ACTIVE', hostile, 'T1', '%x\'); DROP TABLE settings.positions; --%', '2026-01-01', 10]);
    expect(statement.text).not.toContain('DROP TABLE');
    expect(statement.text).not.toContain('T1');
    expect(statement.text).not.toContain('ACTIVE');
    expect(statement.text.match(/\$\d+/g)).toEqual(['$1', '$2', '$3', '$4', '$5', '$6', '$7']);
  });

  it('an empty join is an empty fragment', () => {
    expect(isEmpty(join([]))).toBe(true);
    expect(isEmpty(sql`x = ${1}`)).toBe(false);
  });
});

describe('list SQL helpers', () => {
  it('escapes LIKE wildcards so a search term matches itself', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
    expect(containsPattern('a_b')).toBe('%a\\_b%');
  });

  it('a date range gives one condition per end given, each with its value as a parameter', () => {
    const conditions = dateRangeConditions({ createdAtStart: 'S', createdAtEnd: 'E', updatedAtEnd: 'U' }, { created: 'p.created_on', updated: 'p.updated_on' });
    expect(conditions.map((c) => c.values)).toEqual([['S'], ['E'], ['U']]);
    expect(dateRangeConditions({}, { created: 'c', updated: 'u' })).toEqual([]);
  });
});

