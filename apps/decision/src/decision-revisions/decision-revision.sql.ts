/** The SQL of a decision's revisions: its history and the revision in force at an instant. */
import { ListSpec, isoSql, raw, sql } from '@ddm/platform';
import { HistoryQuery } from './dto/history.query';

/** The decision exists in the tenant (deleted or not): $1 = id, $2 = tenant. */
export const DECISION_EXISTS_SQL = `SELECT is_deleted FROM decision.decisions WHERE id = $1 AND tenant_id = $2`;

/** A decision's revisions by date (newest first unless `order` is asc), with the name of who made each. */
export function historyList(tenantId: string, decisionId: string, q: HistoryQuery): ListSpec {
  return {
    from: sql`decision.decision_revisions r`,
    where: [sql`r.decision_id = ${decisionId}`, sql`r.tenant_id = ${tenantId}`],
    id: 'r.id',
    sort: { keys: ['r.revision_date'], dir: q.sortOrder === 'asc' ? 'ASC' : 'DESC' },
    view: {
      columns: raw(`r.id AS history_id, ${isoSql('r.revision_date')} AS history_date, r.change, r.changed_fields, r.revised_by, u.name AS revised_by_name`),
      from: raw(`decision.decision_revisions r ON r.id = page.id LEFT JOIN decision.user_projection u ON u.tenant_id = r.tenant_id AND u.id = r.revised_by`),
    },
    page: q.page,
    limit: q.limit,
  };
}

/**
 * The revision in force at an instant: the newest made at or before it, to the millisecond the
 * views show (revisions keep microseconds). $1 = decision, $2 = tenant, $3 = the instant, as
 * `toInstant` makes it (UTC, to the millisecond: the session's time zone plays no part).
 */
export const REVISION_AT_SQL = `SELECT r.id, ${isoSql('r.revision_date')} AS revision_date, r.snapshot
  FROM decision.decision_revisions r
 WHERE r.decision_id = $1 AND r.tenant_id = $2 AND r.revision_date < $3::timestamptz + interval '1 millisecond'
 ORDER BY r.revision_date DESC, r.id DESC LIMIT 1`;

export interface HistoryRow {
  history_id: string;
  history_date: string;
  change: string;
  changed_fields: string[];
  revised_by: string | null;
  revised_by_name: string | null;
}
