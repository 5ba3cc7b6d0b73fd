import type { QueryRunner } from 'typeorm';
import type { Queryable } from './queryable';

/*
 * Tenant isolation enforced by the database too (row-level security), as well as by every
 * statement's own `tenant_id` condition.
 *
 * - Every table of a service schema with a `tenant_id` column has RLS enabled and forced, and the
 *   policy `tenant_isolation`: a row is visible and writable only when its tenant is the session's
 *   `app.tenant_id`. The migrations (run as the schema's owner, MIGRATION_DATABASE_URL) add it;
 *   the service refuses to start while a tenant table of its schema lacks it.
 * - The services connect as an app role (DATABASE_URL) that owns nothing, is not a superuser and
 *   has no BYPASSRLS; `Db` sets `app.tenant_id` from the work's context with each transaction
 *   (and, for reads, whenever a pooled connection last served another tenant).
 * - Cross-tenant work (auth's caller resolution, a sweep over every tenant) is explicit:
 *   `Db.acrossTenants(reason, ...)` logs its reason and switches, for that work only, to the
 *   NOLOGIN role `ddm_cross_tenant`, the one role the `cross_tenant` policy admits. The app role is
 *   a member of it without inheriting it (NOINHERIT), so the policy applies only after that switch.
 */

/** The setting the policies read. */
export const TENANT_SETTING = 'app.tenant_id';
/** Who and which request, for the audit trail's triggers (set with each transaction). */
export const ACTOR_SETTING = 'app.actor_id';
export const REQUEST_SETTING = 'app.request_id';
/** The tenant of work that has none: matches no row. */
export const NO_TENANT = '00000000-0000-0000-0000-000000000000';
/** The role of the explicit cross-tenant path. */
export const CROSS_TENANT_ROLE = 'ddm_cross_tenant';
/** The policy every tenant table carries. */
export const TENANT_POLICY = 'tenant_isolation';

const IDENT = /^[a-z_][a-z0-9_]*$/;

function ident(name: string): string {
  if (!IDENT.test(name)) throw new Error(`"${name}" is not a plain SQL identifier`);
  return `"${name}"`;
}

/** Creates the cross-tenant role when it is missing (the migrating role needs CREATEROLE then). */
async function ensureCrossTenantRole(q: Pick<QueryRunner, 'query'>): Promise<void> {
  await q.query(`DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${CROSS_TENANT_ROLE}') THEN
        CREATE ROLE ${CROSS_TENANT_ROLE} NOLOGIN NOINHERIT;
      END IF;
    -- Created meanwhile by another schema's migration: duplicate_object, or unique_violation when both
    -- inserted into pg_authid at once (seen with seven services migrating a new server together).
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END $$`);
  // The owner (who migrates) is a member: its data migrations see every tenant through the
  // cross_tenant policy, although RLS is forced on its own tables.
  await q.query(`DO $$ BEGIN
      IF NOT pg_has_role(current_user, '${CROSS_TENANT_ROLE}', 'MEMBER') THEN EXECUTE format('GRANT ${CROSS_TENANT_ROLE} TO %I', current_user); END IF;
    EXCEPTION WHEN unique_violation OR duplicate_object THEN NULL; -- granted meanwhile by another schema's migration
    END $$`);
}

/**
 * Migration step: RLS on every table of `schema` with a `tenant_id` column that has no
 * `tenant_isolation` policy yet (so a later migration calls it again for its new tables).
 */
export async function isolateTenantTables(q: Pick<QueryRunner, 'query'>, schema: string): Promise<string[]> {
  await ensureCrossTenantRole(q);
  const tables: { table: string }[] = await q.query(
    `SELECT c.relname AS table
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')
        AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped)
        AND NOT EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid AND p.polname = $2)
      ORDER BY 1`,
    [schema, TENANT_POLICY],
  );
  for (const { table } of tables) {
    const t = `${ident(schema)}.${ident(table)}`;
    await q.query(`ALTER TABLE ${t} ENABLE ROW LEVEL SECURITY`);
    await q.query(`ALTER TABLE ${t} FORCE ROW LEVEL SECURITY`);
    // `= ANY (ARRAY[...])`, not a plain `=`: the statement's own `tenant_id = $1` and a plain `=`
    // would form one equivalence class, whose check between the two values the planner puts in a
    // gating Result node that every row of the scan passes through (a fifth of a count over 80,000
    // rows). This form is instead a second condition of the same index scan, evaluated once.
    const own = `tenant_id = ANY (ARRAY[current_setting('${TENANT_SETTING}', true)::uuid])`;
    await q.query(`CREATE POLICY ${TENANT_POLICY} ON ${t} USING (${own}) WITH CHECK (${own})`);
    await q.query(`CREATE POLICY cross_tenant ON ${t} TO ${CROSS_TENANT_ROLE} USING (true) WITH CHECK (true)`);
  }
  return tables.map((t) => t.table);
}

