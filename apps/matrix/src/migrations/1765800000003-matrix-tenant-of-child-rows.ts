import { addTenantColumn, auditTables, dropTenantColumn, isolateTenantTables, unauditTable } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Row-level security on a shared link's wrong-password attempts (matrix.share_failures, rows of matrix.matrices):
 * the rows get their parent row's tenant as a `tenant_id` of their own, so the database keeps
 * them in their tenant like every other tenant table.
 */
export class MatrixTenantOfChildRows1765800000003 implements MigrationInterface {
  name = 'MatrixTenantOfChildRows1765800000003';

  async up(q: QueryRunner): Promise<void> {
    await addTenantColumn(q, 'matrix', 'share_failures', { table: 'matrices', via: 'matrix_id' });
    await isolateTenantTables(q, 'matrix');
    await auditTables(q, 'matrix');
  }

  async down(q: QueryRunner): Promise<void> {
    await unauditTable(q, 'matrix', 'share_failures');
    await dropTenantColumn(q, 'matrix', 'share_failures');
  }
}
