import { RowSearch, TextSearch } from '@ddm/platform';

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

/**
 * The delegations' search: the decision's name (any case) or the delegation's display id contains
 * the term. Its function (migration DecisionDelegationsSearch1766600000002) reads each part through
 * its trigram index as its definer, for the request's tenant only (search.ts in libs/platform).
 */
export const DELEGATIONS_SEARCH: RowSearch = { schema: 'decision', name: 'delegations_matching', table: 'delegations' };
