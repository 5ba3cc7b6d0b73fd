import { addTenantColumn, auditTables, dropTenantColumn, isolateTenantTables, unauditTable } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Row-level security on a group's address (settings.group_addresses, rows of settings.groups):
 * the rows get their parent row's tenant as a `tenant_id` of their own, so the database keeps
 * them in their tenant like every other tenant table.
 */
export class SettingsTenantOfChildRows1765800000003 implements MigrationInterface {
  name = 'SettingsTenantOfChildRows1765800000003';

  async up(q: QueryRunner): Promise<void> {
    await addTenantColumn(q, 'settings', 'group_addresses', { table: 'groups', via: 'group_id' });
    await isolateTenantTables(q, 'settings');
    await auditTables(q, 'settings');
  }

  async down(q: QueryRunner): Promise<void> {
    await unauditTable(q, 'settings', 'group_addresses');
    await dropTenantColumn(q, 'settings', 'group_addresses');
  }
}
