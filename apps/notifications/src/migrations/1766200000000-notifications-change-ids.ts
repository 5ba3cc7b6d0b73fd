import { addChangeIds, dropChangeIds } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The notifications outbox rows and processed messages carry their change id, so consistency tokens can be followed. */
export class NotificationsChangeIds1766200000000 implements MigrationInterface {
  name = 'NotificationsChangeIds1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await addChangeIds(q, 'notifications');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropChangeIds(q, 'notifications');
  }
}
