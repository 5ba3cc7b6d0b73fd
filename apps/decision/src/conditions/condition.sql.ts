/** The statements of delegation conditions: the current mappings, their history, and the mappings as a revision stored them. */
import { ListSpec, Sql, raw, sortBy, sql } from '@ddm/platform';
import { CONDITION_MAPPING } from '../core/delegation.sql';

export type ConditionSort = 'conditionName' | 'conditionDescription' | 'updatedAt';
export const CONDITION_SORTS: readonly ConditionSort[] = ['conditionName', 'conditionDescription', 'updatedAt'];
const SORT_KEYS: Record<ConditionSort, string[]> = {
  conditionName: ['lower(c.condition_name)'],
  conditionDescription: ['lower(c.condition_description)'],
  updatedAt: ['c.updated_on'],
};

export interface ConditionFilters {
  page: number;
  limit: number;
  isActive?: boolean;
  sortBy?: ConditionSort;
  sortOrder?: 'asc' | 'desc';
}

/** Rows with the columns of a mapping (`c.id` the row's key, `c.mapping_id` the mapping's id). */
const CURRENT = (delegationId: string) =>
  sql`(SELECT dc.id, dc.id AS mapping_id, dc.tenant_id, dc.delegation_id, dc.condition_id, dc.condition_name, dc.condition_description, dc.is_active,
              dc.condition_created_on, dc.created_on, dc.updated_on
         FROM decision.delegation_conditions dc WHERE dc.delegation_id = ${delegationId})`;
const HISTORY = (delegationId: string) => sql`(SELECT h.* FROM decision.delegation_condition_history h WHERE h.delegation_id = ${delegationId})`;
/** The mappings a revision stored (each once, keyed by its mapping id). */
const AS_OF = (revisionId: string) =>
  sql`(SELECT (m->>'id')::uuid AS id, (m->>'id')::uuid AS mapping_id, r.tenant_id, r.delegation_id, (m->>'conditionId')::uuid AS condition_id,
              m->'conditionDetails'->>'conditionName' AS condition_name, m->'conditionDetails'->>'conditionDescription' AS condition_description,
              (m->>'isActive')::boolean AS is_active, (m->'conditionDetails'->>'createdAt')::timestamptz AS condition_created_on,
              (m->>'createdAt')::timestamptz AS created_on, (m->>'updatedAt')::timestamptz AS updated_on
         FROM decision.delegation_revisions r, jsonb_array_elements(r.snapshot->'conditions') AS m WHERE r.id = ${revisionId})`;

function list(rows: Sql, tenantId: string, f: ConditionFilters): ListSpec {
  const where = [sql`c.tenant_id = ${tenantId}`];
  if (f.isActive !== undefined) where.push(sql`c.is_active = ${f.isActive}`);
  return {
    from: sql`${rows} c`,
    where,
    id: 'c.id',
    sort: sortBy(SORT_KEYS, f.sortBy ?? 'updatedAt', f.sortOrder),
    view: { columns: raw(`${CONDITION_MAPPING('c')} AS view`), from: sql`${rows} c ON c.id = page.id` },
    page: f.page,
    limit: f.limit,
  };
}

/** A delegation's conditions now. */
export const currentConditions = (tenantId: string, delegationId: string, f: ConditionFilters) => list(CURRENT(delegationId), tenantId, f);
/** Every change of a delegation's conditions: each mapping as it became. */
export const conditionHistory = (tenantId: string, delegationId: string, f: ConditionFilters) => list(HISTORY(delegationId), tenantId, f);
/** A delegation's conditions as they stood at one revision (a delegation history id). */
export const conditionsAsOf = (tenantId: string, revisionId: string, f: ConditionFilters) => list(AS_OF(revisionId), tenantId, f);

/** Records the mapping as it now is in the history (in the change's transaction). */
export const recordConditionHistory = (mappingId: string) =>
  sql`INSERT INTO decision.delegation_condition_history (id, tenant_id, delegation_id, mapping_id, condition_id, condition_name, condition_description, is_active,
                                                         condition_created_on, created_on, updated_on)
      SELECT gen_random_uuid(), dc.tenant_id, dc.delegation_id, dc.id, dc.condition_id, dc.condition_name, dc.condition_description, dc.is_active,
             dc.condition_created_on, dc.created_on, dc.updated_on
        FROM decision.delegation_conditions dc WHERE dc.id = ${mappingId}`;

/** One mapping as the API answers it. */
export const CONDITION_BY_ID = (mappingId: string) =>
  sql`SELECT ${raw(CONDITION_MAPPING('c'))} AS view FROM (SELECT dc.id AS mapping_id, dc.* FROM decision.delegation_conditions dc WHERE dc.id = ${mappingId}) c`;
