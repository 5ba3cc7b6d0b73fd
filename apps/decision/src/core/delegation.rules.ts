/**
 * The rules of delegations, with no I/O: what a root delegation and a redelegation may hold, who
 * holds a delegation, who a pathway reaches, from which holding a redelegation is issued, which
 * fields of a live delegation a change makes invalid, and what a proposed change does below it.
 * Issuing, editing, invalidation and check-cascading-updates all use this module (the service loads
 * what a check needs and calls it); unit-tested in delegation.rules.spec.ts, a case just inside and
 * just outside each bound.
 */
import { AppError, FieldError, badRequest, forbidden } from '@ddm/contracts';
import { UNLIMITED } from './decision-limits';
import {
  AffectedDelegation,
  DecisionScope,
  DelegationLimit,
  DelegationRuleRow,
  DelegationState,
  HOLDING_STATUSES,
  INVALID_FIELDS,
  InvalidField,
  Limit,
  OrgView,
  ProposedDelegation,
  Recipient,
  SubtreeRow,
  Violation,
} from './delegation.types';

/** Whether `userId` holds what `recipient` names today (per its recipient type); an inactive user holds nothing. */
export function holds(recipient: Recipient, userId: string, org: OrgView): boolean {
  if (!org.isActiveUser(userId)) return false;
  const { recipientUserId: user, recipientPositionId: position } = recipient;
  const isUser = user !== null && sameId(user, userId);
  const inPosition = position !== null && includesId(org.positionsOf(userId), position);
  switch (recipient.recipientType) {
    case 'SPECIFIC_PERSONNEL':
      return isUser;
    case 'POSITION_ONLY':
      return inPosition;
    case 'PERSONNEL_IN_POSITION':
      return isUser && inPosition;
    default:
      return false;
  }
}

/**
 * The cap a parent's limit hands on: its redelegationLimitValue (and unit; no unit given means the
 * limit's own) when set, else its own value, with the limit's own operator. A redelegation value
 * above the limit's own value (same unit) is read as the limit's own value: a parent never hands on
 * more than it holds. Authorized hands on Authorized.
 */
export function capOf(parent: DelegationLimit): Limit {
  const own: Limit = {
    authorityTypeId: parent.authorityTypeId,
    authorityLimitValueType: parent.authorityLimitValueType,
    authorityLimitOperator: parent.authorityLimitOperator,
    authorityLimitValue: parent.authorityLimitValue,
    authorityLimitValueUnit: parent.authorityLimitValueUnit,
  };
  const value = parent.redelegationLimitValue;
  if (parent.authorityLimitValueType === 'Authorized' || value === null) return own;
  const unit = parent.redelegationLimitValueUnit ?? parent.authorityLimitValueUnit;
  const ownValue = own.authorityLimitValue === null || own.authorityLimitValue === UNLIMITED ? null : millionths(own.authorityLimitValue);
  if (ownValue !== null && unit === own.authorityLimitValueUnit) {
    const asked = value === UNLIMITED ? null : millionths(value);
    if (value === UNLIMITED || (asked !== null && asked > ownValue)) return own;
  }
  return { ...own, authorityLimitValue: value, authorityLimitValueUnit: unit };
}

/**
 * Why `child` is not within `cap` (same value type and unit, value no higher, operator no wider:
 * `<` under `<=` of the same value is fine, not the reverse; Unlimited only under Unlimited;
 * Authorized only under Authorized), or null when it is. Values compare as exact decimals, not text
 * ("1000" < "200000", "99.5" < "100"); a value that is not a decimal of the accepted shape, a missing
 * value or operator, or a Percentage over 100 is never within.
 */
export function limitProblem(child: Limit, cap: Limit): string | null {
  return limitIssue(child, cap, 'the cap allows')?.text ?? null;
}

