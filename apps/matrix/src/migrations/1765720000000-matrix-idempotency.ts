import { createIdempotencyTable, dropIdempotencyTable } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The matrix schema keeps the answers of requests sent with an Idempotency-Key, for their retries. */
export class MatrixIdempotency1765720000000 implements MigrationInterface {
  name = 'MatrixIdempotency1765720000000';

  async up(q: QueryRunner): Promise<void> {
    await createIdempotencyTable(q, 'matrix');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropIdempotencyTable(q, 'matrix');
  }
}
