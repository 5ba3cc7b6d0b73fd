import { randomUUID } from 'node:crypto';
import { Db, ServiceDataSource, createDataSource, runMigrations } from '@ddm/platform';
import { TestDatabase, createEmptyDatabase } from '@ddm/testing';
import { authDataSource } from '../src/data-source';
import { AuthAuditUserIds1764200000000 } from '../src/migrations/1764200000000-auth-audit-user-ids';

/** The auth schema up to (not including) the audit migration, with rows as the service wrote them then. */
describe('auth migrations of existing data (e2e, real Postgres)', () => {
  let database: TestDatabase;
  let ds: ReturnType<typeof createDataSource>;
  let db: Db;
  const before: ServiceDataSource = { ...authDataSource, migrations: authDataSource.migrations.slice(0, authDataSource.migrations.indexOf(AuthAuditUserIds1764200000000)) };
  const t1 = randomUUID();
  const t2 = randomUUID();
  const person = (name: string | null, email: string) => ({ id: randomUUID(), name, email });
  const ada = person('Ada Admin', 'ada@m.test');
  const samA = person('Sam Same', 'sam.a@m.test');
  const samB = person('Sam Same', 'sam.b@m.test');
  const nameless = person(null, 'nameless@m.test');
  const target = person('Tia Target', 'tia@m.test');
  const other = person('Olga Other', 'olga@m.test');

  beforeAll(async () => {
    database = await createEmptyDatabase();
    ds = createDataSource(before, database.url, 2);
    await ds.initialize();
    await runMigrations(ds, before);
    db = new Db(ds, 'auth', { kick: () => undefined });
    await db.query(`INSERT INTO auth.tenants (id, name) VALUES ($1, 'T1'), ($2, 'T2')`, [t1, t2]);
    for (const p of [ada, samA, samB, nameless, target, other])
      await db.query(`INSERT INTO auth.users (id, name, email, created_by, updated_by) VALUES ($1, $2, $3, $4, $5)`, [p.id, p.name, p.email, 'Ada Admin', ada.id]);
    // T1: Ada, both Sams, the nameless user and the target; T2: Olga, one Sam, the target.
    const members: [string, { id: string }, string | null, string | null, string | null][] = [
      [t1, ada, null, null, null],
      [t1, samA, null, null, null],
      [t1, samB, null, null, null],
      [t1, nameless, null, null, null],
      [t1, target, 'Ada Admin', 'Sam Same', 'nameless@m.test'],
      [t2, other, null, null, null],
      [t2, samA, null, null, null],
      [t2, target, 'Sam Same', 'Nobody Known', ada.id],
    ];
    for (const [tenant, p, createdBy, updatedBy, deletedBy] of members)
      await db.query(
        `INSERT INTO auth.tenant_users (id, tenant_id, user_id, user_display_id, created_by, updated_by, deleted_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [randomUUID(), tenant, p.id, String(Math.random()).slice(2, 10), createdBy, updatedBy, deletedBy],
      );
    await db.query(`INSERT INTO auth.invitations (id, tenant_id, user_id, email, status, sent_by) VALUES ($1, $2, $3, $4, 'SENT', 'Ada Admin')`, [randomUUID(), t1, target.id, target.email]);
    await db.query(`INSERT INTO auth.delegation_projection (delegation_id, tenant_id, is_active) VALUES ($1, $2, true), ($3, $2, false)`, [t1, t1, t2]);
    await ds.destroy();
    ds = createDataSource(authDataSource, database.url, 2);
    await ds.initialize();
    await runMigrations(ds, authDataSource);
    db = new Db(ds, 'auth', { kick: () => undefined });
  });
  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await database?.drop();
  });

  it('audit columns hold user ids: a name (or email) names the one member of the tenant who has it; none or several: null; an id stays', async () => {
    const rows = await db.query(`SELECT tenant_id, created_by, updated_by, deleted_by FROM auth.tenant_users WHERE user_id = $1 ORDER BY tenant_id = $2 DESC`, [target.id, t1]);
    expect(rows).toEqual([
      { tenant_id: t1, created_by: ada.id, updated_by: null, deleted_by: nameless.id },
      { tenant_id: t2, created_by: samA.id, updated_by: null, deleted_by: ada.id },
    ]);
    expect(await db.query(`SELECT sent_by FROM auth.invitations`)).toEqual([{ sent_by: ada.id }]);
    // A person's writers are members of the person's tenants: Olga's tenant (T2) has no Ada.
    const users = await db.query(`SELECT id, created_by, updated_by FROM auth.users WHERE id = ANY($1::uuid[])`, [[target.id, other.id]]);
    expect(users).toEqual(
      expect.arrayContaining([
        { id: target.id, created_by: ada.id, updated_by: ada.id },
        { id: other.id, created_by: null, updated_by: ada.id },
      ]),
    );
  });

  it('delegations revoked before keep counting as revoked: revoked_on set from their last update, active ones unset', async () => {
    const rows = await db.query(`SELECT delegation_id, revoked_on IS NOT NULL AS revoked FROM auth.delegation_projection ORDER BY delegation_id = $1 DESC`, [t1]);
    expect(rows).toEqual([
      { delegation_id: t1, revoked: false },
      { delegation_id: t2, revoked: true },
    ]);
  });
});
