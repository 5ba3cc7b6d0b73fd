import { addChangeIds, dropChangeIds } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The settings outbox rows and processed messages carry their change id, so consistency tokens can be followed. */
export class SettingsChangeIds1766200000000 implements MigrationInterface {
  name = 'SettingsChangeIds1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await addChangeIds(q, 'settings');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropChangeIds(q, 'settings');
  }
}
