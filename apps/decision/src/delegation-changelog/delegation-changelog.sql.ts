/** The SQL of a delegation's change log: its revisions (written by every change, delegation-changes.ts) with what each changed. */
import { ListSpec, isoSql, raw, sql } from '@ddm/platform';
import { ChangelogQuery } from './dto/delegation-changelog.dto';

/** The fields a change log leaves out: they change with every revision and say nothing. */
const SILENT_FIELDS = ['updatedAt', 'updatedBy'];

/**
 * What a revision changed: every field whose value differs from the revision before (the first
 * revision lists the fields it set), computed from the two snapshots; `r` is the revision.
 */
const CHANGES_SQL = `(SELECT coalesce(jsonb_agg(jsonb_build_object('field', k.key, 'from', prev.snapshot -> k.key, 'to', r.snapshot -> k.key) ORDER BY k.key), '[]')
    FROM (SELECT jsonb_object_keys(r.snapshot) UNION SELECT jsonb_object_keys(coalesce(prev.snapshot, '{}'::jsonb))) AS k(key)
   WHERE k.key <> ALL('{${SILENT_FIELDS.join(',')}}'::text[])
     AND (prev.snapshot -> k.key) IS DISTINCT FROM (r.snapshot -> k.key)
     AND NOT (prev.snapshot IS NULL AND jsonb_typeof(r.snapshot -> k.key) = 'null'))`;

export function changelogList(tenantId: string, delegationId: string, q: ChangelogQuery): ListSpec {
  return {
    from: sql`decision.delegation_revisions r`,
    where: [sql`r.delegation_id = ${delegationId}`, sql`r.tenant_id = ${tenantId}`],
    id: 'r.id',
    sort: { keys: [q.sortBy === 'revisionDate' ? 'r.revision_date' : 'r.revision_id'], dir: q.sortOrder === 'asc' ? 'ASC' : 'DESC' },
    view: {
      columns: raw(`r.id, r.delegation_id, r.revision_id::text AS revision_id, ${isoSql('r.revision_date')} AS revision_date, r.revised_by, u.name AS revised_by_name, r.change,
                    ${CHANGES_SQL} AS changes`),
      from: raw(`decision.delegation_revisions r ON r.id = page.id
                 LEFT JOIN decision.delegation_revisions prev ON prev.delegation_id = r.delegation_id AND prev.revision_id = r.revision_id - 1
                 LEFT JOIN decision.user_projection u ON u.tenant_id = r.tenant_id AND u.id = r.revised_by`),
    },
    page: q.page,
    limit: q.limit,
  };
}

export interface ChangelogRow {
  id: string;
  delegation_id: string;
  revision_id: string;
  revision_date: string;
  revised_by: string | null;
  revised_by_name: string | null;
  change: string;
  changes: { field: string; from: unknown; to: unknown }[];
}
