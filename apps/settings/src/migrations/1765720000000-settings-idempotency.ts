import { createIdempotencyTable, dropIdempotencyTable } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The settings schema keeps the answers of requests sent with an Idempotency-Key, for their retries. */
export class SettingsIdempotency1765720000000 implements MigrationInterface {
  name = 'SettingsIdempotency1765720000000';

  async up(q: QueryRunner): Promise<void> {
    await createIdempotencyTable(q, 'settings');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropIdempotencyTable(q, 'settings');
  }
}
