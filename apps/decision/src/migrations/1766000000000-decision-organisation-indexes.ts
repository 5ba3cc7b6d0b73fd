import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The organisation's lines read the other way round. The holders of a position, by the positions
 * they hold: the rules reach a POSITION_ONLY recipient through its holders (their reporting lines,
 * their groups), and a person's change reaches the delegations of the positions they hold. The
 * groups below a group, by their parents: a group moved or closed reaches the delegations scoped to
 * everything below it. Without them each step scanned every member (or group) of every tenant.
 */
export class DecisionOrganisationIndexes1766000000000 implements MigrationInterface {
  name = 'DecisionOrganisationIndexes1766000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX user_projection_by_position ON decision.user_projection USING gin (position_ids)`);
    await q.query(`CREATE INDEX group_projection_by_parent ON decision.group_projection USING gin (parent_group_ids)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX decision.group_projection_by_parent`);
    await q.query(`DROP INDEX decision.user_projection_by_position`);
  }
}