/**
 * Whether `recipientUserId` is reachable from `issuerUserId` along `pathway`: Matrix = any active
 * member; Functional = shares at least one group (a user's groups per OrgView.groupsOfUser);
 * Direct Line = a direct report of the issuer; Down-Line = anywhere below the issuer in the reporting
 * line (cycle-safe). Only active users are reached. A position recipient is reachable when one of
 * its holders is, or (Functional, when it has an active holder) when the position's own groups meet
 * the issuer's; a vacant position (no active holder) only along Matrix, and only when it is active. An unknown
 * pathway reaches no one.
 */
export function reachable(pathway: string, issuerUserId: string, recipient: Recipient, org: OrgView): boolean {
  const positionId = recipient.recipientType === 'SPECIFIC_PERSONNEL' ? null : recipient.recipientPositionId;
  const named = recipient.recipientType === 'POSITION_ONLY' ? (positionId === null ? [] : org.holdersOf(positionId)) : recipient.recipientUserId === null ? [] : [recipient.recipientUserId];
  const users = named.filter((u) => org.isActiveUser(u));
  switch (pathway) {
    case 'Matrix':
      return users.length > 0 || (recipient.recipientType === 'POSITION_ONLY' && positionId !== null && org.isActivePosition(positionId));
    case 'Functional': {
      const mine = new Set(org.groupsOfUser(issuerUserId).map(lower));
      const meets = (groups: readonly string[]) => groups.some((g) => mine.has(lower(g)));
      if (users.length === 0) return false; // vacant: only Matrix
      return users.some((u) => meets(org.groupsOfUser(u))) || (positionId !== null && meets(org.groupsOfPosition(positionId)));
    }
    case 'Direct Line':
      return users.some((u) => {
        const manager = org.managerOf(u);
        return manager !== null && sameId(manager, issuerUserId);
      });
    case 'Down-Line':
      return users.some((u) => isBelow(u, issuerUserId, org));
    default:
      return false;
  }
}

/** Whether `groupId` is one of `scope` or a descendant of one of them (settings hierarchy, cycle-safe). */
export function withinGroups(groupId: string, scope: readonly string[], org: OrgView): boolean {
  const inScope = new Set(scope.map(lower));
  const seen = new Set<string>();
  // Up every parent (a group may have several), each group once.
  const queue: string[] = [groupId];
  for (let g = queue.shift(); g !== undefined; g = queue.shift()) {
    if (seen.has(lower(g))) continue;
    if (inScope.has(lower(g))) return true;
    seen.add(lower(g));
    queue.push(...org.parentGroupsOf(g));
  }
  return false;
}

/**
 * Rule 5: a root delegation needs `create:root_delegations` (403, and nothing else is checked), a
 * PUBLISHED and delegable decision (400), pathways within the decision's, live groups within the
 * decision's (descendants count), limits no more than the decision's for the same authority type (a
 * type the decision lacks is refused), an expiration (if any) after the effective date, and
 * recipients that exist and are active (a PERSONNEL_IN_POSITION user holding the position).
 */
export function checkRoot(decision: DecisionScope, proposed: ProposedDelegation, canCreateRoot: boolean, org: OrgView): Violation[] {
  if (!canCreateRoot) {
    return [violation('root', 'decisionId', 'Issuer', 'issuing a root delegation of this decision needs the create:root_delegations permission', 403)];
  }
  const out: Violation[] = [];
  if (decision.status !== 'PUBLISHED') out.push(violation('root', 'decisionId', 'Parent', `the decision is ${decision.status}; only a PUBLISHED decision can be delegated`));
  if (!decision.delegable) out.push(violation('root', 'decisionId', 'Parent', 'the decision is not delegable'));
  out.push(...authorityViolations(proposed.authorities, null, decision));
  out.push(...pathwayViolations(proposed.pathways, null, decision));
  out.push(...groupViolations(proposed.groupIds, null, decision, org));
  out.push(...windowViolations(proposed, null));
  out.push(...recipientViolations(proposed, org).violations);
  return out;
}

