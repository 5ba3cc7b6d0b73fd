import { isolateTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The decision roles of each delegation, for the role matrices: matrix.delegation_role_projection
 * holds each (delegation, role) as the newest assignment left it (fed by the delegation events'
 * `roles` and by evt.decision.delegation.role-assigned, ordered by assignment id), and the
 * delegation's active ones are kept on its projection row and on each history row (`role_ids`), so
 * the grid, now or as of a date, filters without a join.
 */
export class MatrixDelegationRoles1765950000000 implements MigrationInterface {
  name = 'MatrixDelegationRoles1765950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE matrix.delegation_role_projection (
        delegation_id uuid NOT NULL, role_id uuid NOT NULL, tenant_id uuid NOT NULL, role_status varchar(20) NOT NULL,
        assignment_id uuid, version bigint, updated_on timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (delegation_id, role_id)
      )`);
    await q.query(`ALTER TABLE matrix.delegation_projection ADD COLUMN role_ids uuid[] NOT NULL DEFAULT '{}'`);
    await q.query(`ALTER TABLE matrix.delegation_history ADD COLUMN role_ids uuid[] NOT NULL DEFAULT '{}'`);
    await isolateTenantTables(q, 'matrix');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE matrix.delegation_history DROP COLUMN role_ids`);
    await q.query(`ALTER TABLE matrix.delegation_projection DROP COLUMN role_ids`);
    await q.query(`DROP TABLE matrix.delegation_role_projection`);
  }
}
