/**
 * The SQL of documents. A document's view (spec §2.10, without what depends on the caller) is
 * built by Postgres as one JSON value: the get, the list's page and the answer of a change are the
 * same expression. Visibility is a condition of every read: a restricted document a caller may not
 * see matches nothing, so it is a 404 on get and absent from lists and counts.
 */
import { MAX_PAGE } from '@ddm/contracts';
import { anyOf, escapeLike, isoSql, join, matchingIds, raw, sortBy, Sql, sql } from '@ddm/platform';
import type { DocumentSort } from './document.rules';
import type { StoredDocumentView } from './dto/document.response';
import { DOCUMENTS_SEARCH } from '../core/text-search';

const person = (a: string) =>
  `CASE WHEN ${a}.id IS NULL THEN NULL ELSE jsonb_build_object('id', ${a}.id, 'email', ${a}.email, 'name', ${a}.name, 'displayName', ${a}.display_name, 'profileImageUrl', ${a}.profile_image_url) END`;

/** The tables behind a document's view: d = the document, t = its type, f = its file, o/lu = owner and last editor, ru/vu/au and rp/vp/ap = the oversight's users and positions. */
const VIEW_JOINS = `
  LEFT JOIN document.document_type_projection t ON t.id = d.document_type_id AND t.tenant_id = d.tenant_id
  LEFT JOIN document.files f ON f.id = d.file_id AND f.tenant_id = d.tenant_id
  LEFT JOIN document.user_projection o ON o.tenant_id = d.tenant_id AND o.id = d.owner_id
  LEFT JOIN document.user_projection lu ON lu.tenant_id = d.tenant_id AND lu.id = d.updated_by
  LEFT JOIN document.user_projection ru ON ru.tenant_id = d.tenant_id AND ru.id = d.responsible_user_id
  LEFT JOIN document.user_projection vu ON vu.tenant_id = d.tenant_id AND vu.id = d.reviewer_user_id
  LEFT JOIN document.user_projection au ON au.tenant_id = d.tenant_id AND au.id = d.approver_user_id
  LEFT JOIN document.position_projection rp ON rp.tenant_id = d.tenant_id AND rp.id = d.responsible_position_id
  LEFT JOIN document.position_projection vp ON vp.tenant_id = d.tenant_id AND vp.id = d.reviewer_position_id
  LEFT JOIN document.position_projection ap ON ap.tenant_id = d.tenant_id AND ap.id = d.approver_position_id`;

/** A name from the projection when the id is known to it, else the one the request gave. */
const named = (alias: string, column: string, fallback: string) => `coalesce(${alias}.${column}, d.${fallback})`;

