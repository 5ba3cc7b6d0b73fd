import { TextSearch } from '@ddm/platform';

/** The text search, through its trigram index under row-level security (search.ts in libs/platform). */
export const DOCUMENTS_SEARCH: TextSearch = {
  schema: 'document',
  name: 'documents_matching',
  table: 'documents',
  id: 'id',
  text: 't.search_text',
  operator: 'LIKE',
  live: 'NOT t.is_deleted',
  index: 'documents_search',
};
