/** The SQL of notifications: the columns every statement answers, the caller's list and counts, the inserts. */
import { ListSpec, Sql, isoSql, raw, sql } from '@ddm/platform';
import type { ListNotificationsQuery } from './dto/notification-request.dto';
import { TimePeriod, periodStart } from './notification.rules';

export const NOTIFICATION_COLUMNS = `n.id, n.tenant_id, n.user_id, n.template_key, n.category, n.title, n.message, n.is_actionable, n.status,
  ${isoSql('n.created_at')} AS created_at, ${isoSql('n.read_at')} AS read_at, n.entity_type, n.entity_id, n.action_url, n.payload`;

/** The condition of a period on the creation time (none for `all`). */
function inPeriod(period: TimePeriod, now: Date): Sql[] {
  const start = periodStart(period, now);
  return start ? [sql`n.created_at >= ${start.toISOString()}::timestamptz`] : [];
}

/** The caller's notifications in the tenant matching the query, a page of them by creation time. */
export function notificationList(tenantId: string, userId: string, q: ListNotificationsQuery, now: Date): ListSpec {
  return {
    from: sql`notifications.notifications n`,
    where: [
      sql`n.tenant_id = ${tenantId}`,
      sql`n.user_id = ${userId}`,
      ...(q.status ? [sql`n.status = ${q.status}`] : []),
      ...(q.templateKey ? [sql`n.template_key = ${q.templateKey}`] : []),
      ...(q.category ? [sql`n.category = ${q.category}`] : []),
      ...(q.entityType ? [sql`n.entity_type = ${q.entityType}`] : []),
      ...inPeriod(q.timePeriod, now),
    ],
    id: 'n.id',
    // (tenant_id, user_id, created_at DESC, id DESC): the index read forwards or backwards.
    sort: { keys: ['n.created_at'], dir: q.sortOrder === 'asc' ? 'ASC' : 'DESC' },
    view: { columns: raw(NOTIFICATION_COLUMNS), from: sql`notifications.notifications n ON n.id = page.id` },
    page: q.page,
    limit: q.limit,
  };
}

/**
 * Unread, read and total of the caller's notifications created in the period: for `all`, the
 * caller's counter row (kept by triggers, one row read whatever they hold); for a period, one
 * index-only scan of the caller's rows in it.
 */
export function countSql(tenantId: string, userId: string, period: TimePeriod, now: Date): Sql {
  if (period === 'all') {
    return sql`SELECT coalesce(max(c.unread), 0)::int AS unread, coalesce(max(c.read), 0)::int AS read, coalesce(max(c.unread + c.read), 0)::int AS total
      FROM notifications.user_counts c WHERE c.tenant_id = ${tenantId} AND c.user_id = ${userId}`;
  }
  const where = [sql`n.tenant_id = ${tenantId}`, sql`n.user_id = ${userId}`, ...inPeriod(period, now)];
  return sql`SELECT count(*) FILTER (WHERE n.status = 'UNREAD')::int AS unread, count(*) FILTER (WHERE n.status = 'READ')::int AS read, count(*)::int AS total
    FROM notifications.notifications n WHERE ${joinAnd(where)}`;
}

function joinAnd(parts: Sql[]): Sql {
  return parts.reduce((acc, p, i) => (i === 0 ? p : sql`${acc} AND ${p}`));
}

export interface NewNotifications {
  tenantId: string;
  templateKey: string;
  category: string;
  title: string;
  message: string;
  isActionable: boolean;
  entityType: string | null;
  entityId: string | null;
  actionUrl: string | null;
  payload: Record<string, unknown> | null;
  /** The natural key of the event it comes from (null: made through the API). */
  sourceKey: string | null;
  createdBy: string | null;
}

/**
 * One notification for each of the people named (`userIds`) and each holder of the positions
 * named who is a member of the tenant (a person of another tenant, or unknown, gets none), in one
 * statement; a person who already has the event's notification (same source key) gets no second.
 * Answers the rows inserted.
 */
