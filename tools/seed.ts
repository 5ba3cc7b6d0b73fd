/**
 * npm run seed: demo tenants, users, the settings area's structure (groups, positions, decision
 * roles, sections, categories, authority types, document types), the decision area's decisions and
 * the document area's documents (the delegation-of-authority policy linked to the Finance
 * decisions). Safe to run twice. SEED_AREAS=auth seeds tenants and users only, SEED_AREAS=settings
 * stops before decisions, SEED_AREAS=decision before documents.
 * Prints { "tenants": [ { "id", "name", "users": [ { "id", "email", "role" } ], "settings"?: {...}, "decision"?: {...}, "document"?: {...} } ] }.
 */
import { createServiceApp, Db, ensureDevKeys } from '@ddm/platform';
import { AuthModule } from '../apps/auth/src/auth.module';
import { authDataSource } from '../apps/auth/src/data-source';
import { seedAuth } from '../apps/auth/src/seed';
import { TenantsService } from '../apps/auth/src/tenants/tenants.service';
import { settingsDataSource } from '../apps/settings/src/data-source';
import { seedSettings } from '../apps/settings/src/seed';
import { SettingsModule } from '../apps/settings/src/settings.module';
import { decisionDataSource } from '../apps/decision/src/data-source';
import { DecisionModule } from '../apps/decision/src/decision.module';
import { seedDecisions } from '../apps/decision/src/seed';
import { DecisionsService } from '../apps/decision/src/decisions/decisions.service';
import { documentDataSource } from '../apps/document/src/data-source';
import { DocumentModule } from '../apps/document/src/document.module';
import { seedDocuments } from '../apps/document/src/seed';
import { ALL_PERMISSION_KEYS, Caller } from '@ddm/contracts';
import { INestApplicationContext } from '@nestjs/common';
import { DEV_KEYS_DIR, runtime } from './lib/runtime';

const AREAS = ['auth', 'settings', 'decision', 'document'] as const;

function seedAreas(raw: string | undefined): Set<string> {
  const areas = (raw ?? AREAS.join(',')).split(',').map((a) => a.trim()).filter(Boolean);
  const unknown = areas.filter((a) => !(AREAS as readonly string[]).includes(a));
  if (unknown.length) throw new Error(`SEED_AREAS: unknown area(s) ${unknown.join(', ')} (known: ${AREAS.join(', ')})`);
  // Every area's data belongs to the tenants the auth seed makes; decisions name the settings area's records.
  const set = new Set(['auth', ...areas]);
  // Documents link the decision area's decisions.
  if (set.has('document')) set.add('decision');
  if (set.has('decision')) set.add('settings');
  return set;
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
        const counts = new Map<string, Awaited<ReturnType<typeof seedSettings>>>();
        for (const tenant of result.tenants) {
          counts.set(tenant.id, await seedSettings(settings.app, tenant));
          Object.assign(tenant, { settings: counts.get(tenant.id) });
        }
        if (areas.has('decision')) {
          // Auth and settings stay up meanwhile: their relays carry the events the decision area projects.
          const decision = await createServiceApp(DecisionModule, { area: 'decision', dataSource: decisionDataSource, env });
          try {
            for (const tenant of result.tenants) Object.assign(tenant, { decision: await seedDecisions(decision.app, tenant, counts.get(tenant.id)!) });
            if (areas.has('document')) {
              const document = await createServiceApp(DocumentModule, { area: 'document', dataSource: documentDataSource, env });
              try {
                for (const tenant of result.tenants) {
                  const seeded = await seedDocuments(document.app, tenant, counts.get(tenant.id)!);
                  if (seeded.doaPolicyId) await linkFinanceDecisions(decision.app, tenant, seeded.doaPolicyId);
                  Object.assign(tenant, { document: seeded });
                }
              } finally {
                await document.app.close();
              }
            }
          } finally {
            await decision.app.close();
          }
        }
      } finally {
        await settings.app.close();
      }
    }
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  } finally {
    await auth.app.close();
  }
}

/** The decisions of the Finance section link the delegation-of-authority policy (pinned), once. */
async function linkFinanceDecisions(app: INestApplicationContext, tenant: { id: string; users: { id: string; email: string }[] }, documentId: string): Promise<void> {
  const db = app.get(Db);
  const rows = await db.query<{ id: string }>(
    `SELECT d.id FROM decision.decisions d JOIN decision.section_projection s ON s.id = d.section_id AND s.tenant_id = d.tenant_id
      WHERE d.tenant_id = $1 AND s.section_name = 'Finance' AND NOT d.is_deleted
        AND NOT EXISTS (SELECT 1 FROM decision.decision_documents dd WHERE dd.decision_id = d.id AND dd.document_id = $2)`,
    [tenant.id, documentId],
  );
  const admin = tenant.users.find((u) => u.email === 'admin@demo.test')!;
  const caller: Caller = {
    userId: admin.id,
    tenantId: tenant.id,
    email: admin.email,
    name: 'Seed',
    roleIds: [],
    keys: new Set(ALL_PERMISSION_KEYS),
    claims: { sub: admin.id, iss: 'seed', aud: 'seed', exp: 0 },
  };
  const decisions = app.get(DecisionsService);
  for (const r of rows) {
    const current = await decisions.get(caller, r.id);
    const documents = [...current.decisionDocuments.map((x) => ({ documentId: x.documentId, isPinned: x.isPinned })), { documentId, isPinned: true }];
    await decisions.update(caller, r.id, { decisionDocuments: documents });
  }
}

main().catch((err) => {
  process.stderr.write(`seed failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
