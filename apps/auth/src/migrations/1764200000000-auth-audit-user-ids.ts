import { MigrationInterface, QueryRunner } from 'typeorm';

/** The audit columns that held the writer's name, and the tenants where that name is looked up. */
const AUDIT_COLUMNS: { table: string; columns: string[]; tenants: string }[] = [
  { table: 'auth.tenant_users', columns: ['created_by', 'updated_by', 'deleted_by'], tenants: 'r.tenant_id' },
  { table: 'auth.invitations', columns: ['sent_by'], tenants: 'r.tenant_id' },
  // A person belongs to no tenant of their own: their writers are members of the person's tenants.
  { table: 'auth.users', columns: ['created_by', 'updated_by'], tenants: 'SELECT m.tenant_id FROM auth.tenant_users m WHERE m.user_id = r.id' },
];

const UUID = `'^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`;

/**
 * Audit columns hold the writer's user id, as in the settings area; the views answer the writer's
 * name by joining auth.users, so a renamed user is named as they are now.
 *
 * The columns held the caller's name (or, without one, email) as written at the time. A name
 * cannot be mapped back to a user reliably: a value becomes the id of the one member of the row's
 * tenant(s) with that name (or email), or null when no member or several members have it. A value
 * that already is a user's id is kept.
 */
export class AuthAuditUserIds1764200000000 implements MigrationInterface {
  name = 'AuthAuditUserIds1764200000000';

  async up(q: QueryRunner): Promise<void> {
    for (const { table, columns, tenants } of AUDIT_COLUMNS) {
      for (const column of columns) {
        await q.query(`ALTER TABLE ${table} ADD COLUMN ${column}_id uuid`);
        await q.query(`
          UPDATE ${table} r SET ${column}_id = CASE
            WHEN r.${column} ~* ${UUID} THEN (SELECT x.id FROM auth.users x WHERE x.id = r.${column}::uuid)
            ELSE (SELECT CASE WHEN count(DISTINCT u.id) = 1 THEN (array_agg(u.id))[1] END
                    FROM auth.tenant_users m JOIN auth.users u ON u.id = m.user_id
                   WHERE m.tenant_id IN (${tenants}) AND coalesce(u.name, u.email) = r.${column})
          END
          WHERE r.${column} IS NOT NULL`);
        await q.query(`ALTER TABLE ${table} DROP COLUMN ${column}`);
        await q.query(`ALTER TABLE ${table} RENAME COLUMN ${column}_id TO ${column}`);
      }
    }
  }

  /** Back to text columns holding the ids (the names are not restored). */
  async down(q: QueryRunner): Promise<void> {
    for (const { table, columns } of AUDIT_COLUMNS) {
      for (const column of columns) await q.query(`ALTER TABLE ${table} ALTER COLUMN ${column} TYPE varchar(200) USING ${column}::text`);
    }
  }
}
