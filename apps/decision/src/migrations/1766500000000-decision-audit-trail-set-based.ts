import { MigrationInterface, QueryRunner } from 'typeorm';
import { upgradeAuditTrail } from '@ddm/platform';

/**
 * The decision schema's trail in its set-based form (audit.ts in libs/platform): entries hold the
 * changed fields `before` and `after`, each row serialised once, the changed fields found by
 * hstore's difference; the existing entries are converted. The trail keeps its new shape on the
 * way down: only the functions could go back, and the entries written since have no other form.
 */
export class DecisionAuditTrailSetBased1766500000000 implements MigrationInterface {
  name = 'DecisionAuditTrailSetBased1766500000000';

  async up(q: QueryRunner): Promise<void> {
    await upgradeAuditTrail(q, 'decision');
  }

  async down(): Promise<void> {
    // Irreversible by design (see above); the earlier migrations' down still drops the trail.
  }
}
