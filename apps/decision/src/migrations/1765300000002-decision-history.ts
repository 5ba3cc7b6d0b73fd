import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Validity history, so the decision area can answer "as of an instant" with indexed queries (the
 * authority engine, a delegation as it stood): each delegation revision is valid until the next one
 * (`valid_to`, null for the current one); who held which position, who reported to whom and where
 * each group sat in the hierarchy, each with valid_from / valid_to, kept by the projections of
 * auth's and settings' events as they change. Rows before this migration start at its time.
 */
export class DecisionHistory1765300000002 implements MigrationInterface {
  name = 'DecisionHistory1765300000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE decision.delegation_revisions ADD COLUMN valid_to timestamptz`);
    await q.query(`
      UPDATE decision.delegation_revisions r SET valid_to = n.next_date
        FROM (SELECT id, lead(revision_date) OVER (PARTITION BY delegation_id ORDER BY revision_id) AS next_date FROM decision.delegation_revisions) n
       WHERE n.id = r.id AND n.next_date IS NOT NULL`);
    await q.query(`CREATE INDEX delegation_revisions_at ON decision.delegation_revisions (delegation_id, revision_date DESC)`);

    await q.query(`
      CREATE TABLE decision.position_holding_history (
        id bigserial PRIMARY KEY, tenant_id uuid NOT NULL, user_id uuid NOT NULL, position_id uuid NOT NULL,
        valid_from timestamptz NOT NULL DEFAULT now(), valid_to timestamptz
      )`);
    await q.query(`CREATE INDEX position_holding_history_user ON decision.position_holding_history (tenant_id, user_id, valid_from)`);
    await q.query(`CREATE INDEX position_holding_history_position ON decision.position_holding_history (tenant_id, position_id, valid_from)`);
    await q.query(`CREATE UNIQUE INDEX position_holding_history_open ON decision.position_holding_history (tenant_id, user_id, position_id) WHERE valid_to IS NULL`);
    await q.query(`
      INSERT INTO decision.position_holding_history (tenant_id, user_id, position_id)
      SELECT u.tenant_id, u.id, p FROM decision.user_projection u CROSS JOIN unnest(u.position_ids) AS p`);

    await q.query(`
      CREATE TABLE decision.manager_history (
        id bigserial PRIMARY KEY, tenant_id uuid NOT NULL, user_id uuid NOT NULL, manager_id uuid,
        valid_from timestamptz NOT NULL DEFAULT now(), valid_to timestamptz
      )`);
    await q.query(`CREATE INDEX manager_history_user ON decision.manager_history (tenant_id, user_id, valid_from)`);
    await q.query(`CREATE UNIQUE INDEX manager_history_open ON decision.manager_history (tenant_id, user_id) WHERE valid_to IS NULL`);
    await q.query(`INSERT INTO decision.manager_history (tenant_id, user_id, manager_id) SELECT tenant_id, id, manager_id FROM decision.user_projection`);

    await q.query(`
      CREATE TABLE decision.group_history (
        id bigserial PRIMARY KEY, tenant_id uuid NOT NULL, group_id uuid NOT NULL, parent_group_ids uuid[] NOT NULL, live boolean NOT NULL,
        valid_from timestamptz NOT NULL DEFAULT now(), valid_to timestamptz
      )`);
    await q.query(`CREATE INDEX group_history_group ON decision.group_history (tenant_id, group_id, valid_from)`);
    await q.query(`CREATE UNIQUE INDEX group_history_open ON decision.group_history (tenant_id, group_id) WHERE valid_to IS NULL`);
    await q.query(`
      INSERT INTO decision.group_history (tenant_id, group_id, parent_group_ids, live)
      SELECT tenant_id, id, parent_group_ids, NOT is_deleted AND status = 'ACTIVE' FROM decision.group_projection`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE decision.group_history, decision.manager_history, decision.position_holding_history`);
    await q.query(`DROP INDEX decision.delegation_revisions_at`);
    await q.query(`ALTER TABLE decision.delegation_revisions DROP COLUMN valid_to`);
  }
}
