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
import { TestDatabase, asAppRole, createTestDatabase } from '@ddm/testing';
import { madeUpRow, writableColumns } from './fixtures/made-up-rows';
import { ALL_DATA_SOURCES } from './migrate-sources';

const SCHEMAS = ALL_DATA_SOURCES.map((d) => d.schema);
const TENANT = randomUUID();
const ACTOR = randomUUID();
/** The changed text: digits, short (a column may be a varchar(10) or read as a number by a generated column). */
const CHANGED = '424242';

describe('audit trail: every change of a record, append-only (e2e, real Postgres)', () => {
  let db: TestDatabase;
  let owner: Client;
  let app: Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    owner = new Client({ connectionString: db.url });
    await owner.connect();
    app = new Client({ connectionString: asAppRole(db.url) });
    await app.connect();
  });

  afterAll(async () => {
    await app?.end();
    await owner?.end();
    await db?.drop();
  });

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
