import { createIdempotencyTable, dropIdempotencyTable } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The auth schema keeps the answers of requests sent with an Idempotency-Key, for their retries. */
export class AuthIdempotency1765720000000 implements MigrationInterface {
  name = 'AuthIdempotency1765720000000';

  async up(q: QueryRunner): Promise<void> {
    await createIdempotencyTable(q, 'auth');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropIdempotencyTable(q, 'auth');
  }
}