/** The document's view as one JSON value (parts joined: jsonb_build_object takes at most 100 arguments). */
export const DOCUMENT_VIEW = `(jsonb_build_object(
    'id', d.id, 'tenantId', d.tenant_id, 'documentName', d.document_name, 'documentDescription', d.document_description,
    'documentMetadata', d.document_metadata, 'fileId', d.file_id, 'documentTypeId', d.document_type_id,
    'documentTypeName', ${named('t', 'document_type_name', 'document_type_name')}, 'documentStatus', d.document_status,
    'documentSharingType', d.document_sharing_type, 'documentIcon', coalesce(d.document_icon, t.document_type_icon), 'documentOwnerId', d.owner_id,
    'documentOwnerUsername', ${named('o', 'name', 'owner_username')}, 'documentUploadType', d.document_upload_type,
    'documentUrl', d.document_url, 'uploadedOn', ${isoSql('d.created_on')}, 'lastUpdatedBy', d.updated_by,
    'lastUpdatedByUsername', lu.name, 'lastUpdatedOn', ${isoSql('d.updated_on')}, 'archivedOn', ${isoSql('d.archived_on')},
    'deletedOn', ${isoSql('d.deleted_on')}, 'documentDisplayId', d.document_display_id, 'documentId', d.id,
    'isExternal', d.is_external, 'isDeleted', d.is_deleted, 'createdBy', d.created_by)
  || jsonb_build_object(
    'decisionsCount', (SELECT count(*)::int FROM document.decision_projection dp WHERE dp.tenant_id = d.tenant_id AND dp.document_ids @> ARRAY[d.id] AND NOT dp.is_deleted),
    'delegationsCount', (SELECT count(*)::int FROM document.delegation_projection gp WHERE gp.tenant_id = d.tenant_id AND gp.document_ids @> ARRAY[d.id] AND gp.ended_on IS NULL),
    'documentLinking', jsonb_build_object('decisionLinkAllowed', d.decision_link_allowed, 'delegationLinkAllowed', d.delegation_link_allowed),
    'ownerDetails', ${person('o')},
    'file', CASE WHEN f.id IS NULL THEN NULL ELSE jsonb_build_object('id', f.id, 'name', f.name, 'type', f.media_type, 'size', f.size, 'sha256', f.sha256) END,
    'documentSharingGroups', (SELECT coalesce(jsonb_agg(jsonb_build_object(
          'id', sg.id, 'documentId', sg.document_id, 'groupId', sg.group_id, 'tenantGroupTypeId', coalesce(g.tenant_group_type_id, sg.tenant_group_type_id),
          'groupName', g.group_name, 'displayName', g.display_name) ORDER BY sg.position), '[]'::jsonb)
      FROM document.document_sharing_groups sg LEFT JOIN document.group_projection g ON g.id = sg.group_id AND g.tenant_id = sg.tenant_id
     WHERE sg.document_id = d.id),
    'documentSharingUsers', (SELECT coalesce(jsonb_agg(jsonb_build_object(
          'id', su.id, 'documentId', su.document_id, 'userId', su.user_id, 'name', u.name, 'email', u.email) ORDER BY su.position), '[]'::jsonb)
      FROM document.document_sharing_users su LEFT JOIN document.user_projection u ON u.tenant_id = su.tenant_id AND u.id = su.user_id
     WHERE su.document_id = d.id),
    'documentOversight', jsonb_build_object(
      'id', d.oversight_id, 'documentId', d.id, 'reviewStatus', d.review_status, 'approvalStatus', d.approval_status,
      'reviewerUserProfileUrl', vu.profile_image_url, 'responsibleUserProfileUrl', ru.profile_image_url, 'approverUserProfileUrl', au.profile_image_url,
      'documentOwnerProfileUrl', o.profile_image_url,
      'responsiblePositionId', d.responsible_position_id, 'responsiblePositionName', ${named('rp', 'position_name', 'responsible_position_name')},
      'responsibleUserId', d.responsible_user_id, 'responsibleUsername', ${named('ru', 'name', 'responsible_username')},
      'reviewerUserId', d.reviewer_user_id, 'reviewerUsername', ${named('vu', 'name', 'reviewer_username')},
      'reviewerPositionId', d.reviewer_position_id, 'reviewerPositionName', ${named('vp', 'position_name', 'reviewer_position_name')},
      'approverUserId', d.approver_user_id, 'approverUsername', ${named('au', 'name', 'approver_username')},
      'approverPositionId', d.approver_position_id, 'approverPositionName', ${named('ap', 'position_name', 'approver_position_name')},
      'reviewedOn', ${isoSql('d.reviewed_on')}, 'approvedOn', ${isoSql('d.approved_on')})))`;

/**
 * What a caller may see of a tenant's documents: the caller's id, the positions they hold and the
 * groups they belong to with every ancestor of those (a document shared with a group reaches its
 * descendant groups' members). `all`: System Admins and Auditors see every document.
 */
export interface Audience {
  tenantId: string;
  userId: string;
  positionIds: string[];
  groupIds: string[];
  all: boolean;
}

/** The caller's audience in one statement: $1 = tenant, $2 = user. */
export const AUDIENCE_SQL = `WITH RECURSIVE me AS (
    SELECT position_ids, group_ids FROM document.user_projection WHERE tenant_id = $1 AND id = $2),
  up(id) AS (
    SELECT unnest(group_ids) FROM me
    UNION
    SELECT unnest(g.parent_group_ids) FROM document.group_projection g JOIN up ON g.id = up.id WHERE g.tenant_id = $1 AND NOT g.is_deleted)
  SELECT coalesce((SELECT position_ids FROM me), '{}') AS position_ids, coalesce((SELECT array_agg(id) FROM up), '{}') AS group_ids`;

/** "The audience row x names the caller": themselves, one of their positions, or one of their groups (with every ancestor). */
function namesCaller(a: Audience): Sql {
  return sql`((x.kind = 'U' AND x.principal_id = ${a.userId}) OR (x.kind = 'G' AND x.principal_id = ANY(${a.groupIds}::uuid[])) OR (x.kind = 'P' AND x.principal_id = ANY(${a.positionIds}::uuid[])))`;
}

