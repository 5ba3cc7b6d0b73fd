import { addChangeIds, dropChangeIds } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The auth outbox rows and processed messages carry their change id, so consistency tokens can be followed. */
export class AuthChangeIds1766200000000 implements MigrationInterface {
  name = 'AuthChangeIds1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await addChangeIds(q, 'auth');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropChangeIds(q, 'auth');
  }
}
