/**
 * Who held a decision's authority at an instant, as the authority engine sees it: GET holders (each
 * person and position once, with the highest limit per authority type), the segregation-of-duties
 * conflicts (sod/) and the reorg what-if (what-if/) (each holding through one delegation).
 */
import { Caller, Page, notFound } from '@ddm/contracts';
import { Queryable, prepared } from '@ddm/platform';
import { DelegationLimit } from '../core/delegation.types';
import { requireLiveRefs } from '../core/live-refs';
import { compareLimits, coverage, formatLimit, limitOf, linkCovers, notInForce } from './authority.rules';
import { DECISION_AT_SQL, DECISION_DELEGATIONS_AT_SQL, GROUPS_AT_SQL, HOLDERS_AT_SQL } from './authority.sql';
import { RevisionLink, revisionLinks } from './revision-links';
import { AuthorityHolderView, AuthorityHoldersQuery } from './dto/authority-check.dto';

/** The decision's delegations at an instant, prepared once per connection with one plan (an index range scan whatever the decision). */
const DECISION_DELEGATIONS_AT = prepared('authority.decision-delegations-at', DECISION_DELEGATIONS_AT_SQL, { genericPlan: true });

/** Names in the order String#localeCompare gives (the default locale), one collator for every comparison. */
const NAME_ORDER = new Intl.Collator();

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
  /** The types of `limits`, lower case. */
  types: ReadonlySet<string>;
  /** Per type, the rank of the delegation's limit (limitRank). */
  ranks: ReadonlyMap<string, bigint>;
}

/**
 * Every holding of the decision at `at`, in delegation order: its person (SPECIFIC_PERSONNEL, or
 * PERSONNEL_IN_POSITION while they held the position), or its position and whoever held it then
 * (POSITION_ONLY), through a delegation in force whose whole chain was in force, with the types
 * every link of the chain holds. None while the decision was not PUBLISHED (or was deleted). With
 * `groupId`, only the chains whose every link covers that group as the hierarchy stood then.
 * `withNames` false: a person's name is left null unless they held through a position (holders
 * reads the names of the page it answers only).
 */
