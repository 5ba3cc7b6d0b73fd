import { isolateTenantTables, releaseTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Row-level security on every tenant table of the matrix schema (tenancy.ts in libs/platform). */
export class MatrixTenantIsolation1765800000000 implements MigrationInterface {
  name = 'MatrixTenantIsolation1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await isolateTenantTables(q, 'matrix');
  }

  async down(q: QueryRunner): Promise<void> {
    await releaseTenantTables(q, 'matrix');
  }
}