/** The restricted documents the caller is named on (a document once per name): three index-only ranges of document_audience. */
function namedOn(a: Audience): Sql {
  return sql`SELECT x.document_id FROM document.document_audience x WHERE x.tenant_id = ${a.tenantId} AND x.kind = 'U' AND x.principal_id = ${a.userId}
      UNION ALL SELECT x.document_id FROM document.document_audience x WHERE x.tenant_id = ${a.tenantId} AND x.kind = 'G' AND x.principal_id = ANY(${a.groupIds}::uuid[])
      UNION ALL SELECT x.document_id FROM document.document_audience x WHERE x.tenant_id = ${a.tenantId} AND x.kind = 'P' AND x.principal_id = ANY(${a.positionIds}::uuid[])`;
}

/**
 * The condition "the audience may see d", for one document (nothing for those who see
 * everything): shared with the tenant, or a restricted document whose audience names the caller
 * (document.document_audience, probed by the document's id).
 */
export function visibleTo(a: Audience): Sql[] {
  if (a.all) return [];
  return [sql`(d.document_sharing_type = 'TENANT' OR EXISTS (SELECT 1 FROM document.document_audience x WHERE x.document_id = d.id AND x.tenant_id = ${a.tenantId} AND ${namesCaller(a)}))`];
}

/** A live document of the tenant that the audience sees and that uses the file (a row, or none). */
export function documentWithFileSql(tenantId: string, fileId: string, a: Audience): Sql {
  const visible = visibleTo(a);
  return sql`SELECT 1 FROM document.documents d WHERE d.tenant_id = ${tenantId} AND d.file_id = ${fileId} AND NOT d.is_deleted ${visible.length ? sql` AND ${visible[0]}` : sql``} LIMIT 1`;
}

/**
 * The same condition for many documents (lists, counts): the restricted documents the caller is
 * named on are read once per statement (index-only) and each document is tested against them by
 * id, so a list read in index order stops after its page.
 */
function visibleAmong(a: Audience): Sql[] {
  if (a.all) return [];
  return [sql`(d.document_sharing_type = 'TENANT' OR d.id IN (${namedOn(a)}))`];
}

/**
 * The audience rows of documents, as they are now (in the transaction that changed them): $1 =
 * tenant, $2 = the documents' ids. Run DELETE_AUDIENCE_SQL first. Only live RESTRICTED documents
 * have rows (the tenant sees the others, or nobody does).
 */
export const DELETE_AUDIENCE_SQL = `DELETE FROM document.document_audience WHERE tenant_id = $1 AND document_id = ANY($2::uuid[])`;
export const INSERT_AUDIENCE_SQL = `INSERT INTO document.document_audience (tenant_id, document_id, kind, principal_id)
  SELECT DISTINCT d.tenant_id, d.id, p.kind, p.principal_id
    FROM document.documents d
    CROSS JOIN LATERAL (
      SELECT 'U', u FROM unnest(ARRAY[d.owner_id, d.created_by, d.responsible_user_id, d.reviewer_user_id, d.approver_user_id]) AS u
      UNION ALL SELECT 'P', pos FROM unnest(ARRAY[d.responsible_position_id, d.reviewer_position_id, d.approver_position_id]) AS pos
      UNION ALL SELECT 'G', sg.group_id FROM document.document_sharing_groups sg WHERE sg.document_id = d.id
      UNION ALL SELECT 'U', su.user_id FROM document.document_sharing_users su WHERE su.document_id = d.id) AS p(kind, principal_id)
   WHERE d.tenant_id = $1 AND d.id = ANY($2::uuid[]) AND NOT d.is_deleted AND d.document_sharing_type = 'RESTRICTED' AND p.principal_id IS NOT NULL`;

/** One live document the audience may see, as its view. */
export function documentById(tenantId: string, id: string, a: Audience): Sql {
  return sql`SELECT d.version, ${raw(DOCUMENT_VIEW)} AS view,
      EXISTS (SELECT 1 FROM document.document_favourites fv WHERE fv.document_id = d.id AND fv.user_id = ${a.userId}) AS is_favourite
    FROM document.documents d ${raw(VIEW_JOINS)}
    WHERE ${join([sql`d.id = ${id}`, sql`d.tenant_id = ${tenantId}`, sql`NOT d.is_deleted`, ...visibleTo(a)], ' AND ')}`;
}

