import { DataSource, DataSourceOptions, EntityManager, EntitySchema, MigrationInterface, QueryRunner } from 'typeorm';
import { Logger } from 'pino';

type EntityClass = Function | EntitySchema; // eslint-disable-line @typescript-eslint/no-unsafe-function-type
type MigrationClass = new () => MigrationInterface;

/** What a service declares about its persistence, in its `data-source.ts` (shared by Nest and the migrate command). */
export interface ServiceDataSource {
  schema: string;
  entities: EntityClass[];
  migrations: MigrationClass[];
}

export function createDataSource(def: ServiceDataSource, url: string, poolSize = 10): DataSource {
  const options: DataSourceOptions = {
    type: 'postgres',
    url,
    schema: def.schema,
    entities: def.entities,
    migrations: def.migrations,
    migrationsTableName: 'migrations',
    migrationsRun: false,
    synchronize: false,
    logging: false,
    extra: { max: poolSize, connectionTimeoutMillis: 5_000, application_name: `ddm-${def.schema}` },
  };
  return new DataSource(options);
}

/**
 * Runs the schema's pending migrations under a Postgres advisory lock (held on its own connection,
 * so the pool needs at least two), so many replicas starting
 * together migrate once. Creates the schema first.
 */
export async function runMigrations(ds: DataSource, schema: string, log?: Logger): Promise<string[]> {
  const runner = ds.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`ddm:migrate:${schema}`]);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    const done = await ds.runMigrations({ transaction: 'each' });
    if (done.length) log?.info({ schema, migrations: done.map((m) => m.name) }, 'migrations applied');
    return done.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`ddm:migrate:${schema}`]).catch(() => undefined);
    await runner.release();
  }
}

/**
 * The platform's own tables in a service schema: the transactional outbox, the consumers'
 * processed-message record and the display-id counters. Call from the service's first migration.
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

/** First display id of every kind in every tenant (ARCHITECTURE §2). */
export const FIRST_DISPLAY_ID = 10000;

/**
 * Issues the next display id of a kind in a tenant, atomically (one upsert; concurrent callers
 * queue on the row lock and never get the same number). Use inside the transaction that inserts the record.
 */
export async function nextDisplayId(manager: EntityManager, schema: string, tenantId: string, kind: string): Promise<string> {
  const rows: { last_value: string }[] = await manager.query(
    `INSERT INTO "${schema}".display_id_counters (tenant_id, kind, last_value) VALUES ($1, $2, $3)
     ON CONFLICT (tenant_id, kind) DO UPDATE SET last_value = display_id_counters.last_value + 1
     RETURNING last_value`,
    [tenantId, kind, FIRST_DISPLAY_ID],
  );
  return String(rows[0].last_value);
}
