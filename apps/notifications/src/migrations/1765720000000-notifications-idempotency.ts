import { createIdempotencyTable, dropIdempotencyTable } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The notifications schema keeps the answers of requests sent with an Idempotency-Key, for their retries. */
export class NotificationsIdempotency1765720000000 implements MigrationInterface {
  name = 'NotificationsIdempotency1765720000000';

  async up(q: QueryRunner): Promise<void> {
    await createIdempotencyTable(q, 'notifications');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropIdempotencyTable(q, 'notifications');
  }
}