/**
 * Rules 1-4 for a redelegation by `issuerUserId` from `parent`: the issuer holds the parent (403, and
 * nothing else is checked); the parent is ISSUED or ACCEPTED, effective at `now`, not expired
 * (expired from its expirationDate on), not invalid, and its decision PUBLISHED and delegable (400);
 * each authority is one the parent holds, redelegable on the parent, within its cap and within the
 * decision's limit; pathways within the parent's and the decision's; live groups within the parent's
 * and the decision's (descendants count); expiration no later than the parent's (a parent without
 * expiration allows any; a child without one under a parent with one is refused), after the child's
 * own effective date, which is not before the parent's; recipients exist and are active, and each is
 * reachable from the issuer along at least one of the proposed pathways.
 */
export function checkRedelegation(
  parent: DelegationState,
  decision: DecisionScope,
  proposed: ProposedDelegation,
  issuerUserId: string,
  org: OrgView,
  now: Date,
): Violation[] {
  if (!holds(parent, issuerUserId, org)) {
    return [violation('parent-held', 'parentDelegationId', 'Issuer', 'the issuer does not hold the parent delegation today, so cannot hand it on', 403)];
  }
  const out: Violation[] = [];
  const live = (field: string, text: string) => out.push(violation('parent-live', field, 'Parent', text));
  if (!HOLDING_STATUSES.includes(parent.status)) live('parentDelegationId', `the parent delegation is ${parent.status}; only an ISSUED or ACCEPTED delegation can be handed on`);
  if (parent.effectiveDate.getTime() > now.getTime()) live('parentDelegationId', `the parent delegation is not effective until ${iso(parent.effectiveDate)}`);
  if (parent.expirationDate !== null && parent.expirationDate.getTime() <= now.getTime()) live('parentDelegationId', `the parent delegation expired at ${iso(parent.expirationDate)}`);
  if (parent.isInvalid) live('parentDelegationId', 'the parent delegation is marked invalid');
  if (decision.status !== 'PUBLISHED') live('decisionId', `the decision is ${decision.status}; only a PUBLISHED decision can be delegated`);
  if (!decision.delegable) live('decisionId', 'the decision is not delegable');
  out.push(...authorityViolations(proposed.authorities, parent, decision));
  out.push(...pathwayViolations(proposed.pathways, parent, decision));
  out.push(...groupViolations(proposed.groupIds, parent, decision, org));
  out.push(...windowViolations(proposed, parent));
  out.push(...recipientAndReachViolations(proposed, issuerUserId, org));
  return out;
}

/**
 * The terms of an existing delegation as a change would make them (PATCH, a reassignment of its
 * recipient): limits, pathways and groups within its parent's (or, for a root delegation, the
 * decision's), its window within the parent's, its recipients sound and, for a redelegation,
 * reachable from its issuer along its pathways. Whether the issuer still holds the parent is not
 * asked again: changing terms is not handing on anew (an issuer who no longer holds it shows as
 * `Issuer` on the delegation), and the parent's own state is the `Parent` flag's business.
 */
export function checkChange(parent: DelegationState | null, decision: DecisionScope, proposed: ProposedDelegation, issuerUserId: string | null, org: OrgView): Violation[] {
  const out: Violation[] = [];
  out.push(...authorityViolations(proposed.authorities, parent, decision));
  out.push(...pathwayViolations(proposed.pathways, parent, decision));
  out.push(...groupViolations(proposed.groupIds, parent, decision, org));
  out.push(...windowViolations(proposed, parent));
  if (parent !== null && issuerUserId !== null) out.push(...recipientAndReachViolations(proposed, issuerUserId, org));
  else out.push(...recipientViolations(proposed, org).violations);
  return out;
}

