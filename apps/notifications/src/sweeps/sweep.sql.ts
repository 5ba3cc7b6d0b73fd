/** The SQL of the scheduled sweeps: retention, the email digest, expired stream tickets. */
import { raw, sql } from '@ddm/platform';

/** Deletes up to `batch` read notifications created more than `days` days ago (oldest first); answers how many. */
export const retentionSql = (days: number, batch: number) =>
  sql`WITH doomed AS (
      SELECT id FROM notifications.notifications WHERE status = 'READ' AND created_at < now() - make_interval(days => ${days}::int) ORDER BY created_at LIMIT ${batch}
    )
    DELETE FROM notifications.notifications n USING doomed WHERE n.id = doomed.id RETURNING 1`;

/**
 * Claims up to `batch` people whose digest is due (daily: none in the last day; weekly: in the last
 * week): marks them sent now and answers them with their address (null: no longer an active
 * member, nothing is mailed), in one statement. Rows another
 * replica is claiming are skipped (SKIP LOCKED), so each digest goes once whatever the replicas.
 */
export const claimDueDigestsSql = (batch: number) =>
  sql`WITH due AS (
      SELECT p.tenant_id, p.user_id, p.last_digest_at FROM notifications.preferences p
      WHERE p.email_digest <> 'off'
        AND (p.last_digest_at IS NULL OR p.last_digest_at < now() - CASE p.email_digest WHEN 'daily' THEN interval '1 day' ELSE interval '7 days' END + interval '5 minutes')
      ORDER BY p.last_digest_at NULLS FIRST
      LIMIT ${batch}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE notifications.preferences p SET last_digest_at = now()
    FROM due LEFT JOIN notifications.user_projection u ON u.tenant_id = due.tenant_id AND u.id = due.user_id AND u.status = 'ACTIVE'
    WHERE p.tenant_id = due.tenant_id AND p.user_id = due.user_id
    RETURNING p.tenant_id, p.user_id, u.email, coalesce(u.display_name, u.name) AS name, p.email_digest`;

export interface DigestItem {
  tenant_id: string;
  user_id: string;
  title: string;
  action_url: string | null;
  created_at: string;
  unread: number;
}

/** For each person claimed, their newest unread notifications (at most `perPerson`) and how many are unread in all. */
export const digestItemsSql = (tenantIds: readonly string[], userIds: readonly string[], perPerson: number) =>
  sql`SELECT x.tenant_id, x.user_id, n.title, n.action_url, ${raw(`to_char(n.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`)} AS created_at, c.unread
    FROM unnest(${[...tenantIds]}::uuid[], ${[...userIds]}::uuid[]) AS x(tenant_id, user_id)
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS unread FROM notifications.notifications u WHERE u.tenant_id = x.tenant_id AND u.user_id = x.user_id AND u.status = 'UNREAD'
    ) c
    JOIN LATERAL (
      SELECT title, action_url, created_at FROM notifications.notifications n
      WHERE n.tenant_id = x.tenant_id AND n.user_id = x.user_id AND n.status = 'UNREAD'
      ORDER BY n.created_at DESC LIMIT ${perPerson}
    ) n ON true
    ORDER BY x.tenant_id, x.user_id, n.created_at DESC`;

export interface ExpiringRow {
  delegation_id: string;
  tenant_id: string;
  delegation_display_id: string | null;
  recipient_user_id: string | null;
  recipient_position_id: string | null;
  expiration_date: string;
}

/**
 * Claims up to `batch` live delegations (ISSUED or ACCEPTED) expiring within the next 7 days whose
 * recipient was not yet warned of that date: marks them warned and answers them, in one statement.
 */
export const claimExpiringSql = (batch: number) =>
  sql`WITH due AS (
      SELECT delegation_id FROM notifications.delegation_projection
      WHERE ended_on IS NULL AND expiration_date IS NOT NULL AND expiration_date > now() AND expiration_date <= now() + interval '7 days'
        AND status IN ('ISSUED', 'ACCEPTED') AND expiring_notified_for IS DISTINCT FROM expiration_date
      ORDER BY expiration_date LIMIT ${batch}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE notifications.delegation_projection d SET expiring_notified_for = d.expiration_date
    FROM due WHERE d.delegation_id = due.delegation_id
    RETURNING d.delegation_id, d.tenant_id, d.delegation_display_id, d.recipient_user_id, d.recipient_position_id, ${raw(
      `to_char(d.expiration_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    )} AS expiration_date`;

/** Deletes up to `batch` stream tickets that expired unused (a used one is deleted when it is used); answers how many. */
export const expiredTicketsSql = (batch: number) =>
  sql`WITH doomed AS (SELECT ticket_hash FROM notifications.stream_tickets WHERE expires_at < now() ORDER BY expires_at LIMIT ${batch})
    DELETE FROM notifications.stream_tickets t USING doomed WHERE t.ticket_hash = doomed.ticket_hash RETURNING 1`;
