import { auditAcrossTenants, unauditTable } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trail of people and tenants, the two auth tables without a `tenant_id` (audit.ts in
 * libs/platform): a change of a person (name, phone, preferences, identity link) is entered in the
 * trail of every tenant the person is a member of, and of the tenant that is creating them; a
 * change of a tenant in its own. Sign-ins are left out here: each membership's copy of the last
 * sign-in is in its tenant's trail already.
 *
 * And a fix: a person's new name reached the search and sort copy (auth.tenant_users) of their
 * membership in the tenant that changed it only, row-level security hiding the others, so
 * another tenant searched and sorted them by their old name. The copy now runs as its definer,
 * who may write every membership (the cross_tenant policy).
 */
export class AuthPeopleAndTenantsAudit1766000000000 implements MigrationInterface {
  name = 'AuthPeopleAndTenantsAudit1766000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION auth.tenants_of_user(u auth.users) RETURNS SETOF uuid LANGUAGE sql STABLE AS $$
        SELECT m.tenant_id FROM auth.tenant_users m WHERE m.user_id = u.id AND NOT m.is_deleted
        UNION
        SELECT u.active_tenant_id WHERE u.active_tenant_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM auth.tenant_users m WHERE m.user_id = u.id)
      $$`);
    await q.query(`CREATE FUNCTION auth.tenants_of_tenant(t auth.tenants) RETURNS SETOF uuid LANGUAGE sql IMMUTABLE AS $$ SELECT t.id $$`);
    await auditAcrossTenants(q, 'auth', 'users', 'auth.tenants_of_user', ['last_login_date']);
    await auditAcrossTenants(q, 'auth', 'tenants', 'auth.tenants_of_tenant');
    await q.query(`ALTER FUNCTION auth.users_copy_to_memberships() SECURITY DEFINER SET search_path = pg_catalog, pg_temp`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER FUNCTION auth.users_copy_to_memberships() SECURITY INVOKER RESET search_path`);
    await unauditTable(q, 'auth', 'tenants');
    await unauditTable(q, 'auth', 'users');
    await q.query(`DROP FUNCTION auth.audit_changes_across_tenants()`);
    await q.query(`DROP FUNCTION auth.tenants_of_tenant(auth.tenants)`);
    await q.query(`DROP FUNCTION auth.tenants_of_user(auth.users)`);
  }
}
