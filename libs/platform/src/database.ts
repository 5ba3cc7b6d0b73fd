import { DataSource, DataSourceOptions, MigrationInterface, QueryRunner } from 'typeorm';
import { Logger } from 'pino';
import type { Queryable } from './queryable';
import { appRoleProblems, grantAppRole, roleOfUrl, tablesWithoutIsolation } from './tenancy';

type MigrationClass = new () => MigrationInterface;

/**
 * What a service declares about its persistence, in its `data-source.ts` (shared by Nest and the
 * migrate command). The migrations are the one declaration of the schema: services read and write
 * with SQL through `Db`/`Tx`, so there are no entity classes.
 */
export interface ServiceDataSource {
  schema: string;
  migrations: MigrationClass[];
  /**
   * Extensions the schema's migrations rely on (`pg_trgm`), besides the platform's own
   * (PLATFORM_EXTENSIONS). They are database-wide objects, so they are created before the
   * migrations, under one lock for the whole database: services migrating an empty database at
   * the same moment do not race on them.
   */
  extensions?: string[];
}

/**
 * Extensions every schema relies on: hstore, with which the audit trail finds the changed fields
 * of a row (audit.ts). Like pg_trgm it is a trusted extension, which a database owner without
 * superuser rights may create on managed PostgreSQL.
 */
export const PLATFORM_EXTENSIONS = ['hstore'];

/**
 * Settings of every service connection. JIT off: the services run short indexed statements, and
 * a batch whose cost the planner overestimates (a recursive CTE over a thousand checks) spent most
 * of its time compiling (0.8 s of 1.3 s) before the change.
 */
export const SESSION_OPTIONS = '-c jit=off';

export function createDataSource(def: ServiceDataSource, url: string, poolSize = 10): DataSource {
  const options: DataSourceOptions = {
    type: 'postgres',
    url,
    schema: def.schema,
    entities: [],
    migrations: def.migrations,
    migrationsTableName: 'migrations',
    migrationsRun: false,
    synchronize: false,
    logging: false,
    extra: { max: poolSize, connectionTimeoutMillis: 5_000, application_name: `ddm-${def.schema}`, options: SESSION_OPTIONS },
  };
  return new DataSource(options);
}

/**
 * Runs the schema's migrations as the owner (`migrationUrl`) and grants the app role of `appUrl`
 * its rights, on a connection of its own that is closed afterwards.
 */
export async function migrateSchema(def: ServiceDataSource, migrationUrl: string, appUrl: string, log?: Logger): Promise<string[]> {
  const owner = createDataSource(def, migrationUrl, 2);
  await owner.initialize();
  try {
    return await runMigrations(owner, def, log, appUrl);
  } finally {
    await owner.destroy();
  }
}

/**
 * What a service checks when it starts: its role cannot get around row-level security, and every
 * tenant table of its schema is isolated. Answers the problems (none: all is well).
 */
export async function isolationProblems(ds: DataSource, schema: string): Promise<string[]> {
  const q = { query: (text: string, params?: readonly unknown[]) => ds.query(text, params as unknown[]) } as Queryable;
  const problems = await appRoleProblems(q, schema);
  const open = await tablesWithoutIsolation(q, [schema]);
  if (open.length) problems.push(`tenant tables without row-level security: ${open.join(', ')}`);
  return problems;
}

/** Advisory lock keys: one for database-wide work, one per schema for its migrations. */
export const DATABASE_LOCK = 'ddm:migrate:database';
export const schemaLock = (schema: string) => `ddm:migrate:${schema}`;

const EXTENSION_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * Runs the schema's pending migrations under a Postgres advisory lock (held on its own connection,
 * so the pool needs at least two), so many replicas starting together migrate once. First, under
 * the database-wide lock, the extensions the schema needs; then the schema itself.
 */
export async function runMigrations(ds: DataSource, def: ServiceDataSource, log?: Logger, appUrl?: string): Promise<string[]> {
  const runner = ds.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [DATABASE_LOCK]);
    try {
      for (const ext of [...PLATFORM_EXTENSIONS, ...(def.extensions ?? [])]) {
        if (!EXTENSION_NAME.test(ext)) throw new Error(`bad extension name "${ext}"`);
        await runner.query(`CREATE EXTENSION IF NOT EXISTS ${ext}`);
      }
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [DATABASE_LOCK]).catch(() => undefined);
    }
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [schemaLock(def.schema)]);
    try {
      await runner.query(`CREATE SCHEMA IF NOT EXISTS "${def.schema}"`);
      const done = await ds.runMigrations({ transaction: 'each' });
      if (done.length) log?.info({ schema: def.schema, migrations: done.map((m) => m.name) }, 'migrations applied');
      if (appUrl) {
        // The services' own role (DATABASE_URL's user) gets its rights on the schema's tables, every run (new tables too).
        const { user, password } = roleOfUrl(appUrl);
        const [{ me }] = await runner.query('SELECT current_user AS me');
        if (user !== me) {
          // Roles are the server's, shared by every schema: one service at a time changes them.
          await runner.query('SELECT pg_advisory_lock(hashtext($1))', [DATABASE_LOCK]);
          try {
            await grantAppRole(runner, def.schema, user, password);
          } finally {
            await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [DATABASE_LOCK]).catch(() => undefined);
          }
        }
      }
      return done.map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [schemaLock(def.schema)]).catch(() => undefined);
    }
  } finally {
    await runner.release();
  }
}

