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
