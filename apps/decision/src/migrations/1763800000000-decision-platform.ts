import { createPlatformTables, dropPlatformTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The decision schema's platform tables (outbox, processed messages, display-id counters). */
export class DecisionPlatform1763800000000 implements MigrationInterface {
  name = 'DecisionPlatform1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await createPlatformTables(q, 'decision');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropPlatformTables(q, 'decision');
  }
}