export async function holdingsByDelegation(db: Queryable, tenantId: string, decisionId: string, at: Date, groupId: string | null = null, withNames = true): Promise<DelegationHolding[]> {
  const [decision] = await db.query<{ status: string; is_deleted: boolean }>(DECISION_AT_SQL, [tenantId, decisionId, at.toISOString()]);
  if (!decision || decision.is_deleted || decision.status !== 'PUBLISHED') return [];
  const rows = await db.query<{ revision: string }>(DECISION_DELEGATIONS_AT, [tenantId, decisionId, at.toISOString()]);
  const links = await revisionLinks(db, tenantId, rows.map((r) => r.revision));
  const byId = new Map<string, RevisionLink>();
  for (const link of links.values()) byId.set(link.snapshot.id, link);
  const covers = groupId === null ? null : coverage(await db.query(GROUPS_AT_SQL, [tenantId, [at.toISOString()]]));
  // Per delegation: null when it or a link above is not in force (or does not cover the group); else the types every link holds
  // (its own set when the chain holds them all, as it mostly does: a decision held by 10,000 allocates little).
  const chainTypes = new Map<string, ReadonlySet<string> | null>();
  const typesOf = (id: string, depth = 0): ReadonlySet<string> | null => {
    const known = chainTypes.get(id);
    if (known !== undefined) return known;
    const r = byId.get(id);
    let types: ReadonlySet<string> | null = null;
    if (r && depth < 64 && notInForce(r.link, at) === null && (covers === null || linkCovers(r.link.groupIds, groupId!, covers))) {
      const above = r.snapshot.parentDelegationId === null ? r.typeIds : typesOf(r.snapshot.parentDelegationId, depth + 1);
      if (above !== null) types = within(r.typeIds, above) ? r.typeIds : new Set([...r.typeIds].filter((t) => above.has(t)));
    }
    chainTypes.set(id, types);
    return types;
  };
  const held = [...byId.values()].filter((r) => typesOf(r.snapshot.id) !== null).sort((a, b) => a.order - b.order);
  const positions = [...new Set(held.map((r) => r.snapshot.recipientPositionId).filter((p): p is string => !!p))];
  const holdings = positions.length ? await db.query<{ position_id: string; user_id: string; name: string | null }>(HOLDERS_AT_SQL, [tenantId, positions, at.toISOString()]) : [];
  const heldBy = new Map<string, { user_id: string; name: string | null }[]>();
  for (const h of holdings) {
    const list = heldBy.get(h.position_id);
    if (list) list.push(h);
    else heldBy.set(h.position_id, [h]);
  }
  const userIds = withNames ? held.map((r) => r.snapshot.recipientUserId).filter((u): u is string => !!u) : [];
  const names = userIds.length ? await userNames(db, tenantId, userIds) : new Map<string, string | null>();
  const out: DelegationHolding[] = [];
  for (const { snapshot: s, typeIds, ranks } of held) {
    const types = typesOf(s.id)!;
    const limits = types === typeIds ? s.delegationAuthorities : s.delegationAuthorities.filter((a) => types.has(a.authorityTypeId.toLowerCase()));
    const holding = (holderType: 'USER' | 'POSITION', userId: string | null, userName: string | null, positionId: string | null): DelegationHolding => ({
      holderType,
      userId,
      userName,
      positionId,
      delegationId: s.id,
      delegationDisplayId: s.delegationDisplayId,
      recipientType: s.recipientType,
      limits,
      types,
      ranks,
    });
    if (s.recipientType === 'SPECIFIC_PERSONNEL') out.push(holding('USER', s.recipientUserId, names.get(s.recipientUserId!) ?? null, null));
    else if (s.recipientType === 'PERSONNEL_IN_POSITION') {
      if (heldBy.get(s.recipientPositionId!)?.some((h) => h.user_id === s.recipientUserId)) out.push(holding('USER', s.recipientUserId, names.get(s.recipientUserId!) ?? null, s.recipientPositionId));
    } else {
      out.push(holding('POSITION', null, null, s.recipientPositionId));
      for (const h of heldBy.get(s.recipientPositionId!) ?? []) out.push(holding('USER', h.user_id, h.name, s.recipientPositionId));
    }
  }
  return out;
}

