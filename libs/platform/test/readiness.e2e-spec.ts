import { RunningProcess, TestDatabase, TestNamespace, asAppRole, createTestDatabase, createTestNamespace, spawnBuilt, testEnv } from '@ddm/testing';
import { createDataSource, runMigrations } from '../src/database';
import { widgetsDataSource } from './fixtures/widgets';

describe('readiness waits for migrations run elsewhere (MIGRATIONS_RUN=false)', () => {
  let dbx: TestDatabase;
  let ns: TestNamespace;
  let proc: RunningProcess;

  beforeAll(async () => {
    dbx = await createTestDatabase();
    ns = createTestNamespace();
    proc = await spawnBuilt('libs/platform/test/fixtures/slow-service.js', testEnv(dbx, ns, { LOG_LEVEL: 'warn', MIGRATIONS_RUN: 'false' }), '/health/live');
  });

  afterAll(async () => {
    await proc?.stop();
    await dbx?.drop();
    await ns?.cleanup();
  });

  it('answers 503 naming the pending migrations, then 200 once another process has migrated', async () => {
    const before = await fetch(`${proc.url}/health/ready`);
    expect(before.status).toBe(503);
    expect(before.headers.get('retry-after')).toBe('5');
    expect(await before.json()).toMatchObject({ status: 'unavailable', checks: { postgres: 'up', nats: 'up', migrations: expect.stringMatching(/pending migrations/) } });

    const ds = createDataSource(widgetsDataSource, dbx.url, 2);
    await ds.initialize();
    try {
      // As the migrate job does: the owner migrates and grants the service's app role its rights.
      expect(await runMigrations(ds, widgetsDataSource, undefined, asAppRole(dbx.url))).toEqual(['WidgetsSchema1763800000000']);
    } finally {
      await ds.destroy();
    }
    const after = await fetch(`${proc.url}/health/ready`);
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ status: 'ok', checks: { postgres: 'up', nats: 'up', migrations: 'up' } });
  });
});