/** The recipients' own problems, then (for those without one) whether each is reachable from the issuer along one of the pathways (rule 4). */
function recipientAndReachViolations(proposed: ProposedDelegation, issuerUserId: string, org: OrgView): Violation[] {
  const recipients = recipientViolations(proposed, org);
  const out = [...recipients.violations];
  proposed.recipients.forEach((r, i) => {
    if (!recipients.sound[i]) return; // its own problem is reported already
    const recipient: Recipient = { recipientType: proposed.recipientType, ...r };
    if (proposed.pathways.some((p) => reachable(p, issuerUserId, recipient, org))) return;
    const byPosition = proposed.recipientType === 'POSITION_ONLY';
    const field = `delegationRecipients.${i}.${byPosition ? 'recipientPositionId' : 'recipientUserId'}`;
    const who = byPosition ? `position ${r.recipientPositionId}` : `user ${r.recipientUserId}`;
    const along = proposed.pathways.length === 0 ? 'as no pathway is given' : `along any of the proposed pathways (${proposed.pathways.join(', ')})`;
    out.push(violation('reach', field, 'Recipient', `${who} cannot be reached from the issuer ${along}`));
  });
  return out;
}

/**
 * The invalid fields of a live delegation today, never a rewrite: `Recipient` (a PERSONNEL_IN_POSITION
 * recipient no longer holds the position, a user deactivated, a position inactive), `Issuer` (a
 * PERSONNEL_IN_POSITION or POSITION_ONLY issuer no longer holds the position it issued from, or is
 * deactivated), `Pathway` (pathways no longer within the parent's or the decision's, or, for a
 * redelegation, its sound recipient no longer reachable from its issuer along any of them: a Direct
 * Line recipient whose manager is no longer the issuer, a Down-Line one no longer below the issuer,
 * a Functional one no longer sharing a group with the issuer; a vacant POSITION_ONLY position is not
 * asked), `Authority` (a
 * limit no longer within its parent's cap or the decision's limit, a type either lacks, or the
 * parent's no longer redelegable), `Groups` (a group deleted, or no longer within the parent's or the
 * decision's), `Parent` (the parent is not ISSUED/ACCEPTED, is invalid itself, or now expires before
 * this delegation does). `parent` is null for a root delegation, checked against the decision only.
 * In the order of INVALID_FIELDS, each once.
 */
export function invalidFieldsOf(delegation: DelegationState, parent: DelegationState | null, decision: DecisionScope, org: OrgView): InvalidField[] {
  const found = new Set<InvalidField>();
  if (recipientIsUnsound(delegation, org)) found.add('Recipient');
  if (issuerIsUnsound(delegation, org)) found.add('Issuer');
  // Rule 1 keeps holding: whoever handed it on still holds the parent (a parent given to someone else, or a holder gone).
  if (parent !== null && delegation.issuerUserId !== null && !holds(parent, delegation.issuerUserId, org)) found.add('Issuer');
  if (pathwayViolations(delegation.pathways, parent, decision).length > 0) found.add('Pathway');
  // Rule 4 keeps holding: a sound recipient of a redelegation stays reachable from its issuer along one of its pathways (a reporting line changed, a group left).
  if (parent !== null && delegation.issuerUserId !== null && !recipientIsUnsound(delegation, org) && !isVacant(delegation, org)) {
    if (!delegation.pathways.some((p) => reachable(p, delegation.issuerUserId!, delegation, org))) found.add('Pathway');
  }
  if (authorityViolations(delegation.authorities, parent, decision).length > 0) found.add('Authority');
  if (groupViolations(delegation.groupIds, parent, decision, org).length > 0) found.add('Groups');
  if (parent !== null) {
    const outlives = parent.expirationDate !== null && (delegation.expirationDate === null || delegation.expirationDate.getTime() > parent.expirationDate.getTime());
    if (!HOLDING_STATUSES.includes(parent.status) || parent.isInvalid || outlives) found.add('Parent');
  }
  return INVALID_FIELDS.filter((f) => found.has(f));
}

/** A delegation row as the rules see it. */
export function toState(r: DelegationRuleRow): DelegationState {
  return {
    status: r.status,
    effectiveDate: new Date(r.effective_date),
    expirationDate: r.expiration_date ? new Date(r.expiration_date) : null,
    isInvalid: r.is_invalid,
    issuerType: r.issuer_type,
    issuerUserId: r.issuer_user_id,
    issuerPositionId: r.issuer_position_id,
    recipientType: r.recipient_type,
    recipientUserId: r.recipient_user_id,
    recipientPositionId: r.recipient_position_id,
    pathways: r.delegation_pathway,
    groupIds: r.group_ids,
    authorities: r.delegation_authorities,
  };
}

