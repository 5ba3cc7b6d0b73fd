/**
 * npm run seed: demo tenants, users and (as areas are built) their data. Safe to run twice.
 * Prints { "tenants": [ { "id", "name", "users": [ { "id", "email", "role" } ] } ] }.
 */
import { createServiceApp, Db } from '@ddm/platform';
import { AuthModule } from '../apps/auth/src/auth.module';
import { authDataSource } from '../apps/auth/src/data-source';
import { seedAuth } from '../apps/auth/src/seed';
import { TenantsService } from '../apps/auth/src/tenants/tenants.service';
import { DEV_KEYS_DIR, runtime } from './lib/runtime';
import { ensureDevKeys } from '@ddm/platform';

async function main() {
  // stdout is the seed's answer (JSON); the service's logs go to stderr.
  process.env.LOG_STREAM = 'stderr';
  const rt = runtime();
  ensureDevKeys(DEV_KEYS_DIR);
  const env = {
    ...process.env,
    DATABASE_URL: rt.databaseUrl,
    NATS_URL: rt.natsUrl,
    NATS_NAMESPACE: rt.natsNamespace,
    AUTH_DEV_KEYS: 'true',
    DEV_KEYS_DIR,
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
  };
  const { app } = await createServiceApp(AuthModule, { area: 'auth', dataSource: authDataSource, env });
  try {
    const result = await seedAuth(app.get(TenantsService), app.get(Db));
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  } finally {
    await app.close();
  }
}

main().catch((err) => {
  process.stderr.write(`seed failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