/**
 * GET holders: each person, and each position held as POSITION_ONLY, once, with per authority type
 * the highest limit they held at `at` (default now), how, and every delegation giving them that
 * type (the highest limit first). An `authorityTypeId` or `groupId` that is no record of the tenant
 * is a 404 naming the parameter.
 * Ordered by the limit of the type asked about (or the decision's first type) highest first, then
 * by name, then by id; paged over the whole answer (its total is every holder). Only the page costs
 * more than a rank per holder: the names of the holders whose limit ties with one on the page are
 * read (to order them), and only the page's holders are written out.
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
  const holdings = await holdingsByDelegation(db, tenantId, decisionId, at, q.groupId?.toLowerCase() ?? null, false);

  // Each holder once, with the holdings giving it a type asked about, ranked by the type that orders the list (the highest limit of it; none: last).
  const orderType = type ?? decision.type_ids[0]?.toLowerCase() ?? null;
  const holders = new Map<string, { holdings: DelegationHolding[]; rank: bigint | null; name: string; id: string }>();
  for (const h of holdings) {
    if (type === null ? h.types.size === 0 : !h.types.has(type)) continue;
    const id = (h.holderType === 'USER' ? h.userId : h.positionId) ?? '';
    const key = h.holderType === 'USER' ? id : `position ${id}`;
    let holder = holders.get(key);
    if (!holder) holders.set(key, (holder = { holdings: [], rank: null, name: '', id }));
    holder.holdings.push(h);
    const rank = orderType !== null && h.types.has(orderType) ? h.ranks.get(orderType)! : null;
    if (rank !== null && (holder.rank === null || rank > holder.rank)) holder.rank = rank;
  }
  const byRank = (a: { rank: bigint | null }, b: { rank: bigint | null }) => (a.rank === b.rank ? 0 : a.rank === null ? 1 : b.rank === null ? -1 : a.rank > b.rank ? -1 : 1);
  const ranked = [...holders.values()].sort(byRank);
  // A holder answered proves the type and the group are the tenant's (a chain held the one and covered the other); none: each must be a record of the tenant (deleted or not: `at` may precede the deletion).
  if (!ranked.length) {
    await requireLiveRefs(db, tenantId, [
      { kind: 'anyAuthorityType', id: type, field: 'authorityTypeId' },
      { kind: 'anyGroup', id: q.groupId, field: 'groupId' },
    ]);
  }

  // The page, and around it every holder of a limit one on the page has: they are ordered by name, then id.
  const start = (q.page - 1) * q.limit;
  const end = Math.min(start + q.limit, ranked.length);
  if (start >= end) return new Page([], ranked.length, q.page, q.limit);
  let from = start;
  while (from > 0 && byRank(ranked[from - 1], ranked[start]) === 0) from--;
  let to = end;
  while (to < ranked.length && byRank(ranked[to], ranked[end - 1]) === 0) to++;
  const around = ranked.slice(from, to);
  const isUser = (x: (typeof around)[number]) => x.holdings[0].holderType === 'USER';
  const users = around.filter(isUser).map((x) => x.id);
  const positionIds = around.filter((x) => !isUser(x)).map((x) => x.id);
  const userName = users.length ? await userNames(db, tenantId, users) : new Map<string, string | null>();
  const positionName = positionIds.length
    ? new Map((await db.query<{ id: string; position_name: string }>(`SELECT id, position_name FROM decision.position_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [tenantId, positionIds])).map((p) => [p.id, p.position_name]))
    : new Map<string, string>();
  for (const x of around) x.name = (isUser(x) ? userName.get(x.id) : positionName.get(x.id)) ?? '';
  around.sort((a, b) => byRank(a, b) || NAME_ORDER.compare(a.name, b.name) || NAME_ORDER.compare(a.id, b.id));

  // The page's holders written out: per type (in the order the holdings first give them), every delegation giving it, the highest limit first (display id order among equals).
  const page = around.slice(start - from, end - from).map((x): AuthorityHolderView => {
    const given = new Map<string, { limit: DelegationLimit; recipientType: string; via: { delegationId: string; delegationDisplayId: string } }[]>();
    for (const h of x.holdings) {
      for (const l of h.limits) {
        const typeId = l.authorityTypeId.toLowerCase();
        if (type !== null && typeId !== type) continue;
        const entry = { limit: l, recipientType: h.recipientType, via: { delegationId: h.delegationId, delegationDisplayId: h.delegationDisplayId } };
        const list = given.get(typeId);
        if (list) list.push(entry);
        else given.set(typeId, [entry]);
      }
    }
    const authorities = [...given].map(([authorityTypeId, list]) => {
      list.sort((a, b) => compareLimits(b.limit, a.limit)); // stable
      return { authorityTypeId, limit: limitOf(list[0].limit), display: formatLimit(list[0].limit), heldVia: list[0].recipientType, via: list.map((v) => v.via) };
    });
    const user = isUser(x);
    return { holderType: user ? 'USER' : 'POSITION', userId: user ? x.id : null, userName: user ? (userName.get(x.id) ?? null) : null, positionId: user ? null : x.id, positionName: user ? null : (positionName.get(x.id) ?? null), authorities };
  });
  return new Page(page, ranked.length, q.page, q.limit);
}

/** Whether every one of `types` is in `of`. */
function within(types: ReadonlySet<string>, of: ReadonlySet<string>): boolean {
  for (const t of types) if (!of.has(t)) return false;
  return true;
}

/** The people's names now (user_projection), by id. */
async function userNames(db: Queryable, tenantId: string, ids: readonly string[]): Promise<Map<string, string | null>> {
  const rows = await db.query<{ id: string; name: string | null }>(`SELECT id, name FROM decision.user_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [tenantId, ids]);
  return new Map(rows.map((u) => [u.id, u.name]));
}
