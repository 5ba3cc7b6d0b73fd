/**
 * Who held a decision's authority at an instant, as the authority engine sees it: GET holders (each
 * person and position once, with the highest limit per authority type), the segregation-of-duties
 * conflicts (sod/) and the reorg what-if (what-if/) (each holding through one delegation).
 */
import { Caller, Page, notFound } from '@ddm/contracts';
import { Queryable } from '@ddm/platform';
import { DelegationLimit } from '../core/delegation.types';
import { HeldSnapshot, compareLimits, coverage, formatLimit, limitOf, linkCovers, notInForce, toLink } from './authority.rules';
import { DECISION_AT_SQL, DECISION_DELEGATIONS_AT_SQL, GROUPS_AT_SQL, HOLDERS_AT_SQL } from './authority.sql';
import { AuthorityHolderView, AuthorityHoldersQuery } from './dto/authority-check.dto';

/** A holding through one delegation: a person or a position, with the limits of every type its whole chain holds. */
export interface DelegationHolding {
  holderType: 'USER' | 'POSITION';
  userId: string | null;
  userName: string | null;
  /** The position it is held through: the holder itself (POSITION), or the position of a person's delegation. */
  positionId: string | null;
  delegationId: string;
  delegationDisplayId: string;
  recipientType: string;
  limits: DelegationLimit[];
}

/**
 * Every holding of the decision at `at`, in delegation order: its person (SPECIFIC_PERSONNEL, or
 * PERSONNEL_IN_POSITION while they held the position), or its position and whoever held it then
 * (POSITION_ONLY), through a delegation in force whose whole chain was in force, with the types
 * every link of the chain holds. None while the decision was not PUBLISHED (or was deleted). With
 * `groupId`, only the chains whose every link covers that group as the hierarchy stood then.
 */
