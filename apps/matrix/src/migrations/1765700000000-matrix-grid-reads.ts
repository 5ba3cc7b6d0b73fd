import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The grid's holder columns (a matrix that names no users, positions or groups) walk the distinct
 * recipients of a tenant, then probe each for a delegation of one of the matrix's decisions: an
 * index by recipient position and one by recipient user (held without a position), ending with the
 * decision, over the live delegations and over their history (`?at=`).
 *
 * And no parallel scans of these two tables: the service reads them per request (a grid page's
 * 10,000 delegations, by decision), and with many requests at once two extra workers per statement
 * cost more CPU than they save (a page's 10,000 delegations: about 22 ms in each of three processes in
 * parallel, about 39 ms in one serially).
 */
export class MatrixGridReads1765700000000 implements MigrationInterface {
  name = 'MatrixGridReads1765700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX delegation_projection_by_position ON matrix.delegation_projection (tenant_id, recipient_position_id, decision_id) WHERE revoked_on IS NULL`);
    await q.query(
      `CREATE INDEX delegation_projection_by_user ON matrix.delegation_projection (tenant_id, recipient_user_id, decision_id) WHERE revoked_on IS NULL AND recipient_position_id IS NULL`,
    );
    await q.query(`CREATE INDEX delegation_history_by_position ON matrix.delegation_history (tenant_id, recipient_position_id, decision_id)`);
    await q.query(`CREATE INDEX delegation_history_by_user ON matrix.delegation_history (tenant_id, recipient_user_id, decision_id) WHERE recipient_position_id IS NULL`);
    await q.query(`ALTER TABLE matrix.delegation_projection SET (parallel_workers = 0)`);
    await q.query(`ALTER TABLE matrix.delegation_history SET (parallel_workers = 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE matrix.delegation_projection RESET (parallel_workers)`);
    await q.query(`ALTER TABLE matrix.delegation_history RESET (parallel_workers)`);
    await q.query(`DROP INDEX IF EXISTS matrix.delegation_projection_by_position, matrix.delegation_projection_by_user, matrix.delegation_history_by_position, matrix.delegation_history_by_user`);
  }
}
