/**
 * npm run seed: demo tenants, users, the settings area's structure (groups, positions, decision
 * roles, sections, categories, authority types, document types), the finance positions' holders,
 * the decision area's decisions and delegation tree, the document area's documents (the
 * delegation-of-authority policy linked to the Finance decisions), the actions area's actions and
 * the matrix area's matrices.
 * Safe to run twice. SEED_AREAS=auth seeds tenants and users only, SEED_AREAS=settings stops before
 * decisions, SEED_AREAS=decision before documents and actions; SEED_AREAS=notifications adds a few
 * notifications per person (after the users are projected).
 * Prints { "tenants": [ { "id", "name", "users": [ { "id", "email", "role" } ], "settings"?: {...}, "decision"?: {...}, "document"?: {...}, "actions"?: {...}, "matrix"?: {...}, "notifications"?: {...}, "examples": {...} } ] }.
 * `examples` holds one id of each kind the README's examples name (of the areas seeded): groupId,
 * positionId, publishedDecisionId, delegationId (a live root delegation), documentId, actionId, matrixId.
 */
import { INestApplicationContext } from '@nestjs/common';
import { acrossTenants, createServiceApp, Db, ensureDevKeys } from '@ddm/platform';
import { AuthModule } from '../apps/auth/src/auth.module';
import { authDataSource } from '../apps/auth/src/data-source';
import { seedAuth, seedPositionHolders, seedPositionMove } from '../apps/auth/src/seed';
import { UsersService } from '../apps/auth/src/users/users.service';
import { TenantsService } from '../apps/auth/src/tenants/tenants.service';
import { settingsDataSource } from '../apps/settings/src/data-source';
import { seedSettings } from '../apps/settings/src/seed';
import { SettingsModule } from '../apps/settings/src/settings.module';
import { decisionDataSource } from '../apps/decision/src/data-source';
import { DecisionModule } from '../apps/decision/src/decision.module';
import { linkFinanceDecisions, seedDecisions, seedDelegations, waitForSeedInvalidation } from '../apps/decision/src/seed';
import { documentDataSource } from '../apps/document/src/data-source';
import { DocumentModule } from '../apps/document/src/document.module';
import { seedDocuments } from '../apps/document/src/seed';
import { ActionsModule } from '../apps/actions/src/actions.module';
import { actionsDataSource } from '../apps/actions/src/data-source';
import { seedActions } from '../apps/actions/src/seed';
import { NotificationsModule } from '../apps/notifications/src/notifications.module';
import { notificationsDataSource } from '../apps/notifications/src/data-source';
import { seedNotifications } from '../apps/notifications/src/seed';
import { matrixDataSource } from '../apps/matrix/src/data-source';
import { MatrixModule } from '../apps/matrix/src/matrix.module';
import { seedMatrices } from '../apps/matrix/src/seed';
import { DEV_KEYS_DIR, runtime } from './lib/runtime';

/** One id of a kind, for the README's examples: the first live record by id. */
async function exampleId(app: INestApplicationContext, tenantId: string, table: string, where = 'AND NOT is_deleted'): Promise<string | undefined> {
  const [row] = await app.get(Db).query<{ id: string }>(`SELECT id FROM ${table} WHERE tenant_id = $1 ${where} ORDER BY id LIMIT 1`, [tenantId]);
  return row?.id;
}

/** Adds ids to the tenant's `examples`. */
async function addExamples(tenant: object, ids: Record<string, Promise<string | undefined>>): Promise<void> {
  const examples = ((tenant as { examples?: Record<string, string> }).examples ??= {});
  for (const [key, id] of Object.entries(ids)) {
    const value = await id;
    if (value) examples[key] = value;
  }
}

const AREAS = ['auth', 'settings', 'decision', 'document', 'actions', 'matrix', 'notifications'] as const;

function seedAreas(raw: string | undefined): Set<string> {
  const areas = (raw ?? AREAS.join(',')).split(',').map((a) => a.trim()).filter(Boolean);
  const unknown = areas.filter((a) => !(AREAS as readonly string[]).includes(a));
  if (unknown.length) throw new Error(`SEED_AREAS: unknown area(s) ${unknown.join(', ')} (known: ${AREAS.join(', ')})`);
  // Every area's data belongs to the tenants the auth seed makes; decisions name the settings area's records.
  const set = new Set(['auth', ...areas]);
  if (set.has('actions') || set.has('document') || set.has('matrix')) set.add('decision'); // actions, documents and matrices name decisions
  if (set.has('decision')) set.add('settings');
  return set;
}

