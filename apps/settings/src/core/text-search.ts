import { TextSearch } from '@ddm/platform';

/** The text search, through its trigram index under row-level security (search.ts in libs/platform). */
export const POSITIONS_SEARCH: TextSearch = {
  schema: 'settings',
  name: 'positions_matching',
  table: 'positions',
  id: 'id',
  text: 't.position_name',
  operator: 'ILIKE',
  live: 'NOT t.is_deleted',
  index: 'positions_search',
};

/** The text search, through its trigram index under row-level security (search.ts in libs/platform). */
export const GROUPS_SEARCH: TextSearch = {
  schema: 'settings',
  name: 'groups_matching',
  table: 'groups',
  id: 'id',
  text: "(t.group_name || ' ' || coalesce(t.display_name, ''))",
  operator: 'ILIKE',
  live: 'NOT t.is_deleted',
  index: 'groups_search',
};