/**
 * The platform's own tables in a service schema: the transactional outbox, the consumers'
 * processed-message record and the display-id counters. Call from the service's first migration,
 * then `addOutboxTraceContext` and `addChangeIds` (the outbox as the platform code reads and writes it).
 */
export async function createPlatformTables(q: QueryRunner, schema: string): Promise<void> {
  await q.query(`
    CREATE TABLE "${schema}".outbox (
      id uuid PRIMARY KEY,
      subject text NOT NULL,
      payload jsonb NOT NULL,
      request_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      published_at timestamptz,
      attempts integer NOT NULL DEFAULT 0,
      last_error text
    )`);
  await q.query(`CREATE INDEX outbox_unpublished ON "${schema}".outbox (created_at) WHERE published_at IS NULL`);
  await q.query(`
    CREATE TABLE "${schema}".processed_messages (
      consumer text NOT NULL,
      message_id text NOT NULL,
      processed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (consumer, message_id)
    )`);
  await q.query(`CREATE INDEX processed_messages_age ON "${schema}".processed_messages (processed_at)`);
  await q.query(`
    CREATE TABLE "${schema}".display_id_counters (
      tenant_id uuid NOT NULL,
      kind text NOT NULL,
      last_value bigint NOT NULL,
      PRIMARY KEY (tenant_id, kind)
    )`);
}

export async function dropPlatformTables(q: QueryRunner, schema: string): Promise<void> {
  await q.query(`DROP TABLE IF EXISTS "${schema}".display_id_counters, "${schema}".processed_messages, "${schema}".outbox`);
}

/**
 * The outbox's trace context columns (W3C `traceparent`, `tracestate`): the context of the work
 * that wrote a row, which the relay's message carries on. Null when tracing is off.
 */
export async function addOutboxTraceContext(q: QueryRunner, schema: string): Promise<void> {
  await q.query(`ALTER TABLE "${schema}".outbox ADD COLUMN traceparent text, ADD COLUMN tracestate text`);
}

export async function dropOutboxTraceContext(q: QueryRunner, schema: string): Promise<void> {
  await q.query(`ALTER TABLE "${schema}".outbox DROP COLUMN IF EXISTS traceparent, DROP COLUMN IF EXISTS tracestate`);
}

/**
 * The change ids (consistency.ts): each outbox row carries the change (the transaction that
 * published it, a uuid v7) it belongs to, and each processed message records it, indexed per
 * consumer, so a service can count how much of a change it has applied (Freshness). Null for rows
 * written before, and for messages published without one.
 */
export async function addChangeIds(q: QueryRunner, schema: string): Promise<void> {
  await q.query(`ALTER TABLE "${schema}".outbox ADD COLUMN change_id uuid`);
  await q.query(`ALTER TABLE "${schema}".processed_messages ADD COLUMN change_id uuid`);
  await q.query(`CREATE INDEX processed_messages_change ON "${schema}".processed_messages (consumer, change_id) WHERE change_id IS NOT NULL`);
}

export async function dropChangeIds(q: QueryRunner, schema: string): Promise<void> {
  await q.query(`DROP INDEX IF EXISTS "${schema}".processed_messages_change`);
  await q.query(`ALTER TABLE "${schema}".processed_messages DROP COLUMN IF EXISTS change_id`);
  await q.query(`ALTER TABLE "${schema}".outbox DROP COLUMN IF EXISTS change_id`);
}

/** First display id of every kind in every tenant (ARCHITECTURE §2). */
export const FIRST_DISPLAY_ID = 10000;

/**
 * Issues the next `count` display ids of a kind in a tenant, atomically, in one statement (one
 * upsert; concurrent callers queue on the row lock and never get the same number). Use inside the
 * transaction that inserts the records: a rollback gives the numbers back.
 */
export async function nextDisplayIds(q: Queryable, schema: string, tenantId: string, kind: string, count: number): Promise<string[]> {
  if (!Number.isInteger(count) || count < 1) return [];
  const [{ last_value }] = await q.query<{ last_value: string }>(
    `INSERT INTO "${schema}".display_id_counters (tenant_id, kind, last_value) VALUES ($1, $2, $3::bigint + $4::bigint - 1)
     ON CONFLICT (tenant_id, kind) DO UPDATE SET last_value = display_id_counters.last_value + $4::bigint
     RETURNING last_value`,
    [tenantId, kind, FIRST_DISPLAY_ID, count],
  );
  const first = Number(last_value) - count + 1;
  return Array.from({ length: count }, (_, i) => String(first + i));
}
