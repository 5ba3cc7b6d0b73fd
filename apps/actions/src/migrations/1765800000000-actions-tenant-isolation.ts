import { isolateTenantTables, releaseTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Row-level security on every tenant table of the actions schema (tenancy.ts in libs/platform). */
export class ActionsTenantIsolation1765800000000 implements MigrationInterface {
  name = 'ActionsTenantIsolation1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await isolateTenantTables(q, 'actions');
  }

  async down(q: QueryRunner): Promise<void> {
    await releaseTenantTables(q, 'actions');
  }
}
