import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Segregation of duties: a tenant's rules (the holder of one side, a decision's authority type, must
 * not also hold the other), deleted softly so the rule ids a delegation acknowledged still name a
 * rule; and on each delegation the rules whose conflicts were acknowledged when it began to hold.
 */
export class DecisionSodRules1765400000001 implements MigrationInterface {
  name = 'DecisionSodRules1765400000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE decision.sod_rules (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        sod_rule_display_id varchar(20) NOT NULL,
        name varchar(200) NOT NULL,
        left_decision_id uuid NOT NULL REFERENCES decision.decisions(id),
        left_authority_type_id uuid NOT NULL,
        right_decision_id uuid NOT NULL REFERENCES decision.decisions(id),
        right_authority_type_id uuid NOT NULL,
        -- Only a conflict when the two delegations' groups overlap (a delegation without groups overlaps every one).
        same_group_only boolean NOT NULL DEFAULT false,
        created_on timestamptz NOT NULL DEFAULT now(),
        created_by uuid,
        updated_on timestamptz NOT NULL DEFAULT now(),
        updated_by uuid,
        is_deleted boolean NOT NULL DEFAULT false,
        deleted_on timestamptz,
        deleted_by uuid,
        UNIQUE (tenant_id, sod_rule_display_id),
        CHECK (left_decision_id <> right_decision_id OR left_authority_type_id <> right_authority_type_id)
      )`);
    // Names are unique among the tenant's live rules (case-insensitive); the index also serves the list sorted by name.
    await q.query(`CREATE UNIQUE INDEX sod_rules_name_unique ON decision.sod_rules (tenant_id, lower(name)) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX sod_rules_by_name ON decision.sod_rules (tenant_id, lower(name), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX sod_rules_by_created ON decision.sod_rules (tenant_id, created_on, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX sod_rules_by_updated ON decision.sod_rules (tenant_id, updated_on, id) WHERE NOT is_deleted`);
    // Issuing a delegation reads the rules of its decision, on either side.
    await q.query(`CREATE INDEX sod_rules_by_left_decision ON decision.sod_rules (tenant_id, left_decision_id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX sod_rules_by_right_decision ON decision.sod_rules (tenant_id, right_decision_id) WHERE NOT is_deleted`);

    await q.query(`ALTER TABLE decision.delegations ADD COLUMN sod_acknowledged_rule_ids uuid[] NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE decision.delegations DROP COLUMN sod_acknowledged_rule_ids`);
    await q.query(`DROP TABLE decision.sod_rules`);
  }
}
