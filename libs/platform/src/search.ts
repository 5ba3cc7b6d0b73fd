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
 * run it (grantAppRole grants EXECUTE on the schema's functions; none is PUBLIC's). The list then
 * keeps `id IN (SELECT <function>(pattern))` as one of its conditions.
 */

/** A table's text search, served by a trigram index on `text` (the same expression, and `live` as the index's predicate, if partial). */
export interface TextSearch {
  schema: string;
  /** The function's name. */
  name: string;
  table: string;
  /** The column answered (the list's id). */
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
  return `SELECT t.${s.id} FROM ${s.schema}.${s.table} t
           WHERE t.tenant_id = nullif(current_setting('${TENANT_SETTING}', true), '')::uuid AND ${s.live} AND ${s.text} ${s.operator} ${pattern}`;
}

/** Migration step: the search's function, for the app role only. */
export async function createMatchingFunction(q: Pick<QueryRunner, 'query'>, s: TextSearch): Promise<void> {
  const [{ type }]: { type: string }[] = await q.query(
    `SELECT format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a WHERE a.attrelid = $1::regclass AND a.attname = $2`,
    [`${s.schema}.${s.table}`, s.id],
  );
  await q.query(`
    CREATE FUNCTION ${s.schema}.${s.name}(pattern text) RETURNS SETOF ${type}
      LANGUAGE sql STABLE SECURITY DEFINER ROWS 100 SET search_path = pg_catalog, pg_temp AS $fn$
      ${matchingStatement(s, 'pattern')}
    $fn$`);
  await q.query(`REVOKE ALL ON FUNCTION ${s.schema}.${s.name}(text) FROM PUBLIC`);
}

export async function dropMatchingFunction(q: Pick<QueryRunner, 'query'>, s: TextSearch): Promise<void> {
  await q.query(`DROP FUNCTION IF EXISTS ${s.schema}.${s.name}(text)`);
}

/** The list's condition: `column` is among the ids the search's function answers for `pattern` (LIKE's, escaped by the caller). */
export function matchingIds(column: string, s: TextSearch, pattern: string): Sql {
  return sql`${identifier(column)} IN (SELECT ${identifier(`${s.schema}.${s.name}`)}(${pattern}))`;
}

const QUALIFIED = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;
function identifier(name: string): Sql {
  if (!QUALIFIED.test(name)) throw new Error(`"${name}" is not a plain (qualified) SQL identifier`);
  return raw(name);
}
