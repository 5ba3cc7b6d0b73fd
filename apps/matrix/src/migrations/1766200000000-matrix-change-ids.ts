import { addChangeIds, dropChangeIds } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The matrix outbox rows and processed messages carry their change id, so consistency tokens can be followed. */
export class MatrixChangeIds1766200000000 implements MigrationInterface {
  name = 'MatrixChangeIds1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await addChangeIds(q, 'matrix');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropChangeIds(q, 'matrix');
  }
}