/**
 * The issuer type and position of a redelegation by `userId`: how they hold the parent today, as the
 * person when it was given to a person (SPECIFIC_PERSONNEL), else from the position it names, which
 * they must hold (a 403 Violation otherwise). What the request `sent` of them (the product's
 * issuerType and issuerPositionId; null or left out: derived) must say the same, else a 400
 * Violation naming the field.
 */
export function issuerOf(
  parent: Pick<DelegationRuleRow, 'recipient_type' | 'recipient_position_id'>,
  userId: string,
  sent: { issuerType?: string | null; issuerPositionId?: string | null },
  org: OrgView,
): { issuerType: DelegationState['issuerType']; issuerPositionId: string | null } | Violation {
  const held = parent.recipient_type === 'SPECIFIC_PERSONNEL'
    ? { issuerType: 'SPECIFIC_PERSONNEL' as const, issuerPositionId: null }
    : { issuerType: parent.recipient_type, issuerPositionId: parent.recipient_position_id };
  const position = held.issuerPositionId;
  if (position && !includesId(org.positionsOf(userId), position)) {
    return { rule: 'issuer', field: 'issuerPositionId', status: 403, invalidField: 'Issuer', message: `You do not hold position ${position}` };
  }
  const how = position ? `${held.issuerType} from position ${position}` : `${held.issuerType} (in person)`;
  if (sent.issuerType && sent.issuerType !== held.issuerType) {
    return { rule: 'issuer', field: 'issuerType', status: 400, invalidField: 'Issuer', message: `must be ${held.issuerType}: you hold the parent delegation as ${how}` };
  }
  if (sent.issuerPositionId && !(position && sameId(sent.issuerPositionId, position))) {
    const message = position ? `must be ${position}: you hold the parent delegation as ${how}` : `must be empty: you hold the parent delegation as ${how}`;
    return { rule: 'issuer', field: 'issuerPositionId', status: 400, invalidField: 'Issuer', message };
  }
  return held;
}

/** The answer a request breaking `violations` gets: a 403 when the caller may not, else a 400 naming every field. */
export function refusal(violations: readonly Violation[]): AppError {
  const denied = violations.find((v) => v.status === 403);
  if (denied) return forbidden(denied.message);
  const errors: FieldError[] = violations.map((v) => ({ field: v.field, message: v.message }));
  return badRequest(`The delegation breaks ${violations.length === 1 ? 'a rule' : `${violations.length} rules`}: ${violations[0].message}`, errors);
}

/**
 * The delegations of a subtree (`rows`, shallowest first) that a proposal makes invalid, with the
 * fields each newly breaks (fields it breaks already are not news). `changed` is the delegation
 * whose terms change (its own row, rel 0, is not reported) or null when only the decision changes;
 * a descendant made invalid makes its own children break `Parent`, as invalidation would.
 */
export function cascadeEffects(
  rows: readonly SubtreeRow[],
  changed: { id: string; proposed: DelegationState } | null,
  decision: DecisionScope,
  proposedDecision: DecisionScope,
  org: OrgView,
): AffectedDelegation[] {
  const states = new Map<string, { current: DelegationState; proposed: DelegationState }>();
  const affected: AffectedDelegation[] = [];
  for (const r of rows) {
    const own = toState(r);
    if (changed && r.id === changed.id) {
      states.set(r.id, { current: own, proposed: changed.proposed });
      continue;
    }
    const parent = r.parent_delegation_id ? states.get(r.parent_delegation_id) : undefined;
    if (r.parent_delegation_id && !parent) continue; // below a delegation that is not live: not part of the check
    const before = invalidFieldsOf(own, parent?.current ?? null, decision, org);
    const after = invalidFieldsOf(own, parent?.proposed ?? null, proposedDecision, org);
    const added = after.filter((f) => !before.includes(f));
    states.set(r.id, { current: own, proposed: { ...own, isInvalid: own.isInvalid || after.length > 0 } });
    if (added.length) affected.push({ id: r.id, delegationDisplayId: r.delegation_display_id, depth: r.rel, invalidFields: added });
  }
  return affected;
}

