import { TextSearch } from '@ddm/platform';

/** The text search, through its trigram index under row-level security (search.ts in libs/platform). */
export const MATRICES_SEARCH: TextSearch = {
  schema: 'matrix',
  name: 'matrices_matching',
  table: 'matrices',
  id: 'id',
  text: 't.search_text',
  operator: 'LIKE',
  live: 'NOT t.is_deleted',
  index: 'matrices_search',
};
