import { auditTables, isolateTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Document versioning fields (the metadata a document's version carries: Version Number, Effective
 * Date, Review Date, then the tenant's own): each tenant gets the defaults (system_key) when it is
 * created; names unique in the tenant among the live fields, in any case; the list's sorts have an
 * index scoped by tenant over the live rows, ending with id. `status` is the product's boolean.
 */
export class SettingsDocumentVersioning1766300000000 implements MigrationInterface {
  name = 'SettingsDocumentVersioning1766300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE settings.document_versioning_fields (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        field_name varchar(150) NOT NULL,
        field_type varchar(20) NOT NULL CHECK (field_type IN ('string', 'date', 'number', 'boolean')),
        -- VERSION_NUMBER, EFFECTIVE_DATE, REVIEW_DATE for the fields every tenant starts with; NULL for the tenant's own.
        system_key varchar(30),
        status boolean NOT NULL DEFAULT true,
        is_default boolean NOT NULL DEFAULT false,
        is_deleted boolean NOT NULL DEFAULT false,
        deleted_on timestamptz,
        deleted_by uuid,
        created_on timestamptz NOT NULL DEFAULT now(),
        created_by uuid,
        updated_on timestamptz NOT NULL DEFAULT now(),
        updated_by uuid
      )`);
    await q.query(`CREATE UNIQUE INDEX document_versioning_fields_system_key ON settings.document_versioning_fields (tenant_id, system_key) WHERE system_key IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX document_versioning_fields_name ON settings.document_versioning_fields (tenant_id, lower(field_name)) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX document_versioning_fields_by_name ON settings.document_versioning_fields (tenant_id, lower(field_name), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX document_versioning_fields_by_type ON settings.document_versioning_fields (tenant_id, field_type, lower(field_name), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX document_versioning_fields_created ON settings.document_versioning_fields (tenant_id, created_on, id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX document_versioning_fields_updated ON settings.document_versioning_fields (tenant_id, updated_on, id) WHERE NOT is_deleted`);
    // A record table like the others: its changes go to the schema's audit trail (audit.ts).
    await auditTables(q, 'settings');
    await isolateTenantTables(q, 'settings');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS settings.document_versioning_fields`);
  }
}