/** The view of a document whatever its state (the answer of a change, in its transaction): $1 = id, $2 = tenant. */
export const DOCUMENT_VIEW_SQL = `SELECT d.version, ${DOCUMENT_VIEW} AS view FROM document.documents d ${VIEW_JOINS} WHERE d.id = $1 AND d.tenant_id = $2`;

/**
 * The live documents of a type, each a version newer (what they publish changed: the type's name
 * or icon), as their views: $1 = tenant, $2 = type. One statement, however many there are.
 */
export const TOUCH_DOCUMENTS_OF_TYPE_SQL = `WITH touched AS (
    UPDATE document.documents SET version = version + 1 WHERE tenant_id = $1 AND document_type_id = $2 AND NOT is_deleted RETURNING id)
  SELECT d.version + 1 AS version, ${DOCUMENT_VIEW} AS view FROM touched x JOIN document.documents d ON d.id = x.id ${VIEW_JOINS}`;

/**
 * Every tenant's documents (deleted ones too: a projection learns they are gone), in id order, as
 * their views: the snapshot a projection's backfill reads (snapshot.ts). $1 = the id to start after
 * (null: the first), $2 = how many. Runs across tenants.
 */
export const DOCUMENTS_SNAPSHOT_SQL = `SELECT d.tenant_id, d.version, ${DOCUMENT_VIEW} AS view FROM document.documents d ${VIEW_JOINS}
  WHERE $1::uuid IS NULL OR d.id > $1::uuid ORDER BY d.id LIMIT $2`;

/**
 * What a change log entry compares: the fields a change may touch, as plain values (the sharing
 * lists as their ids, in order). $1 = id.
 */
export const TRACKED_SQL = `SELECT jsonb_build_object(
    'documentName', d.document_name, 'documentDescription', d.document_description, 'documentMetadata', d.document_metadata,
    'documentTypeId', d.document_type_id, 'documentTypeName', d.document_type_name, 'documentIcon', d.document_icon, 'documentStatus', d.document_status,
    'documentSharingType', d.document_sharing_type, 'documentUploadType', d.document_upload_type, 'documentUrl', d.document_url, 'fileId', d.file_id,
    'documentOwnerId', d.owner_id, 'isExternal', d.is_external,
    'responsibleUserId', d.responsible_user_id, 'responsibleUsername', d.responsible_username, 'responsiblePositionId', d.responsible_position_id,
    'responsiblePositionName', d.responsible_position_name, 'reviewerUserId', d.reviewer_user_id, 'reviewerUsername', d.reviewer_username,
    'reviewerPositionId', d.reviewer_position_id, 'reviewerPositionName', d.reviewer_position_name, 'approverUserId', d.approver_user_id,
    'approverUsername', d.approver_username, 'approverPositionId', d.approver_position_id, 'approverPositionName', d.approver_position_name,
    'reviewStatus', d.review_status, 'approvalStatus', d.approval_status,
    'decisionLinkAllowed', d.decision_link_allowed, 'delegationLinkAllowed', d.delegation_link_allowed,
    'documentSharingGroups', (SELECT coalesce(jsonb_agg(sg.group_id ORDER BY sg.position), '[]'::jsonb) FROM document.document_sharing_groups sg WHERE sg.document_id = d.id),
    'documentSharingUsers', (SELECT coalesce(jsonb_agg(su.user_id ORDER BY su.position), '[]'::jsonb) FROM document.document_sharing_users su WHERE su.document_id = d.id),
    'isDeleted', d.is_deleted) AS tracked
  FROM document.documents d WHERE d.id = $1`;

/**
 * Adds the next change log entry of a document (its revision_count + 1, under the document's row
 * lock) by `$3`, with the reviser's summary from the user projection: $1 = document, $2 = tenant,
 * $3 = reviser, $4 = change kind, $5 = changes (JSON).
 */
export const ADD_REVISION_SQL = `WITH n AS (
    UPDATE document.documents SET revision_count = revision_count + 1 WHERE id = $1 AND tenant_id = $2 RETURNING revision_count)
  INSERT INTO document.document_revisions (id, tenant_id, document_id, revision_id, revised_by, revised_by_name, revised_user_detail, change, changes)
  SELECT gen_random_uuid(), $2, $1, n.revision_count, $3::uuid, u.name,
         CASE WHEN u.id IS NULL THEN jsonb_build_object('id', $3::uuid) ELSE ${person('u')} END, $4, $5::jsonb
    FROM n LEFT JOIN document.user_projection u ON u.tenant_id = $2 AND u.id = $3::uuid`;

