import { ProjectionSpec } from '@ddm/platform';
import { publishDocumentsOfType } from '../documents/document-refs';

const SUBJECTS = ['evt.settings.document-type.created', 'evt.settings.document-type.updated', 'evt.settings.document-type.deleted'] as const;

/** document.document_type_projection: the settings area's document types, for the type a document takes and its name. */
export const DOCUMENT_TYPES: ProjectionSpec<(typeof SUBJECTS)[number]> = {
  name: 'document-settings-document-types',
  subjects: SUBJECTS,
  table: 'document.document_type_projection',
  key: 'id',
  row: ({ payload: { tenantId, documentType } }) => ({
    id: documentType.id,
    tenantId,
    values: {
      document_type_name: documentType.documentTypeName,
      document_type_icon: documentType.documentTypeIcon,
      status: documentType.status,
      is_deleted: documentType.isDeleted,
    },
  }),
  // The documents of a renamed type publish themselves again: the areas that show them (decisions) keep the type's name.
  afterChange: async (tx, { subject, payload: { tenantId, documentType } }) => {
    if (subject === 'evt.settings.document-type.created') return;
    await publishDocumentsOfType(tx, tenantId, documentType.id);
  },
};
