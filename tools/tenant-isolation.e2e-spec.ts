/**
 * Tenant isolation by the database (row-level security, libs/platform/src/tenancy.ts), proven for
 * every tenant table of every schema: a statement without any `tenant_id` condition, run as the
 * services' app role in tenant A's context, sees none of tenant B's rows and cannot move a row to
 * B; a table without the policy is caught (by the same check a service runs when it starts).
 *
 * The rows are made up from the catalog in a copy of the migrated template (one for A, one for B
 * in each table), as the owner with triggers and foreign keys off and the copy's CHECK constraints
 * dropped: what is under test is the policy, which sees only `tenant_id`.
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { APPEND_ONLY_TABLES, CROSS_TENANT_ROLE, NO_TENANT, appRoleProblems, createDataSource, isolationProblems, tablesWithoutIsolation } from '@ddm/platform';
import { TestDatabase, TestDatabaseAsRoles, asAppRole, createTestDatabaseAsRoles } from '@ddm/testing';
import { madeUpRow } from './fixtures/made-up-rows';
import { ALL_DATA_SOURCES } from './migrate-sources';

const SCHEMAS = ALL_DATA_SOURCES.map((d) => d.schema);

/**
 * The only tables without a `tenant_id`, and why they hold no tenant's data of their own. A new
 * table whose rows belong to a tenant (a child of a tenant table included) carries `tenant_id`
 * and so the policy; a new table missing from both fails the spec below.
 */
const NOT_TENANT_DATA: Record<string, string> = {
  migrations: "the schema's applied migrations",
  outbox: 'events on their way to NATS (each payload names its tenant; read only by the relay)',
  processed_messages: 'ids of the messages a consumer has handled (deduplication)',
  projection_backfills: "which projections were backfilled from the owning area's snapshot (a projection's name and a count)",
  'auth.tenants': "the tenants themselves (a row is a tenant: its id is the tenant id; its changes are in that tenant's trail)",
  'auth.users': "people, who may belong to several tenants (their memberships, auth.tenant_users, are tenant rows; a person's changes are in each of their tenants' trail)",
};
const A = randomUUID();
const B = randomUUID();

