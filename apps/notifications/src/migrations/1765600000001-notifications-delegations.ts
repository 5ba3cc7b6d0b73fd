import { MigrationInterface, QueryRunner } from 'typeorm';

/** The delegations as the decision area's events tell them: whom a delegation about to expire is told of (DELEGATION_EXPIRING). */
export class NotificationsDelegations1765600000001 implements MigrationInterface {
  name = 'NotificationsDelegations1765600000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE notifications.delegation_projection (
        delegation_id uuid PRIMARY KEY, tenant_id uuid NOT NULL, delegation_display_id varchar(20), status varchar(20),
        recipient_user_id uuid, recipient_position_id uuid, expiration_date timestamptz,
        ended_on timestamptz, version bigint,
        -- The expiration date the recipient was last warned of (a new date warns again).
        expiring_notified_for timestamptz, updated_on timestamptz NOT NULL DEFAULT now()
      )`);
    // The expiring sweep: live delegations by expiration date.
    await q.query(`CREATE INDEX delegation_projection_expiring ON notifications.delegation_projection (expiration_date) WHERE ended_on IS NULL AND expiration_date IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS notifications.delegation_projection`);
  }
}
