import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delegation events may arrive out of order (a redelivery after a newer event). With the
 * `version` the decision area puts on each event, the projection keeps the newest state only.
 */
export class AuthDelegationVersion1764100000000 implements MigrationInterface {
  name = 'AuthDelegationVersion1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE auth.delegation_projection ADD COLUMN version bigint`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE auth.delegation_projection DROP COLUMN IF EXISTS version`);
  }
}