// ---------------------------------------------------------------------------------------------
// Private helpers

const lower = (id: string) => id.toLowerCase();
const sameId = (a: string, b: string) => lower(a) === lower(b);
const includesId = (ids: readonly string[], id: string) => ids.some((x) => sameId(x, id));
const iso = (d: Date) => d.toISOString();

function violation(rule: Violation['rule'], field: string, invalidField: InvalidField, text: string, status: 400 | 403 = 400): Violation {
  return { rule, field, status, invalidField, message: `${field}: ${text}` };
}

/** A limit value in millionths, exactly (no floating point); null when it is not a decimal of the accepted shape. */
const DECIMAL = /^(0|[1-9]\d{0,14})(?:\.(\d{1,6}))?$/;
export function millionths(value: string): bigint | null {
  const m = DECIMAL.exec(value);
  if (!m) return null;
  return BigInt(m[1]) * 1_000_000n + BigInt((m[2] ?? '').padEnd(6, '0'));
}

/** A limit in words: "<= 500000 USD", "Unlimited", "Authorized". */
function shown(l: Limit, withOperator = true): string {
  if (l.authorityLimitValueType === 'Authorized') return 'Authorized';
  const value = [l.authorityLimitValue ?? '(no value)', l.authorityLimitValueUnit].filter((x) => x !== null).join(' ');
  return withOperator && l.authorityLimitOperator !== null ? `${l.authorityLimitOperator} ${value}` : value;
}

interface LimitIssue {
  field: 'authorityLimitValueType' | 'authorityLimitValueUnit' | 'authorityLimitOperator' | 'authorityLimitValue';
  text: string;
}

/** Why `child` is not within `cap`, with the field of the child at fault; `whose` names the cap ("the parent hands on"). */
function limitIssue(child: Limit, cap: Limit, whose: string): LimitIssue | null {
  const bound = `${whose} (${shown(cap)})`;
  const type = child.authorityLimitValueType;
  if (type !== cap.authorityLimitValueType) {
    return { field: 'authorityLimitValueType', text: `value type ${type} is not the value type ${whose} (${cap.authorityLimitValueType}: ${shown(cap)})` };
  }
  if (type === 'Authorized') return null;
  if ((child.authorityLimitValueUnit ?? null) !== (cap.authorityLimitValueUnit ?? null)) {
    return { field: 'authorityLimitValueUnit', text: `unit ${child.authorityLimitValueUnit ?? '(none)'} is not the unit ${bound}` };
  }
  const value = child.authorityLimitValue;
  if (value === null) return { field: 'authorityLimitValue', text: `a ${type} limit needs a value; ${bound}` };
  if (child.authorityLimitOperator === null) return { field: 'authorityLimitOperator', text: `a ${type} limit needs an operator (< or <=); ${bound}` };
  const childValue = value === UNLIMITED ? null : millionths(value);
  if (value !== UNLIMITED && childValue === null) {
    return { field: 'authorityLimitValue', text: `"${value}" is not a decimal (at most 15 digits before the point and 6 after), so it is not within ${bound}` };
  }
  if (type === 'Percentage' && childValue !== null && childValue > 100_000_000n) {
    return { field: 'authorityLimitValue', text: `${value} is more than 100 percent` };
  }
  if (cap.authorityLimitValue === UNLIMITED) return null;
  const capValue = cap.authorityLimitValue === null ? null : millionths(cap.authorityLimitValue);
  if (capValue === null || cap.authorityLimitOperator === null) {
    return { field: 'authorityLimitValue', text: `${shown(child, false)} cannot be within ${bound}: that limit has no valid value and operator` };
  }
  if (childValue === null || childValue > capValue) return { field: 'authorityLimitValue', text: `${shown(child, false)} is more than ${bound}` };
  if (childValue === capValue && child.authorityLimitOperator === '<=' && cap.authorityLimitOperator === '<') {
    return { field: 'authorityLimitOperator', text: `${shown(child)} is wider than ${bound}` };
  }
  return null;
}

