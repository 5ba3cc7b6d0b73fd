import { createJobTables, dropJobTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Decisions (spec §2.9) with their groups, authorities and documents, every revision of each, the
 * area's bulk jobs, and the projections of other areas' records the decisions show (names of groups,
 * users, sections, categories and authority types, fed by their events).
 */
export class DecisionCore1765000000000 implements MigrationInterface {
  name = 'DecisionCore1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE decision.decisions (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        decision_display_id varchar(20) NOT NULL,
        name varchar(150) NOT NULL,
        description varchar(250),
        guidance text,
        section_id uuid,
        category_id uuid,
        owner_id uuid,
        status varchar(20) NOT NULL DEFAULT 'DRAFT',
        delegable boolean NOT NULL DEFAULT true,
        condition_enabled boolean NOT NULL DEFAULT false,
        role_enabled boolean NOT NULL DEFAULT false,
        delegation_pathway text[] NOT NULL DEFAULT '{}',
        copied_from uuid,
        is_request_action_completed boolean NOT NULL DEFAULT false,
        -- Increases with every change: events carry it, so other areas keep the newest state.
        version integer NOT NULL DEFAULT 1,
        is_deleted boolean NOT NULL DEFAULT false,
        deleted_on timestamptz,
        deleted_by uuid,
        created_on timestamptz NOT NULL DEFAULT now(),
        created_by uuid,
        updated_on timestamptz NOT NULL DEFAULT now(),
        updated_by uuid,
        -- What the list's search looks into: name, description and display id.
        search_text text GENERATED ALWAYS AS (lower(name || ' ' || coalesce(description, '') || ' ' || decision_display_id)) STORED,
        UNIQUE (tenant_id, decision_display_id)
      )`);
    await q.query(`CREATE UNIQUE INDEX decisions_name_unique ON decision.decisions (tenant_id, lower(name)) WHERE NOT is_deleted`);
    // The list's sorts (each also serves a status filter through the tenant prefix), the tie-breaker last.
    await q.query(`CREATE INDEX decisions_by_name ON decision.decisions (tenant_id, lower(name), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX decisions_by_status ON decision.decisions (tenant_id, status, lower(name), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX decisions_by_display_id ON decision.decisions (tenant_id, (decision_display_id::bigint), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX decisions_by_created ON decision.decisions (tenant_id, created_on, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX decisions_by_updated ON decision.decisions (tenant_id, updated_on, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX decisions_by_section ON decision.decisions (tenant_id, section_id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX decisions_by_category ON decision.decisions (tenant_id, category_id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX decisions_by_owner ON decision.decisions (tenant_id, owner_id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX decisions_deleted ON decision.decisions (tenant_id, id) WHERE is_deleted`);
    await q.query(`CREATE INDEX decisions_search ON decision.decisions USING gin (search_text gin_trgm_ops) WHERE NOT is_deleted`);
    // A steady estimate for '%term%' (the users list learned this: with 100 buckets the plan flipped to a sequential scan).
    await q.query(`ALTER TABLE decision.decisions ALTER COLUMN search_text SET STATISTICS 1000`);

    await q.query(`
      CREATE TABLE decision.decision_groups (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        decision_id uuid NOT NULL REFERENCES decision.decisions(id) ON DELETE CASCADE,
        group_id uuid NOT NULL,
        tenant_group_type_id uuid,
        position integer NOT NULL,
        UNIQUE (decision_id, group_id)
      )`);
    await q.query(`CREATE INDEX decision_groups_group ON decision.decision_groups (tenant_id, group_id)`);

    await q.query(`
      CREATE TABLE decision.decision_authorities (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        decision_id uuid NOT NULL REFERENCES decision.decisions(id) ON DELETE CASCADE,
        authority_type_id uuid NOT NULL,
        authority_type_order integer NOT NULL,
        authority_limit varchar(20) NOT NULL,
        value_type varchar(20) NOT NULL,
        operator varchar(2),
        -- As sent ("500000", "Unlimited"); the number it means (null for Unlimited and Authorized) for numeric filters.
        value_text varchar(40),
        value_number numeric,
        unit varchar(10),
        position integer NOT NULL
      )`);
    await q.query(`CREATE INDEX decision_authorities_decision ON decision.decision_authorities (decision_id, position)`);
    await q.query(`CREATE INDEX decision_authorities_type ON decision.decision_authorities (tenant_id, authority_type_id)`);
    await q.query(`CREATE INDEX decision_authorities_value ON decision.decision_authorities (tenant_id, value_type, value_number)`);

    await q.query(`
      CREATE TABLE decision.decision_documents (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        decision_id uuid NOT NULL REFERENCES decision.decisions(id) ON DELETE CASCADE,
        document_id uuid NOT NULL,
        is_pinned boolean NOT NULL DEFAULT false,
        position integer NOT NULL,
        UNIQUE (decision_id, document_id)
      )`);
    await q.query(`CREATE INDEX decision_documents_document ON decision.decision_documents (tenant_id, document_id)`);

    await q.query(`
      CREATE TABLE decision.decision_revisions (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        decision_id uuid NOT NULL REFERENCES decision.decisions(id) ON DELETE CASCADE,
        revision_date timestamptz NOT NULL,
        revised_by uuid,
        change varchar(20) NOT NULL,
        changed_fields text[] NOT NULL DEFAULT '{}',
        -- The decision as it became (its view, without what is the caller's: permissions).
        snapshot jsonb NOT NULL
      )`);
    await q.query(`CREATE INDEX decision_revisions_by_date ON decision.decision_revisions (decision_id, revision_date DESC, id DESC)`);

    await createJobTables(q, 'decision');

    // Projections: other areas' records, as their events tell them (see src/projections).
    await q.query(`
      CREATE TABLE decision.group_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, group_name varchar(200) NOT NULL, display_name varchar(200),
        tenant_group_type_id uuid, is_deleted boolean NOT NULL DEFAULT false, version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE decision.user_projection (
        tenant_id uuid NOT NULL, id uuid NOT NULL, email varchar(320) NOT NULL, name varchar(200), display_name varchar(200),
        profile_image_url varchar(2048), status varchar(20) NOT NULL, version bigint, updated_on timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, id)
      )`);
    await q.query(`
      CREATE TABLE decision.section_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, section_name varchar(50) NOT NULL, is_deleted boolean NOT NULL DEFAULT false,
        version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE decision.category_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, category_name varchar(50) NOT NULL, section_id uuid,
        is_deleted boolean NOT NULL DEFAULT false, version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE decision.authority_type_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, authority_type varchar(50) NOT NULL, authority_type_icon varchar(100),
        authority_type_order integer NOT NULL DEFAULT 0, status varchar(20) NOT NULL, is_deleted boolean NOT NULL DEFAULT false,
        version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS decision.authority_type_projection, decision.category_projection, decision.section_projection,
      decision.user_projection, decision.group_projection`);
    await dropJobTables(q, 'decision');
    await q.query(`DROP TABLE IF EXISTS decision.decision_revisions, decision.decision_documents, decision.decision_authorities,
      decision.decision_groups, decision.decisions`);
  }
}
