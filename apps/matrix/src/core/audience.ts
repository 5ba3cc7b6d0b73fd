import { Caller } from '@ddm/contracts';
import { Queryable } from '@ddm/platform';
import { AUDIENCE_GROUPS_SQL, Audience } from './matrix.sql';

/** What the caller may see: holders of edit:matrices everything, others their own and what is shared with them or their groups. */
export async function matrixAudience(q: Queryable, caller: Caller): Promise<Audience> {
  const all = caller.keys.has('edit:matrices');
  if (all) return { tenantId: caller.tenantId, userId: caller.userId, groupIds: [], all };
  const [row] = await q.query<{ group_ids: string[] }>(AUDIENCE_GROUPS_SQL, [caller.tenantId, caller.userId]);
  return { tenantId: caller.tenantId, userId: caller.userId, groupIds: row?.group_ids ?? [], all };
}
