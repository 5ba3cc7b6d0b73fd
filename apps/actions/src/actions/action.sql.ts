/**
 * The SQL of actions. An action's view (spec §2.2, without what depends on the caller) is built by
 * Postgres as one JSON value in one statement: the get, the list's page and the answer of every
 * change are the same expression, with the owner's and each assignee's §2.3 summary from the user
 * projection joined to the group projection (primary organisation). The benchmark runs these statements.
 */
import { anyOf, dateRangeConditions, escapeLike, isoSql, ListSpec, raw, searchedRows, sortBy, Sql, sql } from '@ddm/platform';
import { UNSETTLED_STATUS_KEYS } from '../core/configuration.rules';
import type { ActionSort } from './action.rules';
import type { StoredActionView } from './dto/action.response';
import { ACTIONS_SEARCH } from '../core/text-search';

/** The §2.3 summary of user `u` (with primary organisation `g`) whose id is `id` (an id the projection does not know yet answers its id and nulls). */
const userSummary = (u: string, g: string, id: string) => `CASE WHEN ${id} IS NULL THEN NULL ELSE jsonb_build_object(
    'id', ${id}, 'email', ${u}.email, 'name', ${u}.name, 'displayName', ${u}.display_name, 'profileImageUrl', ${u}.profile_image_url,
    'positions', coalesce(${u}.positions, '[]'::jsonb), 'mobilePhone', ${u}.mobile_phone, 'primaryOrganizationId', ${u}.primary_organization_id,
    'primaryOrganization', CASE WHEN ${u}.primary_organization_id IS NULL THEN NULL ELSE jsonb_build_object(
      'id', ${u}.primary_organization_id,
      'groupName', coalesce(${g}.group_name, ${u}.primary_organization->>'groupName'),
      'displayName', coalesce(${g}.display_name, ${u}.primary_organization->>'displayName'),
      'tenantGroupTypeId', coalesce(${g}.tenant_group_type_id::text, ${u}.primary_organization->>'tenantGroupTypeId'),
      'tenantGroupTypeName', coalesce(${g}.tenant_group_type_name, ${u}.primary_organization->>'tenantGroupTypeName'),
      'legalName', coalesce(${g}.legal_name, ${u}.primary_organization->>'legalName'),
      'baseCurrency', coalesce(${g}.base_currency, ${u}.primary_organization->>'baseCurrency')) END,
    'manager', ${u}.manager) END`;

const typeObject = (t: string) =>
  `CASE WHEN ${t}.id IS NULL THEN NULL ELSE jsonb_build_object('id', ${t}.id, 'tenantId', ${t}.tenant_id, 'type', ${t}.type, 'name', ${t}.name,
     'typeIcon', ${t}.type_icon, 'status', ${t}.status, 'isCustom', ${t}.is_custom) END`;

const userName = (u: string) => `coalesce(${u}.name, ${u}.email)`;

/** The tables behind an action's view: a = the action; its type, template (and the template's type), priority, status, the records it names, and the people. */
const VIEW_JOINS = `
  JOIN actions.action_statuses s ON s.id = a.action_status_id
  LEFT JOIN actions.action_types t ON t.id = a.action_type_id AND t.tenant_id = a.tenant_id
  LEFT JOIN actions.action_template_projection tp ON tp.id = a.action_template_id AND tp.tenant_id = a.tenant_id
  LEFT JOIN actions.action_types tt ON tt.id = tp.action_type_id AND tt.tenant_id = a.tenant_id
  LEFT JOIN actions.action_priorities p ON p.id = a.action_priority_id
  LEFT JOIN actions.decision_projection dp ON dp.id = a.decision_id AND dp.tenant_id = a.tenant_id
  LEFT JOIN actions.delegation_projection gp ON gp.id = a.delegation_id AND gp.tenant_id = a.tenant_id
  LEFT JOIN actions.document_projection docp ON docp.id = a.document_id AND docp.tenant_id = a.tenant_id
  LEFT JOIN actions.user_projection ou ON ou.tenant_id = a.tenant_id AND ou.id = a.owner_id
  LEFT JOIN actions.group_projection og ON og.id = ou.primary_organization_id AND og.tenant_id = a.tenant_id
  LEFT JOIN actions.user_projection cu ON cu.tenant_id = a.tenant_id AND cu.id = a.created_by
  LEFT JOIN actions.user_projection uu ON uu.tenant_id = a.tenant_id AND uu.id = a.updated_by
  LEFT JOIN actions.user_projection du ON du.tenant_id = a.tenant_id AND du.id = a.deleted_by`;

