import { isolateTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Every table a grid page is read from: a change to any of them is a new version of the tenant's grids. */
export const GRID_SOURCES = [
  'matrices',
  'decision_projection',
  'decision_history',
  'section_projection',
  'category_projection',
  'delegation_projection',
  'delegation_history',
  'delegation_role_projection',
  'user_projection',
  'position_projection',
  'group_projection',
  'authority_type_projection',
] as const;

/**
 * The version of a tenant's grids (matrix.grid_versions), so answered grid pages can be kept and
 * served again until something they were read from changes. Each table of GRID_SOURCES has a
 * deferred constraint trigger: the version goes up once per transaction and tenant, at commit,
 * after every other write of the transaction (its row lock is the last one taken, so it adds no
 * lock-order deadlock), and the change and the new version become visible together.
 */
export class MatrixGridVersions1766100000000 implements MigrationInterface {
  name = 'MatrixGridVersions1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE matrix.grid_versions (tenant_id uuid PRIMARY KEY, version bigint NOT NULL)`);
    await isolateTenantTables(q, 'matrix');
    await q.query(`
      CREATE FUNCTION matrix.bump_grid_version() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        t uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.tenant_id ELSE NEW.tenant_id END;
      BEGIN
        -- Once per transaction and tenant (the setting is the transaction's own).
        IF current_setting('matrix.grid_version_bumped', true) IS DISTINCT FROM t::text THEN
          INSERT INTO matrix.grid_versions AS v (tenant_id, version) VALUES (t, 1)
            ON CONFLICT (tenant_id) DO UPDATE SET version = v.version + 1;
          PERFORM set_config('matrix.grid_version_bumped', t::text, true);
        END IF;
        RETURN NULL;
      END $$`);
    for (const table of GRID_SOURCES) {
      await q.query(`CREATE CONSTRAINT TRIGGER grid_version AFTER INSERT OR UPDATE OR DELETE ON matrix.${table}
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION matrix.bump_grid_version()`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of GRID_SOURCES) await q.query(`DROP TRIGGER grid_version ON matrix.${table}`);
    await q.query(`DROP FUNCTION matrix.bump_grid_version()`);
    await q.query(`DROP TABLE matrix.grid_versions`);
  }
}
