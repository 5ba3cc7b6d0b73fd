import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The positions list answers its total in the same statement as its page. A narrow index on
 * (tenant_id, status, is_scim_provisioned) over the positions that are not deleted is small
 * (B-tree deduplication: a few posting lists per tenant) and lets that count be an index-only
 * scan for the common filters (none, status, sourceType), instead of a sequential scan.
 */
export class SettingsPositions1764000000001 implements MigrationInterface {
  name = 'SettingsPositions1764000000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX positions_count ON settings.positions (tenant_id, status, is_scim_provisioned) WHERE NOT is_deleted`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS settings.positions_count`);
  }
}
