import { auditTables, createAuditLog, dropAuditLog, isolateTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The settings schema's append-only audit trail, written by triggers on its records' tables (audit.ts in libs/platform). */
export class SettingsAuditTrail1765800000001 implements MigrationInterface {
  name = 'SettingsAuditTrail1765800000001';

  async up(q: QueryRunner): Promise<void> {
    await createAuditLog(q, 'settings');
    await auditTables(q, 'settings');
    await isolateTenantTables(q, 'settings');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropAuditLog(q, 'settings');
  }
}
