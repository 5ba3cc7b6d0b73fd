import { Type } from '@nestjs/common';
import { Db, ServiceApp, ServiceDefinition, TransactionOptions, createServiceApp, ensureDevKeys } from '@ddm/platform';
import { TestDatabase, createTestDatabase } from './database';
import { NATS_URL, TEST_KEYS_DIR, asAppRole } from './env';
import { HttpClient, httpClient } from './http';
import { TestNamespace, createTestNamespace } from './nats';

export interface TestService extends ServiceApp {
  url: string;
  http: HttpClient;
  db: TestDatabase;
  ns: TestNamespace;
  /** Closes the app, drops the database and the namespace's streams. */
  close(): Promise<void>;
}

/** Environment of a service under test: its own database and NATS namespace, the test dev key trusted. */
export function testEnv(db: TestDatabase, ns: TestNamespace, extra: Record<string, string> = {}): Record<string, string> {
  ensureDevKeys(TEST_KEYS_DIR);
  return {
    // The app role (row-level security applies), the owner for the migrations.
    DATABASE_URL: asAppRole(db.url),
    MIGRATION_DATABASE_URL: db.url,
    NATS_URL,
    NATS_NAMESPACE: ns.namespace,
    AUTH_DEV_KEYS: 'true',
    DEV_KEYS_DIR: TEST_KEYS_DIR,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL || 'silent',
    DB_POOL_SIZE: '4',
    ...extra,
  };
}

/** Boots a service in this process on a free port against real Postgres and NATS. */
export async function startTestService(
  appModule: Type<unknown>,
  def: Omit<ServiceDefinition, 'env'>,
  options: { db?: TestDatabase; ns?: TestNamespace; env?: Record<string, string> } = {},
): Promise<TestService> {
  const db = options.db ?? (await createTestDatabase());
  const ns = options.ns ?? createTestNamespace();
  const service = await createServiceApp(appModule, { ...def, env: testEnv(db, ns, options.env) });
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  const address = service.app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  return {
    ...service,
    url,
    http: httpClient(url),
    db,
    ns,
    close: async () => {
      await service.app.close();
      await db.drop();
      await ns.cleanup();
    },
  };
}

/**
 * A service's `Db` for a spec's own fixtures and checks, which read and write any tenant's rows
 * (a spec seeds several tenants and checks that none leaks into another): every statement takes
 * the explicit cross-tenant path. The service's code never does this; it runs in its caller's tenant.
 */
export function allTenants(db: Db): Db {
  const reason = 'test fixture';
  return Object.assign(Object.create(db) as Db, {
    query: ((statement: unknown, params?: readonly unknown[]) => db.acrossTenants(reason, () => db.query(statement as string, params))) as Db['query'],
    transaction: ((work: Parameters<Db['transaction']>[0], options?: TransactionOptions) => db.acrossTenants(reason, () => db.transaction(work, options))) as Db['transaction'],
  });
}
