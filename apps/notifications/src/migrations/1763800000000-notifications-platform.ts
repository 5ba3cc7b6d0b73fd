import { createPlatformTables, dropPlatformTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The notifications schema's platform tables (outbox, processed messages, display-id counters). */
export class NotificationsPlatform1763800000000 implements MigrationInterface {
  name = 'NotificationsPlatform1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await createPlatformTables(q, 'notifications');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropPlatformTables(q, 'notifications');
  }
}
