/** The SQL of decision sections: the columns every statement answers (alias `s`, also for INSERT/UPDATE ... RETURNING), and the list. */
import { ListSpec, anyOf, containsPattern, isoSql, raw, sortBy, sql } from '@ddm/platform';
import type { ListDecisionSectionsQuery } from './dto/list-decision-sections.query';
import type { DecisionSectionSort } from './decision-section.rules';

/** A section's columns, with its categories that are not deleted (by name) in the view's shape. */
export const DECISION_SECTION_COLUMNS = `s.id, s.tenant_id, s.section_name, s.is_deleted,
  ${isoSql('s.created_on')} AS created_at, ${isoSql('s.updated_on')} AS updated_at,
  (SELECT coalesce(json_agg(json_build_object(
            'id', c.id, 'tenantId', c.tenant_id, 'sectionId', c.section_id, 'categoryName', c.category_name, 'isDeleted', c.is_deleted)
          ORDER BY lower(c.category_name), c.id), '[]'::json)
     FROM settings.decision_categories c
    WHERE c.tenant_id = s.tenant_id AND c.section_id = s.id AND NOT c.is_deleted) AS categories`;

/** The tenant's live section, locked for the change: $1 = id, $2 = tenant id. */
export const LOCK_DECISION_SECTION_SQL = `SELECT id FROM settings.decision_sections WHERE id = $1 AND tenant_id = $2 AND NOT is_deleted FOR UPDATE`;

/** Deletes the (locked) section softly: $1 = id, $2 = tenant id, $3 = the user. */
export const DELETE_DECISION_SECTION_SQL = `UPDATE settings.decision_sections s
    SET is_deleted = true, deleted_on = now(), deleted_by = $3, updated_on = now(), updated_by = $3
  WHERE s.id = $1 AND s.tenant_id = $2 RETURNING ${DECISION_SECTION_COLUMNS}`;

/** ORDER BY keys of each sort, matching the indexes (tenant_id, lower(section_name), id) and (tenant_id, created_on, id). */
const SORT_KEYS: Record<DecisionSectionSort, string[]> = {
  sectionName: ['lower(s.section_name)'],
  createdAt: ['s.created_on'],
};

/** The tenant's live sections matching the query, a page of them in the chosen order. */
export function decisionSectionList(tenantId: string, q: ListDecisionSectionsQuery): ListSpec {
  return {
    from: sql`settings.decision_sections s`,
    where: [
      sql`s.tenant_id = ${tenantId}`,
      sql`NOT s.is_deleted`,
      ...(q.search ? [sql`s.section_name ILIKE ${containsPattern(q.search)}`] : []),
      ...anyOf('s.id', q.sectionIds, 'uuid'),
      ...(q.categoryIds?.length
        ? [
            sql`EXISTS (SELECT 1 FROM settings.decision_categories c
                         WHERE c.tenant_id = ${tenantId} AND c.section_id = s.id AND c.id = ANY(${q.categoryIds}::uuid[]) AND NOT c.is_deleted)`,
          ]
        : []),
    ],
    id: 's.id',
    sort: sortBy(SORT_KEYS, q.sortBy, q.sortOrder),
    view: { columns: raw(DECISION_SECTION_COLUMNS), from: sql`settings.decision_sections s ON s.id = page.id` },
    page: q.page,
    limit: q.limit,
  };
}
