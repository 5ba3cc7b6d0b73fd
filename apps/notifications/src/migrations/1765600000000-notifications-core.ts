import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The notifications area: each person's notifications, the tenant's overrides of the template
 * texts, each person's digest preference, and the projection of auth's users (membership and the
 * positions held, for POSITION_ONLY recipients).
 */
export class NotificationsCore1765600000000 implements MigrationInterface {
  name = 'NotificationsCore1765600000000';

  async up(q: QueryRunner): Promise<void> {
    // Time-ordered ids (UUID v7) made by the statement that inserts, so set-based inserts from events need no round trip for ids.
    await q.query(`
      CREATE FUNCTION notifications.uuid_v7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
        SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
      $$`);
    await q.query(`
      CREATE TABLE notifications.notifications (
        id uuid PRIMARY KEY DEFAULT notifications.uuid_v7(),
        tenant_id uuid NOT NULL,
        user_id uuid NOT NULL,
        template_key varchar(60) NOT NULL,
        category varchar(60) NOT NULL,
        title text NOT NULL,
        message text NOT NULL,
        is_actionable boolean NOT NULL DEFAULT false,
        status varchar(10) NOT NULL DEFAULT 'UNREAD' CHECK (status IN ('UNREAD', 'READ')),
        created_at timestamptz NOT NULL DEFAULT now(),
        read_at timestamptz,
        entity_type varchar(100),
        entity_id varchar(100),
        action_url varchar(2048),
        payload jsonb,
        -- The natural key of a notification made from an event (subject, record, version...): one per event and person, however often it is delivered.
        source_key varchar(300),
        created_by uuid
      )`);
    // The caller's list (newest first) and counts by period: one index, its scans bounded by the caller's rows.
    await q.query(`CREATE INDEX notifications_by_user ON notifications.notifications (tenant_id, user_id, created_at DESC, id DESC) INCLUDE (status)`);
    await q.query(`CREATE INDEX notifications_unread ON notifications.notifications (tenant_id, user_id, created_at) WHERE status = 'UNREAD'`);
    await q.query(`CREATE UNIQUE INDEX notifications_source ON notifications.notifications (tenant_id, user_id, source_key) WHERE source_key IS NOT NULL`);
    // The retention sweep: read notifications, oldest first.
    await q.query(`CREATE INDEX notifications_read_by_age ON notifications.notifications (created_at) WHERE status = 'READ'`);

    await q.query(`
      CREATE TABLE notifications.template_overrides (
        tenant_id uuid NOT NULL,
        template_key varchar(60) NOT NULL,
        title_template varchar(500) NOT NULL,
        message_template varchar(5000) NOT NULL,
        updated_on timestamptz NOT NULL DEFAULT now(),
        updated_by uuid,
        PRIMARY KEY (tenant_id, template_key)
      )`);

    await q.query(`
      CREATE TABLE notifications.preferences (
        tenant_id uuid NOT NULL,
        user_id uuid NOT NULL,
        email_digest varchar(10) NOT NULL DEFAULT 'off' CHECK (email_digest IN ('off', 'daily', 'weekly')),
        last_digest_at timestamptz,
        updated_on timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, user_id)
      )`);
    await q.query(`CREATE INDEX preferences_digest ON notifications.preferences (last_digest_at NULLS FIRST) WHERE email_digest <> 'off'`);

    await q.query(`
      CREATE TABLE notifications.user_projection (
        tenant_id uuid NOT NULL, id uuid NOT NULL, email varchar(320) NOT NULL, name varchar(200), display_name varchar(200),
        status varchar(20) NOT NULL, position_ids uuid[] NOT NULL DEFAULT '{}', version bigint, updated_on timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, id)
      )`);
    await q.query(`CREATE INDEX user_projection_positions ON notifications.user_projection USING gin (position_ids)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS notifications.user_projection, notifications.preferences, notifications.template_overrides, notifications.notifications`);
    await q.query(`DROP FUNCTION IF EXISTS notifications.uuid_v7()`);
  }
}