/** Every filter of the list, the global search and the counts, in one shape. */
export interface DocumentFilters {
  search?: string;
  status?: string[];
  documentType?: string[];
  oversight?: string[];
  documentSharingType?: string;
  documentOwnerId?: string[];
  isFavourite?: boolean;
  responsibleUserId?: string;
  reviewerUserId?: string;
  approverUserId?: string;
  documentUploadType?: string;
  createdStartDate?: string;
  createdEndDate?: string;
  updatedStartDate?: string;
  updatedEndDate?: string;
}

const REVIEW_VALUES = ['REVIEW_PENDING', 'CHANGES_REQUESTED', 'REVIEWED'];

/** The conditions of the filters, the tenant, visibility and the sharing type first. */
export function matching(tenantId: string, a: Audience, f: DocumentFilters): Sql[] {
  return [sql`d.tenant_id = ${tenantId}`, sql`NOT d.is_deleted`, ...visibleAmong(a), ...sharedAs(f.documentSharingType), ...filtering(a, f)];
}

function sharedAs(type: string | undefined): Sql[] {
  return type ? [sql`d.document_sharing_type = ${type}`] : [];
}

/** The conditions of the filters but the sharing type. */
function filtering(a: Audience, f: DocumentFilters): Sql[] {
  const where: Sql[] = [];
  if (f.search) where.push(matchingIds('d.id', DOCUMENTS_SEARCH, `%${escapeLike(f.search.toLowerCase())}%`));
  if (f.status?.length === 1) where.push(sql`d.document_status = ${f.status[0]}`);
  else where.push(...anyOf('d.document_status', f.status, 'text'));
  where.push(...anyOf('d.document_type_id', f.documentType, 'uuid'));
  where.push(...anyOf('d.owner_id', f.documentOwnerId, 'uuid'));
  if (f.oversight?.length) {
    const review = f.oversight.filter((s) => REVIEW_VALUES.includes(s));
    const approval = f.oversight.filter((s) => !REVIEW_VALUES.includes(s));
    where.push(sql`(d.review_status = ANY(${review}::text[]) OR d.approval_status = ANY(${approval}::text[]))`);
  }
  if (f.documentUploadType) where.push(sql`d.document_upload_type = ${f.documentUploadType}`);
  if (f.responsibleUserId) where.push(sql`d.responsible_user_id = ${f.responsibleUserId}`);
  if (f.reviewerUserId) where.push(sql`d.reviewer_user_id = ${f.reviewerUserId}`);
  if (f.approverUserId) where.push(sql`d.approver_user_id = ${f.approverUserId}`);
  if (f.isFavourite !== undefined) {
    const favourite = sql`EXISTS (SELECT 1 FROM document.document_favourites fv WHERE fv.document_id = d.id AND fv.user_id = ${a.userId})`;
    where.push(f.isFavourite ? favourite : sql`NOT ${favourite}`);
  }
  if (f.createdStartDate) where.push(sql`d.created_on >= ${f.createdStartDate}::timestamptz`);
  if (f.createdEndDate) where.push(sql`d.created_on < ${f.createdEndDate}::timestamptz + interval '1 millisecond'`);
  if (f.updatedStartDate) where.push(sql`d.updated_on >= ${f.updatedStartDate}::timestamptz`);
  if (f.updatedEndDate) where.push(sql`d.updated_on < ${f.updatedEndDate}::timestamptz + interval '1 millisecond'`);
  return where;
}

/** ORDER BY keys of each sort, matching the documents' indexes. */
const SORT_KEYS: Record<DocumentSort, string[]> = {
  documentName: ['lower(d.document_name)'],
  documentDisplayId: ['(d.document_display_id::bigint)'],
  documentStatus: ['d.document_status', 'lower(d.document_name)'],
  uploadedOn: ['d.created_on'],
  lastUpdatedOn: ['d.updated_on'],
};

/**
 * The documents the audience sees that match, in disjoint parts, each answering `columns` (over
 * d): the tenant-wide ones that match, and the restricted ones the caller is named on that match,
 * read from document_audience (index-only) and not from the documents they do not see. That part
 * reads no document when neither a filter nor `columns` asks about one (the audience holds live
 * RESTRICTED documents of the tenant only, so those conditions hold; the planner drops the join).
 */