/**
 * Migration step: a table whose rows belong to another table's row (an address of a group, a
 * chunk of a file) gets a `tenant_id` of its own, filled from that parent and required, so
 * row-level security covers it as it covers every tenant table (call `isolateTenantTables`
 * after). The writers then name the tenant like everywhere else. Does nothing to a table that
 * has the column already (a schema created after the table's own definition gained it).
 */
export async function addTenantColumn(q: Pick<QueryRunner, 'query'>, schema: string, table: string, parent: { table: string; via: string; key?: string }): Promise<void> {
  const t = `${ident(schema)}.${ident(table)}`;
  const [{ present }] = await q.query(
    `SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 AND column_name = 'tenant_id') AS present`,
    [schema, table],
  );
  if (present) return;
  await q.query(`ALTER TABLE ${t} ADD COLUMN tenant_id uuid`);
  await q.query(
    `UPDATE ${t} c SET tenant_id = p.tenant_id FROM ${ident(schema)}.${ident(parent.table)} p WHERE p.${ident(parent.key ?? 'id')} = c.${ident(parent.via)}`,
  );
  await q.query(`ALTER TABLE ${t} ALTER COLUMN tenant_id SET NOT NULL`);
}

/** Undoes `addTenantColumn` (a migration's `down`; the policies go first, with `releaseTenantTables`). */
export async function dropTenantColumn(q: Pick<QueryRunner, 'query'>, schema: string, table: string): Promise<void> {
  const t = `${ident(schema)}.${ident(table)}`;
  await q.query(`DROP POLICY IF EXISTS ${TENANT_POLICY} ON ${t}`);
  await q.query(`DROP POLICY IF EXISTS cross_tenant ON ${t}`);
  await q.query(`ALTER TABLE ${t} NO FORCE ROW LEVEL SECURITY`);
  await q.query(`ALTER TABLE ${t} DISABLE ROW LEVEL SECURITY`);
  await q.query(`ALTER TABLE ${t} DROP COLUMN IF EXISTS tenant_id`);
}

/** Undoes `isolateTenantTables` for the schema's tables (a migration's `down`). */
export async function releaseTenantTables(q: Pick<QueryRunner, 'query'>, schema: string): Promise<void> {
  const tables: { table: string }[] = await q.query(
    `SELECT DISTINCT c.relname AS table FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND p.polname = $2`,
    [schema, TENANT_POLICY],
  );
  for (const { table } of tables) {
    const t = `${ident(schema)}.${ident(table)}`;
    await q.query(`DROP POLICY IF EXISTS ${TENANT_POLICY} ON ${t}`);
    await q.query(`DROP POLICY IF EXISTS cross_tenant ON ${t}`);
    await q.query(`ALTER TABLE ${t} NO FORCE ROW LEVEL SECURITY`);
    await q.query(`ALTER TABLE ${t} DISABLE ROW LEVEL SECURITY`);
  }
}

/**
 * The tables of `schemas` with a `tenant_id` column that are not isolated: RLS off or not forced,
 * or no `tenant_isolation` policy. Empty when every tenant table is covered.
 */
export async function tablesWithoutIsolation(q: Queryable, schemas: readonly string[]): Promise<string[]> {
  const rows = await q.query<{ name: string }>(
    `SELECT n.nspname || '.' || c.relname AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ANY($1::text[]) AND c.relkind IN ('r', 'p')
        AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped)
        AND NOT (c.relrowsecurity AND c.relforcerowsecurity
                 AND EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid AND p.polname = $2))
      ORDER BY 1`,
    [schemas, TENANT_POLICY],
  );
  return rows.map((r) => r.name);
}

/** Tables the app role may read and add to but never change: the audit trail. */
export const APPEND_ONLY_TABLES = ['audit_log'];

