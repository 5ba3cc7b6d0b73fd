/** The SQL of document types: the columns every statement answers (alias `t`, also for INSERT/UPDATE ... RETURNING), and the list. */
import { ListSpec, anyOf, containsPattern, isoSql, raw, sortBy, sql } from '@ddm/platform';
import type { ListDocumentTypesQuery } from './dto/list-document-types.query';
import type { DocumentTypeSort } from './document-type.rules';

export const DOCUMENT_TYPE_COLUMNS = `t.id, t.tenant_id, t.document_type_name, t.document_type_icon, t.status, t.is_default, t.is_deleted,
  ${isoSql('t.created_on')} AS created_at, ${isoSql('t.updated_on')} AS updated_at`;

/** The tenant's live type, locked for the change: $1 = id, $2 = tenant id. */
export const LOCK_DOCUMENT_TYPE_SQL = `SELECT document_type_name, is_default FROM settings.document_types WHERE id = $1 AND tenant_id = $2 AND NOT is_deleted FOR UPDATE`;

/** Inserts the default types the tenant lacks (a default already there, or a clashing name, is skipped): $1 = tenant, $2 = ids, $3 = names. */
export const INSERT_DEFAULT_DOCUMENT_TYPES_SQL = `INSERT INTO settings.document_types AS t (id, tenant_id, document_type_name, system_key, is_default)
  SELECT x.id, $1, x.name, upper(x.name), true
    FROM unnest($2::uuid[], $3::text[]) WITH ORDINALITY AS x(id, name, n)
   ORDER BY x.n
  ON CONFLICT DO NOTHING
  RETURNING ${DOCUMENT_TYPE_COLUMNS}`;

/** ORDER BY keys of each sort, matching the indexes (tenant_id, lower(document_type_name), id), (tenant_id, created_on, id). */
const SORT_KEYS: Record<DocumentTypeSort, string[]> = {
  documentTypeName: ['lower(t.document_type_name)'],
  createdAt: ['t.created_on'],
};

/** The tenant's live types matching the query, a page of them in the chosen order. */
export function documentTypeList(tenantId: string, q: ListDocumentTypesQuery): ListSpec {
  return {
    from: sql`settings.document_types t`,
    where: [
      sql`t.tenant_id = ${tenantId}`,
      sql`NOT t.is_deleted`,
      ...(q.search ? [sql`t.document_type_name ILIKE ${containsPattern(q.search)}`] : []),
      ...anyOf('t.status', q.status, 'text'),
    ],
    id: 't.id',
    sort: sortBy(SORT_KEYS, q.sortBy, q.sortOrder),
    view: { columns: raw(DOCUMENT_TYPE_COLUMNS), from: sql`settings.document_types t ON t.id = page.id` },
    page: q.page,
    limit: q.limit,
  };
}
