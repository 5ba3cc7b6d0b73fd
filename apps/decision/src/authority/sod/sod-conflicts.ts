/**
 * Conflicts as the authority engine sees holdings: who holds a decision's authority is holdingsByDelegation
 * (a person or a position through a delegation in force whose whole chain is in force, at an
 * instant), read once per decision a rule names; the pure rules (sod.rules.ts) pair the sides.
 * Shared by the conflicts list and the check made when a delegation begins to hold.
 */
import { Caller } from '@ddm/contracts';
import { Queryable } from '@ddm/platform';
import { DelegationLimit } from '../../core/delegation.types';
import { formatLimit } from '../authority.rules';
import { holdingsByDelegation } from '../holders';
import { SodChainLinkView } from './dto/sod-conflict.dto';
import { CHAINS_SQL, DELEGATION_GROUPS_SQL, GROUP_PARENTS_SQL } from './sod.sql';
import { Holding, SodConflict, SodRuleSpec, findConflicts, groupsOverlap, keepOverlapping } from './sod.rules';

/** Every holding of each decision the rules name, at `at` (default now): the engine's holders, all of them. */
export async function holdingsAt(q: Queryable, caller: Caller, rules: readonly SodRuleSpec[], at: string | undefined): Promise<Map<string, Holding[]>> {
  const out = new Map<string, Holding[]>();
  const decisions = new Set(rules.flatMap((r) => [r.left.decisionId.toLowerCase(), r.right.decisionId.toLowerCase()]));
  // One after the other: inside a transaction the statements share its connection anyway.
  for (const decisionId of decisions) {
    const holders = await holdingsByDelegation(q, caller.tenantId, decisionId, at ? new Date(at) : new Date());
    out.set(
      decisionId,
      holders.map((h) => ({
        holderType: h.holderType,
        userId: h.userId,
        userName: h.userName,
        positionId: h.positionId,
        delegationId: h.delegationId,
        delegationDisplayId: h.delegationDisplayId,
        authorityTypeIds: h.limits.map((l) => l.authorityTypeId),
      })),
    );
  }
  return out;
}

/**
 * The conflicts of the rules at `at`: every pair (or, with `involving`, those through one of those
 * delegations), sameGroupOnly applied. The pairs' groups, and the tenant's group hierarchy, are read
 * only when a sameGroupOnly rule has a pair whose two delegations both name groups.
 */
export async function conflictsAt(q: Queryable, caller: Caller, rules: readonly SodRuleSpec[], at: string | undefined, involving?: ReadonlySet<string>): Promise<SodConflict[]> {
  if (!rules.length) return [];
  const candidates = findConflicts(rules, await holdingsAt(q, caller, rules, at), involving);
  const grouped = candidates.filter((c) => c.rule.sameGroupOnly);
  if (!grouped.length) return candidates;
  const ids = [...new Set(grouped.flatMap((c) => [c.left.delegationId, c.right.delegationId]))];
  const groups = new Map((await q.query<{ id: string; group_ids: string[] }>(DELEGATION_GROUPS_SQL, [caller.tenantId, ids])).map((r) => [r.id, r.group_ids]));
  const groupsOf = (id: string) => groups.get(id) ?? [];
  const children = new Map<string, string[]>();
  if (grouped.some((c) => groupsOf(c.left.delegationId).length > 0 && groupsOf(c.right.delegationId).length > 0)) {
    for (const g of await q.query<{ id: string; parent_group_ids: string[] | null }>(GROUP_PARENTS_SQL, [caller.tenantId])) {
      for (const p of g.parent_group_ids ?? []) children.set(p, [...(children.get(p) ?? []), g.id]);
    }
  }
  return keepOverlapping(candidates, (a, b) => groupsOverlap(groupsOf(a), groupsOf(b), (g) => children.get(g) ?? []));
}

/** One link of a chain as CHAINS_SQL answers it. */
export interface ChainLinkRow {
  below: string;
  id: string;
  delegation_display_id: string;
  status: string;
  issuer_type: string;
  issuer_user_id: string | null;
  issuer_position_id: string | null;
  recipient_type: string;
  recipient_user_id: string | null;
  recipient_position_id: string | null;
  delegation_authorities: DelegationLimit[];
  sod_acknowledged_rule_ids: string[];
}

/** The chain of each delegation named, root first (one statement for all). */
export async function chainsOf(q: Queryable, tenantId: string, delegationIds: readonly string[]): Promise<Map<string, ChainLinkRow[]>> {
  const rows = delegationIds.length ? await q.query<ChainLinkRow>(CHAINS_SQL, [tenantId, [...new Set(delegationIds)]]) : [];
  const out = new Map<string, ChainLinkRow[]>();
  for (const r of rows) out.set(r.below, [...(out.get(r.below) ?? []), r]);
  return out;
}

/** A chain as a conflict shows it, each link with its limit of the side's authority type. */
export function toChainView(links: readonly ChainLinkRow[], authorityTypeId: string): SodChainLinkView[] {
  return links.map((l) => {
    const limit = l.delegation_authorities.find((a) => a.authorityTypeId.toLowerCase() === authorityTypeId.toLowerCase());
    return {
      delegationId: l.id,
      delegationDisplayId: l.delegation_display_id,
      status: l.status,
      issuerType: l.issuer_type,
      issuerUserId: l.issuer_user_id,
      issuerPositionId: l.issuer_position_id,
      recipientType: l.recipient_type,
      recipientUserId: l.recipient_user_id,
      recipientPositionId: l.recipient_position_id,
      limit: limit ? formatLimit(limit) : 'none',
    };
  });
}
