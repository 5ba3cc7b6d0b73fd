import { addChangeIds, dropChangeIds } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The actions outbox rows and processed messages carry their change id, so consistency tokens can be followed. */
export class ActionsChangeIds1766200000000 implements MigrationInterface {
  name = 'ActionsChangeIds1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await addChangeIds(q, 'actions');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropChangeIds(q, 'actions');
  }
}
