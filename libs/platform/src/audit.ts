import { parse as parseArray } from 'postgres-array';
import type { QueryRunner } from 'typeorm';
import type { Queryable } from './queryable';
import { ACTOR_SETTING, REQUEST_SETTING } from './tenancy';

/*
 * The audit trail: every change of a record in a service schema (who, when, what, which request)
 * in the schema's append-only `audit_log`, written by the database itself, so no code path can
 * change a record without its entry.
 *
 * - A statement-level trigger per audited table (transition tables: one INSERT ... SELECT per
 *   statement, set-based for bulk changes) writes one entry per changed row: the action
 *   (CREATE, UPDATE, DELETE; a soft delete is an UPDATE of `is_deleted`), the entity (table and
 *   key), the changed fields with their values before and after, and the actor and request id
 *   that `Db` sets with each transaction (`app.actor_id`, `app.request_id`; null for the system's
 *   own work: sweeps, consumers).
 * - Audited: every tenant table with a primary key, but the copies of other areas' records and
 *   the engine's bookkeeping (projections, histories, revisions, counters, audiences, jobs,
 *   notifications, idempotency keys, stream tickets, a file's content chunks, cache versions), whose changes are not a tenant's decisions.
 *   Rows shared by tenants (auth's people and tenants) are audited too: each change is entered in
 *   the trail of every tenant the row belongs to (`auditAcrossTenants`).
 * - The app role may read and insert `audit_log`, never update or delete it (grantAppRole).
 */

export const AUDIT_TABLE = 'audit_log';

/** Tables never audited: the trail itself and the engine's bookkeeping. */
const NOT_AUDITED = /(_projection|_history|_revisions|_counts|_audience|^audit_log|^idempotency_keys|^stream_tickets|^display_id_counters|^jobs|^job_items|^file_chunks|^notifications|^user_counts|^grid_versions)$/;

const IDENT = /^[a-z_][a-z0-9_]*$/;
function ident(name: string): string {
  if (!IDENT.test(name)) throw new Error(`"${name}" is not a plain SQL identifier`);
  return `"${name}"`;
}

/** Migration step: the schema's `audit_log` and its trigger function. */
export async function createAuditLog(q: Pick<QueryRunner, 'query'>, schema: string): Promise<void> {
  const s = ident(schema);
  await q.query(`
    CREATE TABLE ${s}.audit_log (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      tenant_id uuid NOT NULL,
      entity_type text NOT NULL,
      entity_id text NOT NULL,
      action text NOT NULL,
      actor_id uuid,
      request_id text,
      before jsonb,
      after jsonb,
      changed_at timestamptz NOT NULL DEFAULT now()
    )`);
  await q.query(`CREATE INDEX audit_log_recent ON ${s}.audit_log (tenant_id, changed_at DESC, id DESC)`);
  await q.query(`CREATE INDEX audit_log_entity ON ${s}.audit_log (tenant_id, entity_type, entity_id, changed_at DESC)`);
  await q.query(`CREATE INDEX audit_log_actor ON ${s}.audit_log (tenant_id, actor_id, changed_at DESC)`);
  await q.query(auditFunction(schema, 'audit_changes', await hstoreSchema(q)));
}

/** The schema of the hstore extension the trail's functions use (runMigrations creates it with every schema's extensions). */
async function hstoreSchema(q: Pick<QueryRunner, 'query'>): Promise<string> {
  const rows: { schema: string }[] = await q.query(
    `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'hstore'`,
  );
  if (!rows.length) throw new Error('the audit trail needs the hstore extension (runMigrations creates it before the migrations)');
  return rows[0].schema;
}

/**
 * Migration step: a trail written before entries held `before` and `after` (they held the changes
 * as [{ field, from, to }], built field by field in SQL for each row) takes the new shape, its
 * entries converted, and the schema's trigger functions their set-based form. Idempotent; a trail
 * created since is already in that shape and only gets the functions again.
 */
