/**
 * The audit trail (libs/platform/src/audit.ts) in every schema: every record table has its
 * triggers; a change made as the services' app role, in a tenant, with the actor and request id
 * `Db` sets, leaves its entry (who, what before/after, which request); the app role can add to the
 * trail but never change or delete it. Creations, and the whole path through HTTP (the actor and
 * request id from the request): apps/settings/test/audit.e2e-spec.ts.
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { AUDIT_COLUMN_TYPES_SQL, AuditColumnType, auditChanges, auditTables, auditedTables, upgradeAuditTrail } from '@ddm/platform';
import { TestDatabaseAsRoles, createTestDatabaseAsRoles } from '@ddm/testing';
import { madeUpRow, writableColumns } from './fixtures/made-up-rows';
import { ALL_DATA_SOURCES } from './migrate-sources';

/** A pg client where the migration steps expect a query runner (rows for an answer). */
const asRunner = (c: Client) => ({ query: async (t: string, p?: unknown[]) => (await c.query(t, p)).rows }) as never;

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
    ).rows.map((e) => ({ ...e, changes: auditChanges(e.before, e.after) }));
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
    await owner.query(`INSERT INTO ${schema}.audit_log (tenant_id, entity_type, entity_id, action, before, after) VALUES ($1, 'x', 'y', 'UPDATE', '{}', '{}')`, [randomUUID()]);
    const seen = (await app.query<{ tenant_id: string }>(`SELECT DISTINCT tenant_id FROM ${schema}.audit_log`)).rows.map((r) => r.tenant_id);
    expect(seen.every((t) => t === TENANT)).toBe(true);
  });
});

