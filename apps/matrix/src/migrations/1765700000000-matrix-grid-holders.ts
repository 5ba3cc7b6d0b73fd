import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The grid's holder columns (a matrix that names no users, positions or groups) walk the distinct
 * recipients of a tenant, then probe each for a delegation of one of the matrix's decisions: an
 * index by recipient position and one by recipient user (held without a position), ending with the
 * decision, over the live delegations and over their history (`?at=`).
 */
export class MatrixGridHolders1765700000000 implements MigrationInterface {
  name = 'MatrixGridHolders1765700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX delegation_projection_by_position ON matrix.delegation_projection (tenant_id, recipient_position_id, decision_id) WHERE revoked_on IS NULL`);
    await q.query(
      `CREATE INDEX delegation_projection_by_user ON matrix.delegation_projection (tenant_id, recipient_user_id, decision_id) WHERE revoked_on IS NULL AND recipient_position_id IS NULL`,
    );
    await q.query(`CREATE INDEX delegation_history_by_position ON matrix.delegation_history (tenant_id, recipient_position_id, decision_id)`);
    await q.query(`CREATE INDEX delegation_history_by_user ON matrix.delegation_history (tenant_id, recipient_user_id, decision_id) WHERE recipient_position_id IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS matrix.delegation_projection_by_position, matrix.delegation_projection_by_user, matrix.delegation_history_by_position, matrix.delegation_history_by_user`);
  }
}