export async function upgradeAuditTrail(q: Pick<QueryRunner, 'query'>, schema: string): Promise<void> {
  const s = ident(schema);
  const [{ legacy }]: { legacy: boolean }[] = await q.query(
    `SELECT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = $1::regclass AND attname = 'changes' AND NOT attisdropped) AS legacy`,
    [`${schema}.audit_log`],
  );
  if (legacy) {
    await q.query(`ALTER TABLE ${s}.audit_log ADD COLUMN before jsonb, ADD COLUMN after jsonb`);
    await q.query(`
      UPDATE ${s}.audit_log a
         SET before = CASE WHEN a.action <> 'CREATE' THEN coalesce(c.before, '{}') END,
             after = CASE WHEN a.action <> 'DELETE' THEN coalesce(c.after, '{}') END
        FROM (SELECT x.id, jsonb_object_agg(e ->> 'field', e -> 'from') AS before, jsonb_object_agg(e ->> 'field', e -> 'to') AS after
                FROM ${s}.audit_log x CROSS JOIN LATERAL jsonb_array_elements(x.changes) e GROUP BY x.id) c
       WHERE c.id = a.id`);
    await q.query(`UPDATE ${s}.audit_log SET before = CASE WHEN action <> 'CREATE' THEN '{}'::jsonb END, after = CASE WHEN action <> 'DELETE' THEN '{}'::jsonb END WHERE changes = '[]'`);
    await q.query(`ALTER TABLE ${s}.audit_log DROP COLUMN changes`);
  }
  const h = await hstoreSchema(q);
  await q.query(auditFunction(schema, 'audit_changes', h));
  const [{ across }]: { across: boolean }[] = await q.query(
    `SELECT EXISTS (SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1 AND p.proname = 'audit_changes_across_tenants') AS across`,
    [schema],
  );
  if (across) await q.query(auditFunction(schema, 'audit_changes_across_tenants', h, true));
}

/** A column's type as the trail's reader needs it: pg_type's category and name, and its elements' for an array. */
export interface AuditColumnType {
  category: string;
  type: string;
  elementCategory: string | null;
  elementType: string | null;
}

/** The column types of the tables named, by table and column (`auditChanges` types the values by them). */
export const AUDIT_COLUMN_TYPES_SQL = `
  SELECT c.relname AS table, a.attname AS column, t.typcategory AS category, t.typname AS type, e.typcategory AS element_category, e.typname AS element_type
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_type t ON t.oid = a.atttypid
    LEFT JOIN pg_type e ON e.oid = t.typelem AND t.typcategory = 'A'
   WHERE n.nspname = $1 AND c.relname = ANY ($2::text[]) AND a.attnum > 0 AND NOT a.attisdropped`;

const TIMESTAMP = /^(\d{4,}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)(?:([+-]\d\d)(?::?(\d\d))?)?$/;

/** One value from its text form to the JSON PostgreSQL's to_jsonb gives the type (a value not in text form, or of no known column, as it is). */
function typedValue(value: unknown, category: string | null, type: string | null): unknown {
  if (typeof value !== 'string' || category === null) return value;
  switch (category) {
    case 'N': {
      const n = Number(value);
      return Number.isFinite(n) ? n : value;
    }
    case 'B':
      return value === 't' ? true : value === 'f' ? false : value;
    case 'D': {
      // timestamptz 2026-01-02 03:04:05.678+00 as to_jsonb writes it: 2026-01-02T03:04:05.678+00:00
      const m = TIMESTAMP.exec(value);
      return m ? `${m[1]}T${m[2]}${m[3] ? `${m[3]}:${m[4] ?? '00'}` : ''}` : value;
    }
    default:
      if (type === 'json' || type === 'jsonb') {
        try {
          return JSON.parse(value);
        } catch {
          return value;
        }
      }
      return value;
  }
}

