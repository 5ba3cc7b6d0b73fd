import { auditTables, createAuditLog, dropAuditLog, isolateTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The auth schema's append-only audit trail, written by triggers on its records' tables (audit.ts in libs/platform). */
export class AuthAuditTrail1765800000001 implements MigrationInterface {
  name = 'AuthAuditTrail1765800000001';

  async up(q: QueryRunner): Promise<void> {
    await createAuditLog(q, 'auth');
    await auditTables(q, 'auth');
    await isolateTenantTables(q, 'auth');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropAuditLog(q, 'auth');
  }
}
