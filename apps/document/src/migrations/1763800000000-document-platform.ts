import { createPlatformTables, dropPlatformTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The document schema's platform tables (outbox, processed messages, display-id counters). */
export class DocumentPlatform1763800000000 implements MigrationInterface {
  name = 'DocumentPlatform1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await createPlatformTables(q, 'document');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropPlatformTables(q, 'document');
  }
}
