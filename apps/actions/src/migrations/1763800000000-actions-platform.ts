import { createPlatformTables, dropPlatformTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The actions schema's platform tables (outbox, processed messages, display-id counters). */
export class ActionsPlatform1763800000000 implements MigrationInterface {
  name = 'ActionsPlatform1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await createPlatformTables(q, 'actions');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropPlatformTables(q, 'actions');
  }
}