export function insertForRecipientsSql(n: NewNotifications, userIds: readonly string[], positionIds: readonly string[]): Sql {
  // The holders by position_holder_projection's key (equality on uuids: an index under row-level
  // security, where `position_ids && ...` is not), the people and they as one array of ids (`a || b`
  // of the two arrays would not be an index condition).
  const recipients = positionIds.length
    ? sql`u.id = ANY(ARRAY(SELECT unnest(${[...userIds]}::uuid[]) UNION ALL SELECT h.user_id FROM notifications.position_holder_projection h
        WHERE h.tenant_id = ${n.tenantId} AND h.position_id = ANY(${[...positionIds]}::uuid[])))`
    : sql`u.id = ANY(${[...userIds]}::uuid[])`;
  return sql`INSERT INTO notifications.notifications AS n (tenant_id, user_id, template_key, category, title, message, is_actionable, entity_type, entity_id, action_url, payload, source_key, created_by)
    SELECT u.tenant_id, u.id, ${n.templateKey}, ${n.category}, ${n.title}, ${n.message}, ${n.isActionable}, ${n.entityType}, ${n.entityId}, ${n.actionUrl}, ${n.payload === null ? null : JSON.stringify(n.payload)}::jsonb, ${n.sourceKey}, ${n.createdBy}::uuid
    FROM notifications.user_projection u
    WHERE u.tenant_id = ${n.tenantId} AND u.status <> 'DELETED' AND ${recipients}
    ORDER BY u.id
    ON CONFLICT (tenant_id, user_id, source_key) WHERE source_key IS NOT NULL DO NOTHING
    RETURNING ${raw(NOTIFICATION_COLUMNS)}`;
}

/** Is the person a member of the tenant (not deleted), as auth last told. */
export const memberSql = (tenantId: string, userId: string) =>
  sql`SELECT 1 FROM notifications.user_projection WHERE tenant_id = ${tenantId} AND id = ${userId} AND status <> 'DELETED'`;

/** Marks the caller's unread notifications in the tenant read; answers the ids changed and when (one statement, set-based). */
export const markAllReadSql = (tenantId: string, userId: string) =>
  sql`UPDATE notifications.notifications n SET status = 'READ', read_at = now()
    WHERE n.tenant_id = ${tenantId} AND n.user_id = ${userId} AND n.status = 'UNREAD'
    RETURNING n.id, ${raw(isoSql('n.read_at'))} AS read_at`;

/** Sets one of the caller's notifications READ (readAt now, unless it was read already) or UNREAD (readAt cleared). */
export const toggleStatusSql = (tenantId: string, userId: string, id: string, status: string) =>
  sql`WITH before AS (SELECT status FROM notifications.notifications WHERE id = ${id} AND tenant_id = ${tenantId} AND user_id = ${userId} FOR UPDATE)
    UPDATE notifications.notifications n
    SET status = ${status}, read_at = CASE WHEN ${status} = 'READ' THEN coalesce(n.read_at, now()) END
    FROM before
    WHERE n.id = ${id} AND n.tenant_id = ${tenantId} AND n.user_id = ${userId}
    RETURNING ${raw(NOTIFICATION_COLUMNS)}, before.status AS previous_status`;

/** The caller's notifications created after the one named (Last-Event-ID of a reconnecting stream), oldest first, at most `limit`. */
export const missedSql = (tenantId: string, userId: string, lastId: string, limit: number) =>
  sql`SELECT ${raw(NOTIFICATION_COLUMNS)} FROM notifications.notifications n
    WHERE n.tenant_id = ${tenantId} AND n.user_id = ${userId}
      AND (n.created_at, n.id) > (SELECT l.created_at, l.id FROM notifications.notifications l WHERE l.id = ${lastId} AND l.tenant_id = ${tenantId} AND l.user_id = ${userId})
    ORDER BY n.created_at, n.id LIMIT ${limit}`;
