import type { QueryRunner } from 'typeorm';
import { Sql, raw, sql } from './sql';
import { TENANT_SETTING } from './tenancy';

/*
 * Text search that uses its trigram index under row-level security. A policy's condition is a
 * security barrier: the planner may not evaluate a user's condition built on an operator that is
 * not leakproof (LIKE, ILIKE) before it, so `text LIKE '%…%'` cannot be an index condition and a
 * search reads the tenant's rows one by one (a tenth of the bare SQL's speed at 100,000 rows).
 * Marking the operators leakproof needs a superuser, which managed PostgreSQL does not give.
 *
 * Instead each searched table has a function `<schema>.<name>(pattern)` answering the ids of the
 * live rows of the request's tenant whose text matches. It runs as its definer, the schema's owner,
 * whom the cross_tenant policy admits (so no barrier stands before the index), and takes the
 * tenant only from the request's context (`app.tenant_id`, the setting the policy itself reads),
 * never from its caller: it is exactly as isolated as the policy. Only the services' app role may
 * run it (grantAppRole grants EXECUTE on the schema's functions; none is PUBLIC's).
 *
 * The function answers the matching rows whole (the table's row type), so a list reads them from it
 * in place of the table (`searchedRows`): once per statement, as a materialized CTE its count and its
 * page both scan, no row looked up again by id (at 5,000 matches of 100,000 a third of the time of
 * `id IN (SELECT ...)` evaluated for the count and the page). A statement that is not a list (a
 * count by parts) keeps the condition form, `matchingIds`.
 */

/** A search's function: `<schema>.<name>(pattern text)`, answering rows of `<schema>.<table>` (what `searchedRows` reads). */
export interface RowSearch {
  schema: string;
  /** The function's name. */
  name: string;
  table: string;
}

/** A table's text search, served by a trigram index on `text` (the same expression, and `live` as the index's predicate, if partial). */
export interface TextSearch extends RowSearch {
  /** The row's id column (what `matchingIds` compares). */
  id: string;
  /** The searched expression over the table's row `t`, exactly as the index has it. */
  text: string;
  operator: 'LIKE' | 'ILIKE';
  /** The live rows (over `t`): the index's predicate or the list's own. */
  live: string;
  /** The trigram index (the owner-role spec checks the plan uses it). */
  index: string;
}

/** The function's statement over `pattern` (an SQL expression): the tenant from the request's context only. */
export function matchingStatement(s: TextSearch, pattern: string): string {
  return `SELECT t.* FROM ${s.schema}.${s.table} t
           WHERE t.tenant_id = nullif(current_setting('${TENANT_SETTING}', true), '')::uuid AND ${s.live} AND ${s.text} ${s.operator} ${pattern}`;
}

/** Migration step: the search's function (answering the table's rows), for the app role only. */
export async function createMatchingFunction(q: Pick<QueryRunner, 'query'>, s: TextSearch): Promise<void> {
  await q.query(`
    CREATE FUNCTION ${s.schema}.${s.name}(pattern text) RETURNS SETOF ${s.schema}.${s.table}
      LANGUAGE sql STABLE SECURITY DEFINER ROWS 100 SET search_path = pg_catalog, pg_temp AS $fn$
      ${matchingStatement(s, 'pattern')}
    $fn$`);
  await q.query(`REVOKE ALL ON FUNCTION ${s.schema}.${s.name}(text) FROM PUBLIC`);
}

export async function dropMatchingFunction(q: Pick<QueryRunner, 'query'>, s: TextSearch): Promise<void> {
  await q.query(`DROP FUNCTION IF EXISTS ${s.schema}.${s.name}(text)`);
}

/** The CTE a list's search reads its rows from (`searchedRows`). */
const MATCHED = 'matched';

/**
 * Where a list reads its rows: the table (`table`, no `with`) without a search; with one (`pattern`,
 * LIKE's, escaped by the caller), the rows the search's function answers, evaluated once as the CTE
 * `with` (ListSpec's `with`), read as `table`. The list keeps its tenant condition: the function
 * answers the request's tenant only, the condition states it again.
 */
export function searchedRows(s: RowSearch, pattern: string | undefined): { table: Sql; with?: Sql } {
  if (!pattern) return { table: identifier(`${s.schema}.${s.table}`) };
  return { table: raw(MATCHED), with: sql`${raw(MATCHED)} AS MATERIALIZED (SELECT * FROM ${identifier(`${s.schema}.${s.name}`)}(${pattern}))` };
}

/** The condition form, for a statement that is not a list: `column` is among the ids of the rows the search's function answers for `pattern`. */
export function matchingIds(column: string, s: TextSearch, pattern: string): Sql {
  return sql`${identifier(column)} IN (SELECT m.${identifier(s.id)} FROM ${identifier(`${s.schema}.${s.name}`)}(${pattern}) m)`;
}

const QUALIFIED = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;
function identifier(name: string): Sql {
  if (!QUALIFIED.test(name)) throw new Error(`"${name}" is not a plain (qualified) SQL identifier`);
  return raw(name);
}
