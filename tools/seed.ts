/**
 * npm run seed: demo tenants, users, and the settings area's structure (groups, positions,
 * decision roles). Safe to run twice. SEED_AREAS=auth seeds tenants and users only.
 * Prints { "tenants": [ { "id", "name", "users": [ { "id", "email", "role" } ], "settings"?: {...} } ] }.
 */
import { createServiceApp, Db, ensureDevKeys } from '@ddm/platform';
import { AuthModule } from '../apps/auth/src/auth.module';
import { authDataSource } from '../apps/auth/src/data-source';
import { seedAuth } from '../apps/auth/src/seed';
import { TenantsService } from '../apps/auth/src/tenants/tenants.service';
import { settingsDataSource } from '../apps/settings/src/data-source';
import { seedSettings } from '../apps/settings/src/seed';
import { SettingsModule } from '../apps/settings/src/settings.module';
import { DEV_KEYS_DIR, runtime } from './lib/runtime';

const AREAS = ['auth', 'settings'] as const;

function seedAreas(raw: string | undefined): Set<string> {
  const areas = (raw ?? AREAS.join(',')).split(',').map((a) => a.trim()).filter(Boolean);
  const unknown = areas.filter((a) => !(AREAS as readonly string[]).includes(a));
  if (unknown.length) throw new Error(`SEED_AREAS: unknown area(s) ${unknown.join(', ')} (known: ${AREAS.join(', ')})`);
  // Every area's data belongs to the tenants the auth seed makes.
  return new Set(['auth', ...areas]);
}

async function main() {
  // stdout is the seed's answer (JSON); the services' logs go to stderr.
  process.env.LOG_STREAM = 'stderr';
  const areas = seedAreas(process.env.SEED_AREAS);
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
  const auth = await createServiceApp(AuthModule, { area: 'auth', dataSource: authDataSource, env });
  try {
    const result = await seedAuth(auth.app.get(TenantsService), auth.app.get(Db));
    if (areas.has('settings')) {
      const settings = await createServiceApp(SettingsModule, { area: 'settings', dataSource: settingsDataSource, env });
      try {
        for (const tenant of result.tenants) Object.assign(tenant, { settings: await seedSettings(settings.app, tenant) });
      } finally {
        await settings.app.close();
      }
    }
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  } finally {
    await auth.app.close();
  }
}

main().catch((err) => {
  process.stderr.write(`seed failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
