import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The assignment each role on a delegation stands at: the id of the evt.decision.delegation.role-assigned
 * that last set it (a uuidv7), which the delegation events carry beside the role so that a consumer
 * of both orders them. Null for a role last set before this (no assignment was recorded).
 */
export class DecisionRoleAssignments1765950000000 implements MigrationInterface {
  name = 'DecisionRoleAssignments1765950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE decision.delegation_roles ADD COLUMN assignment_id uuid`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE decision.delegation_roles DROP COLUMN assignment_id`);
  }
}
