import { addProjectionBackfills, dropProjectionBackfills } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * matrix.projection_backfills: which projections were backfilled from the owning area's snapshot
 * (the decision roles projection, added after the settings area's first roles were published).
 */
export class MatrixProjectionBackfills1766400000000 implements MigrationInterface {
  name = 'MatrixProjectionBackfills1766400000000';

  async up(q: QueryRunner): Promise<void> {
    await addProjectionBackfills(q, 'matrix');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropProjectionBackfills(q, 'matrix');
  }
}
