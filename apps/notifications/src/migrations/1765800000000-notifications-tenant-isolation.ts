import { isolateTenantTables, releaseTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Row-level security on every tenant table of the notifications schema (tenancy.ts in libs/platform). */
export class NotificationsTenantIsolation1765800000000 implements MigrationInterface {
  name = 'NotificationsTenantIsolation1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await isolateTenantTables(q, 'notifications');
  }

  async down(q: QueryRunner): Promise<void> {
    await releaseTenantTables(q, 'notifications');
  }
}
