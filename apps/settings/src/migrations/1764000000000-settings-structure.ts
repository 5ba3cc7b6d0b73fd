import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The organisation's structure: group types, groups (with address and parents), positions (with
 * their groups), decision roles, and the projection of the decision area's delegations that the
 * counts and the positions list's delegation filters read. Every list's filters and sorts have
 * an index scoped by tenant over the rows that are not deleted.
 */
export class SettingsStructure1764000000000 implements MigrationInterface {
  name = 'SettingsStructure1764000000000';

  async up(q: QueryRunner): Promise<void> {
    // pg_trgm: a database-wide object, created before the migrations (data-source `extensions`).

    await q.query(`
      CREATE TABLE settings.group_types (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        group_type_name varchar(50) NOT NULL,
        -- ORGANIZATIONS, LOCATIONS, DEPARTMENTS for the three every tenant starts with; NULL for custom types.
        system_key varchar(20),
        status varchar(20) NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'INACTIVE')),
        is_default boolean NOT NULL DEFAULT false,
        should_allow_enable_disable boolean NOT NULL DEFAULT true,
        address_enabled boolean NOT NULL DEFAULT false,
        disable_option varchar(20) NOT NULL DEFAULT 'NA' CHECK (disable_option IN ('KEEP_ASSOCIATIONS', 'REMOVE_ASSOCIATIONS', 'NA')),
        is_deleted boolean NOT NULL DEFAULT false,
        deleted_on timestamptz,
        deleted_by uuid,
        created_on timestamptz NOT NULL DEFAULT now(),
        created_by uuid,
        updated_on timestamptz NOT NULL DEFAULT now(),
        updated_by uuid
      )`);
    await q.query(`CREATE UNIQUE INDEX group_types_system_key ON settings.group_types (tenant_id, system_key) WHERE system_key IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX group_types_name ON settings.group_types (tenant_id, lower(group_type_name)) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX group_types_list ON settings.group_types (tenant_id, created_on, id) WHERE NOT is_deleted`);

    await q.query(`
      CREATE TABLE settings.groups (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        -- groupId: a short random code, unique per tenant (ARCHITECTURE §2).
        group_code varchar(6) NOT NULL,
        tenant_group_type_id uuid NOT NULL REFERENCES settings.group_types (id),
        group_name varchar(100) NOT NULL,
        display_name varchar(100),
        legal_name varchar(100),
        status varchar(20) NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'INACTIVE')),
        base_currency varchar(3),
        is_synced boolean NOT NULL DEFAULT false,
        external_id varchar(255),
        instance_id varchar(255),
        disable_option varchar(20) NOT NULL DEFAULT 'NA' CHECK (disable_option IN ('KEEP_ASSOCIATIONS', 'REMOVE_ASSOCIATIONS', 'NA')),
        is_deleted boolean NOT NULL DEFAULT false,
        deleted_on timestamptz,
        deleted_by uuid,
        created_on timestamptz NOT NULL DEFAULT now(),
        created_by uuid,
        updated_on timestamptz NOT NULL DEFAULT now(),
        updated_by uuid,
        UNIQUE (tenant_id, group_code)
      )`);
    await q.query(`CREATE INDEX groups_type ON settings.groups (tenant_group_type_id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX groups_created ON settings.groups (tenant_id, created_on, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX groups_updated ON settings.groups (tenant_id, updated_on, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX groups_name ON settings.groups (tenant_id, lower(group_name), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX groups_search ON settings.groups USING gin ((group_name || ' ' || coalesce(display_name, '')) gin_trgm_ops) WHERE NOT is_deleted`);

    await q.query(`
      CREATE TABLE settings.group_addresses (
        id uuid PRIMARY KEY,
        group_id uuid NOT NULL UNIQUE REFERENCES settings.groups (id) ON DELETE CASCADE,
        street1 varchar(200),
        street2 varchar(200),
        city varchar(100),
        state varchar(100),
        state_code varchar(10),
        zip_code varchar(20),
        country varchar(100),
        country_code varchar(3),
        created_on timestamptz NOT NULL DEFAULT now(),
        updated_on timestamptz NOT NULL DEFAULT now()
      )`);

    // A group may have several parents (not an Organization's child of two, by the product's rule, but the table allows it).
    await q.query(`
      CREATE TABLE settings.group_parents (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        group_id uuid NOT NULL REFERENCES settings.groups (id) ON DELETE CASCADE,
        parent_id uuid NOT NULL REFERENCES settings.groups (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (group_id, parent_id),
        CHECK (group_id <> parent_id)
      )`);
    await q.query(`CREATE INDEX group_parents_parent ON settings.group_parents (parent_id, group_id)`);

    await q.query(`
      CREATE TABLE settings.positions (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        -- positionId: the display id ("10000", ...), numeric.
        position_display_id varchar(20) NOT NULL,
        position_name varchar(200) NOT NULL,
        status varchar(20) NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'INACTIVE')),
        -- Directory Sync (SCIM) provisioned positions; the others are Manual (the list's sourceType).
        is_scim_provisioned boolean NOT NULL DEFAULT false,
        external_id varchar(255),
        instance_id varchar(255),
        is_deleted boolean NOT NULL DEFAULT false,
        deleted_on timestamptz,
        deleted_by uuid,
        created_on timestamptz NOT NULL DEFAULT now(),
        created_by uuid,
        updated_on timestamptz NOT NULL DEFAULT now(),
        updated_by uuid,
        UNIQUE (tenant_id, position_display_id)
      )`);
    await q.query(`CREATE UNIQUE INDEX positions_name_unique ON settings.positions (tenant_id, lower(position_name)) WHERE NOT is_deleted`);
    // Sorts: name, display id (numeric), status, created, updated; each ends with id for a stable order.
    await q.query(`CREATE INDEX positions_name ON settings.positions (tenant_id, lower(position_name), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX positions_display ON settings.positions (tenant_id, (position_display_id::bigint), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX positions_status ON settings.positions (tenant_id, status, lower(position_name), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX positions_created ON settings.positions (tenant_id, created_on, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX positions_updated ON settings.positions (tenant_id, updated_on, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX positions_search ON settings.positions USING gin (position_name gin_trgm_ops) WHERE NOT is_deleted`);
    await q.query(`ALTER TABLE settings.positions ALTER COLUMN position_name SET STATISTICS 1000`);

    await q.query(`
      CREATE TABLE settings.position_groups (
        position_id uuid NOT NULL REFERENCES settings.positions (id) ON DELETE CASCADE,
        group_id uuid NOT NULL REFERENCES settings.groups (id) ON DELETE CASCADE,
        tenant_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (position_id, group_id)
      )`);
    await q.query(`CREATE INDEX position_groups_group ON settings.position_groups (group_id, position_id)`);

    await q.query(`
      CREATE TABLE settings.decision_roles (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        role_name varchar(50) NOT NULL,
        status varchar(20) NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'INACTIVE')),
        is_deleted boolean NOT NULL DEFAULT false,
        deleted_on timestamptz,
        deleted_by uuid,
        created_on timestamptz NOT NULL DEFAULT now(),
        created_by uuid,
        updated_on timestamptz NOT NULL DEFAULT now(),
        updated_by uuid
      )`);
    await q.query(`CREATE UNIQUE INDEX decision_roles_name ON settings.decision_roles (tenant_id, lower(role_name)) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX decision_roles_list ON settings.decision_roles (tenant_id, lower(role_name), id) WHERE NOT is_deleted`);

    // The decision area's delegations, as evt.decision.delegation.* tell them. A revoked delegation
    // stays revoked (a late "updated" does not bring it back) and stops counting.
    await q.query(`
      CREATE TABLE settings.delegation_projection (
        delegation_id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        decision_id uuid NOT NULL,
        issuer_type varchar(30) NOT NULL,
        issuer_user_id uuid,
        issuer_position_id uuid,
        recipient_type varchar(30) NOT NULL,
        recipient_user_id uuid,
        recipient_position_id uuid,
        pathways text[] NOT NULL DEFAULT '{}',
        group_ids uuid[] NOT NULL DEFAULT '{}',
        revoked_on timestamptz,
        updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX delegation_projection_recipient ON settings.delegation_projection (recipient_position_id) WHERE revoked_on IS NULL`);
    await q.query(`CREATE INDEX delegation_projection_issuer ON settings.delegation_projection (issuer_position_id) WHERE revoked_on IS NULL`);
    await q.query(`CREATE INDEX delegation_projection_groups ON settings.delegation_projection USING gin (group_ids) WHERE revoked_on IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE IF EXISTS settings.delegation_projection, settings.decision_roles, settings.position_groups, settings.positions,
                           settings.group_parents, settings.group_addresses, settings.groups, settings.group_types`);
  }
}
