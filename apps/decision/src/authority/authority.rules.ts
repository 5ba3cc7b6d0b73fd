/**
 * The authority engine's rules, pure (no I/O): whether a chain of delegations, as it stood at an
 * instant, lets its holder decide a value of one authority type, and if not, why not, naming the
 * blocking delegation. The limit comparison is the one issuing uses (limitProblem): a value is
 * admitted by a limit exactly when a delegation of that value (`<=`) would fit under it.
 */
import { DelegationLimit, DelegationStatus, HOLDING_STATUSES, Limit } from '../core/delegation.types';
import { UNLIMITED } from '../core/decision-limits';
import { limitProblem, millionths } from '../core/delegation.rules';

/** One delegation of a chain as it stood at the instant asked about. */
export interface ChainLink {
  delegationId: string;
  delegationDisplayId: string;
  status: DelegationStatus;
  isInvalid: boolean;
  effectiveDate: Date;
  expirationDate: Date | null;
  /** The groups it covers; none: the decision's whole scope. */
  groupIds: readonly string[];
  authorities: readonly DelegationLimit[];
}

/** What is asked: a value (absent for Authorized) of a type, in a unit, where (a group), when. */
export interface AuthorityQuestion {
  authorityTypeId: string;
  value: string | null;
  unit: string | null;
  groupId: string | null;
  at: Date;
  /** Whether the type is held at all, whatever the value (what a subject may decide: the highest limit, not a value asked about). */
  anyValue?: boolean;
}

/** A value in one currency in another, as of the instant asked about (the tenant's rates); see currency-rates.ts. */
export type Convert = (value: string, from: string, to: string) => string;

export type ChainAnswer =
  | { allowed: true; limit: Limit }
  | { allowed: false; blockedBy: { delegationId: string; delegationDisplayId: string }; reason: string };

/**
 * Why `limit` does not admit `value` (in `unit`), or null when it does: the value is what a
 * delegation of `<=` that value would hold, so `< 1000` admits 999.99 but not 1000, `<= 1000` admits
 * 1000, Unlimited admits any number, Authorized needs no value and admits any (it has no amount).
 */
export function admits(limit: Limit, value: string | null, unit: string | null): string | null {
  if (limit.authorityLimitValueType === 'Authorized') return null;
  if (value === null) return `a ${limit.authorityLimitValueType} value is needed`;
  const asked: Limit = { ...limit, authorityLimitOperator: '<=', authorityLimitValue: value, authorityLimitValueUnit: unit };
  if (limit.authorityLimitValue === UNLIMITED) return asked.authorityLimitValueUnit === limit.authorityLimitValueUnit ? null : `the unit ${unit ?? 'none'} is not ${limit.authorityLimitValueUnit ?? 'none'}`;
  return limitProblem(asked, limit);
}

/** "USD 250,000" / "<= 30 Percentage" / "Unlimited": a limit as a person reads it. */
export function formatLimit(limit: Limit): string {
  if (limit.authorityLimitValueType === 'Authorized') return 'Authorized';
  if (limit.authorityLimitValue === UNLIMITED) return 'Unlimited';
  const value = limit.authorityLimitValue === null ? '?' : amount(limit.authorityLimitValue);
  return `${limit.authorityLimitOperator ?? ''} ${limit.authorityLimitValueUnit ? `${limit.authorityLimitValueUnit} ` : ''}${value}`.trim();
}

/**
 * A decimal as a person reads it, digit for digit ("1234567.50" is "1,234,567.5"): the string is
 * grouped, never passed through a Number (a limit has 15 digits and 6 decimals, more than a double
 * keeps). Anything that is not a plain decimal is answered as it is.
 */