/**
 * After the migrations, as the owner: the app role (DATABASE_URL's user) may use the schema's
 * tables (read and write; the migrations table read only; append-only tables without UPDATE and
 * DELETE) and switch to the cross-tenant role, which has the same table rights. A missing app
 * role is created (LOGIN NOINHERIT, the URL's password) when the migrating role may; an existing
 * one must not be a superuser or bypass RLS (the service checks that too when it starts).
 */
export async function grantAppRole(q: Pick<QueryRunner, 'query'>, schema: string, appRole: string, password?: string): Promise<void> {
  const app = ident(appRole);
  const s = ident(schema);
  await ensureCrossTenantRole(q);
  const [existing]: { rolinherit: boolean }[] = await q.query(`SELECT rolinherit FROM pg_roles WHERE rolname = $1`, [appRole]);
  if (!existing) {
    const pw = password ? ` PASSWORD '${password.replace(/'/g, "''")}'` : '';
    await q.query(`DO $$ BEGIN CREATE ROLE ${app} LOGIN NOINHERIT${pw}; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`);
  } else if (existing.rolinherit) {
    await q.query(`ALTER ROLE ${app} NOINHERIT`);
  }
  // Role catalog writes only when something is missing: services of every schema start together.
  const [{ member }]: { member: boolean }[] = await q.query(`SELECT pg_has_role($1, '${CROSS_TENANT_ROLE}', 'MEMBER') AS member`, [appRole]);
  if (!member) {
    // Granted meanwhile by another schema's migration: unique_violation in pg_auth_members.
    await q.query(`DO $$ BEGIN GRANT ${CROSS_TENANT_ROLE} TO ${app}; EXCEPTION WHEN unique_violation OR duplicate_object THEN NULL; END $$`);
  }
  // The schema's functions a statement calls (a search run as its definer: decision.decisions_matching); none is PUBLIC's.
  await q.query(`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${s} TO ${app}`);
  for (const role of [app, CROSS_TENANT_ROLE]) {
    await q.query(`GRANT USAGE ON SCHEMA ${s} TO ${role}`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${role}`);
    await q.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${s} TO ${role}`);
    await q.query(`REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON ${s}.migrations FROM ${role}`);
    for (const table of APPEND_ONLY_TABLES) {
      const [found]: unknown[] = await q.query(`SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = $2`, [schema, table]);
      if (found) await q.query(`REVOKE UPDATE, DELETE, TRUNCATE ON ${s}.${ident(table)} FROM ${role}`);
    }
  }
}

/** What the service checks of its own database role when it starts. */
export async function appRoleProblems(q: Queryable, schema: string): Promise<string[]> {
  const [role] = await q.query<{ name: string; rolsuper: boolean; rolbypassrls: boolean; rolinherit: boolean; owned: number; cross: boolean }>(
    `SELECT r.rolname AS name, r.rolsuper, r.rolbypassrls, r.rolinherit,
            (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relowner = r.oid) AS owned,
            pg_has_role(r.oid, '${CROSS_TENANT_ROLE}', 'MEMBER') AS cross
       FROM pg_roles r WHERE r.rolname = current_user`,
    [schema],
  );
  const problems: string[] = [];
  if (role.rolsuper) problems.push(`the role "${role.name}" is a superuser`);
  if (role.rolbypassrls) problems.push(`the role "${role.name}" bypasses row-level security`);
  if (role.owned) problems.push(`the role "${role.name}" owns ${role.owned} objects of schema ${schema}`);
  if (role.rolinherit) problems.push(`the role "${role.name}" inherits its roles' rights (it must be NOINHERIT)`);
  if (!role.cross) problems.push(`the role "${role.name}" is not a member of ${CROSS_TENANT_ROLE}`);
  return problems;
}

/** The app role of `npm start`, the tests and the benches (deployments name theirs in DATABASE_URL). */
export const LOCAL_APP_ROLE = 'ddm_app';

/**
 * The URL of the same database as the local app role, with the owner URL's password (the
 * migrations create the role with it when it is missing; trust auth ignores it).
 */
export function asAppRole(ownerUrl: string): string {
  const u = new URL(ownerUrl);
  u.username = LOCAL_APP_ROLE;
  return u.toString();
}

/** The user of a postgres URL, and its password (for creating the app role). */
export function roleOfUrl(url: string): { user: string; password?: string } {
  const u = new URL(url);
  return { user: decodeURIComponent(u.username || 'postgres'), password: u.password ? decodeURIComponent(u.password) : undefined };
}
