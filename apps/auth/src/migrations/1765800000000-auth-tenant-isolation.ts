import { isolateTenantTables, releaseTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Row-level security on every tenant table of the auth schema (tenancy.ts in libs/platform). */
export class AuthTenantIsolation1765800000000 implements MigrationInterface {
  name = 'AuthTenantIsolation1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await isolateTenantTables(q, 'auth');
  }

  async down(q: QueryRunner): Promise<void> {
    await releaseTenantTables(q, 'auth');
  }
}
