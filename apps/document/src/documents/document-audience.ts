import { Caller } from '@ddm/contracts';
import { Queryable } from '@ddm/platform';
import { seesEveryDocument } from './document.rules';
import { AUDIENCE_SQL, Audience } from './document.sql';

/** Who the caller is to the tenant's documents: their positions, their groups with every ancestor, and whether they see everything. */
export async function documentAudience(q: Queryable, caller: Caller): Promise<Audience> {
  const [row] = await q.query<{ position_ids: string[]; group_ids: string[] }>(AUDIENCE_SQL, [caller.tenantId, caller.userId]);
  return { tenantId: caller.tenantId, userId: caller.userId, positionIds: row?.position_ids ?? [], groupIds: row?.group_ids ?? [], all: seesEveryDocument(caller) };
}
