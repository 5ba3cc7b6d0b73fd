/** The SQL of action templates: the columns every statement answers, the defaults and the list. */
import { ListSpec, containsPattern, raw, sortBy, sql } from '@ddm/platform';
import type { ActionTemplateSort } from './action-template.rules';
import type { ListActionTemplatesQuery } from './dto/list-action-templates.query';

export const ACTION_TEMPLATE_COLUMNS = 't.id, t.tenant_id, t.name, t.description, t.action_type_id, t.status, t.is_deleted, t.version';

/** Inserts the defaults the tenant lacks; answers the rows inserted (their created events). */
export const INSERT_DEFAULT_ACTION_TEMPLATES_SQL = `INSERT INTO settings.action_templates AS t (id, tenant_id, template_key, name, description, action_type_id)
  SELECT x.id, $1, x.k, x.name, x.description, x.type_id FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::uuid[]) AS x(id, k, name, description, type_id)
  ON CONFLICT DO NOTHING
  RETURNING ${ACTION_TEMPLATE_COLUMNS}`;

const SORT_KEYS: Record<ActionTemplateSort, string[]> = {
  name: ['lower(t.name)'],
  createdOn: ['t.created_on'],
};

/** The tenant's live templates matching the query, a page of them in the chosen order. */
export function actionTemplateList(tenantId: string, q: ListActionTemplatesQuery): ListSpec {
  return {
    from: sql`settings.action_templates t`,
    where: [sql`t.tenant_id = ${tenantId}`, sql`NOT t.is_deleted`, ...(q.search ? [sql`t.name ILIKE ${containsPattern(q.search)}`] : [])],
    id: 't.id',
    sort: sortBy(SORT_KEYS, q.sortBy, q.sortOrder),
    view: { columns: raw(ACTION_TEMPLATE_COLUMNS), from: sql`settings.action_templates t ON t.id = page.id` },
    page: q.page,
    limit: q.limit,
  };
}
