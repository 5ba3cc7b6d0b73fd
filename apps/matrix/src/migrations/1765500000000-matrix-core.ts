import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Matrices (spec §2.12) with their sharing, choices and external link, each user's saved view
 * (§2.13) and favourites, the failed password tries of external links, and the projections the
 * grid reads: decisions, delegations (with their history, valid from/to, for `?at=`), users,
 * groups, positions, sections, categories and authority types. Lists and filters have an index
 * scoped by tenant over the live rows, ending with id.
 */
export class MatrixCore1765500000000 implements MigrationInterface {
  name = 'MatrixCore1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE matrix.matrices (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        matrix_display_id varchar(20) NOT NULL,
        matrix_name varchar(200) NOT NULL,
        matrix_description varchar(2000),
        role_matrix boolean NOT NULL DEFAULT false,
        authority_matrix boolean NOT NULL DEFAULT true,
        status_name varchar(20) NOT NULL CHECK (status_name IN ('Active', 'Draft', 'Archived')),
        owner_id uuid NOT NULL,
        copied_from uuid,
        current_tab varchar(50),
        sharing_id uuid NOT NULL,
        sharing_type varchar(20) NOT NULL CHECK (sharing_type IN ('SHARED', 'PRIVATE')),
        sharing_option varchar(20) NOT NULL DEFAULT 'USERS_GROUPS',
        sharing_link boolean NOT NULL DEFAULT false,
        viewer_adjustable_filters boolean NOT NULL DEFAULT false,
        shared_user_ids uuid[] NOT NULL DEFAULT '{}',
        shared_group_ids uuid[] NOT NULL DEFAULT '{}',
        section_ids uuid[] NOT NULL DEFAULT '{}',
        category_ids uuid[] NOT NULL DEFAULT '{}',
        group_ids uuid[] NOT NULL DEFAULT '{}',
        position_ids uuid[] NOT NULL DEFAULT '{}',
        user_ids uuid[] NOT NULL DEFAULT '{}',
        decision_ids uuid[] NOT NULL DEFAULT '{}',
        disabled_decision_ids uuid[] NOT NULL DEFAULT '{}',
        authority_roles jsonb NOT NULL DEFAULT '[]',
        delegation_filter jsonb NOT NULL DEFAULT '{}',
        formatting jsonb NOT NULL DEFAULT '{}',
        ext_enabled boolean NOT NULL DEFAULT false,
        ext_expiration_enabled boolean NOT NULL DEFAULT false,
        ext_expiration_date timestamptz,
        ext_password_required boolean NOT NULL DEFAULT false,
        ext_password_hash text,
        ext_token varchar(64),
        created_on timestamptz NOT NULL DEFAULT now(),
        created_by uuid,
        updated_on timestamptz NOT NULL DEFAULT now(),
        updated_by uuid,
        is_deleted boolean NOT NULL DEFAULT false,
        deleted_on timestamptz,
        deleted_by uuid,
        search_text text GENERATED ALWAYS AS (lower(matrix_name || ' ' || coalesce(matrix_description, '') || ' ' || matrix_display_id)) STORED
      )`);
    await q.query(`CREATE UNIQUE INDEX matrices_display_id ON matrix.matrices (tenant_id, matrix_display_id)`);
    await q.query(`CREATE UNIQUE INDEX matrices_ext_token ON matrix.matrices (ext_token) WHERE ext_token IS NOT NULL`);
    await q.query(`CREATE INDEX matrices_by_name ON matrix.matrices (tenant_id, lower(matrix_name), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX matrices_by_created ON matrix.matrices (tenant_id, created_on, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX matrices_by_updated ON matrix.matrices (tenant_id, updated_on, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX matrices_by_status ON matrix.matrices (tenant_id, status_name, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX matrices_by_owner ON matrix.matrices (tenant_id, owner_id, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX matrices_search ON matrix.matrices USING gin (search_text gin_trgm_ops) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX matrices_shared_users ON matrix.matrices USING gin (shared_user_ids) WHERE NOT is_deleted AND sharing_type = 'SHARED'`);
    await q.query(`CREATE INDEX matrices_shared_groups ON matrix.matrices USING gin (shared_group_ids) WHERE NOT is_deleted AND sharing_type = 'SHARED'`);

    await q.query(`
      CREATE TABLE matrix.user_views (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        matrix_id uuid NOT NULL REFERENCES matrix.matrices (id),
        user_id uuid NOT NULL,
        view_data jsonb NOT NULL,
        created_on timestamptz NOT NULL DEFAULT now(),
        updated_on timestamptz NOT NULL DEFAULT now(),
        UNIQUE (matrix_id, user_id)
      )`);
    await q.query(`CREATE INDEX user_views_by_user ON matrix.user_views (tenant_id, user_id, matrix_id)`);
    await q.query(`
      CREATE TABLE matrix.favorites (
        tenant_id uuid NOT NULL,
        matrix_id uuid NOT NULL REFERENCES matrix.matrices (id),
        user_id uuid NOT NULL,
        created_on timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (matrix_id, user_id)
      )`);
    await q.query(`CREATE INDEX favorites_by_user ON matrix.favorites (tenant_id, user_id, matrix_id)`);
    await q.query(`
      CREATE TABLE matrix.share_failures (
        matrix_id uuid NOT NULL REFERENCES matrix.matrices (id),
        failed_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX share_failures_recent ON matrix.share_failures (matrix_id, failed_on)`);

    await q.query(`
      CREATE TABLE matrix.user_projection (
        tenant_id uuid NOT NULL, id uuid NOT NULL, email varchar(320) NOT NULL, name varchar(200), display_name varchar(200),
        profile_image_url varchar(2048), mobile_phone varchar(50), status varchar(20) NOT NULL,
        positions jsonb NOT NULL DEFAULT '[]', position_ids uuid[] NOT NULL DEFAULT '{}', group_ids uuid[] NOT NULL DEFAULT '{}',
        version bigint, updated_on timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, id)
      )`);
    await q.query(`
      CREATE TABLE matrix.group_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, group_code varchar(20) NOT NULL, group_name varchar(200) NOT NULL,
        tenant_group_type_id uuid, group_type_name varchar(200), status varchar(20) NOT NULL, is_deleted boolean NOT NULL DEFAULT false,
        parent_group_ids uuid[] NOT NULL DEFAULT '{}', version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE matrix.position_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, position_name varchar(200) NOT NULL, status varchar(20) NOT NULL,
        is_deleted boolean NOT NULL DEFAULT false, is_scim boolean NOT NULL DEFAULT false, group_ids uuid[] NOT NULL DEFAULT '{}',
        version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE matrix.section_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, section_name varchar(50) NOT NULL, is_deleted boolean NOT NULL DEFAULT false,
        version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE matrix.category_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, category_name varchar(50) NOT NULL, section_id uuid, is_deleted boolean NOT NULL DEFAULT false,
        version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE matrix.authority_type_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, authority_type varchar(50) NOT NULL, authority_type_order integer NOT NULL DEFAULT 0,
        is_deleted boolean NOT NULL DEFAULT false, version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE matrix.decision_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, decision_display_id varchar(20) NOT NULL, name varchar(150) NOT NULL,
        status varchar(20) NOT NULL, section_id uuid, category_id uuid, authorities jsonb NOT NULL DEFAULT '[]',
        is_deleted boolean NOT NULL DEFAULT false, version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX decision_projection_live ON matrix.decision_projection (tenant_id, status, id) WHERE NOT is_deleted`);
    // Each state a decision was in (published or not, its section and category), for the grid's rows ?at=.
    await q.query(`
      CREATE TABLE matrix.decision_history (
        hid bigserial PRIMARY KEY, id uuid NOT NULL, tenant_id uuid NOT NULL, decision_display_id varchar(20) NOT NULL, name varchar(150) NOT NULL,
        status varchar(20) NOT NULL, section_id uuid, category_id uuid, authorities jsonb NOT NULL DEFAULT '[]', is_deleted boolean NOT NULL DEFAULT false,
        valid_from timestamptz NOT NULL, valid_to timestamptz
      )`);
    await q.query(`CREATE INDEX decision_history_at ON matrix.decision_history (tenant_id, valid_from)`);
    await q.query(`CREATE UNIQUE INDEX decision_history_open ON matrix.decision_history (id) WHERE valid_to IS NULL`);
    await q.query(`
      CREATE TABLE matrix.delegation_projection (
        delegation_id uuid PRIMARY KEY, tenant_id uuid NOT NULL, decision_id uuid NOT NULL, delegation_display_id varchar(20),
        status varchar(20), recipient_type varchar(30) NOT NULL, recipient_user_id uuid, recipient_position_id uuid,
        group_ids uuid[] NOT NULL DEFAULT '{}', pathways text[] NOT NULL DEFAULT '{}', authorities jsonb NOT NULL DEFAULT '[]',
        is_invalid boolean NOT NULL DEFAULT false, revoked_on timestamptz, version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX delegation_projection_by_decision ON matrix.delegation_projection (tenant_id, decision_id) WHERE revoked_on IS NULL`);
    // Live delegations per decision (kept by the delegation projection): a matrix's counts sum its decisions' rows, never their delegations.
    await q.query(`
      CREATE TABLE matrix.decision_delegation_counts (
        decision_id uuid PRIMARY KEY, tenant_id uuid NOT NULL,
        delegations integer NOT NULL DEFAULT 0, suspended integer NOT NULL DEFAULT 0, pending integer NOT NULL DEFAULT 0
      )`);
    // Each state a delegation was in, from when to when (valid_to null: still so; the instant is the applying transaction's): the grid ?at= reads one indexed range.
    await q.query(`
      CREATE TABLE matrix.delegation_history (
        id bigserial PRIMARY KEY, delegation_id uuid NOT NULL, tenant_id uuid NOT NULL, decision_id uuid NOT NULL,
        delegation_display_id varchar(20), status varchar(20), recipient_type varchar(30) NOT NULL, recipient_user_id uuid,
        recipient_position_id uuid, group_ids uuid[] NOT NULL DEFAULT '{}', pathways text[] NOT NULL DEFAULT '{}',
        authorities jsonb NOT NULL DEFAULT '[]', is_invalid boolean NOT NULL DEFAULT false, ended boolean NOT NULL DEFAULT false,
        valid_from timestamptz NOT NULL, valid_to timestamptz
      )`);
    await q.query(`CREATE INDEX delegation_history_at ON matrix.delegation_history (tenant_id, decision_id, valid_from)`);
    await q.query(`CREATE UNIQUE INDEX delegation_history_open ON matrix.delegation_history (delegation_id) WHERE valid_to IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS matrix.decision_history, matrix.delegation_history, matrix.decision_delegation_counts, matrix.delegation_projection, matrix.decision_projection,
      matrix.authority_type_projection, matrix.category_projection, matrix.section_projection, matrix.position_projection,
      matrix.group_projection, matrix.user_projection, matrix.share_failures, matrix.favorites, matrix.user_views, matrix.matrices`);
  }
}
