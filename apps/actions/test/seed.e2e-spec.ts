import { createTestDatabase, createTestNamespace, runSeed, testEnv } from '@ddm/testing';
import { Pool } from 'pg';

describe('npm run seed (actions): Demo Co gets 40 actions over its users, a few overdue, some linked to decisions; twice changes nothing', () => {
  it('seeds once and keeps what is there on a second run', async () => {
    const database = await createTestDatabase();
    const ns = createTestNamespace();
    const pool = new Pool({ connectionString: database.url, max: 1 });
    try {
      const env = testEnv(database, ns, { DB_POOL_SIZE: '3' });
      const first = runSeed(env);
      const demo = first.tenants.find((t) => t.name === 'Demo Co') as { id: string; actions?: { actions: number } };
      expect(demo.actions).toEqual({ actions: 40 });
      const [row] = (
        await pool.query(
          `SELECT count(*)::int AS n, count(*) FILTER (WHERE status_key = 'OVERDUE')::int AS overdue, count(*) FILTER (WHERE decision_id IS NOT NULL)::int AS linked,
                  count(DISTINCT owner_id)::int AS owners,
                  (SELECT count(DISTINCT x.assignee_id)::int FROM actions.action_assignees x JOIN actions.actions a ON a.id = x.action_id
                    WHERE x.tenant_id = $1 AND NOT a.is_system_generated) AS assignees
             FROM actions.actions WHERE tenant_id = $1 AND NOT is_deleted AND NOT is_system_generated`,
          [demo.id],
        )
      ).rows;
      expect(row.n).toBe(40);
      expect(row.overdue).toBeGreaterThanOrEqual(3);
      expect(row.linked).toBeGreaterThanOrEqual(10);
      expect(row.owners).toBe(4);
      expect(row.assignees).toBe(4);
      const other = first.tenants.find((t) => t.name === 'Other Co') as { actions?: { actions: number } };
      expect(other.actions).toEqual({ actions: 0 });

      const second = runSeed(env);
      expect((second.tenants.find((t) => t.name === 'Demo Co') as { actions?: { actions: number } }).actions).toEqual({ actions: 40 });
    } finally {
      await pool.end();
      await database.drop();
      await ns.cleanup();
    }
  }, 180_000);
});
