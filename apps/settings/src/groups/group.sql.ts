import { anyOf, containsPattern, dateRangeConditions, isoSql, ListSpec, raw, searchedRows, sortBy, sql } from '@ddm/platform';
import type { GroupSort, ListGroupsQuery } from './dto/list-groups.query';
import { GROUPS_SEARCH } from '../core/text-search';

/** The tables behind a group's view: g = the group, t = its type, a = its address. */
export const GROUP_FROM = `settings.groups g
  JOIN settings.group_types t ON t.id = g.tenant_group_type_id
  LEFT JOIN settings.group_addresses a ON a.group_id = g.id`;

/**
 * Columns of a group as answered (spec §2.5), with its parents (non-deleted), direct children
 * (non-deleted) and delegation counts as correlated subqueries of the same statement.
 */
export const GROUP_COLUMNS = `
  g.id, g.tenant_id, g.group_code, g.group_name, g.display_name, g.legal_name, g.status,
  ${isoSql('g.created_on')} AS created_on, ${isoSql('g.updated_on')} AS updated_on,
  g.is_synced, g.is_deleted, g.disable_option, g.base_currency, g.external_id, g.instance_id,
  t.id AS type_id, t.group_type_name, t.should_allow_enable_disable, t.is_default AS type_is_default, t.disable_option AS type_disable_option,
  a.id AS address_id, a.street1, a.street2, a.city, a.state, a.state_code, a.zip_code, a.country, a.country_code,
  ${isoSql('a.created_on')} AS address_created_on, ${isoSql('a.updated_on')} AS address_updated_on,
  (SELECT count(*) FROM settings.delegation_projection d
    WHERE d.group_ids @> ARRAY[g.id] AND d.revoked_on IS NULL AND d.tenant_id = g.tenant_id) AS delegations_count,
  (SELECT count(DISTINCT d.decision_id) FROM settings.delegation_projection d
    WHERE d.group_ids @> ARRAY[g.id] AND d.revoked_on IS NULL AND d.tenant_id = g.tenant_id) AS decisions_count,
  (SELECT json_agg(json_build_object(
            'id', l.id, 'parentId', l.parent_id, 'createdAt', ${isoSql('l.created_at')},
            'parentGroup', json_build_object(
              'id', pg.id, 'tenantId', pg.tenant_id, 'groupId', pg.group_code, 'groupName', pg.group_name,
              'displayName', pg.display_name, 'legalName', pg.legal_name, 'status', pg.status,
              'tenantGroupType', json_build_object('id', pt.id, 'groupTypeName', pt.group_type_name)))
          ORDER BY l.created_at, l.id)
     FROM settings.group_parents l
     JOIN settings.groups pg ON pg.id = l.parent_id AND NOT pg.is_deleted
     JOIN settings.group_types pt ON pt.id = pg.tenant_group_type_id
    WHERE l.group_id = g.id AND l.tenant_id = g.tenant_id) AS parent_groups,
  (SELECT json_agg(json_build_object(
            'id', cg.id, 'groupId', cg.group_code, 'groupName', cg.group_name, 'displayName', cg.display_name, 'status', cg.status,
            'tenantGroupType', json_build_object('id', ct.id, 'groupTypeName', ct.group_type_name))
          ORDER BY lower(cg.group_name), cg.id)
     FROM settings.group_parents l
     JOIN settings.groups cg ON cg.id = l.group_id AND NOT cg.is_deleted
     JOIN settings.group_types ct ON ct.id = cg.tenant_group_type_id
    WHERE l.parent_id = g.id AND l.tenant_id = g.tenant_id) AS child_groups`;

/** ORDER BY keys of each sort (the row id is appended by the list). */
const SORT_KEYS: Record<GroupSort, string[]> = {
  groupId: ['g.group_code'],
  groupName: ['lower(g.group_name)'],
  status: ['g.status'],
  createdOn: ['g.created_on'],
  updatedOn: ['g.updated_on'],
  isSynced: ['g.is_synced'],
  tenantGroupType: ['lower(t.group_type_name)'],
};

/** The tenant's live groups matching the query, a page of them in the chosen order. */
export function groupList(tenantId: string, q: ListGroupsQuery): ListSpec {
  const rows = searchedRows(GROUPS_SEARCH, q.search ? containsPattern(q.search) : undefined);
  return {
    with: rows.with,
    from: sql`${rows.table} g JOIN settings.group_types t ON t.id = g.tenant_group_type_id`,
    where: [
      sql`g.tenant_id = ${tenantId}`,
      sql`NOT g.is_deleted`,
      ...anyOf('g.status', q.status, 'text'),
      ...anyOf('g.tenant_group_type_id', q.tenantGroupTypeIds, 'uuid'),
      // A deleted parent's links are hidden (as in parentGroups): its children are not listed under it.
      ...(q.parentGroupId
        ? [
            sql`EXISTS (SELECT 1 FROM settings.group_parents l JOIN settings.groups pa ON pa.id = l.parent_id AND NOT pa.is_deleted
                         WHERE l.group_id = g.id AND l.parent_id = ${q.parentGroupId})`,
          ]
        : []),
      ...dateRangeConditions(q, { created: 'g.created_on', updated: 'g.updated_on' }),
    ],
    id: 'g.id',
    sort: sortBy(SORT_KEYS, q.sortBy, q.sortOrder),
    view: {
      columns: raw(GROUP_COLUMNS),
      from: sql`settings.groups g ON g.id = page.id
                JOIN settings.group_types t ON t.id = g.tenant_group_type_id
                LEFT JOIN settings.group_addresses a ON a.group_id = g.id`,
    },
    page: q.page,
    limit: q.limit,
  };
}
