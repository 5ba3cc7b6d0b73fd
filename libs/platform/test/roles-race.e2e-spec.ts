import { Client } from 'pg';
import { grantAppRole } from '../src/tenancy';
import { ADMIN_DATABASE_URL, TestDatabase, createTestDatabase, randomName, until } from '@ddm/testing';

/**
 * Seven services migrating a new server together each make the roles they need when missing. Two
 * CREATE ROLE of one name at once: the later fails with unique_violation on pg_authid (not
 * duplicate_object) once the first commits; a migration must take that as "made meanwhile".
 */
describe('roles made by migrations running together (real Postgres)', () => {
  let db: TestDatabase;
  let first: Client;
  let second: Client;
  /** Sees the two from outside (each of its statements a fresh snapshot of pg_stat_activity). */
  let watcher: Client;
  const role = randomName('ddm_race_app_');

  beforeAll(async () => {
    db = await createTestDatabase();
    first = new Client({ connectionString: db.url });
    second = new Client({ connectionString: db.url });
    watcher = new Client({ connectionString: db.url });
    await Promise.all([first.connect(), second.connect(), watcher.connect()]);
  });
  afterAll(async () => {
    await first?.end();
    await second?.end();
    await watcher?.end();
    await db?.drop();
    const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
    await admin.end();
  });

  it('grantAppRole takes a role created by another migration at the same moment as made, and grants it', async () => {
    await first.query('BEGIN');
    await first.query(`CREATE ROLE ${role} LOGIN NOINHERIT`);
    // The second migration does not see the uncommitted role: its CREATE ROLE waits for the first.
    const granting = grantAppRole({ query: (text: string, params?: unknown[]) => second.query(text, params).then((r) => r.rows) }, 'settings', role);
    // The second's CREATE ROLE is waiting on the first's lock (the race itself), not merely sent.
    const [{ pid }] = (await first.query('SELECT pg_backend_pid() AS pid')).rows;
    await until(
      async () => (await watcher.query('SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid])).rows.length > 0,
      "the second migration's CREATE ROLE waiting for the first",
      10_000,
    );
    await first.query('COMMIT');
    await expect(granting).resolves.toBeUndefined();
    const [rights] = (await second.query(`SELECT has_schema_privilege($1, 'settings', 'USAGE') AS usage, pg_has_role($1, 'ddm_cross_tenant', 'MEMBER') AS cross`, [role])).rows;
    expect(rights).toEqual({ usage: true, cross: true });
  });
});