describe('audit trail: bulk statements, set-based (e2e, real Postgres)', () => {
  let roles: TestDatabaseAsRoles;
  let owner: Client;
  const N = 1000;

  beforeAll(async () => {
    roles = await createTestDatabaseAsRoles();
    ({ owner } = roles);
    // A record table of its own, audited as a migration audits a new table.
    await owner.query(`CREATE TABLE decision.audit_probe (
      id int PRIMARY KEY, tenant_id uuid NOT NULL, name text, amount numeric, flags text[], details jsonb, at timestamptz,
      doubled numeric GENERATED ALWAYS AS (amount * 2) STORED)`);
    await auditTables(asRunner(owner), 'decision');
  });

  afterAll(() => roles?.close());

  async function statement(requestId: string, text: string): Promise<void> {
    await owner.query(`BEGIN; SELECT set_config('app.actor_id', '${ACTOR}', true), set_config('app.request_id', '${requestId}', true)`);
    await owner.query(text);
    await owner.query('COMMIT');
  }
  const entries = async (requestId: string) =>
    (await owner.query(`SELECT entity_id, action, actor_id, before, after FROM decision.audit_log WHERE request_id = $1 ORDER BY entity_id::int`, [requestId])).rows;
  /** The probe's columns as the audit endpoint reads them. */
  async function probeColumns(): Promise<Map<string, AuditColumnType>> {
    const rows = (await owner.query(AUDIT_COLUMN_TYPES_SQL, ['decision', ['audit_probe']])).rows;
    return new Map(rows.map((r) => [r.column, { category: r.category, type: r.type, elementCategory: r.element_category, elementType: r.element_type }]));
  }

  it('one statement creating, changing and deleting a thousand rows leaves one entry per changed row, unchanged rows and generated columns left out, the values typed again when read', async () => {
    const columns = await probeColumns();
    await statement(
      'bulk-create',
      `INSERT INTO decision.audit_probe (id, tenant_id, name, amount, flags, details, at)
       SELECT n, '${TENANT}', 'row ' || n, n + 0.5, ARRAY['a', 'b c', NULL], jsonb_build_object('n', n), CASE WHEN n % 2 = 0 THEN '2026-01-01T00:00:00.123456Z'::timestamptz END
         FROM generate_series(1, ${N}) n`,
    );
    const created = await entries('bulk-create');
    expect(created).toHaveLength(N);
    // Stored as each type's text (fields with a value only: at is null for odd rows; doubled is generated, never entered).
    expect(created[6]).toEqual({
      entity_id: '7',
      action: 'CREATE',
      actor_id: ACTOR,
      before: null,
      after: { id: '7', tenant_id: TENANT, name: 'row 7', amount: '7.5', flags: '{a,"b c",NULL}', details: '{"n": 7}' },
    });
    // Read as JSON of the columns' types.
    expect(auditChanges(created[7].before, created[7].after, columns)).toEqual([
      { field: 'amount', from: null, to: 8.5 },
      { field: 'at', from: null, to: '2026-01-01T00:00:00.123456+00:00' },
      { field: 'details', from: null, to: { n: 8 } },
      { field: 'flags', from: null, to: ['a', 'b c', null] },
      { field: 'id', from: null, to: 8 },
      { field: 'name', from: null, to: 'row 8' },
      { field: 'tenant_id', from: null, to: TENANT },
    ]);

    // Odd rows change (a value, a null set, an array, a nested value); even rows are written unchanged.
    await statement(
      'bulk-update',
      `UPDATE decision.audit_probe SET name = CASE WHEN id % 2 = 1 THEN 'renamed ' || id ELSE name END,
              amount = CASE WHEN id % 2 = 1 THEN NULL ELSE amount END,
              flags = CASE WHEN id % 2 = 1 THEN ARRAY['c'] ELSE flags END,
              details = CASE WHEN id % 2 = 1 THEN jsonb_build_object('n', -id) ELSE details END`,
    );
    const updated = await entries('bulk-update');
    expect(updated).toHaveLength(N / 2);
    expect(updated.every((e) => Number(e.entity_id) % 2 === 1 && e.action === 'UPDATE' && e.actor_id === ACTOR)).toBe(true);
    expect(updated[0].entity_id).toBe('1');
    expect(auditChanges(updated[0].before, updated[0].after, columns)).toEqual([
      { field: 'amount', from: 1.5, to: null },
      { field: 'details', from: { n: 1 }, to: { n: -1 } },
      { field: 'flags', from: ['a', 'b c', null], to: ['c'] },
      { field: 'name', from: 'row 1', to: 'renamed 1' },
    ]);
    // A field set to null is in the update's after, with null.
    expect(updated[0].after).toHaveProperty('amount', null);

    await statement('bulk-delete', `DELETE FROM decision.audit_probe WHERE id > ${N / 2}`);
    const deleted = await entries('bulk-delete');
    expect(deleted).toHaveLength(N / 2);
    expect(deleted[0]).toMatchObject({ entity_id: String(N / 2 + 1), action: 'DELETE', actor_id: ACTOR, after: null });
    expect(auditChanges(deleted[0].before, deleted[0].after, columns)).toEqual([
      { field: 'details', from: { n: -(N / 2 + 1) }, to: null },
      { field: 'flags', from: ['c'], to: null },
      { field: 'id', from: N / 2 + 1, to: null },
      { field: 'name', from: `renamed ${N / 2 + 1}`, to: null },
      { field: 'tenant_id', from: TENANT, to: null },
    ]);
    // A field of a column dropped since keeps its text.
    expect(auditChanges(deleted[0].before, null, new Map())).toContainEqual({ field: 'id', from: String(N / 2 + 1), to: null });
  });

  it('a trail written before entries held before and after is converted, and its function replaced, by the upgrade step', async () => {
    await owner.query(`CREATE SCHEMA legacy_trail`);
    await owner.query(`CREATE TABLE legacy_trail.audit_log (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, tenant_id uuid NOT NULL, entity_type text NOT NULL, entity_id text NOT NULL, action text NOT NULL,
      actor_id uuid, request_id text, changes jsonb NOT NULL, changed_at timestamptz NOT NULL DEFAULT now())`);
    const legacy: [string, unknown][] = [
      ['CREATE', [{ field: 'id', from: null, to: 1 }, { field: 'name', from: null, to: 'a' }]],
      ['UPDATE', [{ field: 'name', from: 'a', to: 'b' }, { field: 'note', from: 'x', to: null }]],
      ['DELETE', [{ field: 'id', from: 1, to: null }, { field: 'name', from: 'b', to: null }]],
    ];
    for (const [action, changes] of legacy)
      await owner.query(`INSERT INTO legacy_trail.audit_log (tenant_id, entity_type, entity_id, action, changes) VALUES ($1, 'things', '1', $2, $3)`, [
        TENANT,
        action,
        JSON.stringify(changes),
      ]);
    await upgradeAuditTrail(asRunner(owner), 'legacy_trail');
    await upgradeAuditTrail(asRunner(owner), 'legacy_trail');
    const rows = (await owner.query(`SELECT action, before, after FROM legacy_trail.audit_log ORDER BY id`)).rows;
    expect(rows).toEqual([
      { action: 'CREATE', before: null, after: { id: 1, name: 'a' } },
      { action: 'UPDATE', before: { name: 'a', note: 'x' }, after: { name: 'b', note: null } },
      { action: 'DELETE', before: { id: 1, name: 'b' }, after: null },
    ]);
    expect(rows.map((r) => auditChanges(r.before, r.after))).toEqual(legacy.map(([, changes]) => changes));
    expect((await owner.query(`SELECT count(*)::int AS n FROM pg_proc WHERE proname = 'audit_changes' AND pronamespace = 'legacy_trail'::regnamespace`)).rows[0].n).toBe(1);
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
      await owner.query(`SELECT tenant_id, action, actor_id, request_id, before, after FROM auth.audit_log WHERE entity_type = $1 AND entity_id = $2 ORDER BY id`, [
        entityType,
        entityId,
      ])
    ).rows.map(({ before, after, ...e }) => ({ ...e, changes: auditChanges(before, after) }));

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
    // A change of the left-out field alone is no change of the person (only of each membership's copy of it).
    const signIn = `sign-in-${randomUUID()}`;
    await inA(signIn, `UPDATE auth.users SET last_login_date = now() + interval '1 minute' WHERE id = $1`, [person]);
    const signedIn = (await owner.query(`SELECT entity_type, before, after FROM auth.audit_log WHERE request_id = $1`, [signIn])).rows;
    expect(signedIn.map((e) => [e.entity_type, Object.keys(e.before), Object.keys(e.after)])).toEqual(
      signedIn.map(() => ['tenant_users', ['last_login_date'], ['last_login_date']]),
    );
    expect(signedIn.length).toBeGreaterThan(0);
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
