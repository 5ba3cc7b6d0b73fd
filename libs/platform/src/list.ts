/**
 * The one way a paged list is read: ONE statement answers the page (in the chosen order) and the
 * total of matching rows. The page's ids are found first, in index order with LIMIT/OFFSET; only
 * those rows are then joined to the view's columns (subqueries of a view run for the page's rows,
 * never for every match). Every value is a parameter (see `sql`); sort keys come from the
 * resource's whitelist (`sortBy`).
 */
import { MAX_PAGE, Page } from '@ddm/contracts';
import { Sql, join, raw, sql } from './sql';

export type SortDirection = 'ASC' | 'DESC';

export interface Sort {
  /** ORDER BY expressions (code-owned), the row id appended as the last tie-breaker. */
  keys: readonly string[];
  dir: SortDirection;
}

/**
 * The sort of a list: `sortKeys` is the resource's whitelist (a `sortBy` value -> its ORDER BY
 * expressions, matching its indexes). A key outside it is a programming error (the query DTO
 * refuses unknown values with a 400 before this runs).
 */
export function sortBy<K extends string>(sortKeys: Readonly<Record<K, readonly string[]>>, key: K, order: 'asc' | 'desc' | string | undefined): Sort {
  if (!Object.prototype.hasOwnProperty.call(sortKeys, key)) throw new Error(`sort key "${key}" is not in the list's whitelist`);
  return { keys: sortKeys[key], dir: String(order).toLowerCase() === 'desc' ? 'DESC' : 'ASC' };
}

export interface ListSpec {
  /** Common table expressions the `from` reads (a search's matched rows: `searchedRows`). */
  with?: Sql;
  /** The matching rows: the FROM the filters and the sort need (`sql\`settings.positions p\``). */
  from: Sql;
  /** Conditions, ANDed; the first pins the tenant. */
  where: readonly Sql[];
  /** The row's unique id (code-owned, `p.id`): the page's key and the last tie-breaker of every sort. */
  id: string;
  sort: Sort;
  /** Record ids placed before the others when they match (then each part in the sort's order). */
  pinned?: readonly string[];
  /**
   * The page rows' view: `columns` and the tables they come from, joined to `page` on `page.id`
   * (`from: sql\`settings.positions p ON p.id = page.id\``).
   */
  view: { columns: Sql; from: Sql };
  page: number;
  limit: number;
}

/** `page` and `limit` as lists take them (limit 1..100, page 1..MAX_PAGE), also from raw input. */
function bounds(spec: Pick<ListSpec, 'page' | 'limit'>): { limit: number; offset: number } {
  const limit = Math.min(Math.max(Math.trunc(Number(spec.limit)) || 10, 1), 100);
  const page = Math.min(Math.max(Math.trunc(Number(spec.page)) || 1, 1), MAX_PAGE);
  return { limit, offset: (page - 1) * limit };
}

/**
 * The list statement. Rows: `total` (the number of matching rows), `ord` (the row's place on the
 * page) and the view's columns; an empty page answers one row with only `total` set (ord null),
 * so the total never needs a second statement, whatever the page.
 */
export function listSql(spec: ListSpec): Sql {
  const where = join(spec.where.length ? spec.where : [sql`true`], ' AND ');
  const keys = [...spec.sort.keys, spec.id];
  const order = raw(keys.map((k) => `${k} ${spec.sort.dir}`).join(', '));
  const id = raw(spec.id);
  const { limit, offset } = bounds(spec);

  let pageIds: Sql;
  if (!spec.pinned?.length) {
    // ord: the row's place in the chosen order (a window over the same ORDER BY, streamed with the index scan).
    // ROWS, not the default RANGE frame: RANGE looks one row past the page for peers, a long walk when few rows match.
    pageIds = sql`SELECT ${id} AS id, row_number() OVER (ORDER BY ${order} ROWS UNBOUNDED PRECEDING) AS ord FROM ${spec.from} WHERE ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`;
  } else {
    // Pinned rows first, then the others; each branch is bounded by the rows the page needs (index order).
    const sortCols = raw(spec.sort.keys.map((k, i) => `${k} AS k${i}`).join(', '));
    const sortColsList = spec.sort.keys.length ? sql`, ${sortCols}` : sql``;
    const outer = raw(['u.pin', ...spec.sort.keys.map((_, i) => `u.k${i} ${spec.sort.dir}`), `u.id ${spec.sort.dir}`].join(', '));
    const upto = limit + offset;
    const pinned = spec.pinned;
    pageIds = sql`SELECT u.id, row_number() OVER (ORDER BY ${outer} ROWS UNBOUNDED PRECEDING) AS ord FROM (
        (SELECT 0 AS pin, ${id} AS id${sortColsList} FROM ${spec.from} WHERE ${where} AND ${id} = ANY(${pinned}::uuid[]) ORDER BY ${order} LIMIT ${upto})
        UNION ALL
        (SELECT 1 AS pin, ${id} AS id${sortColsList} FROM ${spec.from} WHERE ${where} AND NOT (${id} = ANY(${pinned}::uuid[])) ORDER BY ${order} LIMIT ${upto})
      ) u ORDER BY ${outer} LIMIT ${limit} OFFSET ${offset}`;
  }
  const ctes = spec.with ? sql`${spec.with}, ` : sql``;
  return sql`WITH ${ctes}page AS (${pageIds})
SELECT c.total, v.* FROM (SELECT count(*)::int AS total FROM ${spec.from} WHERE ${where}) c
LEFT JOIN (SELECT page.ord, ${spec.view.columns} FROM page JOIN ${spec.view.from}) v ON true
ORDER BY v.ord`;
}

/** A list statement's rows as the page's items (mapped) and the total. */
export function pageRows<R, V>(rows: readonly (R & { total: number | string; ord: unknown })[], map: (row: R) => V): { items: V[]; total: number } {
  const items: V[] = [];
  for (const r of rows) if (r.ord !== null && r.ord !== undefined) items.push(map(r));
  return { items, total: rows.length ? Number(rows[0].total) : 0 };
}

/** Anything that runs one statement and answers its rows (Db, Tx). */
export interface StatementRunner {
  query<T>(statement: Sql): Promise<T[]>;
}

/** Runs a list: the page of mapped items and the total, as a `Page` for the envelope. */
export async function listPage<R, V>(db: StatementRunner, spec: ListSpec, map: (row: R) => V): Promise<Page<V>> {
  const rows = await db.query<R & { total: number; ord: unknown }>(listSql(spec));
  const { items, total } = pageRows(rows, map);
  return new Page(items, total, spec.page, spec.limit);
}
