import { addTenantColumn, auditTables, dropTenantColumn, isolateTenantTables, unauditTable } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Row-level security on a file's content chunks (document.file_chunks, rows of document.files):
 * the rows get their parent row's tenant as a `tenant_id` of their own, so the database keeps
 * them in their tenant like every other tenant table.
 */
export class DocumentTenantOfChildRows1765800000003 implements MigrationInterface {
  name = 'DocumentTenantOfChildRows1765800000003';

  async up(q: QueryRunner): Promise<void> {
    await addTenantColumn(q, 'document', 'file_chunks', { table: 'files', via: 'file_id' });
    await isolateTenantTables(q, 'document');
    await auditTables(q, 'document');
  }

  async down(q: QueryRunner): Promise<void> {
    await unauditTable(q, 'document', 'file_chunks');
    await dropTenantColumn(q, 'document', 'file_chunks');
  }
}
