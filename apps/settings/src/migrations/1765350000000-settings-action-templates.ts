import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Action templates (Send Email, Schedule Meeting, Review Document, Prepare Report, then the
 * tenant's own), each opening actions of one action type of the actions area. The defaults carry
 * a stable key (one row per tenant and key); the list's sorts have an index scoped by tenant.
 */
export class SettingsActionTemplates1765350000000 implements MigrationInterface {
  name = 'SettingsActionTemplates1765350000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE settings.action_templates (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        template_key varchar(40),
        name varchar(200) NOT NULL,
        description varchar(1000),
        action_type_id uuid,
        status boolean NOT NULL DEFAULT true,
        version integer NOT NULL DEFAULT 1,
        is_deleted boolean NOT NULL DEFAULT false,
        deleted_on timestamptz,
        deleted_by uuid,
        created_on timestamptz NOT NULL DEFAULT now(),
        created_by uuid,
        updated_on timestamptz NOT NULL DEFAULT now(),
        updated_by uuid
      )`);
    await q.query(`CREATE UNIQUE INDEX action_templates_key ON settings.action_templates (tenant_id, template_key) WHERE template_key IS NOT NULL`);
    await q.query(`CREATE INDEX action_templates_by_name ON settings.action_templates (tenant_id, lower(name), id) WHERE NOT is_deleted`);
    await q.query(`CREATE INDEX action_templates_created ON settings.action_templates (tenant_id, created_on, id) WHERE NOT is_deleted`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS settings.action_templates`);
  }
}
