/**
 * The migrations as a deployment runs them (k8s/README.md, "Database roles"): the schemas' owner
 * is no superuser (CREATEROLE, owns the database), and the services connect as the app role. The
 * other specs migrate as the local superuser, to whom row-level security never applies; here the
 * owner is subject to it like in production, so what must work across tenants is proven to: every
 * schema migrates, the services' start-up check passes, and a person's change made in one
 * tenant's context reaches their memberships and trail in every tenant (a function run as its
 * definer, the owner, through the cross_tenant policy).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createDataSource, isolationProblems, migrateSchema } from '@ddm/platform';
import { ADMIN_DATABASE_URL, asAppRole, randomName, withDatabase } from '@ddm/testing';
import { ALL_DATA_SOURCES } from './migrate-sources';

describe('migrations run by a schema owner that is no superuser, as deployed (e2e, real Postgres)', () => {
  const owner = randomName('ddm_owner_t_');
  const password = randomBytes(12).toString('hex');
  const database = randomName(`ddm_t_${Math.floor(Date.now() / 1000)}_`);
  let ownerUrl: string;
  let admin: Client;
  let app: Client;

  beforeAll(async () => {
    admin = new Client({ connectionString: ADMIN_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE ROLE ${owner} LOGIN NOSUPERUSER CREATEROLE NOBYPASSRLS PASSWORD '${password}'`);
    await admin.query(`CREATE DATABASE ${database} OWNER ${owner} TEMPLATE template0`);
    const u = new URL(withDatabase(ADMIN_DATABASE_URL, database));
    u.username = owner;
    u.password = password;
    ownerUrl = u.toString();
    for (const def of ALL_DATA_SOURCES) await migrateSchema(def, ownerUrl, asAppRole(withDatabase(ADMIN_DATABASE_URL, database)));
    app = new Client({ connectionString: asAppRole(withDatabase(ADMIN_DATABASE_URL, database)) });
    await app.connect();
  }, 180_000);

  afterAll(async () => {
    await app?.end();
    await admin?.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin?.query(`DROP ROLE IF EXISTS ${owner}`);
    await admin?.end();
  });

  it('the owner is really subject to row-level security (no superuser, no BYPASSRLS)', async () => {
    const [role] = (await admin.query(`SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = $1`, [owner])).rows;
    expect(role).toEqual({ rolsuper: false, rolbypassrls: false });
  });

  it('every schema migrated, and each service would start (its role and every tenant table pass the isolation check)', async () => {
    for (const def of ALL_DATA_SOURCES) {
      const ds = createDataSource(def, asAppRole(withDatabase(ADMIN_DATABASE_URL, database)), 1);
      await ds.initialize();
      try {
        expect({ schema: def.schema, problems: await isolationProblems(ds, def.schema) }).toEqual({ schema: def.schema, problems: [] });
      } finally {
        await ds.destroy();
      }
    }
  });

  it("a person's change in tenant A's context reaches their membership and trail in tenant B too", async () => {
    const [A, B, person, actor] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const asOwner = new Client({ connectionString: ownerUrl });
    await asOwner.connect();
    try {
      // The owner's own writes go through the cross_tenant policy (its data migrations do the same).
      await asOwner.query(`SET ROLE ddm_cross_tenant`);
      await asOwner.query(`INSERT INTO auth.tenants (id, name) VALUES ($1, 'Owner A'), ($2, 'Owner B')`, [A, B]);
      await asOwner.query(`INSERT INTO auth.users (id, email, name, display_name) VALUES ($1, 'kim@owner.test', 'Kim Old', 'Kim Old')`, [person]);
      await asOwner.query(
        `INSERT INTO auth.tenant_users (id, tenant_id, user_id, user_display_id, status) VALUES ($1, $3, $5, 'USR-1', 'ACTIVE'), ($2, $4, $5, 'USR-1', 'ACTIVE')`,
        [randomUUID(), randomUUID(), A, B, person],
      );

      await app.query(`BEGIN; SELECT set_config('app.tenant_id', '${A}', true), set_config('app.actor_id', '${actor}', true)`);
      await app.query(`UPDATE auth.users SET name = 'Kim New', display_name = 'Kim New' WHERE id = $1`, [person]);
      await app.query('COMMIT');

      const copies = (await asOwner.query(`SELECT tenant_id, sort_name FROM auth.tenant_users WHERE user_id = $1 ORDER BY tenant_id`, [person])).rows;
      expect(copies).toEqual([A, B].sort().map((tenant_id) => ({ tenant_id, sort_name: 'kim new' })));
      const trail = (
        await asOwner.query(`SELECT tenant_id, actor_id FROM auth.audit_log WHERE entity_type = 'users' AND entity_id = $1 AND action = 'UPDATE' ORDER BY tenant_id`, [
          person,
        ])
      ).rows;
      expect(trail).toEqual([A, B].sort().map((tenant_id) => ({ tenant_id, actor_id: actor })));
    } finally {
      await asOwner.end();
    }
  });
});
