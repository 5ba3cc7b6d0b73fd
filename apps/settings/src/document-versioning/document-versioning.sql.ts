/** The SQL of document versioning fields: the columns every statement answers (alias `f`), the defaults, the list. */
import { ListSpec, containsPattern, isoSql, raw, sortBy, sql } from '@ddm/platform';
import type { ListDocumentVersioningQuery } from './dto/list-document-versioning.query';
import type { VersioningFieldSort } from './document-versioning.rules';

export const VERSIONING_FIELD_COLUMNS = `f.id, f.tenant_id, f.field_name, f.field_type, f.status, f.is_default, f.is_deleted,
  ${isoSql('f.created_on')} AS created_at, ${isoSql('f.updated_on')} AS updated_at`;

/** The tenant's live field: $1 = id, $2 = tenant id. No row: unknown, deleted or another tenant's. */
export const VERSIONING_FIELD_BY_ID_SQL = `SELECT ${VERSIONING_FIELD_COLUMNS} FROM settings.document_versioning_fields f WHERE f.id = $1 AND f.tenant_id = $2 AND NOT f.is_deleted`;

/** Inserts the default fields the tenant lacks (a default already there, or a clashing name, is skipped): $1 = tenant, $2 = ids, $3 = keys, $4 = names, $5 = types. */
export const INSERT_DEFAULT_VERSIONING_FIELDS_SQL = `INSERT INTO settings.document_versioning_fields AS f (id, tenant_id, system_key, field_name, field_type, is_default)
  SELECT x.id, $1, x.key, x.name, x.type, true
    FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS x(id, key, name, type, n)
   ORDER BY x.n
  ON CONFLICT DO NOTHING
  RETURNING f.id`;

/** ORDER BY keys of each sort; the name and type sorts are case-insensitive; ties broken by id. */
const SORT_KEYS: Record<VersioningFieldSort, string[]> = {
  fieldName: ['lower(f.field_name)'],
  fieldType: ['f.field_type', 'lower(f.field_name)'],
  createdAt: ['f.created_on'],
  updatedAt: ['f.updated_on'],
};

/** The tenant's live fields matching the query, a page of them in the chosen order. */
export function versioningFieldList(tenantId: string, q: ListDocumentVersioningQuery): ListSpec {
  return {
    from: sql`settings.document_versioning_fields f`,
    where: [
      sql`f.tenant_id = ${tenantId}`,
      sql`NOT f.is_deleted`,
      ...(q.search ? [sql`f.field_name ILIKE ${containsPattern(q.search)}`] : []),
      ...(q.versioningFieldIds?.length ? [sql`f.id = ANY(${q.versioningFieldIds}::uuid[])`] : []),
    ],
    id: 'f.id',
    sort: sortBy(SORT_KEYS, q.sortBy, q.sortOrder),
    view: { columns: raw(VERSIONING_FIELD_COLUMNS), from: sql`settings.document_versioning_fields f ON f.id = page.id` },
    page: q.page,
    limit: q.limit,
  };
}
