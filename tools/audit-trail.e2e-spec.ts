/**
 * The audit trail (libs/platform/src/audit.ts) in every schema: every record table has its
 * triggers; a change made as the services' app role, in a tenant, with the actor and request id
 * `Db` sets, leaves its entry (who, what before/after, which request); the app role can add to the
 * trail but never change or delete it. Creations, and the whole path through HTTP (the actor and
 * request id from the request): apps/settings/test/audit.e2e-spec.ts.
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { auditedTables } from '@ddm/platform';
import { TestDatabaseAsRoles, createTestDatabaseAsRoles } from '@ddm/testing';
import { madeUpRow, writableColumns } from './fixtures/made-up-rows';
import { ALL_DATA_SOURCES } from './migrate-sources';

const SCHEMAS = ALL_DATA_SOURCES.map((d) => d.schema);
const TENANT = randomUUID();
const ACTOR = randomUUID();
/** The changed text: digits, short (a column may be a varchar(10) or read as a number by a generated column). */
const CHANGED = '424242';

describe('audit trail: every change of a record, append-only (e2e, real Postgres)', () => {
  let roles: TestDatabaseAsRoles;
  let owner: Client;
  let app: Client;

  beforeAll(async () => {
    roles = await createTestDatabaseAsRoles();
    ({ owner, app } = roles);
  });

  afterAll(() => roles?.close());

  /** A transaction of the app role as `Db` opens it: tenant, actor and request id, local to it. */
  async function asService<T>(requestId: string, work: () => Promise<T>): Promise<T> {
    await app.query(
      `BEGIN; SELECT set_config('app.tenant_id', '${TENANT}', true), set_config('app.actor_id', '${ACTOR}', true), set_config('app.request_id', '${requestId}', true)`,
    );
    try {
      const out = await work();
      await app.query('COMMIT');
      return out;
    } catch (err) {
      await app.query('ROLLBACK');
      throw err;
    }
  }

  it('every record table of every schema has its triggers (the bookkeeping tables aside), and each schema has its trail', async () => {
    for (const schema of SCHEMAS) {
      const tables = await auditedTables({ query: async (t: string, p?: unknown[]) => (await owner.query(t, p)).rows } as never, schema);
      expect({ schema, some: tables.length > 0 }).toEqual({ schema, some: true });
      expect({ schema, unaudited: tables.filter((t) => !t.audited).map((t) => t.table) }).toEqual({ schema, unaudited: [] });
    }
    expect(
      (await owner.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'audit_log' AND schemaname = ANY($1::text[])`, [SCHEMAS])).rows[0].n,
    ).toBe(SCHEMAS.length);
  });

  it.each(SCHEMAS)('%s: an update and a delete by the app role leave entries with who, what before/after and the request id', async (schema) => {
    const tables = await auditedTables({ query: async (t: string, p?: unknown[]) => (await owner.query(t, p)).rows } as never, schema);
    // A table with a plain text column to change (not a key).
    let picked: { table: string; keys: string[]; column: string } | undefined;
    for (const t of tables) {
      const columns = await writableColumns(owner, `${schema}.${t.table}`);
      const column = columns.find((c) => c.category === 'S' && c.enumlabel === null && !t.keys.includes(c.name) && c.name !== 'tenant_id');
      if (column) {
        picked = { table: t.table, keys: t.keys, column: column.name };
        break;
      }
    }
    expect(picked).toBeDefined();
    const { table, keys, column } = picked!;
    const qualified = `${schema}.${table}`;
    // The row itself, made up as the owner without triggers (no CREATE entry from it).
    await owner.query(`SET session_replication_role = replica`);
    const row = await madeUpRow(owner, qualified, TENANT);
    await owner.query(`SET session_replication_role = DEFAULT`);
    const entityId = keys.map((k) => String(row[k])).join(':');
    const where = keys.map((k, i) => `"${k}"::text = $${i + 1}`).join(' AND ');
    const keyValues = keys.map((k) => String(row[k]));
    const before = row[column];

    const changeId = `audit-${randomUUID()}`;
    await asService(changeId, () => app.query(`UPDATE ${qualified} SET "${column}" = '${CHANGED}' WHERE ${where}`, keyValues));
    const deleteId = `audit-${randomUUID()}`;
    await asService(deleteId, () => app.query(`DELETE FROM ${qualified} WHERE ${where}`, keyValues));

    const entries = (
      await owner.query(`SELECT * FROM ${schema}.audit_log WHERE tenant_id = $1 AND entity_type = $2 AND entity_id = $3 ORDER BY id`, [TENANT, table, entityId])
    ).rows;
    expect(entries.map((e) => [e.action, e.actor_id, e.request_id])).toEqual([
      ['UPDATE', ACTOR, changeId],
      ['DELETE', ACTOR, deleteId],
    ]);
    expect(entries[0].changes).toEqual([{ field: column, from: before, to: CHANGED }]);
    expect(entries[1].changes).toEqual(expect.arrayContaining([{ field: column, from: CHANGED, to: null }, { field: 'tenant_id', from: TENANT, to: null }]));
  });

  it.each(SCHEMAS)('%s: the app role can neither change nor delete the trail (append-only grant), and sees only its tenant’s entries', async (schema) => {
    await app.query(`SELECT set_config('app.tenant_id', $1, false)`, [TENANT]);
    const update = await app.query(`UPDATE ${schema}.audit_log SET action = 'FORGED'`).then(
      () => 'updated',
      (err: { code?: string; message?: string }) => `${err.code} ${err.message}`,
    );
    expect(update).toBe(`42501 permission denied for table audit_log`);
    const del = await app.query(`DELETE FROM ${schema}.audit_log`).then(
      () => 'deleted',
      (err: { code?: string; message?: string }) => `${err.code} ${err.message}`,
    );
    expect(del).toBe(`42501 permission denied for table audit_log`);
    const truncate = await app.query(`TRUNCATE ${schema}.audit_log`).then(
      () => 'truncated',
      (err: { code?: string }) => err.code,
    );
    expect(truncate).toBe('42501');
    await owner.query(`INSERT INTO ${schema}.audit_log (tenant_id, entity_type, entity_id, action, changes) VALUES ($1, 'x', 'y', 'UPDATE', '[]')`, [randomUUID()]);
    const seen = (await app.query<{ tenant_id: string }>(`SELECT DISTINCT tenant_id FROM ${schema}.audit_log`)).rows.map((r) => r.tenant_id);
    expect(seen.every((t) => t === TENANT)).toBe(true);
  });
});

describe('audit trail of people and tenants, rows no one tenant owns (e2e, real Postgres)', () => {
  let roles: TestDatabaseAsRoles;
  let owner: Client;
  let app: Client;
  const [A, B, C] = [randomUUID(), randomUUID(), randomUUID()];
  const person = randomUUID();
  const actor = randomUUID();

  beforeAll(async () => {
    roles = await createTestDatabaseAsRoles();
    ({ owner, app } = roles);
    for (const [id, name] of [[A, 'People A'], [B, 'People B'], [C, 'People C']]) await owner.query(`INSERT INTO auth.tenants (id, name) VALUES ($1, $2)`, [id, name]);
    await owner.query(`INSERT INTO auth.users (id, email, first_name, last_name, name, display_name) VALUES ($1, 'pat@people.test', 'Pat', 'Old', 'Pat Old', 'Pat Old')`, [person]);
    // A member of A and B; a former member of C (the membership soft-deleted).
    for (const [tenant, deleted] of [[A, false], [B, false], [C, true]] as const)
      await owner.query(`INSERT INTO auth.tenant_users (id, tenant_id, user_id, user_display_id, status, is_deleted) VALUES ($1, $2, $3, 'USR-1', 'ACTIVE', $4)`, [
        randomUUID(),
        tenant,
        person,
        deleted,
      ]);
  });

  afterAll(() => roles?.close());

  /** A transaction of the app role in tenant A, as `Db` opens it. */
  async function inA(requestId: string, text: string, params: unknown[]): Promise<void> {
    await app.query(
      `BEGIN; SELECT set_config('app.tenant_id', '${A}', true), set_config('app.actor_id', '${actor}', true), set_config('app.request_id', '${requestId}', true)`,
    );
    try {
      await app.query(text, params);
      await app.query('COMMIT');
    } catch (err) {
      await app.query('ROLLBACK');
      throw err;
    }
  }
  const entries = async (entityType: string, entityId: string) =>
    (
      await owner.query(`SELECT tenant_id, action, actor_id, request_id, changes FROM auth.audit_log WHERE entity_type = $1 AND entity_id = $2 ORDER BY id`, [
        entityType,
        entityId,
      ])
    ).rows;

  it("a change of a person made in tenant A's context is entered in the trail of every tenant they belong to (not of one they left), with who and which request", async () => {
    const requestId = `rename-${randomUUID()}`;
    await inA(requestId, `UPDATE auth.users SET last_name = 'New', name = 'Pat New', display_name = 'Pat New', last_login_date = now() WHERE id = $1`, [person]);
    const found = await entries('users', person);
    expect(found.map((e) => e.tenant_id).sort()).toEqual([A, B].sort());
    for (const e of found) {
      expect([e.action, e.actor_id, e.request_id]).toEqual(['UPDATE', actor, requestId]);
      // The sign-in time is left out (each membership's copy of it is in its tenant's trail).
      expect(e.changes).toEqual([
        { field: 'display_name', from: 'Pat Old', to: 'Pat New' },
        { field: 'last_name', from: 'Old', to: 'New' },
        { field: 'name', from: 'Pat Old', to: 'Pat New' },
      ]);
    }
    // The app role in A's context sees A's entry only.
    await app.query(`SELECT set_config('app.tenant_id', $1, false)`, [A]);
    expect((await app.query(`SELECT tenant_id FROM auth.audit_log WHERE entity_type = 'users' AND entity_id = $1`, [person])).rows).toEqual([{ tenant_id: A }]);
  });

  it("the new name reaches the person's search and sort copy in every tenant, not only the one that changed it", async () => {
    const copies = (await owner.query(`SELECT tenant_id, sort_name, search_text FROM auth.tenant_users WHERE user_id = $1 AND NOT is_deleted`, [person])).rows;
    expect(copies).toHaveLength(2);
    for (const c of copies) {
      expect(c.sort_name).toBe('pat new');
      expect(c.search_text).toContain('Pat New');
    }
  });

  it('a person being created is entered in the trail of the tenant creating them (their active tenant, before any membership)', async () => {
    const newcomer = randomUUID();
    await inA(`invite-${newcomer}`, `INSERT INTO auth.users (id, email, name, active_tenant_id) VALUES ($1, 'new@people.test', 'Nia New', $2)`, [newcomer, A]);
    const found = await entries('users', newcomer);
    expect(found.map((e) => [e.tenant_id, e.action, e.actor_id])).toEqual([[A, 'CREATE', actor]]);
    expect(found[0].changes).toEqual(expect.arrayContaining([{ field: 'email', from: null, to: 'new@people.test' }]));
  });

  it("a change of a tenant is entered in that tenant's own trail", async () => {
    await inA(`tenant-${A}`, `UPDATE auth.tenants SET name = 'People A renamed' WHERE id = $1`, [A]);
    const found = await entries('tenants', A);
    // Its creation (by the owner here, with no actor) and the change.
    expect(found.map((e) => [e.tenant_id, e.action, e.actor_id])).toEqual([
      [A, 'CREATE', null],
      [A, 'UPDATE', actor],
    ]);
    expect(found[1].changes).toEqual([{ field: 'name', from: 'People A', to: 'People A renamed' }]);
  });
});
