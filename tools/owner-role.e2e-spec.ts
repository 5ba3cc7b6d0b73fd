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
import { NO_TENANT, TextSearch, createDataSource, isolationProblems, migrateSchema } from '@ddm/platform';
import { ACTIONS_SEARCH } from '../apps/actions/src/core/text-search';
import { USERS_SEARCH } from '../apps/auth/src/core/text-search';
import { DECISIONS_SEARCH } from '../apps/decision/src/core/text-search';
import { DOCUMENTS_SEARCH } from '../apps/document/src/core/text-search';
import { MATRICES_SEARCH } from '../apps/matrix/src/core/text-search';
import { GROUPS_SEARCH } from '../apps/settings/src/core/text-search';
import { POSITIONS_SEARCH } from '../apps/settings/src/core/text-search';
import { ADMIN_DATABASE_URL, asAppRole, randomName, withDatabase } from '@ddm/testing';
import { ALL_DATA_SOURCES } from './migrate-sources';

/** Every area's text search through its trigram index (search.ts in libs/platform). */
const SEARCHES: TextSearch[] = [USERS_SEARCH, ACTIONS_SEARCH, DECISIONS_SEARCH, DOCUMENTS_SEARCH, MATRICES_SEARCH, GROUPS_SEARCH, POSITIONS_SEARCH];

