/**
 * SQL as values, not strings: the `sql` tag keeps the text and the values apart, so every value
 * is a bound parameter by construction and the `$n` numbers are written once, when a statement is
 * rendered. Fragments nest (`sql\`... WHERE ${join(conditions, ' AND ')}\``); only code-owned text
 * (identifiers, sort keys from a whitelist) enters through `raw`.
 */

/** A statement or a part of one: text pieces with the values between them. */
export class Sql {
  /** `strings.length === values.length + 1`; nested fragments are flattened when built. */
  readonly strings: readonly string[];
  readonly values: readonly unknown[];

  constructor(strings: readonly string[], values: readonly unknown[]) {
    if (strings.length !== values.length + 1) throw new Error('Sql: expected one more text piece than values');
    const outStrings: string[] = [strings[0]];
    const outValues: unknown[] = [];
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (value instanceof Sql) {
        // Splice the fragment in: its first piece joins ours, its last piece starts the next.
        outStrings[outStrings.length - 1] += value.strings[0];
        for (let j = 0; j < value.values.length; j++) {
          outValues.push(value.values[j]);
          outStrings.push(value.strings[j + 1]);
        }
        outStrings[outStrings.length - 1] += strings[i + 1];
      } else {
        outValues.push(value);
        outStrings.push(strings[i + 1]);
      }
    }
    this.strings = outStrings;
    this.values = outValues;
  }

  /** The text with `$1`, `$2`, ... in place of the values. */
  get text(): string {
    let out = this.strings[0];
    for (let i = 1; i < this.strings.length; i++) out += `$${i}${this.strings[i]}`;
    return out;
  }
}

/**
 * A fixed statement the server prepares once per connection, by name: its text is sent and parsed
 * the first time a connection runs it, then only its parameters travel, and the server keeps its
 * plan (after five runs, the generic one when it costs no more than the plans made for the values).
 * For the long statements a request runs on its hot path (the authority check's is some 6 KB, and
 * sending and parsing it was most of a check's time in the database).
 */
export class Prepared {
  constructor(
    /** Unique per statement in the service (one name, one text). */
    readonly name: string,
    readonly text: string,
    /**
     * Planned once, for any values (plan_cache_mode force_generic_plan, only for it: see Db): for a
     * statement whose plan is the same whatever its values (index probes fenced per row), planning
     * it again for each run's values costs as much as running it.
     */
    readonly genericPlan = false,
  ) {}
}

/** A statement prepared once per connection (see Prepared). */
export function prepared(name: string, text: string, options: { genericPlan?: boolean } = {}): Prepared {
  return new Prepared(name, text, options.genericPlan ?? false);
}

/** `sql\`SELECT ... WHERE id = ${id}\``: every interpolated value becomes a parameter; an interpolated Sql is spliced in. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  return new Sql(strings, values);
}

/** Code-owned text spliced in as is (an identifier, a sort key of a whitelist). Never pass request input. */
export function raw(text: string): Sql {
  return new Sql([text], []);
}

/** The fragments separated by `separator` (empty list: empty text). */
export function join(parts: readonly Sql[], separator = ', '): Sql {
  if (!parts.length) return raw('');
  const strings = ['', ...parts.slice(1).map(() => separator), ''];
  return new Sql(strings, parts);
}

/** True for a fragment with no text and no values. */
export function isEmpty(s: Sql): boolean {
  return s.values.length === 0 && s.strings.every((x) => x.trim() === '');
}

/** `%`, `_` and `\` match themselves in a LIKE/ILIKE pattern. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The ILIKE pattern of "contains `term`", wildcards in the term taken literally. */
export function containsPattern(term: string): string {
  return `%${escapeLike(term)}%`;
}

/**
 * The one way a timestamp leaves the database: a timestamptz column as the views answer it
 * (`2026-01-31T12:00:00.000Z`), formatted by Postgres, for plain columns and inside
 * json_build_object alike. `column` is code-owned text.
 */
export const isoSql = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export interface DateRange {
  createdAtStart?: string;
  createdAtEnd?: string;
  updatedAtStart?: string;
  updatedAtEnd?: string;
}

/**
 * The conditions of a list's date range. Starts are inclusive; ends are inclusive at the
 * millisecond the views show (rows keep microseconds, so `<= end` would drop a row shown with
 * exactly that time). `columns` are code-owned column names.
 */
export function dateRangeConditions(q: DateRange, columns: { created: string; updated: string }): Sql[] {
  const out: Sql[] = [];
  const created = raw(columns.created);
  const updated = raw(columns.updated);
  if (q.createdAtStart) out.push(sql`${created} >= ${q.createdAtStart}::timestamptz`);
  if (q.createdAtEnd) out.push(sql`${created} < ${q.createdAtEnd}::timestamptz + interval '1 millisecond'`);
  if (q.updatedAtStart) out.push(sql`${updated} >= ${q.updatedAtStart}::timestamptz`);
  if (q.updatedAtEnd) out.push(sql`${updated} < ${q.updatedAtEnd}::timestamptz + interval '1 millisecond'`);
  return out;
}

/**
 * `column = ANY(values::type[])` for a comma list of a query (nothing when the list is absent or
 * empty). `column` and `type` are code-owned.
 */
export function anyOf(column: string, values: readonly unknown[] | undefined | null, type: 'uuid' | 'text'): Sql[] {
  if (!values?.length) return [];
  return [sql`${raw(column)} = ANY(${values}::${raw(type)}[])`];
}

/**
 * The SET list of a partial UPDATE: `new SetClause().set('status', dto.status).raw(sql\`updated_on = now()\`)`,
 * then `sql\`UPDATE t SET ${sets.sql} WHERE ...\``. Columns are code-owned; values are parameters.
 */
export class SetClause {
  private readonly parts: Sql[] = [];

  /** `column = <value>`. */
  set(column: string, value: unknown): this {
    this.parts.push(sql`${raw(column)} = ${value}`);
    return this;
  }

  /** Assignments written as fragments (`sql\`updated_by = ${by}\``, `sql\`deleted_on = now()\``). */
  raw(...fragments: Sql[]): this {
    this.parts.push(...fragments);
    return this;
  }

  get size(): number {
    return this.parts.length;
  }

  get sql(): Sql {
    return join(this.parts);
  }
}

