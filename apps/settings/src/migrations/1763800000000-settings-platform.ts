import { createPlatformTables, dropPlatformTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The settings schema's platform tables (outbox, processed messages, display-id counters). */
export class SettingsPlatform1763800000000 implements MigrationInterface {
  name = 'SettingsPlatform1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await createPlatformTables(q, 'settings');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropPlatformTables(q, 'settings');
  }
}
