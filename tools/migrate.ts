/**
 * npm run migrate: applies every service's migrations to the database of DATABASE_URL (or the one
 * `npm start` chose), each schema under its advisory lock. One service alone: nx run <area>:migrate.
 */
import { createDataSource, createLogger, runMigrations } from '@ddm/platform';
import { ALL_DATA_SOURCES } from './migrate-sources';
import { runtime } from './lib/runtime';

async function main() {
  const log = createLogger('migrate', process.env.LOG_LEVEL || 'info');
  const { databaseUrl } = runtime();
  for (const def of ALL_DATA_SOURCES) {
    const ds = createDataSource(def, databaseUrl, 2);
    await ds.initialize();
    try {
      const applied = await runMigrations(ds, def, log);
      if (!applied.length) log.info({ schema: def.schema }, 'schema up to date');
    } finally {
      await ds.destroy();
    }
  }
}

main().catch((err) => {
  process.stderr.write(`migrate failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
