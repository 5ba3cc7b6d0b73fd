import { createIdempotencyTable, dropIdempotencyTable } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The decision schema keeps the answers of requests sent with an Idempotency-Key, for their retries. */
export class DecisionIdempotency1765720000000 implements MigrationInterface {
  name = 'DecisionIdempotency1765720000000';

  async up(q: QueryRunner): Promise<void> {
    await createIdempotencyTable(q, 'decision');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropIdempotencyTable(q, 'decision');
  }
}
