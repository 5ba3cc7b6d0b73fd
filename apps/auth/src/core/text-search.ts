import { TextSearch } from '@ddm/platform';

/** The text search, through its trigram index under row-level security (search.ts in libs/platform). */
export const USERS_SEARCH: TextSearch = {
  schema: 'auth',
  name: 'users_matching',
  table: 'tenant_users',
  id: 'user_id',
  text: 't.search_text',
  operator: 'ILIKE',
  live: 'NOT t.is_deleted',
  index: 'tenant_users_search_trgm',
};
