import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The count of a list filtered by status (the list's tabs) reads a small index of (tenant, status)
 * only: deduplicated, it is a few pages where the sort index (with the name) is many, which halves
 * the count of a status holding most of a large tenant's decisions.
 */
export class DecisionStatusCount1765100000000 implements MigrationInterface {
  name = 'DecisionStatusCount1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX decisions_status_count ON decision.decisions (tenant_id, status) WHERE NOT is_deleted`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX decision.decisions_status_count`);
  }
}
