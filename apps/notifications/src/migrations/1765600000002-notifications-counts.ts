import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each person's unread and read totals, kept by statement-level triggers from the rows each
 * statement inserted, changed or deleted (one counter update per person per statement, so marking
 * 10,000 read is one update): the all-time count reads one row, whatever the person holds.
 */
export class NotificationsCounts1765600000002 implements MigrationInterface {
  name = 'NotificationsCounts1765600000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE notifications.user_counts (
        tenant_id uuid NOT NULL, user_id uuid NOT NULL, unread integer NOT NULL DEFAULT 0, read integer NOT NULL DEFAULT 0,
        PRIMARY KEY (tenant_id, user_id)
      )`);
    // One function for the three events: +1 per new row, -1 per old row, by person and status.
    await q.query(`
      CREATE FUNCTION notifications.count_changes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO notifications.user_counts AS c (tenant_id, user_id, unread, read)
          SELECT tenant_id, user_id, count(*) FILTER (WHERE status = 'UNREAD'), count(*) FILTER (WHERE status = 'READ')
            FROM new_rows GROUP BY tenant_id, user_id ORDER BY tenant_id, user_id
          ON CONFLICT (tenant_id, user_id) DO UPDATE SET unread = c.unread + EXCLUDED.unread, read = c.read + EXCLUDED.read;
        ELSIF TG_OP = 'UPDATE' THEN
          INSERT INTO notifications.user_counts AS c (tenant_id, user_id, unread, read)
          SELECT tenant_id, user_id, sum(du), sum(dr) FROM (
              SELECT tenant_id, user_id, -(status = 'UNREAD')::int AS du, -(status = 'READ')::int AS dr FROM old_rows
              UNION ALL
              SELECT tenant_id, user_id, (status = 'UNREAD')::int, (status = 'READ')::int FROM new_rows
            ) d
            GROUP BY tenant_id, user_id HAVING sum(du) <> 0 OR sum(dr) <> 0 ORDER BY tenant_id, user_id
          ON CONFLICT (tenant_id, user_id) DO UPDATE SET unread = c.unread + EXCLUDED.unread, read = c.read + EXCLUDED.read;
        ELSE
          UPDATE notifications.user_counts c SET unread = c.unread - d.unread, read = c.read - d.read
          FROM (SELECT tenant_id, user_id, count(*) FILTER (WHERE status = 'UNREAD') AS unread, count(*) FILTER (WHERE status = 'READ') AS read
                  FROM old_rows GROUP BY tenant_id, user_id) d
          WHERE c.tenant_id = d.tenant_id AND c.user_id = d.user_id;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER notifications_counted_insert AFTER INSERT ON notifications.notifications REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notifications.count_changes()`);
    await q.query(
      `CREATE TRIGGER notifications_counted_update AFTER UPDATE ON notifications.notifications REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notifications.count_changes()`,
    );
    await q.query(`CREATE TRIGGER notifications_counted_delete AFTER DELETE ON notifications.notifications REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notifications.count_changes()`);
    await q.query(`
      INSERT INTO notifications.user_counts (tenant_id, user_id, unread, read)
      SELECT tenant_id, user_id, count(*) FILTER (WHERE status = 'UNREAD'), count(*) FILTER (WHERE status = 'READ') FROM notifications.notifications GROUP BY tenant_id, user_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS notifications_counted_insert ON notifications.notifications`);
    await q.query(`DROP TRIGGER IF EXISTS notifications_counted_update ON notifications.notifications`);
    await q.query(`DROP TRIGGER IF EXISTS notifications_counted_delete ON notifications.notifications`);
    await q.query(`DROP FUNCTION IF EXISTS notifications.count_changes()`);
    await q.query(`DROP TABLE IF EXISTS notifications.user_counts`);
  }
}