/** The authorities' problems against the parent's caps (when there is a parent) and the decision's limits. */
function authorityViolations(authorities: readonly DelegationLimit[], parent: DelegationState | null, decision: DecisionScope): Violation[] {
  const out: Violation[] = [];
  authorities.forEach((a, i) => {
    const at = (field: string, text: string) => out.push(violation('authority', `delegationAuthorities.${i}.${field}`, 'Authority', text));
    const typeId = a.authorityTypeId;
    if (parent !== null) {
      const held = parent.authorities.find((p) => sameId(p.authorityTypeId, typeId));
      if (!held) return at('authorityTypeId', `the parent delegation holds no authority of type ${typeId}`);
      if (!held.redelegable) return at('redelegable', `the parent's authority of type ${typeId} is not redelegable`);
      const issue = limitIssue(a, capOf(held), 'the parent hands on');
      if (issue) return at(issue.field, issue.text);
    }
    const limit = decision.authorities.find((d) => sameId(d.authorityTypeId, typeId));
    if (!limit) return at('authorityTypeId', `the decision has no authority of type ${typeId}`);
    const issue = limitIssue(a, limit, 'the decision allows');
    if (issue) at(issue.field, issue.text);
  });
  return out;
}

/** Each pathway not among the parent's (when there is a parent) or the decision's. */
function pathwayViolations(pathways: readonly string[], parent: DelegationState | null, decision: DecisionScope): Violation[] {
  return [...new Set(pathways)].flatMap((p) => {
    const outside = [
      ...(parent !== null && !parent.pathways.includes(p) ? [`the parent's (${parent.pathways.join(', ') || 'none'})`] : []),
      ...(!decision.pathways.includes(p) ? [`the decision's (${decision.pathways.join(', ') || 'none'})`] : []),
    ];
    return outside.length === 0 ? [] : [violation('pathway', 'delegationPathway', 'Pathway', `${p} is not among ${outside.join(' nor ')} pathways`)];
  });
}

/** Each group deleted, or not within the parent's groups (when there is a parent) or the decision's. */
function groupViolations(groupIds: readonly string[], parent: DelegationState | null, decision: DecisionScope, org: OrgView): Violation[] {
  const out: Violation[] = [];
  groupIds.forEach((g, i) => {
    const at = (text: string) => out.push(violation('groups', `delegationGroups.${i}.groupId`, 'Groups', text));
    if (!org.isLiveGroup(g)) return at(`group ${g} does not exist or is deleted`);
    const outside = [...(parent !== null && !withinGroups(g, parent.groupIds, org) ? ["the parent's"] : []), ...(!withinGroups(g, decision.groupIds, org) ? ["the decision's"] : [])];
    if (outside.length > 0) at(`group ${g} is not within ${outside.join(' nor ')} groups (neither one of them nor below one)`);
  });
  return out;
}

/** The proposed time window: expiration after the effective date; under a parent, not before its start nor after its expiration. */
function windowViolations(proposed: ProposedDelegation, parent: DelegationState | null): Violation[] {
  const out: Violation[] = [];
  const at = (field: string, text: string) => out.push(violation('expiration', field, 'Parent', text));
  const { effectiveDate, expirationDate } = proposed;
  if (parent !== null && effectiveDate.getTime() < parent.effectiveDate.getTime()) {
    at('effectiveDate', `${iso(effectiveDate)} is before the parent delegation is effective (${iso(parent.effectiveDate)})`);
  }
  if (parent !== null && parent.expirationDate !== null) {
    if (expirationDate === null) at('expirationDate', `is required: the parent delegation expires at ${iso(parent.expirationDate)}, and a redelegation may not outlive it`);
    else if (expirationDate.getTime() > parent.expirationDate.getTime()) {
      at('expirationDate', `${iso(expirationDate)} is later than the parent delegation's expiration (${iso(parent.expirationDate)})`);
    }
  }
  if (expirationDate !== null && expirationDate.getTime() <= effectiveDate.getTime()) {
    at('expirationDate', `${iso(expirationDate)} is not after the effective date (${iso(effectiveDate)})`);
  }
  return out;
}

