import { DOCUMENT_SUBJECTS } from '@ddm/contracts';
import { ProjectionSpec } from '@ddm/platform';
import { settleSystemActions } from '../actions/action-refs';

/**
 * actions.document_projection: the document area's documents, for the documentId an action names
 * and its documentDisplayId. A deleted document's open review and approval actions are canceled.
 */
export const DOCUMENTS: ProjectionSpec<(typeof DOCUMENT_SUBJECTS)[number]> = {
  name: 'actions-document-documents',
  subjects: DOCUMENT_SUBJECTS,
  table: 'actions.document_projection',
  key: 'id',
  row: ({ payload: { tenantId, document } }) => ({
    id: document.id,
    tenantId,
    version: document.version,
    values: { document_display_id: document.documentDisplayId, document_name: document.documentName, is_deleted: document.isDeleted },
  }),
  afterChange: async (tx, { payload: { tenantId, document } }) => {
    if (document.isDeleted) await settleSystemActions(tx, tenantId, ['DOCUMENT_REVIEW', 'DOCUMENT_APPROVAL'], { documentId: document.id }, 'CANCELED');
  },
};
