/** The SQL of the stream tickets. */
import { sql } from '@ddm/platform';

export interface IssuedTicketRow {
  expires_at: Date;
}

export interface RedeemedTicketRow {
  tenant_id: string;
  user_id: string;
  sub: string;
  email: string | null;
  expires_at: Date;
  live: boolean;
}

export const issueTicketSql = (hash: string, tenantId: string, userId: string, sub: string, email: string | undefined, ttlSeconds: number) =>
  sql`INSERT INTO notifications.stream_tickets (ticket_hash, tenant_id, user_id, sub, email, expires_at)
    VALUES (${hash}, ${tenantId}, ${userId}, ${sub}, ${email ?? null}, now() + make_interval(secs => ${ttlSeconds}::int))
    RETURNING expires_at`;

/**
 * Uses a ticket up: deletes its row and answers it, in one statement, so of two requests with the
 * same ticket (on any replicas) one gets the row and the other nothing. An expired one is deleted
 * too and answered with `live` false.
 */
export const redeemTicketSql = (hash: string) =>
  sql`DELETE FROM notifications.stream_tickets WHERE ticket_hash = ${hash}
    RETURNING tenant_id, user_id, sub, email, expires_at, expires_at > clock_timestamp() AS live`;