/** `statement` run by a role that is not the app role (made for it, by the superuser, and dropped): refused. */
async function refusedToAnotherRole(superuser: Client, statement: string): Promise<void> {
  const other = randomName('ddm_other_t_');
  await superuser.query(`CREATE ROLE ${other} NOLOGIN`);
  try {
    await superuser.query(`SET ROLE ${other}`);
    await expect(superuser.query(statement)).rejects.toThrow(/permission denied/);
  } finally {
    await superuser.query(`RESET ROLE`);
    await superuser.query(`DROP ROLE ${other}`);
  }
}

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

  /** A superuser's and the schema owner's connections to the test database (the caller ends them). */
  async function superuserAndOwner(): Promise<[Client, Client]> {
    const clients: [Client, Client] = [new Client({ connectionString: withDatabase(ADMIN_DATABASE_URL, database) }), new Client({ connectionString: ownerUrl })];
    await Promise.all(clients.map((c) => c.connect()));
    return clients;
  }

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

  it("text search under row-level security: the decisions search answers only the request's tenant, whatever the term, and its plan uses the trigram index", async () => {
    const [A, B] = [randomUUID(), randomUUID()];
    const [superuser, asOwner] = await superuserAndOwner();
    try {
      // 20,000 decisions of A and B each (the superuser writes past the policy), four named "Treasury".
      await superuser.query(
        `INSERT INTO decision.decisions (id, tenant_id, decision_display_id, name)
         SELECT gen_random_uuid(), t.tenant, (10000 + n)::text, CASE WHEN n % 5000 = 0 THEN 'Treasury transfer ' ELSE 'Approve purchase ' END || n
           FROM unnest($1::uuid[]) AS t(tenant), generate_series(1, 20000) AS n`,
        [[A, B]],
      );
      await superuser.query(`ANALYZE decision.decisions`);
      const search = async (tenant: string | null, pattern: string) => {
        await app.query('BEGIN');
        await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenant ?? NO_TENANT]);
        try {
          return (await app.query<{ tenant_id: string }>(`SELECT m.tenant_id FROM decision.decisions_matching($1) m`, [pattern])).rows;
        } finally {
          await app.query('COMMIT');
        }
      };
      expect((await search(A, '%treasury%')).map((r) => r.tenant_id)).toEqual([A, A, A, A]);
      // Crafted terms reach only the request's tenant: everything, a quote, an injection attempt.
      for (const pattern of ['%', '%%', "%' OR true --", '%\\%', `%${B}%`]) expect((await search(A, pattern)).every((r) => r.tenant_id === A)).toBe(true);
      expect(await search(A, '%')).toHaveLength(20000);
      // Work without a tenant (the context Db gives it): nothing.
      expect(await search(null, '%')).toEqual([]);
      // Nobody but the services' app role may run it.
      await refusedToAnotherRole(superuser, `SELECT decision.decisions_matching('%')`);
      // The function's statement as its definer (the owner, no superuser) runs it: the trigram index is its access path.
      const plan = async (client: Client) =>
        JSON.stringify(
          (
            await client.query(
              `EXPLAIN (FORMAT JSON) SELECT d.id FROM decision.decisions d WHERE d.tenant_id = '${A}' AND NOT d.is_deleted AND d.search_text LIKE '%treasury%'`,
            )
          ).rows[0],
        );
      await asOwner.query(`SET enable_seqscan = off`);
      const owners = await plan(asOwner);
      expect(owners).toContain('decisions_search');
      expect(owners).toMatch(/"Index Cond":[^"]*"\(search_text ~~/);
      // Under the policy, as the app role, the same condition cannot be the index's (what the function is for).
      await app.query('BEGIN; SET LOCAL enable_seqscan = off');
      await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [A]);
      try {
        expect(await plan(app)).not.toMatch(/"Index Cond":[^"]*"\(search_text ~~/);
      } finally {
        await app.query('COMMIT');
      }
    } finally {
      await Promise.all([superuser.end(), asOwner.end()]);
    }
  });
  it("the delegations search (decision name or display id) answers only the request's tenant, whatever the term, and its parts use their trigram indexes as the definer", async () => {
    const [A, B] = [randomUUID(), randomUUID()];
    const [superuser, asOwner] = await superuserAndOwner();
    try {
      // Per tenant: 2,000 decisions (one named "Treasury ..."), a delegation of each (display ids 1..2000, the same in both tenants).
      await superuser.query(
        `WITH d AS (INSERT INTO decision.decisions (id, tenant_id, decision_display_id, name)
                    SELECT gen_random_uuid(), t.tenant, n::text, CASE WHEN n = 7 THEN 'Treasury transfer ' ELSE 'Approve purchase ' END || n
                      FROM unnest($1::uuid[]) AS t(tenant), generate_series(1, 2000) AS n RETURNING id, tenant_id, decision_display_id)
         INSERT INTO decision.delegations (id, tenant_id, delegation_display_id, decision_id, issuer_type, recipient_type, status, effective_date)
         SELECT gen_random_uuid(), d.tenant_id, d.decision_display_id, d.id, 'ROOT_AUTHORITY', 'SPECIFIC_PERSONNEL', 'ISSUED', now() FROM d`,
        [[A, B]],
      );
      await superuser.query(`ANALYZE decision.decisions; ANALYZE decision.delegations`);
      const search = async (tenant: string | null, pattern: string) => {
        await app.query('BEGIN');
        await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenant ?? NO_TENANT]);
        try {
          return (await app.query<{ tenant_id: string; delegation_display_id: string }>(`SELECT m.tenant_id, m.delegation_display_id FROM decision.delegations_matching($1) m`, [pattern])).rows;
        } finally {
          await app.query('COMMIT');
        }
      };
      expect(await search(A, '%treasury%')).toEqual([{ tenant_id: A, delegation_display_id: '7' }]);
      expect((await search(A, '%1999%')).map((r) => r.delegation_display_id)).toEqual(['1999']);
      for (const pattern of ['%', "%' OR true --", `%${B}%`]) expect((await search(A, pattern)).every((r) => r.tenant_id === A)).toBe(true);
      expect(await search(A, '%')).toHaveLength(2000);
      expect(await search(null, '%')).toEqual([]);
      await refusedToAnotherRole(superuser, `SELECT * FROM decision.delegations_matching('%')`);
      // The group scope (group_ids && ...): the tenant's delegations in one of the groups only, through its function.
      const [group, elsewhere] = [randomUUID(), randomUUID()];
      await superuser.query(`UPDATE decision.delegations SET group_ids = ARRAY[$1::uuid] WHERE delegation_display_id IN ('3', '4')`, [group]);
      await superuser.query(`UPDATE decision.delegations SET group_ids = ARRAY[$1::uuid] WHERE delegation_display_id = '5'`, [elsewhere]);
      const inGroups = async (tenant: string | null, groups: string[]) => {
        await app.query('BEGIN');
        await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenant ?? NO_TENANT]);
        try {
          return (await app.query<{ tenant_id: string; delegation_display_id: string }>(
            `SELECT g.tenant_id, g.delegation_display_id FROM decision.delegations g WHERE g.id = ANY(ARRAY(SELECT decision.delegations_in_groups($1::uuid[]))) ORDER BY 2`,
            [groups],
          )).rows;
        } finally {
          await app.query('COMMIT');
        }
      };
      expect(await inGroups(A, [group])).toEqual([{ tenant_id: A, delegation_display_id: '3' }, { tenant_id: A, delegation_display_id: '4' }]);
      expect((await inGroups(B, [group, elsewhere])).map((r) => r.delegation_display_id)).toEqual(['3', '4', '5']);
      expect(await inGroups(null, [group])).toEqual([]);
      await refusedToAnotherRole(superuser, `SELECT decision.delegations_in_groups(ARRAY['${group}'::uuid])`);
      // The function's parts as its definer: each term can be an index condition of its trigram index (scans that need
      // none off: at 2,000 rows a tenant's btree wins on cost); under the policy, as the app role, it cannot.
      const plan = async (client: Client, statement: string) => {
        await client.query(`BEGIN; SET LOCAL enable_seqscan = off; SET LOCAL enable_indexscan = off; SELECT set_config('app.tenant_id', '${A}', true)`);
        try {
          return JSON.stringify((await client.query(`EXPLAIN (FORMAT JSON) ${statement}`)).rows[0]);
        } finally {
          await client.query('COMMIT');
        }
      };
      const parts = [
        [`SELECT d.id FROM decision.decisions d WHERE d.name_key LIKE '%treasury%'`, 'decisions_name_search'],
        [`SELECT n.id FROM decision.delegations n WHERE n.delegation_display_id LIKE '%1999%'`, 'delegations_display_id_search'],
        [`SELECT n.id FROM decision.delegations n WHERE n.group_ids && ARRAY['${group}'::uuid]`, 'delegations_by_group'],
      ];
      for (const [statement, index] of parts) {
        expect(await plan(asOwner, statement)).toContain(`"Index Name":"${index}"`);
        expect(await plan(app, statement)).not.toContain(`"Index Name":"${index}"`);
      }
    } finally {
      await Promise.all([superuser.end(), asOwner.end()]);
    }
  });
  it.each(SEARCHES.map((s) => [`${s.schema}.${s.name}`, s] as const))(
    "text search under row-level security, %s: the function's plan as its definer uses the trigram index (not possible under the policy), it answers nothing without a tenant, and only the app role may run it",
    async (_name, search) => {
      const A = randomUUID();
      const [superuser, asOwner] = await superuserAndOwner();
      // The search's condition alone, scans that need no index condition off (the tables are empty here, where the
      // tenant's btree would win on cost): only the trigram index can serve it, if the planner may use it at all.
      const plan = async (client: Client) =>
        JSON.stringify(
          (
            await client.query(
              `EXPLAIN (FORMAT JSON) SELECT t.${search.id} FROM ${search.schema}.${search.table} t WHERE ${search.live} AND ${search.text} ${search.operator} '%needle%'`,
            )
          ).rows[0],
        );
      try {
        // As its definer (the owner, through the cross_tenant policy) the trigram index can serve the condition. The tables
        // are empty here, where any other index wins on cost: they are dropped for the plan (and restored: rolled back).
        await asOwner.query(`BEGIN; SET LOCAL enable_seqscan = off; SET LOCAL enable_indexscan = off; SELECT set_config('app.tenant_id', '${A}', true)`);
        try {
          const others = (
            await asOwner.query(
              `SELECT i.indexrelid::regclass::text AS name FROM pg_index i
                WHERE i.indrelid = $1::regclass AND i.indexrelid <> $2::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
              [`${search.schema}.${search.table}`, `${search.schema}.${search.index}`],
            )
          ).rows;
          for (const { name } of others) await asOwner.query(`DROP INDEX ${name}`);
          expect(await plan(asOwner)).toContain(`"Index Name":"${search.index}"`);
        } finally {
          await asOwner.query('ROLLBACK');
        }
        // The same statement as the app role, under the policy: the index cannot serve it (what the function is for).
        await app.query(`BEGIN; SET LOCAL enable_seqscan = off; SET LOCAL enable_indexscan = off; SELECT set_config('app.tenant_id', '${A}', true)`);
        try {
          expect(await plan(app)).not.toContain(`"Index Name":"${search.index}"`);
          // The function runs for the app role; in another tenant's context it answers that tenant's rows only (none here).
          expect((await app.query(`SELECT * FROM ${search.schema}.${search.name}('%')`)).rows).toEqual([]);
        } finally {
          await app.query('COMMIT');
        }
        await app.query(`BEGIN; SELECT set_config('app.tenant_id', '${NO_TENANT}', true)`);
        try {
          expect((await app.query(`SELECT * FROM ${search.schema}.${search.name}('%')`)).rows).toEqual([]);
        } finally {
          await app.query('COMMIT');
        }
        await refusedToAnotherRole(superuser, `SELECT ${search.schema}.${search.name}('%')`);
      } finally {
        await Promise.all([superuser.end(), asOwner.end()]);
      }
    },
  );
});
