import { isolateTenantTables, releaseTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Row-level security on every tenant table of the decision schema (tenancy.ts in libs/platform). */
export class DecisionTenantIsolation1765800000000 implements MigrationInterface {
  name = 'DecisionTenantIsolation1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await isolateTenantTables(q, 'decision');
  }

  async down(q: QueryRunner): Promise<void> {
    await releaseTenantTables(q, 'decision');
  }
}
