import { createPlatformTables, dropPlatformTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The matrix schema's platform tables (outbox, processed messages, display-id counters). */
export class MatrixPlatform1763800000000 implements MigrationInterface {
  name = 'MatrixPlatform1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await createPlatformTables(q, 'matrix');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropPlatformTables(q, 'matrix');
  }
}
