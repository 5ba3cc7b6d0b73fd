import { createIdempotencyTable, dropIdempotencyTable } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The actions schema keeps the answers of requests sent with an Idempotency-Key, for their retries. */
export class ActionsIdempotency1765720000000 implements MigrationInterface {
  name = 'ActionsIdempotency1765720000000';

  async up(q: QueryRunner): Promise<void> {
    await createIdempotencyTable(q, 'actions');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropIdempotencyTable(q, 'actions');
  }
}
