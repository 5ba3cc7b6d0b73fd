import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Roles on delegations: the settings area's decision roles (Informed, Consulted, ...) projected here,
 * and when each delegation role mapping was made; the permission keys of each person (auth), whom a
 * delegation awaiting approval names.
 */
export class DecisionDelegationRoles1765300000000 implements MigrationInterface {
  name = 'DecisionDelegationRoles1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE decision.decision_role_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, role_name varchar(50) NOT NULL, status varchar(20) NOT NULL DEFAULT 'ACTIVE',
        is_deleted boolean NOT NULL DEFAULT false, version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX decision_role_projection_by_tenant ON decision.decision_role_projection (tenant_id, lower(role_name), id) WHERE NOT is_deleted`);
    await q.query(`ALTER TABLE decision.delegation_roles ADD COLUMN created_on timestamptz NOT NULL DEFAULT now()`);
    await q.query(`ALTER TABLE decision.user_projection ADD COLUMN permission_keys text[] NOT NULL DEFAULT '{}'`);
    await q.query(`CREATE INDEX user_projection_approvers ON decision.user_projection (tenant_id) WHERE 'approve:delegations' = ANY(permission_keys) AND status = 'ACTIVE'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE decision.user_projection DROP COLUMN permission_keys`);
    await q.query(`ALTER TABLE decision.delegation_roles DROP COLUMN created_on`);
    await q.query(`DROP TABLE decision.decision_role_projection`);
  }
}
