import { auditTables, createAuditLog, dropAuditLog, isolateTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The matrix schema's append-only audit trail, written by triggers on its records' tables (audit.ts in libs/platform). */
export class MatrixAuditTrail1765800000001 implements MigrationInterface {
  name = 'MatrixAuditTrail1765800000001';

  async up(q: QueryRunner): Promise<void> {
    await createAuditLog(q, 'matrix');
    await auditTables(q, 'matrix');
    await isolateTenantTables(q, 'matrix');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropAuditLog(q, 'matrix');
  }
}
