/**
 * Who held a decision's authority at an instant, as the authority engine sees it: GET holders, the
 * segregation-of-duties conflicts (sod/) and the reorg what-if (what-if/) all ask this.
 */
import { Caller, Page, notFound } from '@ddm/contracts';
import { Queryable } from '@ddm/platform';
import { Snapshot, formatLimit, notInForce, toLink } from './authority.rules';
import { DECISION_DELEGATIONS_AT_SQL, HOLDERS_AT_SQL } from './authority.sql';
import { AuthorityHolderView, AuthorityHoldersQuery } from './dto/authority-check.dto';

/**
 * GET holders: everyone who held the decision's authority at the instant, each through one
 * delegation in force then whose whole chain was in force too: its person (SPECIFIC_PERSONNEL, or
 * PERSONNEL_IN_POSITION while they held the position), or its position and whoever held it
 * (POSITION_ONLY). In delegation order, paged.
 */
export async function holdersAt(db: Queryable, caller: Caller, q: AuthorityHoldersQuery): Promise<Page<AuthorityHolderView>> {
  const tenantId = caller.tenantId;
  const [decision] = await db.query(`SELECT 1 FROM decision.decisions WHERE id = $1 AND tenant_id = $2 AND NOT is_deleted`, [q.decisionId, tenantId]);
  if (!decision) throw notFound(`Decision ${q.decisionId} not found`, [{ field: 'decisionId', message: `Decision ${q.decisionId} not found` }]);
  const at = q.at ? new Date(q.at) : new Date();
  const rows = await db.query<{ id: string; snapshot: Snapshot }>(DECISION_DELEGATIONS_AT_SQL, [tenantId, q.decisionId, at.toISOString()]);
  const byId = new Map(rows.map((r) => [r.id, r.snapshot]));
  const inForce = new Map<string, boolean>();
  const chainInForce = (id: string, depth = 0): boolean => {
    if (inForce.has(id)) return inForce.get(id)!;
    const s = byId.get(id);
    const ok = !!s && depth < 64 && notInForce(toLink(s), at) === null && (s.parentDelegationId === null || chainInForce(s.parentDelegationId, depth + 1));
    inForce.set(id, ok);
    return ok;
  };
  const held = rows.map((r) => r.snapshot).filter((s) => chainInForce(s.id));
  const positions = [...new Set(held.map((s) => s.recipientPositionId).filter((p): p is string => !!p))];
  const holdings = positions.length ? await db.query<{ position_id: string; user_id: string; name: string | null }>(HOLDERS_AT_SQL, [tenantId, positions, at.toISOString()]) : [];
  const names = new Map((await db.query<{ id: string; name: string | null }>(`SELECT id, name FROM decision.user_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [tenantId, held.map((s) => s.recipientUserId).filter(Boolean)])).map((u) => [u.id, u.name]));
  const items: AuthorityHolderView[] = [];
  for (const s of held.sort((a, b) => Number(a.delegationDisplayId) - Number(b.delegationDisplayId))) {
    const base = { delegationId: s.id, delegationDisplayId: s.delegationDisplayId, recipientType: s.recipientType, limits: s.delegationAuthorities.map((a) => ({ authorityTypeId: a.authorityTypeId, limit: formatLimit(a) })) };
    if (s.recipientType === 'SPECIFIC_PERSONNEL') items.push({ ...base, holderType: 'USER', userId: s.recipientUserId, userName: names.get(s.recipientUserId!) ?? null, positionId: null });
    else if (s.recipientType === 'PERSONNEL_IN_POSITION') {
      if (holdings.some((h) => h.position_id === s.recipientPositionId && h.user_id === s.recipientUserId)) {
        items.push({ ...base, holderType: 'USER', userId: s.recipientUserId, userName: names.get(s.recipientUserId!) ?? null, positionId: s.recipientPositionId });
      }
    } else {
      items.push({ ...base, holderType: 'POSITION', userId: null, userName: null, positionId: s.recipientPositionId });
      for (const h of holdings.filter((x) => x.position_id === s.recipientPositionId)) items.push({ ...base, holderType: 'USER', userId: h.user_id, userName: h.name, positionId: s.recipientPositionId });
    }
  }
  const start = (q.page - 1) * q.limit;
  return new Page(items.slice(start, start + q.limit), items.length, q.page, q.limit);
}
