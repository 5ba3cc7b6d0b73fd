import { createIdempotencyTable, dropIdempotencyTable } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The document schema keeps the answers of requests sent with an Idempotency-Key, for their retries. */
export class DocumentIdempotency1765720000000 implements MigrationInterface {
  name = 'DocumentIdempotency1765720000000';

  async up(q: QueryRunner): Promise<void> {
    await createIdempotencyTable(q, 'document');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropIdempotencyTable(q, 'document');
  }
}