/** The action's view as one JSON value (two objects joined: jsonb_build_object takes at most 100 arguments). */
const ACTION_VIEW = `(jsonb_build_object(
    'id', a.id, 'actionId', a.action_display_id, 'tenantId', a.tenant_id, 'actionName', a.action_name, 'description', a.description,
    'actionTypeId', a.action_type_id, 'actionType', ${typeObject('t')},
    'actionTemplateId', a.action_template_id,
    'actionTemplate', CASE WHEN tp.id IS NULL THEN NULL ELSE jsonb_build_object('id', tp.id, 'tenantId', tp.tenant_id, 'name', tp.name,
        'description', tp.description, 'status', tp.status, 'type', ${typeObject('tt')}) END,
    'actionPriorityId', a.action_priority_id, 'actionStatusId', a.action_status_id,
    'decisionId', a.decision_id, 'decisionDisplayId', dp.decision_display_id, 'delegationId', a.delegation_id,
    'delegationDisplayId', gp.delegation_display_id, 'documentId', a.document_id, 'documentDisplayId', docp.document_display_id, 'roleId', a.role_id,
    'ownerId', a.owner_id, 'owner', ${userSummary('ou', 'og', 'a.owner_id')},
    'dueDate', ${isoSql('a.due_date')}, 'createdAt', ${isoSql('a.created_on')}, 'updatedAt', ${isoSql('a.updated_on')}, 'deletedOn', ${isoSql('a.deleted_on')},
    'createdBy', CASE WHEN a.created_by IS NULL THEN 'System' ELSE coalesce(${userName('cu')}, a.created_by::text) END,
    'updatedBy', CASE WHEN a.updated_by IS NULL THEN 'System' ELSE coalesce(${userName('uu')}, a.updated_by::text) END,
    'deletedBy', CASE WHEN a.deleted_by IS NULL THEN NULL ELSE coalesce(${userName('du')}, a.deleted_by::text) END)
  || jsonb_build_object(
    'copiedFrom', a.copied_from, 'isDeleted', a.is_deleted, 'isSystemGenerated', a.is_system_generated,
    'statusKey', a.status_key, 'systemKind', a.system_kind, 'version', a.version,
    'assignees', (SELECT coalesce(jsonb_agg(jsonb_build_object(
          'id', aa.id, 'assigneeId', aa.assignee_id, 'assignee', ${userSummary('au', 'ag', 'aa.assignee_id')},
          'actionStatusId', aa.action_status_id, 'actionStatusName', ast.action_status_name, 'actionTakenDate', ${isoSql('aa.action_taken_date')})
        ORDER BY aa.position, aa.id), '[]'::jsonb)
      FROM actions.action_assignees aa
      JOIN actions.action_statuses ast ON ast.id = aa.action_status_id
      LEFT JOIN actions.user_projection au ON au.tenant_id = aa.tenant_id AND au.id = aa.assignee_id
      LEFT JOIN actions.group_projection ag ON ag.id = au.primary_organization_id AND ag.tenant_id = aa.tenant_id
     WHERE aa.action_id = a.id),
    'files', (SELECT coalesce(jsonb_agg(jsonb_build_object('id', f.id, 'fileUrl', f.file_url, 'fileType', f.file_type, 'fileName', f.file_name,
          'createdAt', ${isoSql('f.created_on')}) ORDER BY f.position, f.id), '[]'::jsonb)
      FROM actions.action_files f WHERE f.action_id = a.id),
    'priority', CASE WHEN p.id IS NULL THEN NULL ELSE jsonb_build_object('id', p.id, 'actionPriorityName', p.action_priority_name,
        'isEnabled', p.is_enabled, 'colorName', p.color_name) END,
    'status', jsonb_build_object('id', s.id, 'actionStatusName', s.action_status_name, 'isEnabled', s.is_enabled)))`;

