import { auditTables, createAuditLog, dropAuditLog, isolateTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The actions schema's append-only audit trail, written by triggers on its records' tables (audit.ts in libs/platform). */
export class ActionsAuditTrail1765800000001 implements MigrationInterface {
  name = 'ActionsAuditTrail1765800000001';

  async up(q: QueryRunner): Promise<void> {
    await createAuditLog(q, 'actions');
    await auditTables(q, 'actions');
    await isolateTenantTables(q, 'actions');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropAuditLog(q, 'actions');
  }
}
