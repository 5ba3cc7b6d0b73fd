import { addTenantColumn, auditTables, dropTenantColumn, isolateTenantTables, unauditTable } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Row-level security on a bulk job's item outcomes (decision.job_items, rows of decision.jobs):
 * the rows get their parent row's tenant as a `tenant_id` of their own, so the database keeps
 * them in their tenant like every other tenant table.
 */
export class DecisionTenantOfChildRows1765800000003 implements MigrationInterface {
  name = 'DecisionTenantOfChildRows1765800000003';

  async up(q: QueryRunner): Promise<void> {
    await addTenantColumn(q, 'decision', 'job_items', { table: 'jobs', via: 'job_id' });
    await isolateTenantTables(q, 'decision');
    await auditTables(q, 'decision');
  }

  async down(q: QueryRunner): Promise<void> {
    await unauditTable(q, 'decision', 'job_items');
    await dropTenantColumn(q, 'decision', 'job_items');
  }
}