/** Get by id: $1 = id, $2 = tenant. No row: unknown, deleted or another tenant's. */
export const ACTION_BY_ID_SQL = `SELECT ${ACTION_VIEW} AS view FROM actions.actions a ${VIEW_JOINS}
  WHERE a.id = $1 AND a.tenant_id = $2 AND NOT a.is_deleted`;

/** The views of the tenant's actions named (deleted ones too: a change that deleted them answers them), in the order named. */
export function actionViews(tenantId: string, ids: readonly string[]): Sql {
  return sql`SELECT ${raw(ACTION_VIEW)} AS view FROM unnest(${ids}::uuid[]) WITH ORDINALITY AS x(id, n)
    JOIN actions.actions a ON a.id = x.id AND a.tenant_id = ${tenantId} ${raw(VIEW_JOINS)} ORDER BY x.n`;
}

/** ORDER BY keys of each sort, matching the actions' indexes. */
const SORT_KEYS: Record<ActionSort, string[]> = {
  actionId: ['(a.action_display_id::bigint)'],
  actionName: ['lower(a.action_name)'],
  dueDate: ['a.due_date'],
  priority: ['a.priority_rank'],
  status: ['a.status_rank'],
  createdAt: ['a.created_on'],
  updatedAt: ['a.updated_on'],
};

/** Every filter of the list and of the global search, in one shape. */
export interface ActionFilters {
  page: number;
  limit: number;
  search?: string;
  actionStatusIds?: string[];
  actionPriorityIds?: string[];
  actionTypeIds?: string[];
  ownerIds?: string[];
  assigneeIds?: string[];
  onlyMine?: boolean;
  isSystemGenerated?: boolean;
  decisionIds?: string[];
  delegationIds?: string[];
  documentIds?: string[];
  selectedActionIds?: string[];
  dueDateStart?: string;
  dueDateEnd?: string;
  createdAtStart?: string;
  createdAtEnd?: string;
  updatedAtStart?: string;
  updatedAtEnd?: string;
  overdue?: boolean;
  sortBy?: ActionSort;
  sortOrder?: 'asc' | 'desc';
}

/** Unsettled and past its due date: what `overdue` means, whether or not the sweep has run. */
const OVERDUE = `(a.status_key IN (${UNSETTLED_STATUS_KEYS.map((k) => `'${k}'`).join(', ')}) AND a.due_date < now())`;

function matching(tenantId: string, userId: string, f: ActionFilters): Sql[] {
  const where = [sql`a.tenant_id = ${tenantId}`, sql`NOT a.is_deleted`];
  where.push(...anyOf('a.action_status_id', f.actionStatusIds, 'uuid'));
  where.push(...anyOf('a.action_priority_id', f.actionPriorityIds, 'uuid'));
  where.push(...anyOf('a.action_type_id', f.actionTypeIds, 'uuid'));
  where.push(...anyOf('a.owner_id', f.ownerIds, 'uuid'));
  where.push(...anyOf('a.decision_id', f.decisionIds, 'uuid'));
  where.push(...anyOf('a.delegation_id', f.delegationIds, 'uuid'));
  where.push(...anyOf('a.document_id', f.documentIds, 'uuid'));
  where.push(...anyOf('a.id', f.selectedActionIds, 'uuid'));
  if (f.assigneeIds?.length)
    where.push(sql`a.id IN (SELECT aa.action_id FROM actions.action_assignees aa WHERE aa.tenant_id = ${tenantId} AND aa.assignee_id = ANY(${f.assigneeIds}::uuid[]))`);
  if (f.isSystemGenerated !== undefined) where.push(sql`a.is_system_generated = ${f.isSystemGenerated}`);
  if (f.dueDateStart) where.push(sql`a.due_date >= ${f.dueDateStart}::timestamptz`);
  if (f.dueDateEnd) where.push(sql`a.due_date < ${f.dueDateEnd}::timestamptz + interval '1 millisecond'`);
  if (f.overdue === true) where.push(raw(OVERDUE));
  if (f.overdue === false) where.push(raw(`NOT coalesce(${OVERDUE}, false)`));
  where.push(...dateRangeConditions(f, { created: 'a.created_on', updated: 'a.updated_on' }));
  return where;
}

