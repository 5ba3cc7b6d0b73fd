import { isolateTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who holds each position, one row per person and position, kept by the database from the people's
 * `position_ids` (user_projection). A notification for the holders of positions looked them up with
 * `position_ids && $positions`; under row-level security only leakproof conditions may pick an
 * index, and `&&` is not one, so every event naming a position read every person of its tenant.
 * Equality on this table's key is leakproof: the holders are found by the index.
 */
export class NotificationsPositionHolders1766000000000 implements MigrationInterface {
  name = 'NotificationsPositionHolders1766000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE notifications.position_holder_projection (
        tenant_id uuid NOT NULL,
        position_id uuid NOT NULL,
        user_id uuid NOT NULL,
        PRIMARY KEY (tenant_id, position_id, user_id)
      )`);
    await q.query(`CREATE INDEX position_holder_projection_user ON notifications.position_holder_projection (tenant_id, user_id)`);
    await q.query(`
      CREATE FUNCTION notifications.copy_position_holders() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN
          DELETE FROM notifications.position_holder_projection h
           WHERE h.tenant_id = OLD.tenant_id AND h.user_id = OLD.id AND (TG_OP = 'DELETE' OR NOT h.position_id = ANY (NEW.position_ids));
        END IF;
        IF TG_OP <> 'DELETE' THEN
          INSERT INTO notifications.position_holder_projection (tenant_id, position_id, user_id)
          SELECT DISTINCT NEW.tenant_id, p, NEW.id FROM unnest(NEW.position_ids) AS p
          ON CONFLICT DO NOTHING;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER user_projection_position_holders AFTER INSERT OR DELETE OR UPDATE OF position_ids ON notifications.user_projection
        FOR EACH ROW EXECUTE FUNCTION notifications.copy_position_holders()`);
    await q.query(`
      INSERT INTO notifications.position_holder_projection (tenant_id, position_id, user_id)
      SELECT DISTINCT u.tenant_id, p, u.id FROM notifications.user_projection u CROSS JOIN LATERAL unnest(u.position_ids) AS p`);
    await q.query(`DROP INDEX notifications.user_projection_positions`);
    await isolateTenantTables(q, 'notifications');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX user_projection_positions ON notifications.user_projection USING gin (position_ids)`);
    await q.query(`DROP TRIGGER user_projection_position_holders ON notifications.user_projection`);
    await q.query(`DROP FUNCTION notifications.copy_position_holders()`);
    await q.query(`DROP TABLE notifications.position_holder_projection`);
  }
}