export async function holdingsByDelegation(db: Queryable, tenantId: string, decisionId: string, at: Date, groupId: string | null = null): Promise<DelegationHolding[]> {
  const [decision] = await db.query<{ status: string; is_deleted: boolean }>(DECISION_AT_SQL, [tenantId, decisionId, at.toISOString()]);
  if (!decision || decision.is_deleted || decision.status !== 'PUBLISHED') return [];
  const rows = await db.query<{ id: string; snapshot: HeldSnapshot }>(DECISION_DELEGATIONS_AT_SQL, [tenantId, decisionId, at.toISOString()]);
  const byId = new Map(rows.map((r) => [r.id, r.snapshot]));
  const covers = groupId === null ? null : coverage(await db.query(GROUPS_AT_SQL, [tenantId, [at.toISOString()]]));
  // Per delegation: null when it or a link above is not in force (or does not cover the group); else the types every link holds.
  const chainTypes = new Map<string, Set<string> | null>();
  const typesOf = (id: string, depth = 0): Set<string> | null => {
    if (chainTypes.has(id)) return chainTypes.get(id)!;
    const s = byId.get(id);
    let types: Set<string> | null = null;
    const link = s ? toLink(s) : null;
    if (s && link && depth < 64 && notInForce(link, at) === null && (covers === null || linkCovers(link.groupIds, groupId!, covers))) {
      const own = new Set(s.delegationAuthorities.map((a) => a.authorityTypeId.toLowerCase()));
      const above = s.parentDelegationId === null ? own : typesOf(s.parentDelegationId, depth + 1);
      types = above === null ? null : new Set([...own].filter((t) => above.has(t)));
    }
    chainTypes.set(id, types);
    return types;
  };
  const held = rows
    .map((r) => r.snapshot)
    .filter((s) => typesOf(s.id) !== null)
    .sort((a, b) => Number(a.delegationDisplayId) - Number(b.delegationDisplayId));
  const positions = [...new Set(held.map((s) => s.recipientPositionId).filter((p): p is string => !!p))];
  const holdings = positions.length ? await db.query<{ position_id: string; user_id: string; name: string | null }>(HOLDERS_AT_SQL, [tenantId, positions, at.toISOString()]) : [];
  const userIds = held.map((s) => s.recipientUserId).filter(Boolean);
  const names = new Map((await db.query<{ id: string; name: string | null }>(`SELECT id, name FROM decision.user_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [tenantId, userIds])).map((u) => [u.id, u.name]));
  const out: DelegationHolding[] = [];
  for (const s of held) {
    const types = typesOf(s.id)!;
    const base = { delegationId: s.id, delegationDisplayId: s.delegationDisplayId, recipientType: s.recipientType, limits: s.delegationAuthorities.filter((a) => types.has(a.authorityTypeId.toLowerCase())) };
    if (s.recipientType === 'SPECIFIC_PERSONNEL') out.push({ ...base, holderType: 'USER', userId: s.recipientUserId, userName: names.get(s.recipientUserId!) ?? null, positionId: null });
    else if (s.recipientType === 'PERSONNEL_IN_POSITION') {
      if (holdings.some((h) => h.position_id === s.recipientPositionId && h.user_id === s.recipientUserId)) {
        out.push({ ...base, holderType: 'USER', userId: s.recipientUserId, userName: names.get(s.recipientUserId!) ?? null, positionId: s.recipientPositionId });
      }
    } else {
      out.push({ ...base, holderType: 'POSITION', userId: null, userName: null, positionId: s.recipientPositionId });
      for (const h of holdings.filter((x) => x.position_id === s.recipientPositionId)) out.push({ ...base, holderType: 'USER', userId: h.user_id, userName: h.name, positionId: s.recipientPositionId });
    }
  }
  return out;
}

/**
 * GET holders: each person, and each position held as POSITION_ONLY, once, with per authority type
 * the highest limit they held at `at` (default now), how, and every delegation giving them that
 * type (the highest limit first).
 * Ordered by the limit of the type asked about (or the decision's first type) highest first, then
 * by name; paged over the whole answer (its total is every holder).
 */
export async function holdersAt(db: Queryable, caller: Caller, q: AuthorityHoldersQuery): Promise<Page<AuthorityHolderView>> {
  const tenantId = caller.tenantId;
  const decisionId = q.decisionId.toLowerCase();
  const [decision] = await db.query<{ type_ids: string[] }>(
    `SELECT coalesce((SELECT array_agg(a.authority_type_id ORDER BY a.position) FROM decision.decision_authorities a WHERE a.decision_id = d.id), '{}') AS type_ids
       FROM decision.decisions d WHERE d.id = $1 AND d.tenant_id = $2 AND NOT d.is_deleted`,
    [decisionId, tenantId],
  );
  if (!decision) throw notFound(`Decision ${q.decisionId} not found`, [{ field: 'decisionId', message: `Decision ${q.decisionId} not found` }]);
  const at = q.at ? new Date(q.at) : new Date();
  const type = q.authorityTypeId?.toLowerCase() ?? null;
  const holdings = await holdingsByDelegation(db, tenantId, decisionId, at, q.groupId?.toLowerCase() ?? null);

  // Per holder and type: every delegation giving it, the highest limit first (then in display id order, as the holdings come).
  const holders = new Map<string, AuthorityHolderView>();
  const given = new Map<string, { limit: DelegationLimit; recipientType: string; via: { delegationId: string; delegationDisplayId: string } }[]>();
  const keyOf = (h: { holderType: string; userId: string | null; positionId: string | null }) => (h.holderType === 'USER' ? `user ${h.userId}` : `position ${h.positionId}`);
  for (const h of holdings) {
    const key = keyOf(h);
    if (!holders.has(key)) holders.set(key, { holderType: h.holderType, userId: h.userId, userName: h.userName, positionId: h.holderType === 'POSITION' ? h.positionId : null, positionName: null, authorities: [] });
    for (const l of h.limits) {
      const typeId = l.authorityTypeId.toLowerCase();
      if (type !== null && typeId !== type) continue;
      const list = given.get(`${key} ${typeId}`) ?? [];
      if (!list.length) holders.get(key)!.authorities.push({ authorityTypeId: typeId, limit: null, display: '', heldVia: '', via: [] });
      list.push({ limit: l, recipientType: h.recipientType, via: { delegationId: h.delegationId, delegationDisplayId: h.delegationDisplayId } });
      given.set(`${key} ${typeId}`, list);
    }
  }
  const best = new Map<string, DelegationLimit>();
  for (const [key, holder] of holders) {
    for (const held of holder.authorities) {
      const list = given.get(`${key} ${held.authorityTypeId}`)!;
      list.sort((x, y) => compareLimits(y.limit, x.limit)); // stable: display id order among equals
      Object.assign(held, { limit: limitOf(list[0].limit), display: formatLimit(list[0].limit), heldVia: list[0].recipientType, via: list.map((x) => x.via) });
      best.set(`${key} ${held.authorityTypeId}`, list[0].limit);
    }
  }
  const listed = [...holders.values()].filter((h) => h.authorities.length > 0);
  const positionIds = listed.filter((h) => h.holderType === 'POSITION').map((h) => h.positionId!);
  if (positionIds.length) {
    const names = new Map((await db.query<{ id: string; position_name: string }>(`SELECT id, position_name FROM decision.position_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [tenantId, positionIds])).map((p) => [p.id, p.position_name]));
    for (const h of listed) if (h.holderType === 'POSITION') h.positionName = names.get(h.positionId!) ?? null;
  }

  // Highest first by the type that orders the list; a holder without it last; then by name, then by id.
  const orderType = type ?? decision.type_ids[0]?.toLowerCase() ?? null;
  const limitOfType = (h: AuthorityHolderView) => (orderType === null ? undefined : best.get(`${keyOf(h)} ${orderType}`));
  const name = (h: AuthorityHolderView) => (h.holderType === 'USER' ? h.userName : h.positionName) ?? '';
  listed.sort((a, b) => {
    const [x, y] = [limitOfType(a), limitOfType(b)];
    const byLimit = x && y ? compareLimits(y, x) : x ? -1 : y ? 1 : 0;
    return byLimit || name(a).localeCompare(name(b)) || (a.userId ?? a.positionId ?? '').localeCompare(b.userId ?? b.positionId ?? '');
  });
  const start = (q.page - 1) * q.limit;
  return new Page(listed.slice(start, start + q.limit), listed.length, q.page, q.limit);
}
