import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Auth's projections take the shape of the shared projection helper (applyVersionedProjection):
 * every projection table has `version`, and the delegation projection's revocation is its terminal
 * state, a timestamp that once set stays (instead of an is_active flag). Revoked rows get their
 * last update time as the revocation time, the closest the projection knows.
 */
export class AuthProjectionVersions1764200000001 implements MigrationInterface {
  name = 'AuthProjectionVersions1764200000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE auth.position_projection ADD COLUMN version bigint`);
    await q.query(`ALTER TABLE auth.group_projection ADD COLUMN version bigint`);

    await q.query(`ALTER TABLE auth.delegation_projection ADD COLUMN revoked_on timestamptz`);
    await q.query(`UPDATE auth.delegation_projection SET revoked_on = updated_on WHERE NOT is_active`);
    await q.query(`DROP INDEX auth.delegation_projection_issuer, auth.delegation_projection_recipient`);
    await q.query(`ALTER TABLE auth.delegation_projection DROP COLUMN is_active`);
    await q.query(`CREATE INDEX delegation_projection_issuer ON auth.delegation_projection (tenant_id, issuer_user_id) WHERE revoked_on IS NULL`);
    await q.query(`CREATE INDEX delegation_projection_recipient ON auth.delegation_projection (tenant_id, recipient_user_id) WHERE revoked_on IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE auth.delegation_projection ADD COLUMN is_active boolean NOT NULL DEFAULT true`);
    await q.query(`UPDATE auth.delegation_projection SET is_active = false WHERE revoked_on IS NOT NULL`);
    await q.query(`ALTER TABLE auth.delegation_projection ALTER COLUMN is_active DROP DEFAULT`);
    await q.query(`DROP INDEX auth.delegation_projection_issuer, auth.delegation_projection_recipient`);
    await q.query(`ALTER TABLE auth.delegation_projection DROP COLUMN revoked_on`);
    await q.query(`CREATE INDEX delegation_projection_issuer ON auth.delegation_projection (tenant_id, issuer_user_id) WHERE is_active`);
    await q.query(`CREATE INDEX delegation_projection_recipient ON auth.delegation_projection (tenant_id, recipient_user_id) WHERE is_active`);
    await q.query(`ALTER TABLE auth.group_projection DROP COLUMN version`);
    await q.query(`ALTER TABLE auth.position_projection DROP COLUMN version`);
  }
}
