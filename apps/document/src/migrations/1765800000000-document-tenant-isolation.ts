import { isolateTenantTables, releaseTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Row-level security on every tenant table of the document schema (tenancy.ts in libs/platform). */
export class DocumentTenantIsolation1765800000000 implements MigrationInterface {
  name = 'DocumentTenantIsolation1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await isolateTenantTables(q, 'document');
  }

  async down(q: QueryRunner): Promise<void> {
    await releaseTenantTables(q, 'document');
  }
}
