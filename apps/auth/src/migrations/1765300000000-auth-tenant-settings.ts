import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A tenant's delegation settings, one row per tenant written by its first change: a tenant
 * without a row has the defaults (tenant-settings.rules.ts). `version` counts the changes, for
 * the consumers of evt.auth.tenant.settings-updated; `updated_by` holds the writer's user id.
 */
export class AuthTenantSettings1765300000000 implements MigrationInterface {
  name = 'AuthTenantSettings1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE auth.tenant_settings (
        tenant_id uuid PRIMARY KEY REFERENCES auth.tenants(id),
        delegation_acceptance_required boolean NOT NULL DEFAULT false,
        delegation_approval_required boolean NOT NULL DEFAULT false,
        base_currency varchar(3) NOT NULL DEFAULT 'USD',
        version bigint NOT NULL DEFAULT 1,
        updated_on timestamptz NOT NULL DEFAULT now(),
        updated_by uuid
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS auth.tenant_settings`);
  }
}
