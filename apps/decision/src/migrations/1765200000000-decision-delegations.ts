import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delegations (a decision's authority handed on, root or redelegation, spec §2.1 and issue 11) with
 * their documents, conditions, roles and every revision, and the projections the rules read: the
 * positions with their groups, the people with their manager, positions and groups, the group
 * hierarchy.
 *
 * A delegation keeps its groups and authorities on its own row (jsonb, with the group ids as an
 * array for filters): the rules read a delegation, its parent and a whole subtree (one recursive
 * statement) without a join per child table.
 */
export class DecisionDelegations1765200000000 implements MigrationInterface {
  name = 'DecisionDelegations1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE decision.delegations (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        delegation_display_id varchar(20) NOT NULL,
        decision_id uuid NOT NULL REFERENCES decision.decisions(id),
        parent_delegation_id uuid REFERENCES decision.delegations(id),
        -- 0 for a root delegation, the parent's depth + 1 for a redelegation.
        depth integer NOT NULL DEFAULT 0,
        issuer_type varchar(30) NOT NULL,
        issuer_user_id uuid,
        issuer_position_id uuid,
        recipient_type varchar(30) NOT NULL,
        recipient_user_id uuid,
        recipient_position_id uuid,
        recipient_auto_issue boolean NOT NULL DEFAULT false,
        status varchar(20) NOT NULL,
        -- What a PENDING delegation waits for: APPROVAL or ACCEPTANCE.
        pending_stage varchar(20),
        effective_date timestamptz NOT NULL,
        expiration_date timestamptz,
        is_no_expiration boolean NOT NULL DEFAULT false,
        issued_date timestamptz,
        accepted_date timestamptz,
        delegation_pathway text[] NOT NULL DEFAULT '{}',
        group_ids uuid[] NOT NULL DEFAULT '{}',
        -- [{ groupId, tenantGroupTypeId }] and [{ authorityTypeId, ..., redelegable, redelegationLimitValue, ... }], in order.
        delegation_groups jsonb NOT NULL DEFAULT '[]',
        delegation_authorities jsonb NOT NULL DEFAULT '[]',
        is_invalid boolean NOT NULL DEFAULT false,
        invalid_fields text[] NOT NULL DEFAULT '{}',
        copied_from uuid,
        -- Increases with every change: events carry it, so other areas keep the newest state.
        version integer NOT NULL DEFAULT 1,
        created_on timestamptz NOT NULL DEFAULT now(),
        created_by uuid,
        updated_on timestamptz NOT NULL DEFAULT now(),
        updated_by uuid,
        deleted_on timestamptz,
        deleted_by uuid,
        UNIQUE (tenant_id, delegation_display_id)
      )`);
    await q.query(`CREATE INDEX delegations_children ON decision.delegations (parent_delegation_id) WHERE parent_delegation_id IS NOT NULL`);
    await q.query(`CREATE INDEX delegations_by_decision ON decision.delegations (tenant_id, decision_id, status)`);
    await q.query(`CREATE INDEX delegations_by_display_id ON decision.delegations (tenant_id, (delegation_display_id::bigint), id) WHERE status <> 'DELETED'`);
    await q.query(`CREATE INDEX delegations_by_updated ON decision.delegations (tenant_id, updated_on, id) WHERE status <> 'DELETED'`);
    await q.query(`CREATE INDEX delegations_by_recipient_user ON decision.delegations (tenant_id, recipient_user_id) WHERE recipient_user_id IS NOT NULL`);
    await q.query(`CREATE INDEX delegations_by_recipient_position ON decision.delegations (tenant_id, recipient_position_id) WHERE recipient_position_id IS NOT NULL`);
    await q.query(`CREATE INDEX delegations_by_issuer_user ON decision.delegations (tenant_id, issuer_user_id) WHERE issuer_user_id IS NOT NULL`);
    await q.query(`CREATE INDEX delegations_by_group ON decision.delegations USING gin (group_ids)`);
    // The expiry sweep reads only what may expire.
    await q.query(`CREATE INDEX delegations_expiring ON decision.delegations (expiration_date) WHERE status IN ('ISSUED', 'ACCEPTED') AND expiration_date IS NOT NULL`);

    await q.query(`
      CREATE TABLE decision.delegation_documents (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        delegation_id uuid NOT NULL REFERENCES decision.delegations(id) ON DELETE CASCADE,
        document_id uuid NOT NULL,
        is_pinned boolean NOT NULL DEFAULT false,
        position integer NOT NULL,
        UNIQUE (delegation_id, document_id)
      )`);
    await q.query(`CREATE INDEX delegation_documents_document ON decision.delegation_documents (tenant_id, document_id)`);

    await q.query(`
      CREATE TABLE decision.delegation_conditions (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        delegation_id uuid NOT NULL REFERENCES decision.delegations(id) ON DELETE CASCADE,
        condition_id uuid NOT NULL,
        condition_name varchar(150) NOT NULL,
        condition_description text,
        is_active boolean NOT NULL DEFAULT true,
        condition_created_on timestamptz NOT NULL DEFAULT now(),
        created_on timestamptz NOT NULL DEFAULT now(),
        updated_on timestamptz NOT NULL DEFAULT now(),
        UNIQUE (delegation_id, condition_id)
      )`);

    // Every change of a delegation's conditions: the mapping as it became (GET .../{delegationId}/conditions-history).
    await q.query(`
      CREATE TABLE decision.delegation_condition_history (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        delegation_id uuid NOT NULL REFERENCES decision.delegations(id) ON DELETE CASCADE,
        mapping_id uuid NOT NULL,
        condition_id uuid NOT NULL,
        condition_name varchar(150) NOT NULL,
        condition_description text,
        is_active boolean NOT NULL,
        condition_created_on timestamptz NOT NULL,
        created_on timestamptz NOT NULL,
        updated_on timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX delegation_condition_history_by_delegation ON decision.delegation_condition_history (delegation_id, updated_on)`);

    await q.query(`
      CREATE TABLE decision.delegation_roles (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        delegation_id uuid NOT NULL REFERENCES decision.delegations(id) ON DELETE CASCADE,
        role_id uuid NOT NULL,
        designee_recipient_type varchar(30),
        is_auto_issue boolean NOT NULL DEFAULT false,
        role_designees jsonb NOT NULL DEFAULT '[]',
        role_status varchar(20) NOT NULL DEFAULT 'ACTIVE',
        role_requirement varchar(50),
        is_cascade boolean NOT NULL DEFAULT false,
        updated_on timestamptz NOT NULL DEFAULT now(),
        UNIQUE (delegation_id, role_id)
      )`);

    await q.query(`
      CREATE TABLE decision.delegation_revisions (
        -- The delegation history id of the product's API.
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        delegation_id uuid NOT NULL REFERENCES decision.delegations(id) ON DELETE CASCADE,
        revision_id integer NOT NULL,
        revision_date timestamptz NOT NULL DEFAULT now(),
        revised_by uuid,
        change varchar(40) NOT NULL,
        changes jsonb NOT NULL DEFAULT '[]',
        -- The delegation as it became, with its conditions and roles.
        snapshot jsonb NOT NULL,
        UNIQUE (delegation_id, revision_id)
      )`);

    // Projections the rules read (see src/projections).
    await q.query(`
      CREATE TABLE decision.position_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, position_name varchar(200) NOT NULL, status varchar(20) NOT NULL,
        is_deleted boolean NOT NULL DEFAULT false, group_ids uuid[] NOT NULL DEFAULT '{}', version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    // The tenant's delegation settings (auth); a tenant without a row requires neither approval nor acceptance.
    await q.query(`
      CREATE TABLE decision.tenant_settings_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, acceptance_required boolean NOT NULL, approval_required boolean NOT NULL,
        base_currency varchar(3) NOT NULL, version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`ALTER TABLE decision.user_projection
      ADD COLUMN manager_id uuid, ADD COLUMN position_ids uuid[] NOT NULL DEFAULT '{}', ADD COLUMN group_ids uuid[] NOT NULL DEFAULT '{}'`);
    await q.query(`CREATE INDEX user_projection_by_manager ON decision.user_projection (tenant_id, manager_id) WHERE manager_id IS NOT NULL`);
    await q.query(`ALTER TABLE decision.group_projection ADD COLUMN parent_group_ids uuid[] NOT NULL DEFAULT '{}', ADD COLUMN status varchar(20) NOT NULL DEFAULT 'ACTIVE'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE decision.group_projection DROP COLUMN parent_group_ids, DROP COLUMN status`);
    await q.query(`ALTER TABLE decision.user_projection DROP COLUMN manager_id, DROP COLUMN position_ids, DROP COLUMN group_ids`);
    await q.query(`DROP TABLE decision.tenant_settings_projection, decision.position_projection, decision.delegation_revisions, decision.delegation_roles, decision.delegation_condition_history, decision.delegation_conditions, decision.delegation_documents, decision.delegations`);
  }
}
