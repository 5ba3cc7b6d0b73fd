import type { QueryRunner } from 'typeorm';
import type { Queryable } from './db';
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
 *   notifications, idempotency keys, a file's content chunks), whose changes are not a tenant's decisions.
 * - The app role may read and insert `audit_log`, never update or delete it (grantAppRole).
 */

export const AUDIT_TABLE = 'audit_log';

/** Tables never audited: the trail itself and the engine's bookkeeping. */
const NOT_AUDITED = /(_projection|_history|_revisions|_counts|_audience|^audit_log|^idempotency_keys|^display_id_counters|^jobs|^job_items|^file_chunks|^notifications|^user_counts)$/;

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
      changes jsonb NOT NULL,
      changed_at timestamptz NOT NULL DEFAULT now()
    )`);
  await q.query(`CREATE INDEX audit_log_recent ON ${s}.audit_log (tenant_id, changed_at DESC, id DESC)`);
  await q.query(`CREATE INDEX audit_log_entity ON ${s}.audit_log (tenant_id, entity_type, entity_id, changed_at DESC)`);
  await q.query(`CREATE INDEX audit_log_actor ON ${s}.audit_log (tenant_id, actor_id, changed_at DESC)`);
  // TG_ARGV: the key columns of the table, '|', its generated columns (left out of the changes: they
  // follow the others). One entry per row; the changes as [{ field, from, to }].
  await q.query(`
    CREATE FUNCTION ${s}.audit_changes() RETURNS trigger LANGUAGE plpgsql AS $fn$
    DECLARE
      args text[] := array(SELECT unnest(TG_ARGV));
      bar int := array_position(args, '|');
      keys text[] := args[1:bar - 1];
      derived text := quote_literal(coalesce(args[bar + 1:], '{}')::text) || '::text[]';
      key_of text;
      join_on text;
      diff text := $d$(SELECT coalesce(jsonb_agg(jsonb_build_object('field', f.k, 'from', %1$s -> f.k, 'to', %2$s -> f.k) ORDER BY f.k), '[]'::jsonb)
                        FROM (SELECT jsonb_object_keys(coalesce(%1$s, '{}'::jsonb) || coalesce(%2$s, '{}'::jsonb)) AS k) f
                       WHERE coalesce(%1$s -> f.k, 'null') IS DISTINCT FROM coalesce(%2$s -> f.k, 'null'))$d$;
      head text := format('INSERT INTO %I.audit_log (tenant_id, entity_type, entity_id, action, actor_id, request_id, changes) ', TG_TABLE_SCHEMA);
      who text := format($w$nullif(current_setting(%L, true), '')::uuid, nullif(current_setting(%L, true), '')$w$, '${ACTOR_SETTING}', '${REQUEST_SETTING}');
    BEGIN
      SELECT string_agg(format('(r.%I)::text', k), $$ || ':' || $$), string_agg(format('o.%1$I = r.%1$I', k), ' AND ')
        INTO key_of, join_on FROM unnest(keys) AS k;
      IF TG_OP = 'INSERT' THEN
        EXECUTE head || format('SELECT r.tenant_id, %L, %s, %L, %s, %s FROM new_rows r', TG_TABLE_NAME, key_of, 'CREATE', who,
          format(diff, 'NULL::jsonb', '(to_jsonb(r) - ' || derived || ')'));
      ELSIF TG_OP = 'DELETE' THEN
        EXECUTE head || format('SELECT r.tenant_id, %L, %s, %L, %s, %s FROM old_rows r', TG_TABLE_NAME, key_of, 'DELETE', who,
          format(diff, '(to_jsonb(r) - ' || derived || ')', 'NULL::jsonb'));
      ELSE
        EXECUTE head || format('SELECT r.tenant_id, %L, %s, %L, %s, d.changes FROM new_rows r JOIN old_rows o ON %s
                                 CROSS JOIN LATERAL (SELECT %s AS changes) d WHERE d.changes <> $$[]$$::jsonb',
          TG_TABLE_NAME, key_of, 'UPDATE', who, join_on, format(diff, '(to_jsonb(o) - ' || derived || ')', '(to_jsonb(r) - ' || derived || ')'));
      END IF;
      RETURN NULL;
    END
    $fn$`);
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
  await q.query(`DROP FUNCTION IF EXISTS ${s}.audit_changes()`);
  await q.query(`DROP TABLE IF EXISTS ${s}.audit_log`);
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
