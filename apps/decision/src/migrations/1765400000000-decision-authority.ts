import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The authority engine's indexes and its currency rates. A check starts from the delegations the
 * subject held at an instant (the revision in force then whose recipient is the person or one of the
 * positions they held) and walks up the parents, each by its revision in force then: the revision's
 * decision and recipient become columns (generated from the snapshot) under indexes, so a check is a
 * few index probes per chain link at any instant, a year ago as cheap as now.
 * Currency rates: what one unit of a currency is worth in the tenant's base currency from a date on.
 */
export class DecisionAuthority1765400000000 implements MigrationInterface {
  name = 'DecisionAuthority1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE decision.delegation_revisions
        ADD COLUMN decision_id uuid GENERATED ALWAYS AS ((snapshot ->> 'decisionId')::uuid) STORED,
        ADD COLUMN recipient_user_id uuid GENERATED ALWAYS AS ((snapshot ->> 'recipientUserId')::uuid) STORED,
        ADD COLUMN recipient_position_id uuid GENERATED ALWAYS AS ((snapshot ->> 'recipientPositionId')::uuid) STORED,
        ADD COLUMN recipient_type varchar(30) GENERATED ALWAYS AS (snapshot ->> 'recipientType') STORED,
        ADD COLUMN parent_delegation_id uuid GENERATED ALWAYS AS ((snapshot ->> 'parentDelegationId')::uuid) STORED`);
    await q.query(`CREATE INDEX delegation_revisions_by_user ON decision.delegation_revisions (tenant_id, recipient_user_id, decision_id, revision_date) WHERE recipient_user_id IS NOT NULL`);
    await q.query(`CREATE INDEX delegation_revisions_by_position ON decision.delegation_revisions (tenant_id, recipient_position_id, decision_id, revision_date) WHERE recipient_position_id IS NOT NULL`);
    // Every delegation of a decision as it stood at an instant (holders, the list as of an instant).
    await q.query(`CREATE INDEX delegation_revisions_by_decision ON decision.delegation_revisions (tenant_id, decision_id, revision_date)`);
    await q.query(`
      CREATE TABLE decision.currency_rates (
        tenant_id uuid NOT NULL,
        currency varchar(3) NOT NULL,
        valid_from date NOT NULL,
        -- One unit of the currency in the tenant's base currency.
        rate numeric(30, 12) NOT NULL CHECK (rate > 0),
        updated_by uuid,
        updated_on timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, currency, valid_from)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE decision.currency_rates`);
    await q.query(`DROP INDEX decision.delegation_revisions_by_user, decision.delegation_revisions_by_position, decision.delegation_revisions_by_decision`);
    await q.query(`ALTER TABLE decision.delegation_revisions DROP COLUMN decision_id, DROP COLUMN recipient_user_id, DROP COLUMN recipient_position_id, DROP COLUMN recipient_type, DROP COLUMN parent_delegation_id`);
  }
}
