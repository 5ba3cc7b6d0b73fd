import { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns every table here ends with: soft deletion, then who created and last changed the row (user ids) and when. */
const SOFT_DELETE_AND_AUDIT = `is_deleted boolean NOT NULL DEFAULT false,
        deleted_on timestamptz,
        deleted_by uuid,
        created_on timestamptz NOT NULL DEFAULT now(),
        created_by uuid,
        updated_on timestamptz NOT NULL DEFAULT now(),
        updated_by uuid`;

/**
 * The building blocks of a decision: sections, categories (optionally in a section) and authority
 * types (every tenant starts with Approval and Signatory). Names are unique in the tenant among
 * the records not deleted, in any case; every list's sorts and filters have an index scoped by
 * tenant over the rows that are not deleted, ending with id (the lists' last tie-breaker).
 * Audit columns hold user ids.
 */
export class SettingsDecisionBuildingBlocks1765100000000 implements MigrationInterface {
  name = 'SettingsDecisionBuildingBlocks1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE settings.decision_sections (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        section_name varchar(50) NOT NULL,
        ${SOFT_DELETE_AND_AUDIT}
      )`);
    await q.query(`CREATE UNIQUE INDEX decision_sections_name ON settings.decision_sections (tenant_id, lower(section_name)) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX decision_sections_by_name ON settings.decision_sections (tenant_id, lower(section_name), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX decision_sections_created ON settings.decision_sections (tenant_id, created_on, id) WHERE NOT is_deleted`);

    await q.query(`
      CREATE TABLE settings.decision_categories (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        category_name varchar(50) NOT NULL,
        -- NULL: in no section (also after its section was deleted).
        section_id uuid REFERENCES settings.decision_sections (id),
        ${SOFT_DELETE_AND_AUDIT}
      )`);
    await q.query(`CREATE UNIQUE INDEX decision_categories_name ON settings.decision_categories (tenant_id, lower(category_name)) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX decision_categories_by_name ON settings.decision_categories (tenant_id, lower(category_name), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX decision_categories_created ON settings.decision_categories (tenant_id, created_on, id) WHERE NOT is_deleted`);
    // A section's categories: the categories list's sectionIds, a section's `categories`, the sections list's categoryIds, un-sectioning on delete.
    await q.query(`CREATE INDEX decision_categories_section ON settings.decision_categories (tenant_id, section_id, lower(category_name), id) WHERE NOT is_deleted`);

    await q.query(`
      CREATE TABLE settings.authority_types (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        authority_type varchar(50) NOT NULL,
        authority_type_icon varchar(100),
        authority_type_order integer NOT NULL CHECK (authority_type_order >= 0),
        -- APPROVAL, SIGNATORY for the two every tenant starts with; NULL for the tenant's own.
        system_key varchar(20),
        is_default boolean NOT NULL DEFAULT false,
        status varchar(20) NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'INACTIVE')),
        ${SOFT_DELETE_AND_AUDIT}
      )`);
    await q.query(`CREATE UNIQUE INDEX authority_types_system_key ON settings.authority_types (tenant_id, system_key) WHERE system_key IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX authority_types_name ON settings.authority_types (tenant_id, lower(authority_type)) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX authority_types_by_order ON settings.authority_types (tenant_id, authority_type_order, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX authority_types_by_name ON settings.authority_types (tenant_id, lower(authority_type), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX authority_types_created ON settings.authority_types (tenant_id, created_on, id) WHERE NOT is_deleted`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS settings.authority_types, settings.decision_categories, settings.decision_sections`);
  }
}
