/**
 * npm run migrate: applies every service's migrations to the database of MIGRATION_DATABASE_URL or DATABASE_URL (or the one
 * `npm start` chose), each schema under its advisory lock. One service alone: nx run <area>:migrate.
 */
import { createLogger, migrateSchema } from '@ddm/platform';
import { ALL_DATA_SOURCES } from './migrate-sources';
import { runtime } from './lib/runtime';

async function main() {
  const log = createLogger('migrate', process.env.LOG_LEVEL || 'info');
  const { databaseUrl, appDatabaseUrl } = await runtime({ nats: false });
  for (const def of ALL_DATA_SOURCES) {
    // As the owner; the services' app role gets its rights on each schema.
    const applied = await migrateSchema(def, databaseUrl, appDatabaseUrl, log);
    if (!applied.length) log.info({ schema: def.schema }, 'schema up to date');
  }
}

main().catch((err) => {
  process.stderr.write(`migrate failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
