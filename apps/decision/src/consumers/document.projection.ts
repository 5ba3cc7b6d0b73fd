import { DOCUMENT_SUBJECTS } from '@ddm/contracts';
import { ProjectionSpec } from '@ddm/platform';

/**
 * decision.document_projection: the document area's documents, which decisions and delegations
 * link (checked to be the tenant's, live) and show (name, link, type, icon, status). Backfilled
 * from the document area's snapshot when the stream no longer holds every document's events.
 */
export const DOCUMENTS: ProjectionSpec<(typeof DOCUMENT_SUBJECTS)[number]> = {
  name: 'decision-document-documents',
  subjects: DOCUMENT_SUBJECTS,
  table: 'decision.document_projection',
  key: 'id',
  row: ({ payload: { tenantId, document: d } }) => ({
    id: d.id,
    tenantId,
    version: d.version,
    values: {
      document_display_id: d.documentDisplayId,
      document_name: d.documentName,
      document_description: d.documentDescription,
      document_url: d.documentUrl,
      document_type_name: d.documentTypeName,
      document_icon: d.documentIcon,
      document_file_type: d.documentFileType,
      document_status: d.documentStatus,
      document_sharing_type: d.documentSharingType,
      owner_id: d.ownerId,
      is_deleted: d.isDeleted,
    },
  }),
  backfill: { source: 'document.documents', subject: 'evt.document.document.updated' },
};
