import { auditTables, createAuditLog, dropAuditLog, isolateTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The document schema's append-only audit trail, written by triggers on its records' tables (audit.ts in libs/platform). */
export class DocumentAuditTrail1765800000001 implements MigrationInterface {
  name = 'DocumentAuditTrail1765800000001';

  async up(q: QueryRunner): Promise<void> {
    await createAuditLog(q, 'document');
    await auditTables(q, 'document');
    await isolateTenantTables(q, 'document');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropAuditLog(q, 'document');
  }
}