/** The recipients' own problems (missing, inactive, a user not holding the position), and which recipients have none. */
function recipientViolations(proposed: ProposedDelegation, org: OrgView): { violations: Violation[]; sound: boolean[] } {
  const violations: Violation[] = [];
  const type = proposed.recipientType;
  const sound = proposed.recipients.map((r, i) => {
    const before = violations.length;
    const at = (field: string, text: string) => violations.push(violation('recipient', `delegationRecipients.${i}.${field}`, 'Recipient', text));
    const user = r.recipientUserId;
    const position = r.recipientPositionId;
    if (type !== 'POSITION_ONLY') {
      if (user === null) at('recipientUserId', `is required for a ${type} recipient`);
      else if (!org.isActiveUser(user)) at('recipientUserId', `user ${user} is not an active member of the tenant`);
    }
    if (type !== 'SPECIFIC_PERSONNEL') {
      if (position === null) at('recipientPositionId', `is required for a ${type} recipient`);
      else if (!org.isActivePosition(position)) at('recipientPositionId', `position ${position} does not exist or is not active`);
      else if (type === 'PERSONNEL_IN_POSITION' && user !== null && org.isActiveUser(user) && !includesId(org.positionsOf(user), position)) {
        at('recipientPositionId', `user ${user} does not hold position ${position}`);
      }
    }
    return violations.length === before;
  });
  return { violations, sound };
}

/** Whether a live delegation's recipient is no longer sound: a user deactivated, a position inactive, the user no longer in the position. */
function recipientIsUnsound(d: DelegationState, org: OrgView): boolean {
  const user = d.recipientUserId;
  const position = d.recipientPositionId;
  if (d.recipientType !== 'POSITION_ONLY' && (user === null || !org.isActiveUser(user))) return true;
  if (d.recipientType !== 'SPECIFIC_PERSONNEL' && (position === null || !org.isActivePosition(position))) return true;
  return d.recipientType === 'PERSONNEL_IN_POSITION' && user !== null && position !== null && !includesId(org.positionsOf(user), position);
}

/**
 * Whether a live delegation's issuer no longer holds the position it issued from (PERSONNEL_IN_POSITION
 * and POSITION_ONLY issuers only): the position missing, the user deactivated or no longer in it. A
 * POSITION_ONLY issue without an issuing user has no one to check; a PERSONNEL_IN_POSITION one is unsound.
 */
function issuerIsUnsound(d: DelegationState, org: OrgView): boolean {
  if (d.issuerType !== 'PERSONNEL_IN_POSITION' && d.issuerType !== 'POSITION_ONLY') return false;
  const position = d.issuerPositionId;
  const user = d.issuerUserId;
  if (position === null) return true;
  if (user === null) return d.issuerType === 'PERSONNEL_IN_POSITION';
  return !org.isActiveUser(user) || !includesId(org.positionsOf(user), position);
}

/** A POSITION_ONLY recipient no active person holds: a vacancy is no break of the line it was issued along (its next holder is reached, or not, when they arrive). */
function isVacant(d: DelegationState, org: OrgView): boolean {
  return d.recipientType === 'POSITION_ONLY' && d.recipientPositionId !== null && !org.holdersOf(d.recipientPositionId).some((u) => org.isActiveUser(u));
}

/** Whether `userId` is anywhere below `issuerUserId` in the reporting line (each manager visited once, so a cycle ends). */
function isBelow(userId: string, issuerUserId: string, org: OrgView): boolean {
  const seen = new Set<string>([lower(userId)]);
  for (let m = org.managerOf(userId); m !== null; m = org.managerOf(m)) {
    if (sameId(m, issuerUserId)) return true;
    if (seen.has(lower(m))) return false;
    seen.add(lower(m));
  }
  return false;
}
