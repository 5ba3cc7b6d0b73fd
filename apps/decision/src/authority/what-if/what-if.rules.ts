/**
 * The reorg what-if's rules, pure (no I/O): which fields each kind of change takes, how the
 * validity changes of several changes add up to the delegations invalidated, how two states of
 * who holds what differ, and which of a decision's scopes would lose their last holder. What makes
 * a delegation invalid, and who holds a decision's authority, are not decided here: the delegation
 * rules and the authority engine decide, on the organisation as the changes would leave it.
 */
import { FieldError } from '@ddm/contracts';

export const WHAT_IF_CHANGE_TYPES = [
  'user-leaves-position',
  'user-joins-position',
  'position-deleted',
  'group-deleted',
  'group-moved',
  'manager-changed',
  'user-deactivated',
  'decision-limit-changed',
] as const;
export type WhatIfChangeType = (typeof WHAT_IF_CHANGE_TYPES)[number];

/** Most changes a request takes. */
export const MAX_CHANGES = 100;
/** Most parents a moved group may be given. */
export const MAX_PARENT_GROUPS = 50;
/** Most decisions whose holders a request compares (those with a live delegation the changes reach, and the decisions whose limit changes). */
export const MAX_DECISIONS_EVALUATED = 200;
/** Most items in each list of the answer; a request whose answer would be longer is refused, never cut short. */
export const MAX_ANSWER_ITEMS = 1000;

export const CHANGE_FIELDS = ['userId', 'positionId', 'groupId', 'parentGroupIds', 'managerId', 'decisionId', 'authorityTypeId', 'value'] as const;
export type ChangeField = (typeof CHANGE_FIELDS)[number];

/** The fields each type takes, every one required (managerId may be null: no manager). */
export const FIELDS_OF: Readonly<Record<WhatIfChangeType, readonly ChangeField[]>> = {
  'user-leaves-position': ['userId', 'positionId'],
  'user-joins-position': ['userId', 'positionId'],
  'position-deleted': ['positionId'],
  'group-deleted': ['groupId'],
  'group-moved': ['groupId', 'parentGroupIds'],
  'manager-changed': ['userId', 'managerId'],
  'user-deactivated': ['userId'],
  'decision-limit-changed': ['decisionId', 'authorityTypeId', 'value'],
};

/** A change as sent (after the DTO checked each field's own shape). */
export type ChangeInput = { type: WhatIfChangeType } & { [F in ChangeField]?: F extends 'parentGroupIds' ? string[] : F extends 'managerId' ? string | null : string };

/**
 * What is wrong with the changes' fields, each named `changes.<index>.<field>`: a field its type
 * needs and lacks, a field its type does not take, a person made their own manager, a group made
 * its own parent.
 */
export function changeFieldProblems(changes: readonly ChangeInput[]): FieldError[] {
  const out: FieldError[] = [];
  changes.forEach((c, i) => {
    const at = (field: string, message: string) => out.push({ field: `changes.${i}.${field}`, message });
    const takes = FIELDS_OF[c.type];
    for (const field of CHANGE_FIELDS) {
      const sent = c[field] !== undefined;
      if (takes.includes(field) && !sent) at(field, `is required for ${c.type}${field === 'managerId' ? ' (null: no manager)' : ''}`);
      if (!takes.includes(field) && sent) at(field, `is not taken by ${c.type} (it takes ${takes.join(', ')})`);
    }
    if (c.type === 'manager-changed' && c.userId && c.managerId && same(c.userId, c.managerId)) at('managerId', 'a person cannot be their own manager');
    if (c.type === 'group-moved' && c.groupId) {
      const own = (c.parentGroupIds ?? []).findIndex((p) => same(p, c.groupId!));
      if (own >= 0) at(`parentGroupIds.${own}`, 'a group cannot be its own parent');
    }
  });
  return out;
}

/**
 * What the changes name that is not the tenant's, given `known`, the tenant's live records among
 * them as KNOWN_RECORDS_SQL answers them (`user <id>`, `position <id>`, `group <id>`, `decision <id>`,
 * `authorityType <id>`, and `authority <decisionId> <authorityTypeId>` for a type a decision holds;
 * ids in lower case): `missing`,
 * each field naming no live record of the tenant (unknown, deleted, or another tenant's: a 404), and
 * `notHeld`, a limit change naming a decision and an authority type both the tenant's but the
 * decision holding no authority of that type (a 400: the records exist, the change makes no sense).
 */
export function unknownRecords(changes: readonly ChangeInput[], known: ReadonlySet<string>): { missing: FieldError[]; notHeld: FieldError[] } {
  const missing: FieldError[] = [];
  const notHeld: FieldError[] = [];
  changes.forEach((c, i) => {
    const check = (field: string, kind: string, id: string | null | undefined, what: string) => {
      if (id && !known.has(`${kind} ${id}`)) missing.push({ field: `changes.${i}.${field}`, message: `${what} ${id} not found (not a live record of the tenant)` });
    };
    check('userId', 'user', c.userId, 'User');
    check('managerId', 'user', c.managerId, 'User');
    check('positionId', 'position', c.positionId, 'Position');
    check('groupId', 'group', c.groupId, 'Group');
    (c.parentGroupIds ?? []).forEach((p, j) => check(`parentGroupIds.${j}`, 'group', p, 'Group'));
    check('decisionId', 'decision', c.decisionId, 'Decision');
    check('authorityTypeId', 'authorityType', c.authorityTypeId, 'Authority type');
    if (c.decisionId && c.authorityTypeId && known.has(`decision ${c.decisionId}`) && known.has(`authorityType ${c.authorityTypeId}`) && !known.has(`authority ${c.decisionId} ${c.authorityTypeId}`)) {
      notHeld.push({ field: `changes.${i}.authorityTypeId`, message: `decision ${c.decisionId} has no authority of type ${c.authorityTypeId}` });
    }
  });
  return { missing, notHeld };
}