export function amount(value: string): string {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(value.trim());
  if (!m) return value;
  const whole = m[2].replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  return `${m[1]}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Whether a value in `unit` must be converted before `limit` can compare it: a Currency limit in another currency. */
export function needsConversion(limit: Limit, unit: string | null): boolean {
  return limit.authorityLimitValueType === 'Currency' && unit !== null && limit.authorityLimitValueUnit !== null && limit.authorityLimitValueUnit.toUpperCase() !== unit.toUpperCase();
}

/** A limit as the check answers it: its value ("Unlimited" or a decimal), unit and operator; null for Authorized. */
export function limitOf(limit: Limit): { value: string; unit: string | null; operator: string | null } | null {
  if (limit.authorityLimitValueType === 'Authorized') return null;
  return { value: limit.authorityLimitValue ?? '', unit: limit.authorityLimitValueUnit, operator: limit.authorityLimitValue === UNLIMITED ? null : limit.authorityLimitOperator };
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Why a delegation gave no authority at `at` (not ISSUED or ACCEPTED, invalid, not yet effective,
 * expired), or null when it was in force then.
 */
export function notInForce(link: ChainLink, at: Date): string | null {
  if (!HOLDING_STATUSES.includes(link.status)) return `delegation ${link.delegationDisplayId} was ${link.status} on ${day(at)}`;
  if (link.isInvalid) return `delegation ${link.delegationDisplayId} was invalid on ${day(at)}`;
  if (link.effectiveDate.getTime() > at.getTime()) return `delegation ${link.delegationDisplayId} was not effective until ${day(link.effectiveDate)}`;
  if (link.expirationDate !== null && link.expirationDate.getTime() <= at.getTime()) return `delegation ${link.delegationDisplayId} expired on ${day(link.expirationDate)}`;
  return null;
}

/**
 * A chain, root first, the holder's delegation last, evaluated at `q.at`: every link ISSUED or
 * ACCEPTED, not invalid, effective and not expired then; covering `q.groupId` (`covers` answers
 * whether a link's group reaches it through the hierarchy as it stood, every group on the way live
 * then; a link without groups covers the decision's whole scope, `covers(null, g)`: any group live
 * then, never a closed one); and holding the type with
 * a limit that admits the value. The answer's limit is the holder's own (each link is within its
 * parent when issued; a link whose limit does not admit the value blocks the chain anyway). The
 * first link that fails, root first, is the one named.
 */
export function evaluateChain(
  links: readonly ChainLink[],
  q: AuthorityQuestion,
  covers: (linkGroupId: string | null, groupId: string) => boolean,
  convert?: Convert,
): ChainAnswer {
  if (!links.length) throw new Error('a chain has at least one delegation');
  for (const link of links) {
    const blocked = (reason: string): ChainAnswer => ({ allowed: false, blockedBy: { delegationId: link.delegationId, delegationDisplayId: link.delegationDisplayId }, reason });
    const inForce = notInForce(link, q.at);
    if (inForce) return blocked(inForce);
    if (q.groupId !== null && !linkCovers(link.groupIds, q.groupId, covers)) {
      return blocked(`delegation ${link.delegationDisplayId} does not cover group ${q.groupId}`);
    }
    const limit = link.authorities.find((a) => a.authorityTypeId.toLowerCase() === q.authorityTypeId.toLowerCase());
    if (!limit) return blocked(`delegation ${link.delegationDisplayId} does not hold that authority type`);
    const converted = convert && needsConversion(limit, q.unit) && q.value !== null ? convert(q.value, q.unit!, limit.authorityLimitValueUnit!) : null;
    // A unit is one whatever its letter case ("usd" is USD).
    const sameUnit = q.unit !== null && limit.authorityLimitValueUnit !== null && q.unit.toUpperCase() === limit.authorityLimitValueUnit.toUpperCase();
    const problem = q.anyValue ? null : converted === null ? admits(limit, q.value, sameUnit ? limit.authorityLimitValueUnit : q.unit) : admits(limit, converted, limit.authorityLimitValueUnit);
    if (problem) {
      const inUnit = converted === null ? '' : ` (${limit.authorityLimitValueUnit} ${amount(converted)})`;
      const asked = q.value === null ? '' : ` < ${q.unit ? `${q.unit} ` : ''}${amount(q.value)}${inUnit}`;
      return blocked(`limit ${formatLimit(limit)}${asked} via ${link.delegationDisplayId} (${problem})`);
    }
  }
  const own = links[links.length - 1].authorities.find((a) => a.authorityTypeId.toLowerCase() === q.authorityTypeId.toLowerCase())!;
  return { allowed: true, limit: own };
}

export interface Person {
  id?: string | null;
  name?: string | null;
}

/** A delegation as one of its revisions stored it (the engine reads chains as they stood). */
export interface Snapshot {
  id: string;
  parentDelegationId: string | null;
  issuerType: string;
  issuerUserId: string | null;
  issuerPositionId: string | null;
  issuerUser: Person | null;
  issuerPositionName: string | null;
  recipientType: string;
  recipientUserId: string | null;
  recipientPositionId: string | null;
  recipientUser: Person | null;
  recipientPositionName: string | null;
  delegationDisplayId: string;
  status: DelegationStatus;
  isInvalid: boolean;
  effectiveDate: string;
  expirationDate: string | null;
  delegationGroups: { groupId: string }[];
  delegationAuthorities: DelegationLimit[];
}

/** What a chain link is made of. */
export type LinkSnapshot = Pick<Snapshot, 'id' | 'delegationDisplayId' | 'status' | 'isInvalid' | 'effectiveDate' | 'expirationDate' | 'delegationGroups' | 'delegationAuthorities'>;

/** A stored delegation as a link of a chain the rules evaluate. */
export function toLink(s: LinkSnapshot): ChainLink {
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

/**
 * Which of two limits of one authority type is higher: above 0 when `a` is, below when `b` is, 0
 * when they are equal. Authorized limits are all equal; Unlimited is above any value; at one value
 * `<=` is above `<`. Units are not converted (the holders of one decision's type share its unit).
 */
export function compareLimits(a: Limit, b: Limit): number {
  const [x, y] = [limitRank(a), limitRank(b)];
  return x === y ? 0 : x > y ? 1 : -1;
}

/** A limit's place in compareLimits' order, as a number to compare (a list sorted by limit computes it once per entry). */
export function limitRank(l: Limit): bigint {
  if (l.authorityLimitValueType === 'Authorized') return 0n;
  if (l.authorityLimitValue === UNLIMITED) return 1n << 80n;
  const v = l.authorityLimitValue === null ? null : millionths(l.authorityLimitValue);
  return v === null ? -1n : v * 2n + (l.authorityLimitOperator === '<' ? 0n : 1n);
}

/**
 * Whether a link's group reaches the group asked about through the hierarchy as it stood (`groups`:
 * every group then, with its parents and whether it was live), every group on the way live then (a
 * closed group between them cuts the line); `null` (a link without groups: the decision's whole
 * scope) reaches any group live then.
 */
export function coverage(groups: readonly { group_id: string; parent_group_ids: string[]; live: boolean }[]): (linkGroup: string | null, target: string) => boolean {
  const parents = new Map(groups.map((g) => [g.group_id, g.parent_group_ids]));
  const live = new Set(groups.filter((g) => g.live).map((g) => g.group_id));
  return (linkGroup, target) => {
    if (!live.has(target)) return false;
    if (linkGroup === null) return true;
    if (!live.has(linkGroup)) return false;
    const seen = new Set<string>();
    for (const todo = [target]; todo.length; ) {
      const g = todo.pop()!;
      if (g === linkGroup) return true;
      if (seen.has(g)) continue;
      seen.add(g);
      todo.push(...(parents.get(g) ?? []).filter((p) => live.has(p)));
    }
    return false;
  };
}

/** Whether a link covers the group asked about: one of its groups reaches it, or it has none (the decision's whole scope) and the group was live. */
export function linkCovers(groupIds: readonly string[], groupId: string, covers: (linkGroupId: string | null, groupId: string) => boolean): boolean {
  return groupIds.length > 0 ? groupIds.some((g) => covers(g, groupId)) : covers(null, groupId);
}

/** Whether the caller may ask what `userId` (null: a position) may decide: of themselves always; of anyone else, or of a position, with view:decisions. */
export function mayAsk(caller: { userId: string; keys: ReadonlySet<string> }, userId: string | null): boolean {
  return (userId !== null && userId.toLowerCase() === caller.userId.toLowerCase()) || caller.keys.has('view:decisions');
}
