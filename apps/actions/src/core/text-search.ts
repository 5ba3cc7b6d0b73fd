import { TextSearch } from '@ddm/platform';

/** The text search, through its trigram index under row-level security (search.ts in libs/platform). */
export const ACTIONS_SEARCH: TextSearch = {
  schema: 'actions',
  name: 'actions_matching',
  table: 'actions',
  id: 'id',
  text: 't.search_text',
  operator: 'LIKE',
  live: 'NOT t.is_deleted',
  index: 'actions_search',
};