/** A delegation whose invalid fields a check changed (as the invalidation code answers it). */
export interface ValidityStep {
  id: string;
  before: readonly string[];
  after: readonly string[];
}

/**
 * The delegations the changes, one after another, would leave invalid for other fields than they
 * are now (what the invalidation code records as `invalidated` and announces): the fields each had
 * before its first step and has after its last, when those differ and some remain. A delegation
 * invalidated by one change and mended by a later one is not among them.
 */
export function invalidatedBy(steps: readonly ValidityStep[]): { id: string; invalidFields: string[] }[] {
  const first = new Map<string, readonly string[]>();
  const last = new Map<string, readonly string[]>();
  for (const s of steps) {
    if (!first.has(s.id)) first.set(s.id, s.before);
    last.set(s.id, s.after);
  }
  return [...last].filter(([id, after]) => after.length > 0 && after.join() !== first.get(id)!.join()).map(([id, after]) => ({ id, invalidFields: [...after] }));
}

/** One holder as the authority engine lists them (GET holders): a person or a position, through one delegation, with its limits. */
export interface HolderItem {
  holderType: 'USER' | 'POSITION';
  userId: string | null;
  delegationId: string;
  limits: readonly { authorityTypeId: string }[];
}

/** A person holding a decision's authority of one type. */
export interface Holding {
  userId: string;
  decisionId: string;
  authorityTypeId: string;
}

/** The people holding the decision's authority, per type, from its holders: a position's holding counts for each person the engine lists in it. */
export function holdingsOf(decisionId: string, holders: readonly HolderItem[]): Holding[] {
  const out = new Map<string, Holding>();
  for (const h of holders) {
    if (h.holderType !== 'USER' || h.userId === null) continue;
    for (const l of h.limits) {
      const holding = { userId: h.userId.toLowerCase(), decisionId: decisionId.toLowerCase(), authorityTypeId: l.authorityTypeId.toLowerCase() };
      out.set(keyOf(holding), holding);
    }
  }
  return [...out.values()];
}

/** Who would lose and who would gain, each ordered by decision (`decisionOrder`: its display id), person, authority type. */
export function diffHoldings(before: readonly Holding[], after: readonly Holding[], decisionOrder: ReadonlyMap<string, number>): { lost: Holding[]; gained: Holding[] } {
  const had = new Set(before.map(keyOf));
  const has = new Set(after.map(keyOf));
  const order = (a: Holding, b: Holding) =>
    (decisionOrder.get(a.decisionId) ?? Infinity) - (decisionOrder.get(b.decisionId) ?? Infinity) ||
    compare(a.decisionId, b.decisionId) ||
    compare(a.userId, b.userId) ||
    compare(a.authorityTypeId, b.authorityTypeId);
  return { lost: before.filter((h) => !has.has(keyOf(h))).sort(order), gained: after.filter((h) => !had.has(keyOf(h))).sort(order) };
}

/** Whether a group lies within a scope of groups (one of them or below one, by the hierarchy as it stands then): the delegation rules' withinGroups. */
export type Within = (groupId: string, scope: readonly string[]) => boolean;

/**
 * The scopes of a decision that would lose their last holder: each of the decision's groups (its
 * whole scope, null, when it has none) and each group a holder's delegation is scoped to now,
 * that a person holds now and no person would. A scope is held by a person whose delegation has no
 * groups (the decision's whole scope), or, for a group, one whose delegation names a group it lies
 * within. `before`/`after`: the groups of each person's delegation in force then; `withinBefore`/
 * `withinAfter`: the hierarchy then. Whole scope first, then by group id.
 */
export function scopesWithoutHolder(
  decisionGroups: readonly string[],
  before: readonly (readonly string[])[],
  after: readonly (readonly string[])[],
  withinBefore: Within,
  withinAfter: Within,
): (string | null)[] {
  const scopes = new Set<string | null>(decisionGroups.length ? decisionGroups.map(lower) : [null]);
  for (const groups of before) for (const g of groups) scopes.add(lower(g));
  const held = (scope: string | null, holders: readonly (readonly string[])[], within: Within) =>
    holders.some((groups) => groups.length === 0 || (scope !== null && within(scope, groups)));
  return [...scopes]
    .filter((s) => held(s, before, withinBefore) && !held(s, after, withinAfter))
    .sort((a, b) => (a === null ? -1 : b === null ? 1 : compare(a, b)));
}

const lower = (id: string) => id.toLowerCase();
const same = (a: string, b: string) => lower(a) === lower(b);
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const keyOf = (h: Holding) => `${h.userId} ${h.decisionId} ${h.authorityTypeId}`;
