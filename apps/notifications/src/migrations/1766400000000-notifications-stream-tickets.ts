import { isolateTenantTables } from '@ddm/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One-time tickets for the notifications stream (a browser's EventSource cannot send a bearer
 * token): only the SHA-256 of each ticket is kept, with whom it was issued to and until when.
 * Redeeming deletes the row in one statement, so a ticket opens one stream whichever replica it
 * reaches; the expiry index serves the sweep that deletes the ones never used.
 */
export class NotificationsStreamTickets1766400000000 implements MigrationInterface {
  name = 'NotificationsStreamTickets1766400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE notifications.stream_tickets (
        ticket_hash text PRIMARY KEY,
        tenant_id uuid NOT NULL,
        user_id uuid NOT NULL,
        sub text NOT NULL,
        email text,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX stream_tickets_expiry ON notifications.stream_tickets (expires_at)`);
    await isolateTenantTables(q, 'notifications');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE notifications.stream_tickets`);
  }
}