describe('tenant isolation by the database: row-level security on every tenant table (e2e, real Postgres)', () => {
  let roles: TestDatabaseAsRoles;
  let db: TestDatabase;
  let owner: Client;
  let app: Client;
  let tables: string[];

  const asOwner = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await owner.query(text, params)).rows as T[];
  const inTenant = async (tenant: string) => void (await app.query(`SELECT set_config('app.tenant_id', $1, false)`, [tenant]));

  beforeAll(async () => {
    roles = await createTestDatabaseAsRoles();
    ({ db, owner, app } = roles);
    tables = (
      await asOwner<{ name: string }>(
        `SELECT n.nspname || '.' || c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = ANY($1::text[]) AND c.relkind IN ('r', 'p')
            AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped)
          ORDER BY 1`,
        [SCHEMAS],
      )
    ).map((r) => r.name);

    // One made-up row of A and one of B in every tenant table.
    await owner.query(`SET session_replication_role = replica`);
    for (const table of tables) for (const tenant of [A, B]) await madeUpRow(owner, table, tenant);
    await owner.query(`SET session_replication_role = DEFAULT`);
  }, 120_000);

  afterAll(() => roles?.close());

  it('finds the tenant tables of every schema, and every one has RLS enabled, forced and the tenant policy', async () => {
    expect(tables.length).toBeGreaterThanOrEqual(100);
    for (const schema of SCHEMAS) expect(tables.some((t) => t.startsWith(`${schema}.`))).toBe(true);
    expect(await tablesWithoutIsolation({ query: asOwner } as never, SCHEMAS)).toEqual([]);
  });

  it('every other table of every schema is on the short list of tables that hold no tenant data (so a new tenant table cannot go without tenant_id)', async () => {
    const others = (
      await asOwner<{ name: string }>(
        `SELECT n.nspname || '.' || c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = ANY($1::text[]) AND c.relkind IN ('r', 'p')
            AND NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped)
          ORDER BY 1`,
        [SCHEMAS],
      )
    ).map((r) => r.name);
    const unexplained = others.filter((name) => !(name in NOT_TENANT_DATA) && !(name.split('.')[1] in NOT_TENANT_DATA));
    expect(unexplained).toEqual([]);
    // Children of tenant rows now carry their own tenant_id and the policy.
    for (const child of ['auth.role_mappings', 'settings.group_addresses', 'document.file_chunks', 'matrix.share_failures', 'decision.job_items']) expect(tables).toContain(child);
  });

  it('the app role is what the services must run as: no superuser, no BYPASSRLS, NOINHERIT, owns nothing; the owner is refused', async () => {
    const viaApp = { query: async (text: string, params?: unknown[]) => (await app.query(text, params)).rows } as never;
    for (const schema of SCHEMAS) expect(await appRoleProblems(viaApp, schema)).toEqual([]);
    expect(await appRoleProblems({ query: asOwner } as never, 'settings')).toEqual(expect.arrayContaining([expect.stringContaining('is a superuser')]));
  });

  it("in tenant A's context, a statement with no tenant condition sees A's row of every tenant table and none of B's", async () => {
    await inTenant(A);
    const leaks: string[] = [];
    const blind: string[] = [];
    for (const table of tables) {
      const rows = (await app.query<{ tenant_id: string }>(`SELECT tenant_id FROM ${table}`)).rows;
      if (rows.some((r) => r.tenant_id !== A)) leaks.push(table);
      if (!rows.length) blind.push(table);
    }
    expect({ leaks, blind }).toEqual({ leaks: [], blind: [] });
  });

  it("in tenant A's context, an UPDATE without a condition changes only A's rows and cannot move one to B", async () => {
    await inTenant(A);
    const problems: string[] = [];
    for (const table of tables) {
      if (APPEND_ONLY_TABLES.includes(table.split('.')[1])) continue;
      await app.query('BEGIN');
      try {
        const touched = (await app.query(`UPDATE ${table} SET tenant_id = tenant_id RETURNING tenant_id`)).rows;
        if (touched.length !== 1 || touched[0].tenant_id !== A) problems.push(`${table}: UPDATE touched ${JSON.stringify(touched)}`);
        const moved = await app.query(`UPDATE ${table} SET tenant_id = $1`, [B]).then(
          () => 'moved',
          (err: { code?: string }) => err.code,
        );
        if (moved !== '42501') problems.push(`${table}: moving A's row to B gave ${moved}`);
      } finally {
        await app.query('ROLLBACK');
      }
    }
    expect(problems).toEqual([]);
  });

  it('without a tenant (the services set the nil tenant) a statement sees no row at all; the cross-tenant role sees both', async () => {
    await inTenant(NO_TENANT);
    for (const table of tables) expect({ table, rows: (await app.query(`SELECT 1 FROM ${table}`)).rowCount }).toEqual({ table, rows: 0 });
    await app.query('BEGIN');
    try {
      await app.query(`SELECT set_config('role', '${CROSS_TENANT_ROLE}', true)`);
      for (const table of tables) {
        const seen = new Set((await app.query<{ tenant_id: string }>(`SELECT tenant_id FROM ${table}`)).rows.map((r) => r.tenant_id));
        expect({ table, a: seen.has(A), b: seen.has(B) }).toEqual({ table, a: true, b: true });
      }
    } finally {
      await app.query('ROLLBACK');
    }
  });

  it('a tenant table without the policy fails the check, and the service refuses to start on it (the leak it would be is real)', async () => {
    await owner.query(`CREATE TABLE settings.forgotten (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), tenant_id uuid NOT NULL)`);
    await owner.query(`GRANT SELECT ON settings.forgotten TO ddm_app`);
    await owner.query(`INSERT INTO settings.forgotten (tenant_id) VALUES ($1), ($2)`, [A, B]);
    try {
      expect(await tablesWithoutIsolation({ query: asOwner } as never, SCHEMAS)).toEqual(['settings.forgotten']);
      await inTenant(A);
      const seen = (await app.query<{ tenant_id: string }>(`SELECT tenant_id FROM settings.forgotten`)).rows.map((r) => r.tenant_id).sort();
      expect(seen).toEqual([A, B].sort());

      const ds = createDataSource({ schema: 'settings', migrations: [] }, asAppRole(db.url), 2);
      await ds.initialize();
      try {
        expect(await isolationProblems(ds, 'settings')).toEqual(['tenant tables without row-level security: settings.forgotten']);
      } finally {
        await ds.destroy();
      }
      // Enabled but not forced is not enough either (the owner would get past it).
      await owner.query(`ALTER TABLE settings.forgotten ENABLE ROW LEVEL SECURITY`);
      expect(await tablesWithoutIsolation({ query: asOwner } as never, SCHEMAS)).toEqual(['settings.forgotten']);
    } finally {
      await owner.query(`DROP TABLE settings.forgotten`);
    }
  });
});
