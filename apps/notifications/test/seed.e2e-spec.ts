import { createTestDatabase, createTestNamespace, runSeed, testEnv } from '@ddm/testing';
import { Pool } from 'pg';

/** `npm run seed` with the notifications area: a few per person, rendered, some read and some weeks old; safe to run twice. */
describe('notifications seed (real Postgres and NATS)', () => {
  it('seeds each person of each tenant once, however often it runs', async () => {
    const db = await createTestDatabase();
    const ns = createTestNamespace();
    const pool = new Pool({ connectionString: db.url, max: 1 });
    try {
      const env = testEnv(db, ns);
      const first = runSeed(env, ['notifications']);
      const people = first.tenants.reduce((n, t) => n + t.users.length, 0);
      const count = async () => Number((await pool.query(`SELECT count(*) AS n FROM notifications.notifications`)).rows[0].n);
      expect(await count()).toBe(people * 4);
      runSeed(env, ['notifications']);
      expect(await count()).toBe(people * 4);
      const { rows } = await pool.query(`SELECT status, count(*)::int AS n FROM notifications.notifications GROUP BY status ORDER BY status`);
      expect(rows).toEqual([
        { status: 'READ', n: people * 2 },
        { status: 'UNREAD', n: people * 2 },
      ]);
      const [job] = (await pool.query(`SELECT title, created_at < now() - interval '39 days' AS old FROM notifications.notifications WHERE template_key = 'JOB_COMPLETED' LIMIT 1`)).rows;
      expect(job).toEqual({ title: 'Your bulk-duplicate job ended: COMPLETED', old: true });
    } finally {
      await pool.end();
      await db.drop();
      await ns.cleanup();
    }
  }, 120_000);
});
