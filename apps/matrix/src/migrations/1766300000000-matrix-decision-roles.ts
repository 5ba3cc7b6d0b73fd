import { isolateTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The settings area's decision roles projected here (matrix.decision_role_projection), so the roles a
 * matrix names (matrixDelegation.roleIds, matrixAuthorityRoles) are checked to be the tenant's.
 */
export class MatrixDecisionRoles1766300000000 implements MigrationInterface {
  name = 'MatrixDecisionRoles1766300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE matrix.decision_role_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, role_name varchar(50) NOT NULL, status varchar(20) NOT NULL DEFAULT 'ACTIVE',
        is_deleted boolean NOT NULL DEFAULT false, version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX decision_role_projection_by_tenant ON matrix.decision_role_projection (tenant_id, id) WHERE NOT is_deleted`);
    await isolateTenantTables(q, 'matrix');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE matrix.decision_role_projection`);
  }
}