function seenParts(tenantId: string, a: Audience, f: DocumentFilters, columns: Sql): Sql[] {
  const scope = [sql`d.tenant_id = ${tenantId}`, sql`NOT d.is_deleted`];
  const filters = filtering(a, f);
  if (a.all) return [sql`SELECT ${columns} FROM document.documents d WHERE ${join([...scope, ...sharedAs(f.documentSharingType), ...filters], ' AND ')}`];
  const parts: Sql[] = [];
  if (f.documentSharingType !== 'RESTRICTED') parts.push(sql`SELECT ${columns} FROM document.documents d WHERE ${join([...scope, ...sharedAs('TENANT'), ...filters], ' AND ')}`);
  if (f.documentSharingType !== 'TENANT')
    parts.push(sql`SELECT ${columns} FROM (SELECT DISTINCT n.document_id FROM (${namedOn(a)}) n) v LEFT JOIN document.documents d ON d.id = v.document_id
      WHERE ${filters.length ? join(filters, ' AND ') : sql`true`}`);
  return parts;
}

/** ORDER BY d.<keys> <dir>, d.id <dir> (the id ends every order). */
function orderOf(keys: readonly string[], dir: 'ASC' | 'DESC'): Sql {
  return raw([...keys, 'd.id'].map((k) => `${k} ${dir}`).join(', '));
}

/**
 * The documents the audience sees that match: a page of them in the chosen order, and their
 * total, in one statement, as listSql (@ddm/platform) shapes it (the page's ids in index order,
 * only they joined to the view; an empty page answers one row with the total alone, ord null) but
 * for the total, counted by parts (seenParts) and not over the page's FROM. Rows: total, ord,
 * version, view, is_favourite.
 */
export function documentList(tenantId: string, a: Audience, f: DocumentFilters & { page: number; limit: number; sortBy?: DocumentSort; sortOrder?: string }): Sql {
  const sort = sortBy(SORT_KEYS, f.sortBy ?? 'documentName', f.sortOrder);
  const order = orderOf(sort.keys, sort.dir);
  const limit = Math.min(Math.max(Math.trunc(Number(f.limit)) || 10, 1), 100);
  const page = Math.min(Math.max(Math.trunc(Number(f.page)) || 1, 1), MAX_PAGE);
  return sql`WITH page AS (
    SELECT d.id, row_number() OVER (ORDER BY ${order} ROWS UNBOUNDED PRECEDING) AS ord FROM document.documents d
     WHERE ${join(matching(tenantId, a, f), ' AND ')} ORDER BY ${order} LIMIT ${limit} OFFSET ${(page - 1) * limit})
  SELECT c.total, v.* FROM (SELECT sum(p.n)::int AS total FROM (${join(seenParts(tenantId, a, f, sql`count(*) AS n`), ' UNION ALL ')}) p) c
  LEFT JOIN (SELECT page.ord, d.version, ${raw(DOCUMENT_VIEW)} AS view,
      EXISTS (SELECT 1 FROM document.document_favourites fv WHERE fv.document_id = d.id AND fv.user_id = ${a.userId}) AS is_favourite
    FROM page JOIN document.documents d ON d.id = page.id ${raw(VIEW_JOINS)}) v ON true
  ORDER BY v.ord`;
}

/** The counts of the documents the audience sees that match: active (PUBLISHED), inactive (DRAFT, ARCHIVED), the caller's favourites, all. */
export function documentCounts(tenantId: string, a: Audience, f: DocumentFilters): Sql {
  const columns = sql`count(*) FILTER (WHERE d.document_status = 'PUBLISHED') AS active, count(*) FILTER (WHERE d.document_status <> 'PUBLISHED') AS inactive,
      count(*) FILTER (WHERE EXISTS (SELECT 1 FROM document.document_favourites fv WHERE fv.document_id = d.id AND fv.user_id = ${a.userId})) AS favorites, count(*) AS n`;
  return sql`SELECT sum(p.active)::int AS active, sum(p.inactive)::int AS inactive, sum(p.favorites)::int AS favorites, sum(p.n)::int AS "all"
    FROM (${join(seenParts(tenantId, a, f, columns), ' UNION ALL ')}) p`;
}

/** A row of the view statements. */
export interface DocumentRow {
  version: number;
  view: StoredDocumentView;
  is_favourite?: boolean;
}
