import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Actions (spec §2.2) with their assignees and files, each tenant's action configuration
 * (statuses, priorities, types), and the projections of other areas' records an action shows or
 * names (users with their primary organisation, groups, decisions, delegations, documents, action
 * templates, the tenant's delegation settings), fed by their events.
 */
export class ActionsCore1765300000000 implements MigrationInterface {
  name = 'ActionsCore1765300000000';

  async up(q: QueryRunner): Promise<void> {
    // The tenant's configuration: defaults carry a stable key (and a derived id, see actionDefaultId).
    await q.query(`
      CREATE TABLE actions.action_statuses (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, status_key varchar(20) NOT NULL, action_status_name varchar(50) NOT NULL,
        is_enabled boolean NOT NULL DEFAULT true, position integer NOT NULL, UNIQUE (tenant_id, status_key)
      )`);
    await q.query(`
      CREATE TABLE actions.action_priorities (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, priority_key varchar(20) NOT NULL, action_priority_name varchar(50) NOT NULL,
        color_name varchar(30) NOT NULL, is_enabled boolean NOT NULL DEFAULT true, position integer NOT NULL, UNIQUE (tenant_id, priority_key)
      )`);
    await q.query(`
      CREATE TABLE actions.action_types (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, type varchar(50) NOT NULL, name varchar(100) NOT NULL, type_icon varchar(100),
        status boolean NOT NULL DEFAULT true, is_custom boolean NOT NULL DEFAULT false, position integer NOT NULL, UNIQUE (tenant_id, type)
      )`);

    await q.query(`
      CREATE TABLE actions.actions (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        action_display_id varchar(20) NOT NULL,
        action_name varchar(200) NOT NULL,
        description varchar(5000),
        action_type_id uuid,
        action_template_id uuid,
        action_priority_id uuid,
        action_status_id uuid NOT NULL,
        -- The status's key and the priority's rank, copied from the configuration: the open/overdue filters and the sorts use them.
        status_key varchar(20) NOT NULL,
        status_rank integer NOT NULL,
        priority_rank integer,
        decision_id uuid,
        delegation_id uuid,
        document_id uuid,
        role_id uuid,
        owner_id uuid,
        due_date timestamptz,
        copied_from uuid,
        is_system_generated boolean NOT NULL DEFAULT false,
        -- A system action: what opened it, its cause (one action per cause and tenant) and who asked for it (a delegation request).
        system_kind varchar(40),
        cause_key varchar(200),
        -- The version of the cause's event that opened it (a later pending step of the same delegation is the next stage).
        cause_version bigint,
        requested_by uuid,
        version integer NOT NULL DEFAULT 1,
        is_deleted boolean NOT NULL DEFAULT false,
        deleted_on timestamptz,
        deleted_by uuid,
        created_on timestamptz NOT NULL DEFAULT now(),
        created_by uuid,
        updated_on timestamptz NOT NULL DEFAULT now(),
        updated_by uuid,
        search_text text GENERATED ALWAYS AS (lower(action_name || ' ' || coalesce(description, '') || ' ' || action_display_id)) STORED,
        UNIQUE (tenant_id, action_display_id)
      )`);
    await q.query(`CREATE UNIQUE INDEX actions_cause ON actions.actions (tenant_id, cause_key) WHERE cause_key IS NOT NULL`);
    // The list's sorts (the tenant first, the tie-breaker last), over the live rows.
    await q.query(`CREATE INDEX actions_by_display_id ON actions.actions (tenant_id, (action_display_id::bigint), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX actions_by_name ON actions.actions (tenant_id, lower(action_name), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX actions_by_due ON actions.actions (tenant_id, due_date, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX actions_by_priority ON actions.actions (tenant_id, priority_rank, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX actions_by_status ON actions.actions (tenant_id, status_rank, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX actions_by_created ON actions.actions (tenant_id, created_on, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX actions_by_updated ON actions.actions (tenant_id, updated_on, id) WHERE NOT is_deleted`);
    // "My open actions by due date": the owner's side (the assignee's side goes through action_assignees).
    await q.query(`CREATE INDEX actions_owner_due ON actions.actions (tenant_id, owner_id, due_date, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX actions_decision ON actions.actions (tenant_id, decision_id) WHERE decision_id IS NOT NULL AND NOT is_deleted`);
    await q.query(`CREATE INDEX actions_delegation ON actions.actions (tenant_id, delegation_id) WHERE delegation_id IS NOT NULL AND NOT is_deleted`);
    await q.query(`CREATE INDEX actions_document ON actions.actions (tenant_id, document_id) WHERE document_id IS NOT NULL AND NOT is_deleted`);
    // The overdue sweep: open actions by due date.
    await q.query(`CREATE INDEX actions_open_due ON actions.actions (due_date) WHERE NOT is_deleted AND status_key IN ('TODO', 'IN_PROGRESS')`);
    await q.query(`CREATE INDEX actions_search ON actions.actions USING gin (search_text gin_trgm_ops) WHERE NOT is_deleted`);

    await q.query(`
      CREATE TABLE actions.action_assignees (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        action_id uuid NOT NULL REFERENCES actions.actions (id) ON DELETE CASCADE,
        assignee_id uuid NOT NULL,
        action_status_id uuid NOT NULL,
        action_taken_date timestamptz,
        position integer NOT NULL,
        created_on timestamptz NOT NULL DEFAULT now(),
        UNIQUE (action_id, assignee_id)
      )`);
    await q.query(`CREATE INDEX action_assignees_by_person ON actions.action_assignees (tenant_id, assignee_id, action_id)`);

    await q.query(`
      CREATE TABLE actions.action_files (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        action_id uuid NOT NULL REFERENCES actions.actions (id) ON DELETE CASCADE,
        file_url varchar(2048) NOT NULL,
        file_type varchar(100),
        file_name varchar(255),
        position integer NOT NULL,
        created_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX action_files_action ON actions.action_files (action_id, position)`);

    // Projections (src/projections): other areas' records, as their events tell them.
    await q.query(`
      CREATE TABLE actions.user_projection (
        tenant_id uuid NOT NULL, id uuid NOT NULL, email varchar(320) NOT NULL, name varchar(200), display_name varchar(200),
        profile_image_url varchar(2048), mobile_phone varchar(50), status varchar(20) NOT NULL,
        positions jsonb NOT NULL DEFAULT '[]', primary_organization_id uuid, primary_organization jsonb, manager jsonb,
        version bigint, updated_on timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (tenant_id, id)
      )`);
    await q.query(`
      CREATE TABLE actions.group_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, group_name varchar(200) NOT NULL, display_name varchar(200),
        tenant_group_type_id uuid, tenant_group_type_name varchar(200), legal_name varchar(200), base_currency varchar(10),
        is_deleted boolean NOT NULL DEFAULT false, version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE actions.decision_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, decision_display_id varchar(20) NOT NULL, name varchar(150) NOT NULL,
        is_deleted boolean NOT NULL DEFAULT false, version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE actions.delegation_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, decision_id uuid NOT NULL, delegation_display_id varchar(20), status varchar(20),
        issuer_user_id uuid, recipient_user_id uuid, ended_on timestamptz, version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE actions.document_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, document_display_id varchar(20) NOT NULL, document_name varchar(200) NOT NULL,
        is_deleted boolean NOT NULL DEFAULT false, version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE actions.action_template_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, name varchar(200) NOT NULL, description varchar(1000), action_type_id uuid,
        status boolean NOT NULL DEFAULT true, is_deleted boolean NOT NULL DEFAULT false, version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE actions.tenant_settings_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, acceptance_required boolean NOT NULL, approval_required boolean NOT NULL,
        version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS actions.tenant_settings_projection, actions.action_template_projection, actions.document_projection,
      actions.delegation_projection, actions.decision_projection, actions.group_projection, actions.user_projection,
      actions.action_files, actions.action_assignees, actions.actions, actions.action_types, actions.action_priorities, actions.action_statuses`);
  }
}
