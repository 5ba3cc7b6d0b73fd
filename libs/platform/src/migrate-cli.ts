import { AreaName } from '@ddm/contracts';
import { ConfigError } from './config';
import { ServiceDataSource, createDataSource, runMigrations } from './database';
import { createLogger } from './logger';

/** `node dist/apps/<area>/src/migrate.js`: applies the schema's migrations and exits (Kubernetes Job, Nx `migrate`). */
export async function runMigrationsCli(area: AreaName, def: ServiceDataSource): Promise<void> {
  const logger = createLogger(`${area}-migrate`, process.env.LOG_LEVEL || 'info');
  const url = process.env.DATABASE_URL;
  if (!url) {
    process.stderr.write(new ConfigError('DATABASE_URL is required').message + '\n');
    process.exit(1);
  }
  const ds = createDataSource(def, url, 2);
  try {
    await ds.initialize();
    const applied = await runMigrations(ds, def, logger);
    if (!applied.length) logger.info({ schema: def.schema }, 'schema up to date');
    await ds.destroy();
    process.exit(0);
  } catch (err) {
    logger.error({ err }, 'migration failed');
    process.exit(1);
  }
}
