/**
 * Small pieces of SQL every list writes the same way: search patterns, timestamps as the views
 * answer them, and the created/updated date-range filters.
 */

/** `%`, `_` and `\` match themselves in a LIKE/ILIKE pattern. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The ILIKE pattern of "contains `term`", wildcards in the term taken literally. */
export function containsPattern(term: string): string {
  return `%${escapeLike(term)}%`;
}

/** A timestamptz column as the views answer it (`2026-01-31T12:00:00.000Z`), for json_build_object and raw rows. */
export const isoSql = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export interface DateRange {
  createdAtStart?: string;
  createdAtEnd?: string;
  updatedAtStart?: string;
  updatedAtEnd?: string;
}

/**
 * The conditions of a list's date range, each with one `?` for its value. Starts are inclusive;
 * ends are inclusive at the millisecond the views show (rows keep microseconds, so `<= end`
 * would drop a row shown with exactly that time).
 */
export function dateRangeConditions(q: DateRange, columns: { created: string; updated: string }): { sql: string; value: string }[] {
  const out: { sql: string; value: string }[] = [];
  if (q.createdAtStart) out.push({ sql: `${columns.created} >= ?::timestamptz`, value: q.createdAtStart });
  if (q.createdAtEnd) out.push({ sql: `${columns.created} < ?::timestamptz + interval '1 millisecond'`, value: q.createdAtEnd });
  if (q.updatedAtStart) out.push({ sql: `${columns.updated} >= ?::timestamptz`, value: q.updatedAtStart });
  if (q.updatedAtEnd) out.push({ sql: `${columns.updated} < ?::timestamptz + interval '1 millisecond'`, value: q.updatedAtEnd });
  return out;
}

/**
 * The SET list of a partial UPDATE: the columns given, each bound as the next parameter after
 * those already in `params` (`new SetClause([id, tenantId, by], ['updated_on = now()', 'updated_by = $3'])`).
 */
export class SetClause {
  private readonly parts: string[];

  constructor(
    readonly params: unknown[],
    always: string[] = [],
  ) {
    this.parts = [...always];
  }

  /** `column = $n` with `value` as parameter n. */
  set(column: string, value: unknown): this {
    this.params.push(value);
    this.parts.push(`${column} = $${this.params.length}`);
    return this;
  }

  /** Fragments that take no new parameter (`deleted_on = now()`). */
  raw(...fragments: string[]): this {
    this.parts.push(...fragments);
    return this;
  }

  get sql(): string {
    return this.parts.join(', ');
  }
}

/**
 * The rows of a statement run through TypeORM's `query`, whatever the statement: TypeORM answers
 * UPDATE and DELETE ... RETURNING with `[rows, affectedCount]`, every other statement with the rows.
 */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}