/**
 * The rows a list reads: the tenant's actions or, for `onlyMine`, the caller's own (owned: an index on
 * the owner; assigned: an index on the person), found first and joined to their actions by id, so
 * the cost follows the caller's actions, not the tenant's.
 */
function listFrom(tenantId: string, userId: string, f: ActionFilters, actions: Sql): Sql {
  if (!f.onlyMine) return sql`${actions} a`;
  return sql`(SELECT m.id FROM actions.actions m WHERE m.tenant_id = ${tenantId} AND m.owner_id = ${userId} AND NOT m.is_deleted
               UNION SELECT aa.action_id FROM actions.action_assignees aa WHERE aa.tenant_id = ${tenantId} AND aa.assignee_id = ${userId}) mine
             JOIN ${actions} a ON a.id = mine.id`;
}

/** The tenant's live actions matching the filters, a page of them in the chosen order (one statement). */
export function actionList(tenantId: string, userId: string, f: ActionFilters): ListSpec {
  const rows = searchedRows(ACTIONS_SEARCH, f.search ? `%${escapeLike(f.search.toLowerCase())}%` : undefined);
  return {
    with: rows.with,
    from: listFrom(tenantId, userId, f, rows.table),
    where: matching(tenantId, userId, f),
    id: 'a.id',
    sort: sortBy(SORT_KEYS, f.sortBy ?? 'createdAt', f.sortOrder),
    view: { columns: raw(`${ACTION_VIEW} AS view`), from: raw(`actions.actions a ON a.id = page.id ${VIEW_JOINS}`) },
    page: f.page,
    limit: f.limit,
  };
}

export interface ActionRow {
  view: StoredActionView;
}

/** The configuration rows a change names, by kind: the status's key and rank, the priority's rank (one statement, tenant-scoped). */
export const CONFIG_REFS_SQL = `
  SELECT 'status' AS kind, id, status_key AS key, position FROM actions.action_statuses WHERE tenant_id = $1 AND id = $2::uuid
  UNION ALL SELECT 'priority', id, priority_key, position FROM actions.action_priorities WHERE tenant_id = $1 AND id = $3::uuid
  UNION ALL SELECT 'type', id, type, position FROM actions.action_types WHERE tenant_id = $1 AND id = $4::uuid
  UNION ALL SELECT 'template', id, NULL, 0 FROM actions.action_template_projection WHERE tenant_id = $1 AND id = $5::uuid AND NOT is_deleted
  UNION ALL SELECT 'decision', id, NULL, 0 FROM actions.decision_projection WHERE tenant_id = $1 AND id = $6::uuid AND NOT is_deleted
  UNION ALL SELECT 'delegation', id, NULL, 0 FROM actions.delegation_projection WHERE tenant_id = $1 AND id = $7::uuid
  UNION ALL SELECT 'document', id, NULL, 0 FROM actions.document_projection WHERE tenant_id = $1 AND id = $8::uuid AND NOT is_deleted
  UNION ALL SELECT 'user', id, NULL, 0 FROM actions.user_projection WHERE tenant_id = $1 AND id = ANY($9::uuid[]) AND status <> 'DELETED'`;