async function main() {
  // stdout is the seed's answer (JSON); the services' logs go to stderr.
  process.env.LOG_STREAM = 'stderr';
  const areas = seedAreas(process.env.SEED_AREAS);
  const rt = await runtime();
  ensureDevKeys(DEV_KEYS_DIR);
  const env = {
    ...process.env,
    DATABASE_URL: rt.appDatabaseUrl,
    MIGRATION_DATABASE_URL: rt.databaseUrl,
    NATS_URL: rt.natsUrl,
    NATS_NAMESPACE: rt.natsNamespace,
    AUTH_DEV_KEYS: 'true',
    DEV_KEYS_DIR,
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
  };
  const auth = await createServiceApp(AuthModule, { area: 'auth', dataSource: authDataSource, env });
  try {
    const result = await seedAuth(auth.app.get(TenantsService), auth.app.get(Db));
    if (areas.has('notifications')) {
      const notifications = await createServiceApp(NotificationsModule, { area: 'notifications', dataSource: notificationsDataSource, env });
      try {
        const ndb = notifications.app.get(Db);
        const people = result.tenants.reduce((n, t) => n + t.users.length, 0);
        // The people come from auth's user events (the relay is up): wait until they are all projected.
        for (let waited = 0; ; waited += 100) {
          const [row] = await ndb.query<{ n: number }>(`SELECT count(*)::int AS n FROM notifications.user_projection`);
          if (row.n >= people) break;
          if (waited > 30_000) throw new Error('the notifications area did not hear of the seeded users within 30 s');
          await new Promise((r) => setTimeout(r, 100));
        }
        for (const tenant of result.tenants) Object.assign(tenant, { notifications: await seedNotifications(notifications.app, tenant) });
      } finally {
        await closeDrained(notifications.app, 'notifications');
      }
    }
    if (areas.has('settings')) {
      const settings = await createServiceApp(SettingsModule, { area: 'settings', dataSource: settingsDataSource, env });
      try {
        const counts = new Map<string, Awaited<ReturnType<typeof seedSettings>>>();
        for (const tenant of result.tenants) {
          counts.set(tenant.id, await seedSettings(settings.app, tenant));
          Object.assign(tenant, { settings: counts.get(tenant.id) });
          await addExamples(tenant, {
            groupId: exampleId(settings.app, tenant.id, 'settings.groups', `AND NOT is_deleted AND status = 'ACTIVE'`),
            positionId: exampleId(settings.app, tenant.id, 'settings.positions', `AND NOT is_deleted AND status = 'ACTIVE'`),
          });
        }
        if (areas.has('decision')) {
          // Auth and settings stay up meanwhile: their relays carry the events the decision area projects.
          const decision = await createServiceApp(DecisionModule, { area: 'decision', dataSource: decisionDataSource, env });
          try {
            const users = auth.app.get(UsersService);
            const authDb = auth.app.get(Db);
            for (const tenant of result.tenants) {
              // The finance line gets its holders, the decisions and the delegation tree follow; then the Treasurer moves on, which invalidates one delegation (by events).
              await seedPositionHolders(users, authDb, tenant);
              const decisions = await seedDecisions(decision.app, tenant, counts.get(tenant.id)!);
              const delegations = await seedDelegations(decision.app, tenant);
              await seedPositionMove(users, authDb, tenant);
              await waitForSeedInvalidation(decision.app, tenant);
              Object.assign(tenant, { decision: { ...decisions, ...delegations } });
              await addExamples(tenant, {
                publishedDecisionId: exampleId(decision.app, tenant.id, 'decision.decisions', `AND NOT is_deleted AND status = 'PUBLISHED'`),
                delegationId: exampleId(decision.app, tenant.id, 'decision.delegations', `AND parent_delegation_id IS NULL AND status IN ('ISSUED', 'ACCEPTED') AND NOT is_invalid`),
              });
            }
            if (areas.has('document')) {
              const document = await createServiceApp(DocumentModule, { area: 'document', dataSource: documentDataSource, env });
              try {
                for (const tenant of result.tenants) {
                  const seeded = await seedDocuments(document.app, tenant, counts.get(tenant.id)!);
                  if (seeded.doaPolicyId) await linkFinanceDecisions(decision.app, tenant, seeded.doaPolicyId);
                  Object.assign(tenant, { document: seeded });
                  await addExamples(tenant, { documentId: exampleId(document.app, tenant.id, 'document.documents', `AND NOT is_deleted AND document_status = 'PUBLISHED'`) });
                }
              } finally {
                await closeDrained(document.app, 'document');
              }
            }
            if (areas.has('actions')) {
              // The decision area stays up meanwhile: its relay carries the decisions actions link.
              const actions = await createServiceApp(ActionsModule, { area: 'actions', dataSource: actionsDataSource, env });
              try {
                for (const tenant of result.tenants) {
                  const decided = (tenant as { decision?: { decisions: number } }).decision?.decisions ?? 0;
                  Object.assign(tenant, { actions: await seedActions(actions.app, tenant, { decisions: decided }) });
                  await addExamples(tenant, { actionId: exampleId(actions.app, tenant.id, 'actions.actions') });
                }
              } finally {
                await closeDrained(actions.app, 'actions');
              }
            }
            if (areas.has('matrix')) {
              // The decision area stays up meanwhile: its relay carries the decisions and delegations matrices show.
              const matrix = await createServiceApp(MatrixModule, { area: 'matrix', dataSource: matrixDataSource, env });
              try {
                for (const tenant of result.tenants) {
                  const decided = (tenant as { decision?: { decisions: number } }).decision?.decisions ?? 0;
                  const groups = counts.get(tenant.id)!.groups;
                  Object.assign(tenant, { matrix: await seedMatrices(matrix.app, tenant, { groups, decisions: decided }) });
                  await addExamples(tenant, { matrixId: exampleId(matrix.app, tenant.id, 'matrix.matrices') });
                }
              } finally {
                await closeDrained(matrix.app, 'matrix');
              }
            }
          } finally {
            await closeDrained(decision.app, 'decision');
          }
        }
      } finally {
        await closeDrained(settings.app, 'settings');
      }
    }
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  } finally {
    await closeDrained(auth.app, 'auth');
  }
}

/**
 * Closes a seeding service once its outbox is empty: the events of what it seeded must leave
 * before it goes (no other process of that service may be running to send them later).
 */
async function closeDrained(app: INestApplicationContext, schema: string): Promise<void> {
  const db = app.get(Db);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.outbox WHERE published_at IS NULL`);
    if (row.n === 0) break;
    if (Date.now() > deadline) throw new Error(`seed: ${row.n} events of ${schema} still unpublished after 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await app.close();
}

// The seed makes the demo tenants and their records: cross-tenant by nature, the explicit path.
acrossTenants('seed the demo tenants', main).catch((err) => {
  process.stderr.write(`seed failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
