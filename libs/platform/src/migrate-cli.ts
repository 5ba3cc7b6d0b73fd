import { AreaName } from '@ddm/contracts';
import { ConfigError } from './config';
import { ServiceDataSource, migrateSchema } from './database';
import { createLogger } from './logger';

/** `node dist/apps/<area>/src/migrate.js`: applies the schema's migrations and exits (Kubernetes Job, Nx `migrate`). */
export async function runMigrationsCli(area: AreaName, def: ServiceDataSource): Promise<void> {
  const logger = createLogger(`${area}-migrate`, process.env.LOG_LEVEL || 'info');
  const url = process.env.DATABASE_URL;
  if (!url) {
    process.stderr.write(new ConfigError('DATABASE_URL is required (the app role, granted its rights here)').message + '\n');
    process.exit(1);
  }
  try {
    // As the owner (MIGRATION_DATABASE_URL, else DATABASE_URL); the app role of DATABASE_URL gets its rights.
    const applied = await migrateSchema(def, process.env.MIGRATION_DATABASE_URL || url, url, logger);
    if (!applied.length) logger.info({ schema: def.schema }, 'schema up to date');
    process.exit(0);
  } catch (err) {
    logger.error({ err }, 'migration failed');
    process.exit(1);
  }
}
