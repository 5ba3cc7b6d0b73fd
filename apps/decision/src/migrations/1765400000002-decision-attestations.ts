import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Attestation campaigns: a campaign asks the holder of every delegation in its scope, held when it
 * opens, to confirm or dispute it by a due date (one item per delegation, with the recipient it
 * had then); the overdue sweep marks what is unanswered at the due date and may suspend it. A
 * disputed delegation carries the campaign that flagged it on its own row, so its reads and lists
 * show the flag without a join.
 */
export class DecisionAttestations1765400000002 implements MigrationInterface {
  name = 'DecisionAttestations1765400000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE decision.attestation_campaigns (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        campaign_display_id varchar(20) NOT NULL,
        name varchar(200) NOT NULL,
        -- { decisionIds: [], groupIds: [], all: false } as the campaign was opened.
        scope jsonb NOT NULL,
        due_date timestamptz NOT NULL,
        suspend_overdue boolean NOT NULL DEFAULT false,
        -- OPEN while an item is PENDING, then CLOSED.
        status varchar(10) NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'CLOSED')),
        closed_on timestamptz,
        created_by uuid NOT NULL,
        created_on timestamptz NOT NULL DEFAULT now(),
        updated_on timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, campaign_display_id)
      )`);
    // The list's sorts (the tenant first, the tie-breaker last).
    await q.query(`CREATE INDEX attestation_campaigns_by_created ON decision.attestation_campaigns (tenant_id, created_on, id)`);
    await q.query(`CREATE INDEX attestation_campaigns_by_due ON decision.attestation_campaigns (tenant_id, due_date, id)`);
    await q.query(`CREATE INDEX attestation_campaigns_by_name ON decision.attestation_campaigns (tenant_id, lower(name), id)`);
    // The overdue sweep reads only the open campaigns, by due date.
    await q.query(`CREATE INDEX attestation_campaigns_open_due ON decision.attestation_campaigns (due_date) WHERE status = 'OPEN'`);

    await q.query(`
      CREATE TABLE decision.attestation_items (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        campaign_id uuid NOT NULL REFERENCES decision.attestation_campaigns(id) ON DELETE CASCADE,
        delegation_id uuid NOT NULL REFERENCES decision.delegations(id),
        -- Copied (a display id never changes): the items list and the report sort by it without the delegation.
        delegation_display_id varchar(20) NOT NULL,
        -- Who held the delegation when the campaign opened.
        recipient_type varchar(30) NOT NULL,
        recipient_user_id uuid,
        recipient_position_id uuid,
        status varchar(10) NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'CONFIRMED', 'DISPUTED', 'OVERDUE')),
        comment varchar(2000),
        responded_by uuid,
        responded_on timestamptz,
        -- API (POST .../respond) or ACTION (the actions area's Attestation action).
        responded_via varchar(10),
        created_on timestamptz NOT NULL DEFAULT now(),
        updated_on timestamptz NOT NULL DEFAULT now(),
        UNIQUE (campaign_id, delegation_id)
      )`);
    // A campaign's items in display-id order (the items list, the report), and its counts and status filter.
    await q.query(`CREATE INDEX attestation_items_by_display_id ON decision.attestation_items (campaign_id, (delegation_display_id::bigint), id)`);
    await q.query(`CREATE INDEX attestation_items_by_status ON decision.attestation_items (campaign_id, status, (delegation_display_id::bigint), id)`);
    await q.query(`CREATE INDEX attestation_items_by_delegation ON decision.attestation_items (tenant_id, delegation_id)`);

    // The campaign in which the delegation's holder disputed it (null: not flagged); a later confirmation clears it.
    await q.query(`ALTER TABLE decision.delegations ADD COLUMN attestation_disputed_campaign_id uuid`);
    // The issuer's worklist (GET /decision/v1/delegations?attestationDisputed=true): the few flagged ones, by tenant.
    await q.query(`CREATE INDEX delegations_attestation_disputed ON decision.delegations (tenant_id, attestation_disputed_campaign_id) WHERE attestation_disputed_campaign_id IS NOT NULL`);
    // Each delegation's current revision gets the (unset) flag its view now shows, so the next change's log does not list it as new.
    await q.query(`UPDATE decision.delegation_revisions SET snapshot = snapshot || '{"attestationDisputed": false, "attestationDisputedCampaignId": null}'::jsonb WHERE valid_to IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE decision.delegations DROP COLUMN attestation_disputed_campaign_id`);
    await q.query(`DROP TABLE decision.attestation_items, decision.attestation_campaigns`);
  }
}
