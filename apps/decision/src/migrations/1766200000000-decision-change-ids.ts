import { addChangeIds, dropChangeIds } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The decision outbox rows and processed messages carry their change id, so consistency tokens can be followed. */
export class DecisionChangeIds1766200000000 implements MigrationInterface {
  name = 'DecisionChangeIds1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await addChangeIds(q, 'decision');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropChangeIds(q, 'decision');
  }
}
