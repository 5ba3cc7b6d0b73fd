import { addTenantColumn, auditTables, dropTenantColumn, isolateTenantTables, unauditTable } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Row-level security on a role's permission mappings (auth.role_mappings, rows of auth.tenant_roles):
 * the rows get their parent row's tenant as a `tenant_id` of their own, so the database keeps
 * them in their tenant like every other tenant table.
 */
export class AuthTenantOfChildRows1765800000003 implements MigrationInterface {
  name = 'AuthTenantOfChildRows1765800000003';

  async up(q: QueryRunner): Promise<void> {
    await addTenantColumn(q, 'auth', 'role_mappings', { table: 'tenant_roles', via: 'role_id' });
    await isolateTenantTables(q, 'auth');
    await auditTables(q, 'auth');
  }

  async down(q: QueryRunner): Promise<void> {
    await unauditTable(q, 'auth', 'role_mappings');
    await dropTenantColumn(q, 'auth', 'role_mappings');
  }
}
