import { isolateTenantTables, releaseTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Row-level security on every tenant table of the settings schema (tenancy.ts in libs/platform). */
export class SettingsTenantIsolation1765800000000 implements MigrationInterface {
  name = 'SettingsTenantIsolation1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await isolateTenantTables(q, 'settings');
  }

  async down(q: QueryRunner): Promise<void> {
    await releaseTenantTables(q, 'settings');
  }
}
