import { TextSearch } from '@ddm/platform';

/** The text search, through its trigram index under row-level security (search.ts in libs/platform). */
export const DECISIONS_SEARCH: TextSearch = {
  schema: 'decision',
  name: 'decisions_matching',
  table: 'decisions',
  id: 'id',
  text: 't.search_text',
  operator: 'LIKE',
  live: 'NOT t.is_deleted',
  index: 'decisions_search',
};
