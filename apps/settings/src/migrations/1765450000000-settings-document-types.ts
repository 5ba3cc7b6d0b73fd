import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Document types (every tenant starts with Policy, Procedure, Charter, Resolution and Contract):
 * names unique in the tenant among the live types, in any case; the list's sorts have an index
 * scoped by tenant over the live rows, ending with id. Audit columns hold user ids.
 */
export class SettingsDocumentTypes1765450000000 implements MigrationInterface {
  name = 'SettingsDocumentTypes1765450000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE settings.document_types (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        document_type_name varchar(150) NOT NULL,
        document_type_icon varchar(150),
        -- POLICY, PROCEDURE, ... for the types every tenant starts with; NULL for the tenant's own.
        system_key varchar(20),
        is_default boolean NOT NULL DEFAULT false,
        status varchar(20) NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'INACTIVE')),
        is_deleted boolean NOT NULL DEFAULT false,
        deleted_on timestamptz,
        deleted_by uuid,
        created_on timestamptz NOT NULL DEFAULT now(),
        created_by uuid,
        updated_on timestamptz NOT NULL DEFAULT now(),
        updated_by uuid
      )`);
    await q.query(`CREATE UNIQUE INDEX document_types_system_key ON settings.document_types (tenant_id, system_key) WHERE system_key IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX document_types_name ON settings.document_types (tenant_id, lower(document_type_name)) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX document_types_by_name ON settings.document_types (tenant_id, lower(document_type_name), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX document_types_created ON settings.document_types (tenant_id, created_on, id) WHERE NOT is_deleted`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS settings.document_types`);
  }
}
