/** The SQL of decision categories: the columns every statement answers (alias `c`, also for INSERT/UPDATE ... RETURNING), and the list. */
import { ListSpec, anyOf, containsPattern, isoSql, raw, sortBy, sql } from '@ddm/platform';
import type { ListDecisionCategoriesQuery } from './dto/list-decision-categories.query';
import type { DecisionCategorySort } from './decision-category.rules';

/** A category's columns, with its section (null when in none) in the view's shape. */
export const DECISION_CATEGORY_COLUMNS = `c.id, c.tenant_id, c.category_name, c.section_id, c.is_deleted,
  ${isoSql('c.created_on')} AS created_at, ${isoSql('c.updated_on')} AS updated_at,
  (SELECT json_build_object('id', s.id, 'tenantId', s.tenant_id, 'sectionName', s.section_name, 'isDeleted', s.is_deleted)
     FROM settings.decision_sections s WHERE s.id = c.section_id AND s.tenant_id = c.tenant_id) AS section`;

/** The tenant's live category, locked for the change: $1 = id, $2 = tenant id. */
export const LOCK_DECISION_CATEGORY_SQL = `SELECT category_name FROM settings.decision_categories WHERE id = $1 AND tenant_id = $2 AND NOT is_deleted FOR UPDATE`;

/**
 * Takes the tenant's live categories out of a section: $1 = tenant id, $2 = section id, $3 = the
 * user. Answers what their events carry, by name.
 */
export const TAKE_OUT_OF_SECTION_SQL = `WITH moved AS (
    UPDATE settings.decision_categories c SET section_id = NULL, updated_on = now(), updated_by = $3
     WHERE c.tenant_id = $1 AND c.section_id = $2 AND NOT c.is_deleted
    RETURNING c.id, c.category_name, c.section_id, c.is_deleted)
  SELECT * FROM moved ORDER BY lower(category_name), id`;

/** ORDER BY keys of each sort, matching the indexes (tenant_id, lower(category_name), id) and (tenant_id, created_on, id). */
const SORT_KEYS: Record<DecisionCategorySort, string[]> = {
  categoryName: ['lower(c.category_name)'],
  createdAt: ['c.created_on'],
};

/** The tenant's live categories matching the query, a page of them in the chosen order. */
export function decisionCategoryList(tenantId: string, q: ListDecisionCategoriesQuery): ListSpec {
  return {
    from: sql`settings.decision_categories c`,
    where: [
      sql`c.tenant_id = ${tenantId}`,
      sql`NOT c.is_deleted`,
      ...(q.search ? [sql`c.category_name ILIKE ${containsPattern(q.search)}`] : []),
      ...anyOf('c.id', q.categoryIds, 'uuid'),
      ...anyOf('c.section_id', q.sectionIds, 'uuid'),
    ],
    id: 'c.id',
    sort: sortBy(SORT_KEYS, q.sortBy, q.sortOrder),
    view: { columns: raw(DECISION_CATEGORY_COLUMNS), from: sql`settings.decision_categories c ON c.id = page.id` },
    page: q.page,
    limit: q.limit,
  };
}
