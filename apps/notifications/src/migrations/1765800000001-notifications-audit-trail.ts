import { auditTables, createAuditLog, dropAuditLog, isolateTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The notifications schema's append-only audit trail, written by triggers on its records' tables (audit.ts in libs/platform). */
export class NotificationsAuditTrail1765800000001 implements MigrationInterface {
  name = 'NotificationsAuditTrail1765800000001';

  async up(q: QueryRunner): Promise<void> {
    await createAuditLog(q, 'notifications');
    await auditTables(q, 'notifications');
    await isolateTenantTables(q, 'notifications');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropAuditLog(q, 'notifications');
  }
}