/** A field's value as JSON: text typed by its column, arrays element by element. */
export function auditValue(value: unknown, column: AuditColumnType | undefined): unknown {
  if (!column) return value;
  if (column.category === 'A' && typeof value === 'string') {
    try {
      return parseArray(value, (element) => typedValue(element, column.elementCategory, column.elementType));
    } catch {
      return value;
    }
  }
  return typedValue(value, column.category, column.type);
}

/**
 * An entry's changed fields, in field order, from its `before` and `after` (a creation has no
 * before, a deletion no after; an update holds the changed fields in both), each value typed by
 * its column (`columns`: the entity's table's, from AUDIT_COLUMN_TYPES_SQL; a field of a column
 * dropped since keeps its text).
 */
export function auditChanges(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  columns?: ReadonlyMap<string, AuditColumnType>,
): { field: string; from: unknown; to: unknown }[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].sort();
  return fields.map((field) => ({ field, from: auditValue(before?.[field] ?? null, columns?.get(field)), to: auditValue(after?.[field] ?? null, columns?.get(field)) }));
}

/**
 * The trigger function of a schema's trail. TG_ARGV: the key columns of the table, '|', the
 * columns left out of the changes (generated ones: they follow the others), and for a table of rows
 * shared by tenants (`auditAcrossTenants`), '|' and the function naming the tenants of a row. One
 * entry per changed row (per row and tenant), written by one INSERT ... SELECT per statement from
 * the transition tables, each row read once into an hstore (its fields as PostgreSQL's text form):
 * - CREATE: `after`, the row's fields that have a value; DELETE: `before`, the same of the old row.
 * - UPDATE: `before` and `after` hold only the fields that changed (a field set to null is there
 *   with null): hstore's difference of the two rows, in C. A row whose fields are all the same
 *   (the left-out ones aside) has no entry.
 * The values are kept as text (lossless: each type's own output); `auditChanges` gives them their
 * JSON types again when read, by the columns' types. Building each entry field by field in SQL,
 * with the row serialised once per field, made a 100,000-row update cost 30 times the update;
 * typed JSON (to_jsonb) of both rows still cost 2.3 times, the text form 1.6 (authority bench --trail).
 */
