/**
 * What documents publish to the other resources: whether a caller sees a document that uses a
 * file (files: who may read a file's content), the documents' updated events after a document
 * type they show changed (the document types' consumer), and the snapshot the other areas'
 * projections backfill from.
 */
import { Caller } from '@ddm/contracts';
import { Queryable, SnapshotSource, Tx } from '@ddm/platform';
import { documentAudience } from './document-audience';
import { DOCUMENTS_SNAPSHOT_SQL, DocumentRow, TOUCH_DOCUMENTS_OF_TYPE_SQL, documentWithFileSql } from './document.sql';
import { toDocumentPayload } from './dto/document.response';

/** Whether the caller sees a live document of the tenant that uses the file (who may read the file's content). */
export async function seesDocumentWithFile(q: Queryable, caller: Caller, fileId: string): Promise<boolean> {
  const a = await documentAudience(q, caller);
  const rows = await q.query(documentWithFileSql(caller.tenantId, fileId, a));
  return rows.length > 0;
}

/**
 * The live documents of a type, each a version newer, publish evt.document.document.updated (in the
 * transaction that applied the type's change): the areas that show them keep the type's name and icon.
 */
export async function publishDocumentsOfType(tx: Tx, tenantId: string, documentTypeId: string): Promise<void> {
  const rows = await tx.query<DocumentRow>(TOUCH_DOCUMENTS_OF_TYPE_SQL, [tenantId, documentTypeId]);
  await tx.publishMany('evt.document.document.updated', rows.map((r) => ({ tenantId, document: toDocumentPayload(r.view, r.version) })));
}

/** `sync.document.documents`: every document as evt.document.document.updated carries it (a projection's backfill). */
export const DOCUMENTS_SNAPSHOT: SnapshotSource<'evt.document.document.updated'> = {
  name: 'document.documents',
  subject: 'evt.document.document.updated',
  page: async (q, after, limit) =>
    (await q.query<DocumentRow & { tenant_id: string }>(DOCUMENTS_SNAPSHOT_SQL, [after, limit])).map((r) => ({
      id: r.view.id,
      payload: { tenantId: r.tenant_id, document: toDocumentPayload(r.view, r.version) },
    })),
};
