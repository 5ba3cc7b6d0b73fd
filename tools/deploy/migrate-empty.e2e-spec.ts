import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { ServiceDataSource } from '@ddm/platform';
import { FinishedProcess, ROOT, TestDatabase, createEmptyDatabase, runBuilt } from '@ddm/testing';
import { ALL_DATA_SOURCES } from '../migrate-sources';

/**
 * A first deployment: every service's migrate command (dist/apps/<area>/src/migrate.js, the
 * `migrate` init container of each Deployment in k8s/) starts at the same moment against an empty
 * database. Several schemas need the same database-wide extension
 * (pg_trgm); two services creating it at once used to kill one of them with a duplicate key. Each
 * process must exit 0 and leave its schema at its latest migration.
 */
const AREAS = readdirSync(join(ROOT, 'apps'))
  .filter((area) => existsSync(join(ROOT, 'apps', area, 'src', 'migrate.ts')))
  .sort();

/** The names TypeORM records in a schema's migrations table: each migration's `name`, else its class name. */
const migrationNames = (def: ServiceDataSource) => def.migrations.map((M) => new M().name ?? M.name).sort();

describe('every service migrating an empty database at the same time', () => {
  let db: TestDatabase;
  let client: Client;
  let before: { schemas: string[]; extensions: string[] };
  let runs: FinishedProcess[];

  beforeAll(async () => {
    db = await createEmptyDatabase();
    client = new Client({ connectionString: db.url });
    await client.connect();
    const schemas = await client.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname = ANY($1)`, [ALL_DATA_SOURCES.map((d) => d.schema)]);
    const extensions = await client.query<{ extname: string }>(`SELECT extname FROM pg_extension WHERE extname <> 'plpgsql'`);
    before = { schemas: schemas.rows.map((r) => r.nspname), extensions: extensions.rows.map((r) => r.extname) };
    // All at once, as the migrate containers of a first rollout start.
    runs = await Promise.all(AREAS.map((area) => runBuilt(`apps/${area}/src/migrate.js`, { DATABASE_URL: db.url, LOG_LEVEL: 'warn' })));
  }, 120_000);

  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  it('started from an empty database: no service schema, no extension but plpgsql (so the migrations created the extensions, racing)', () => {
    expect(before).toEqual({ schemas: [], extensions: [] });
    // One migrate entry point per schema of tools/migrate-sources.ts.
    expect(AREAS).toHaveLength(ALL_DATA_SOURCES.length);
  });

  it('every migrate process exits 0', () => {
    // Per area: 0, or how it ended with its output (shown by the diff when it fails).
    const outcome = Object.fromEntries(AREAS.map((area, i) => [area, runs[i].code === 0 ? 0 : `exit ${runs[i].code ?? runs[i].signal}:\n${runs[i].output}`]));
    expect(outcome).toEqual(Object.fromEntries(AREAS.map((area) => [area, 0])));
  });

  it.each(ALL_DATA_SOURCES.map((def) => [def.schema, def] as const))('%s: its migrations table holds every migration of its data source', async (schema, def) => {
    const { rows } = await client.query<{ name: string }>(`SELECT name FROM "${schema}".migrations`);
    expect(rows.map((r) => r.name).sort()).toEqual(migrationNames(def));
  });

  it('has every extension the data sources declare', async () => {
    const declared = [...new Set(ALL_DATA_SOURCES.flatMap((d) => d.extensions ?? []))].sort();
    expect(declared.length).toBeGreaterThan(0);
    const { rows } = await client.query<{ extname: string }>(`SELECT extname FROM pg_extension WHERE extname = ANY($1)`, [declared]);
    expect(rows.map((r) => r.extname).sort()).toEqual(declared);
  });
});
