import { FieldError, notFound } from '@ddm/contracts';
import { Queryable, sql } from '@ddm/platform';

/** The other areas' records a decision names, as a change sends them. */
export interface NamedRecords {
  sectionId?: string | null;
  categoryId?: string | null;
  ownerId?: string | null;
  groupIds?: readonly string[];
  authorityTypeIds?: readonly string[];
}

/** What the projections know of them. */
export interface KnownRecords {
  /** Group id -> its type, for each live group of the tenant named. */
  groups: Map<string, string | null>;
  /** The category's section, when the category is known. */
  categorySection: string | null | undefined;
}

/**
 * Checks in one statement that every record named is one of the tenant's, live, in this service's
 * projections of the settings and auth areas (sections, categories, groups, authority types,
 * members): a 404 naming each one that is not, with the field that carried it. A category in
 * another section than the one named is a 400.
 */
export async function requireNamedRecords(q: Queryable, tenantId: string, sent: NamedRecords): Promise<KnownRecords> {
  // Ids compare as the database answers them: lower case.
  const lower = (id: string | null | undefined) => id?.toLowerCase() ?? null;
  const refs = {
    sectionId: lower(sent.sectionId),
    categoryId: lower(sent.categoryId),
    ownerId: lower(sent.ownerId),
    groupIds: sent.groupIds?.map((id) => id.toLowerCase()),
    authorityTypeIds: sent.authorityTypeIds?.map((id) => id.toLowerCase()),
  };
  const groupIds = [...new Set(refs.groupIds ?? [])];
  const typeIds = [...new Set(refs.authorityTypeIds ?? [])];
  const rows = await q.query<{ kind: string; id: string; extra: string | null }>(sql`
    SELECT 'section' AS kind, id, NULL::text AS extra FROM decision.section_projection WHERE tenant_id = ${tenantId} AND id = ${refs.sectionId ?? null}::uuid AND NOT is_deleted
    UNION ALL
    SELECT 'category', id, section_id::text FROM decision.category_projection WHERE tenant_id = ${tenantId} AND id = ${refs.categoryId ?? null}::uuid AND NOT is_deleted
    UNION ALL
    SELECT 'owner', id, NULL FROM decision.user_projection WHERE tenant_id = ${tenantId} AND id = ${refs.ownerId ?? null}::uuid AND status <> 'DELETED'
    UNION ALL
    SELECT 'group', id, tenant_group_type_id::text FROM decision.group_projection WHERE tenant_id = ${tenantId} AND id = ANY(${groupIds}::uuid[]) AND NOT is_deleted
    UNION ALL
    SELECT 'type', id, NULL FROM decision.authority_type_projection WHERE tenant_id = ${tenantId} AND id = ANY(${typeIds}::uuid[]) AND NOT is_deleted`);
  const found = (kind: string) => new Map(rows.filter((r) => r.kind === kind).map((r) => [r.id, r.extra]));
  const groups = found('group');
  const types = found('type');
  const errors: FieldError[] = [];
  if (refs.sectionId && !found('section').has(refs.sectionId)) errors.push({ field: 'sectionId', message: `Decision section ${refs.sectionId} not found` });
  const category = found('category');
  if (refs.categoryId && !category.has(refs.categoryId)) errors.push({ field: 'categoryId', message: `Decision category ${refs.categoryId} not found` });
  if (refs.ownerId && !found('owner').has(refs.ownerId)) errors.push({ field: 'ownerId', message: `User ${refs.ownerId} is not a member of the tenant` });
  (refs.groupIds ?? []).forEach((id, i) => {
    if (!groups.has(id)) errors.push({ field: `decisionGroups.${i}.groupId`, message: `Group ${id} not found` });
  });
  (refs.authorityTypeIds ?? []).forEach((id, i) => {
    if (!types.has(id)) errors.push({ field: `decisionAuthorities.${i}.authorityTypeId`, message: `Authority type ${id} not found` });
  });
  if (errors.length) throw notFound(errors.length === 1 ? errors[0].message : `Records not found: ${errors.map((e) => e.message).join('; ')}`, errors);
  return { groups, categorySection: refs.categoryId ? category.get(refs.categoryId) : undefined };
}
