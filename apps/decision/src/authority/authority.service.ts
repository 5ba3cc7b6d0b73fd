import { Injectable } from '@nestjs/common';
import { Caller, Page, badRequest, notFound } from '@ddm/contracts';
import { Db, Queryable } from '@ddm/platform';
import { DelegationLimit, DelegationStatus, limitProblem } from '../delegations/delegation.rules';
import { ChainAnswer, ChainLink, evaluateChain, formatLimit, notInForce } from './authority.rules';
import { CHAINS_AT_SQL, DECISION_DELEGATIONS_AT_SQL, GROUPS_AT_SQL, HOLDERS_AT_SQL } from './authority.sql';
import { AuthorityCheckDto, AuthorityCheckView, AuthorityHolderView, AuthorityHoldersQuery } from './dto/authority-check.dto';

/** Reasons answered when nothing allows: the nearest misses, each once. */
const MAX_REASONS = 5;

interface Snapshot {
  id: string;
  parentDelegationId: string | null;
  recipientType: string;
  recipientUserId: string | null;
  recipientPositionId: string | null;
  delegationDisplayId: string;
  status: DelegationStatus;
  isInvalid: boolean;
  effectiveDate: string;
  expirationDate: string | null;
  delegationGroups: { groupId: string }[];
  delegationAuthorities: DelegationLimit[];
}

/**
 * The authority engine: may this person (or position) decide this, for this value, here, at this
 * instant, and by which chain? Chains and the group hierarchy are read as they stood then (the
 * revisions and histories the decision area keeps), in two statements; the rules
 * (authority.rules.ts) decide. Answers the chain with the highest limit that allows, or the
 * reasons of the nearest misses.
 */
@Injectable()
export class AuthorityService {
  constructor(private readonly db: Db) {}

  holders(caller: Caller, q: AuthorityHoldersQuery): Promise<Page<AuthorityHolderView>> {
    return holdersAt(this.db, caller, q);
  }

  async check(caller: Caller, dto: AuthorityCheckDto): Promise<AuthorityCheckView> {
    const tenantId = caller.tenantId;
    const userId = dto.userId?.toLowerCase() ?? null;
    const positionId = dto.positionId?.toLowerCase() ?? null;
    if ((userId === null) === (positionId === null)) throw badRequest('Send exactly one of userId and positionId', [{ field: 'userId', message: 'or positionId is required (not both)' }]);
    const at = dto.at ? new Date(dto.at) : new Date();
    const [decision] = await this.db.query<{ first_type: string | null }>(
      `SELECT (SELECT da.authority_type_id FROM decision.decision_authorities da WHERE da.decision_id = d.id ORDER BY da.position LIMIT 1) AS first_type
         FROM decision.decisions d WHERE d.id = $1 AND d.tenant_id = $2 AND NOT d.is_deleted`,
      [dto.decisionId, tenantId],
    );
    if (!decision) throw notFound(`Decision ${dto.decisionId} not found`, [{ field: 'decisionId', message: `Decision ${dto.decisionId} not found` }]);
    const authorityTypeId = dto.authorityTypeId?.toLowerCase() ?? decision.first_type;
    if (!authorityTypeId) throw badRequest('The decision has no authority to check', [{ field: 'authorityTypeId', message: 'the decision has no authorities' }]);

    const [rows, groups] = await Promise.all([
      this.db.query<{ holder_id: string; snapshot: Snapshot }>(CHAINS_AT_SQL, [tenantId, dto.decisionId, at.toISOString(), userId, positionId]),
      dto.groupId ? this.db.query<{ group_id: string; parent_group_ids: string[]; live: boolean }>(GROUPS_AT_SQL, [tenantId, at.toISOString()]) : Promise.resolve([]),
    ]);
    const parents = new Map(groups.map((g) => [g.group_id, g.parent_group_ids]));
    const live = new Set(groups.filter((g) => g.live).map((g) => g.group_id));
    const covers = (linkGroup: string, target: string): boolean => {
      if (!live.has(target) || !live.has(linkGroup)) return false;
      const seen = new Set<string>();
      for (const todo = [target]; todo.length; ) {
        const g = todo.pop()!;
        if (g === linkGroup) return true;
        if (seen.has(g)) continue;
        seen.add(g);
        todo.push(...(parents.get(g) ?? []));
      }
      return false;
    };

    // One chain per delegation held, root first (the rows come ordered by holder, root first).
    const chains = new Map<string, ChainLink[]>();
    for (const r of rows) chains.set(r.holder_id, [...(chains.get(r.holder_id) ?? []), toLink(r.snapshot)]);
    const question = { authorityTypeId, value: dto.value ?? null, unit: dto.unit ?? null, groupId: dto.groupId?.toLowerCase() ?? null, at };
    const answers = [...chains.values()].map((links) => ({ links, answer: evaluateChain(links, question, covers) }));
    const allowed = answers.filter((a): a is { links: ChainLink[]; answer: Extract<ChainAnswer, { allowed: true }> } => a.answer.allowed);
    const base = { at: at.toISOString(), decisionId: dto.decisionId.toLowerCase(), authorityTypeId };
    if (allowed.length) {
      // The highest limit: one no other exceeds (a limit within another is the lower).
      const best = allowed.reduce((a, b) => (limitProblem(a.answer.limit, b.answer.limit) === null && limitProblem(b.answer.limit, a.answer.limit) !== null ? b : a));
      return {
        ...base,
        allowed: true,
        limit: formatLimit(best.answer.limit),
        chain: best.links.map((l) => ({ delegationId: l.delegationId, delegationDisplayId: l.delegationDisplayId, limit: limitOf(l, authorityTypeId) })),
        reasons: [],
      };
    }
    const reasons = [...new Set(answers.map((a) => (a.answer.allowed ? '' : a.answer.reason)))].filter(Boolean).slice(0, MAX_REASONS);
    return { ...base, allowed: false, limit: null, chain: [], reasons: reasons.length ? reasons : [`no delegation of this decision was held by the ${userId ? 'person' : 'position'} at ${at.toISOString()}`] };
  }
}

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

function toLink(s: Snapshot): ChainLink {
  return {
    delegationId: s.id,
    delegationDisplayId: s.delegationDisplayId,
    status: s.status,
    isInvalid: s.isInvalid,
    effectiveDate: new Date(s.effectiveDate),
    expirationDate: s.expirationDate ? new Date(s.expirationDate) : null,
    groupIds: s.delegationGroups.map((g) => g.groupId),
    authorities: s.delegationAuthorities,
  };
}

function limitOf(link: ChainLink, authorityTypeId: string): string {
  const limit = link.authorities.find((a) => a.authorityTypeId.toLowerCase() === authorityTypeId);
  return limit ? formatLimit(limit) : 'none';
}