function auditFunction(schema: string, name: string, hstoreSchema: string, across = false): string {
  const s = ident(schema);
  const h = ident(hstoreSchema);
  // A row's tenant: its own column, or each tenant the row's function names (which the function
  // may see and enter in the trail of only as its definer: the row's tenants are not the caller's).
  const tenant = across ? 't.tenant_id' : 'r.tenant_id';
  const tenants = across ? ` CROSS JOIN LATERAL %s(r) t(tenant_id)` : '';
  const tenantsOf = across ? ', tenants_of' : '';
  return `
    CREATE OR REPLACE FUNCTION ${s}.${ident(name).slice(1, -1)}() RETURNS trigger LANGUAGE plpgsql${across ? ` SECURITY DEFINER SET search_path = pg_catalog, pg_temp` : ''}
      SET work_mem = '64MB' AS $fn$
    DECLARE
      args text[] := array(SELECT unnest(TG_ARGV));${
        across
          ? `
      tenants_of text := args[array_length(args, 1)];
      bar int := array_position(args, '|');
      keys text[] := args[1:bar - 1];
      derived text := quote_literal(coalesce(args[bar + 1:array_length(args, 1) - 2], '{}')::text) || '::text[]';`
          : `
      bar int := array_position(args, '|');
      keys text[] := args[1:bar - 1];
      derived text := quote_literal(coalesce(args[bar + 1:], '{}')::text) || '::text[]';`
      }
      key_of text;
      join_on text;
      head text := format('INSERT INTO %I.audit_log (tenant_id, entity_type, entity_id, action, actor_id, request_id, before, after) ', TG_TABLE_SCHEMA);
      who text := format($w$nullif(current_setting(%L, true), '')::uuid, nullif(current_setting(%L, true), '')$w$, '${ACTOR_SETTING}', '${REQUEST_SETTING}');
    BEGIN
      SELECT string_agg(format('(r.%I)::text', k), $$ || ':' || $$), string_agg(format('o.%1$I = r.%1$I', k), ' AND ')
        INTO key_of, join_on FROM unnest(keys) AS k;
      IF TG_OP = 'INSERT' THEN
        EXECUTE head || format('SELECT ${tenant}, %L, %s, %L, %s, NULL, jsonb_strip_nulls(${h}.hstore_to_jsonb(${h}.hstore(r) OPERATOR(${h}.-) %s)) FROM new_rows r${tenants}',
          TG_TABLE_NAME, key_of, 'CREATE', who, derived${tenantsOf});
      ELSIF TG_OP = 'DELETE' THEN
        EXECUTE head || format('SELECT ${tenant}, %L, %s, %L, %s, jsonb_strip_nulls(${h}.hstore_to_jsonb(${h}.hstore(r) OPERATOR(${h}.-) %s)), NULL FROM old_rows r${tenants}',
          TG_TABLE_NAME, key_of, 'DELETE', who, derived${tenantsOf});
      ELSE
        EXECUTE head || format('SELECT ${tenant}, %L, %s, %L, %s, ${h}.hstore_to_jsonb(d.o OPERATOR(${h}.-) d.n), ${h}.hstore_to_jsonb(d.n OPERATOR(${h}.-) d.o)
                                  FROM new_rows r JOIN old_rows o ON %s
                                 CROSS JOIN LATERAL (SELECT ${h}.hstore(r) OPERATOR(${h}.-) %s AS n, ${h}.hstore(o) OPERATOR(${h}.-) %s AS o OFFSET 0) d${tenants}
                                 WHERE d.n OPERATOR(${h}.<>) d.o',
          TG_TABLE_NAME, key_of, 'UPDATE', who, join_on, derived, derived${tenantsOf});
      END IF;
      RETURN NULL;
    END
    $fn$`;
}

export async function dropAuditLog(q: Pick<QueryRunner, 'query'>, schema: string): Promise<void> {
  const s = ident(schema);
  const tables: { table: string }[] = await q.query(
    `SELECT DISTINCT c.relname AS table FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND t.tgname LIKE 'audit\\_%'`,
    [schema],
  );
  for (const { table } of tables) {
    for (const op of ['insert', 'update', 'delete']) await q.query(`DROP TRIGGER IF EXISTS audit_${op} ON ${s}.${ident(table)}`);
  }
  await q.query(`DROP FUNCTION IF EXISTS ${s}.audit_changes_across_tenants()`);
  await q.query(`DROP FUNCTION IF EXISTS ${s}.audit_changes()`);
  await q.query(`DROP TABLE IF EXISTS ${s}.audit_log`);
}

/**
 * Migration step: the trail of a table whose rows belong to no one tenant but are shared by some
 * (a person, who may be a member of several tenants; a tenant itself). Each change of a row is
 * entered in the trail of every tenant that `tenantsOf` (a schema-qualified SQL function of the
 * table's row type, returning SETOF uuid) names for it, whichever tenant's context made it: a
 * person's new name is part of the history of each tenant they belong to. `leaveOut`: columns
 * whose changes are not entered (the system's own bookkeeping on the row).
 */
