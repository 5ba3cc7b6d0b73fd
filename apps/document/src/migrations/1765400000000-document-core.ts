import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Documents (spec §2.10) with their sharing lists, favourites and change log (§2.11), uploaded files
 * (PostgreSQL storage: chunks of at most 1 MiB), and the projections of the records documents name
 * (users, groups, positions, document types) and of what counts them (decisions, delegations).
 * Every list's filters and sorts have an index scoped by tenant over the live rows, ending with id.
 */
export class DocumentCore1765400000000 implements MigrationInterface {
  name = 'DocumentCore1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE document.documents (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        document_display_id varchar(20) NOT NULL,
        document_name varchar(200) NOT NULL,
        document_description varchar(5000),
        document_metadata text,
        document_type_id uuid,
        -- The type's name as the body gave it when it named no type id; otherwise the projection's.
        document_type_name varchar(150),
        document_icon varchar(150),
        document_status varchar(20) NOT NULL CHECK (document_status IN ('DRAFT', 'PUBLISHED', 'ARCHIVED', 'DELETED')),
        document_sharing_type varchar(20) NOT NULL CHECK (document_sharing_type IN ('RESTRICTED', 'TENANT')),
        document_upload_type varchar(20) NOT NULL CHECK (document_upload_type IN ('LINKED', 'UPLOADED')),
        document_url varchar(2048),
        file_id uuid,
        owner_id uuid,
        owner_username varchar(200),
        is_external boolean NOT NULL DEFAULT false,
        responsible_user_id uuid, responsible_username varchar(200), responsible_position_id uuid, responsible_position_name varchar(200),
        reviewer_user_id uuid, reviewer_username varchar(200), reviewer_position_id uuid, reviewer_position_name varchar(200),
        approver_user_id uuid, approver_username varchar(200), approver_position_id uuid, approver_position_name varchar(200),
        oversight_id uuid NOT NULL,
        review_status varchar(20) CHECK (review_status IN ('REVIEW_PENDING', 'CHANGES_REQUESTED', 'REVIEWED')),
        approval_status varchar(20) CHECK (approval_status IN ('APPROVAL_PENDING', 'APPROVED', 'REJECTED')),
        reviewed_on timestamptz,
        approved_on timestamptz,
        -- The open request of each step (a fresh id per request: the actions area opens one action per cycle).
        review_cycle_id uuid,
        approval_cycle_id uuid,
        decision_link_allowed boolean NOT NULL DEFAULT true,
        delegation_link_allowed boolean NOT NULL DEFAULT true,
        created_on timestamptz NOT NULL DEFAULT now(),
        created_by uuid,
        updated_on timestamptz NOT NULL DEFAULT now(),
        updated_by uuid,
        archived_on timestamptz,
        is_deleted boolean NOT NULL DEFAULT false,
        deleted_on timestamptz,
        deleted_by uuid,
        version integer NOT NULL DEFAULT 1,
        -- The last revisionId of the change log (one per change).
        revision_count integer NOT NULL DEFAULT 0,
        search_text text GENERATED ALWAYS AS (lower(document_name || ' ' || coalesce(document_description, '') || ' ' || document_display_id)) STORED
      )`);
    await q.query(`CREATE UNIQUE INDEX documents_display_id ON document.documents (tenant_id, document_display_id)`);
    await q.query(`CREATE INDEX documents_by_name ON document.documents (tenant_id, lower(document_name), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX documents_by_display_id ON document.documents (tenant_id, (document_display_id::bigint), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX documents_by_status ON document.documents (tenant_id, document_status, lower(document_name), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX documents_by_created ON document.documents (tenant_id, created_on, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX documents_by_updated ON document.documents (tenant_id, updated_on, id) WHERE NOT is_deleted`);
    // The restricted ones (what visibility filters), or the tenant-wide ones, newest change first.
    await q.query(`CREATE INDEX documents_by_sharing ON document.documents (tenant_id, document_sharing_type, updated_on, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX documents_by_owner ON document.documents (tenant_id, owner_id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX documents_by_creator ON document.documents (tenant_id, created_by) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX documents_by_reviewer ON document.documents (tenant_id, reviewer_user_id) WHERE NOT is_deleted AND reviewer_user_id IS NOT NULL`);
    await q.query(`CREATE INDEX documents_by_approver ON document.documents (tenant_id, approver_user_id) WHERE NOT is_deleted AND approver_user_id IS NOT NULL`);
    await q.query(`CREATE INDEX documents_by_responsible ON document.documents (tenant_id, responsible_user_id) WHERE NOT is_deleted AND responsible_user_id IS NOT NULL`);
    // The audience of a restricted document: the positions it names (the people it names have the indexes above).
    await q.query(`CREATE INDEX documents_by_positions ON document.documents (tenant_id, responsible_position_id, reviewer_position_id, approver_position_id)
      WHERE NOT is_deleted AND (responsible_position_id IS NOT NULL OR reviewer_position_id IS NOT NULL OR approver_position_id IS NOT NULL)`);
    await q.query(`CREATE INDEX documents_by_file ON document.documents (tenant_id, file_id) WHERE NOT is_deleted AND file_id IS NOT NULL`);
    await q.query(`CREATE INDEX documents_search ON document.documents USING gin (search_text gin_trgm_ops) WHERE NOT is_deleted`);

    await q.query(`
      CREATE TABLE document.document_sharing_groups (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        document_id uuid NOT NULL REFERENCES document.documents (id),
        group_id uuid NOT NULL,
        tenant_group_type_id uuid,
        position integer NOT NULL,
        UNIQUE (document_id, group_id)
      )`);
    await q.query(`CREATE INDEX document_sharing_groups_group ON document.document_sharing_groups (tenant_id, group_id)`);
    await q.query(`
      CREATE TABLE document.document_sharing_users (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        document_id uuid NOT NULL REFERENCES document.documents (id),
        user_id uuid NOT NULL,
        position integer NOT NULL,
        UNIQUE (document_id, user_id)
      )`);
    await q.query(`CREATE INDEX document_sharing_users_user ON document.document_sharing_users (tenant_id, user_id)`);
    await q.query(`
      CREATE TABLE document.document_favourites (
        document_id uuid NOT NULL REFERENCES document.documents (id),
        user_id uuid NOT NULL,
        tenant_id uuid NOT NULL,
        created_on timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (document_id, user_id)
      )`);
    await q.query(`CREATE INDEX document_favourites_user ON document.document_favourites (tenant_id, user_id)`);
    await q.query(`
      CREATE TABLE document.document_revisions (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        document_id uuid NOT NULL REFERENCES document.documents (id),
        revision_id integer NOT NULL,
        revision_date timestamptz NOT NULL DEFAULT now(),
        revised_by uuid,
        revised_by_name varchar(200),
        revised_user_detail jsonb,
        change varchar(30) NOT NULL,
        changes jsonb NOT NULL DEFAULT '[]',
        UNIQUE (document_id, revision_id)
      )`);
    await q.query(`CREATE INDEX document_revisions_by_date ON document.document_revisions (document_id, revision_date, revision_id)`);

    await q.query(`
      CREATE TABLE document.files (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        name varchar(255) NOT NULL,
        media_type varchar(150) NOT NULL,
        size bigint NOT NULL DEFAULT 0,
        sha256 char(64),
        storage varchar(20) NOT NULL,
        -- Written whole: a file whose upload failed never becomes complete, and is never answered.
        complete boolean NOT NULL DEFAULT false,
        created_by uuid,
        created_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX files_tenant ON document.files (tenant_id, id)`);
    await q.query(`
      CREATE TABLE document.file_chunks (
        file_id uuid NOT NULL REFERENCES document.files (id) ON DELETE CASCADE,
        seq integer NOT NULL,
        data bytea NOT NULL,
        PRIMARY KEY (file_id, seq)
      )`);

    await q.query(`
      CREATE TABLE document.user_projection (
        tenant_id uuid NOT NULL, id uuid NOT NULL, email varchar(320) NOT NULL, name varchar(200), display_name varchar(200),
        profile_image_url varchar(2048), status varchar(20) NOT NULL, position_ids uuid[] NOT NULL DEFAULT '{}', group_ids uuid[] NOT NULL DEFAULT '{}',
        -- The keys the user's roles grant, when the auth area tells them (NULL: not told).
        keys text[],
        version bigint, updated_on timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, id)
      )`);
    await q.query(`CREATE INDEX user_projection_positions ON document.user_projection USING gin (position_ids)`);
    await q.query(`
      CREATE TABLE document.group_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, group_name varchar(200) NOT NULL, display_name varchar(200), tenant_group_type_id uuid,
        status varchar(20) NOT NULL, is_deleted boolean NOT NULL DEFAULT false, parent_group_ids uuid[] NOT NULL DEFAULT '{}',
        version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE document.position_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, position_name varchar(200) NOT NULL, status varchar(20) NOT NULL,
        is_deleted boolean NOT NULL DEFAULT false, version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE document.document_type_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, document_type_name varchar(150) NOT NULL, document_type_icon varchar(150),
        status varchar(20) NOT NULL, is_deleted boolean NOT NULL DEFAULT false, version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE document.decision_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, document_ids uuid[] NOT NULL DEFAULT '{}', is_deleted boolean NOT NULL DEFAULT false,
        version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX decision_projection_documents ON document.decision_projection USING gin (document_ids) WHERE NOT is_deleted`);
    await q.query(`
      CREATE TABLE document.delegation_projection (
        id uuid PRIMARY KEY, tenant_id uuid NOT NULL, document_ids uuid[] NOT NULL DEFAULT '{}', status varchar(20),
        ended_on timestamptz, version bigint, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX delegation_projection_documents ON document.delegation_projection USING gin (document_ids) WHERE ended_on IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS document.delegation_projection, document.decision_projection, document.document_type_projection,
      document.position_projection, document.group_projection, document.user_projection, document.file_chunks, document.files,
      document.document_revisions, document.document_favourites, document.document_sharing_users, document.document_sharing_groups, document.documents`);
  }
}
