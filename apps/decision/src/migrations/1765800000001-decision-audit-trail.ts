import { auditTables, createAuditLog, dropAuditLog, isolateTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The decision schema's append-only audit trail, written by triggers on its records' tables (audit.ts in libs/platform). */
export class DecisionAuditTrail1765800000001 implements MigrationInterface {
  name = 'DecisionAuditTrail1765800000001';

  async up(q: QueryRunner): Promise<void> {
    await createAuditLog(q, 'decision');
    await auditTables(q, 'decision');
    await isolateTenantTables(q, 'decision');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropAuditLog(q, 'decision');
  }
}