export async function auditAcrossTenants(
  q: Pick<QueryRunner, 'query'>,
  schema: string,
  table: string,
  tenantsOf: string,
  leaveOut: string[] = [],
): Promise<void> {
  const s = ident(schema);
  const fn = tenantsOf.split('.');
  if (fn.length !== 2) throw new Error(`tenantsOf must be a schema-qualified function name, not "${tenantsOf}"`);
  const [{ exists }]: { exists: boolean }[] = await q.query(
    `SELECT EXISTS (SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1 AND p.proname = 'audit_changes_across_tenants') AS exists`,
    [schema],
  );
  if (!exists) await q.query(auditFunction(schema, 'audit_changes_across_tenants', await hstoreSchema(q), true));
  const [{ keys }]: { keys: string[] }[] = await q.query(
    `SELECT array_agg(a.attname::text ORDER BY array_position(i.indkey::int2[], a.attnum)) AS keys
       FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
      WHERE i.indrelid = $1::regclass AND i.indisprimary`,
    [`${schema}.${table}`],
  );
  const t = `${s}.${ident(table)}`;
  const args = [...keys.map((k) => ident(k).slice(1, -1)), '|', ...leaveOut.map((c) => ident(c).slice(1, -1)), '|', fn.map((part) => ident(part)).join('.')]
    .map((a) => `'${a.replace(/'/g, "''")}'`)
    .join(', ');
  const run = `${s}.audit_changes_across_tenants(${args})`;
  await q.query(`CREATE TRIGGER audit_insert AFTER INSERT ON ${t} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${run}`);
  await q.query(`CREATE TRIGGER audit_update AFTER UPDATE ON ${t} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${run}`);
  await q.query(`CREATE TRIGGER audit_delete AFTER DELETE ON ${t} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${run}`);
}

/** Undoes `auditTables` for one table (a migration's `down` that removes what made it audited). */
export async function unauditTable(q: Pick<QueryRunner, 'query'>, schema: string, table: string): Promise<void> {
  for (const op of ['insert', 'update', 'delete']) await q.query(`DROP TRIGGER IF EXISTS audit_${op} ON ${ident(schema)}.${ident(table)}`);
}

/** The tables of `schema` the trail must cover (tenant tables with a primary key, bookkeeping aside), with their keys. */
export async function auditedTables(q: Queryable | Pick<QueryRunner, 'query'>, schema: string): Promise<{ table: string; keys: string[]; generated: string[]; audited: boolean }[]> {
  const rows: { table: string; keys: string[]; generated: string[]; audited: boolean }[] = await (q as Pick<QueryRunner, 'query'>).query(
    `SELECT c.relname AS table,
            (SELECT array_agg(a.attname::text ORDER BY array_position(i.indkey::int2[], a.attnum))
               FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
              WHERE i.indrelid = c.oid AND i.indisprimary AND array_position(i.indkey::int2[], a.attnum) <= i.indnkeyatts) AS keys,
            coalesce((SELECT array_agg(a.attname::text ORDER BY a.attnum) FROM pg_attribute a
                       WHERE a.attrelid = c.oid AND a.attgenerated <> '' AND NOT a.attisdropped), '{}') AS generated,
            EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = 'audit_update') AS audited
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind = 'r'
        AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped)
        AND EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary)
      ORDER BY 1`,
    [schema],
  );
  return rows.filter((r) => !NOT_AUDITED.test(r.table));
}

/**
 * Migration step: the audit triggers on every table of `schema` the trail must cover that has
 * none yet (a later migration calls it again for its new tables).
 */
export async function auditTables(q: Pick<QueryRunner, 'query'>, schema: string): Promise<string[]> {
  const s = ident(schema);
  const missing = (await auditedTables(q, schema)).filter((t) => !t.audited);
  for (const { table, keys, generated } of missing) {
    const t = `${s}.${ident(table)}`;
    const args = [...keys, '|', ...generated].map((k) => `'${k === '|' ? k : ident(k).slice(1, -1)}'`).join(', ');
    await q.query(`CREATE TRIGGER audit_insert AFTER INSERT ON ${t} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${s}.audit_changes(${args})`);
    await q.query(
      `CREATE TRIGGER audit_update AFTER UPDATE ON ${t} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${s}.audit_changes(${args})`,
    );
    await q.query(`CREATE TRIGGER audit_delete AFTER DELETE ON ${t} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${s}.audit_changes(${args})`);
  }
  return missing.map((m) => m.table);
}
