import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The new key `view:audit` (the audit trail's readers) in every tenant's roles: enabled for the
 * System Admin and the Auditor, as new tenants get it (DEFAULT_ROLES), off for the others.
 */
export class AuthViewAuditKey1765800000002 implements MigrationInterface {
  name = 'AuthViewAuditKey1765800000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      INSERT INTO auth.role_mappings (role_id, relationship_key_name, is_enabled, status)
      SELECT r.id, 'view:audit', coalesce(r.system_key IN ('SYSTEM_ADMIN', 'AUDITOR'), false), 'ACTIVE'
        FROM auth.tenant_roles r
       WHERE NOT EXISTS (SELECT 1 FROM auth.role_mappings m WHERE m.role_id = r.id AND m.relationship_key_name = 'view:audit')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM auth.role_mappings WHERE relationship_key_name = 'view:audit'`);
  }
}
