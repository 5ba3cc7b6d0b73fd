/**
 * Segregation of duties, pure (no I/O): a rule says that whoever holds its left side (a decision's
 * authority type) must not also hold its right side. Who holds what is the authority engine's answer
 * (holdingsByDelegation: a person or a position through a delegation in force whose whole chain is in force);
 * these rules pair the holdings of both sides into conflicts, decide whether two delegations' groups
 * overlap, and say a conflict in words.
 */
import { FieldError } from '@ddm/contracts';

export const SOD_RULE_NAME_MAX = 200;
/** A tenant's live rules at most: listing the conflicts reads the holders of every rule's sides. */
export const MAX_SOD_RULES = 500;
/** At most this many conflicts are named in a 409's errors. */
export const MAX_NAMED_CONFLICTS = 50;

export const SOD_RULE_SORTS = ['name', 'createdAt', 'updatedAt'] as const;
export type SodRuleSort = (typeof SOD_RULE_SORTS)[number];

export type HolderType = 'USER' | 'POSITION';

/** One side of a rule: an authority type of a decision. The labels only serve the messages. */
export interface SodSide {
  decisionId: string;
  authorityTypeId: string;
  decisionDisplayId?: string | null;
  decisionName?: string | null;
  authorityTypeName?: string | null;
}

export interface SodRuleSpec {
  id: string;
  name: string;
  left: SodSide;
  right: SodSide;
  sameGroupOnly: boolean;
}

/**
 * One way a holder holds a decision's authority now: a person or a position, through one delegation
 * in force whose whole chain is in force (an item of the engine's holders).
 */
export interface Holding {
  holderType: HolderType;
  userId: string | null;
  userName: string | null;
  /** The position it is held through: the holder itself (POSITION), or the position of a person's delegation. */
  positionId: string | null;
  delegationId: string;
  delegationDisplayId: string;
  /** The authority types the holder's delegation holds. */
  authorityTypeIds: readonly string[];
}

/** A holder who holds both sides of a rule, by one delegation (chain) each. */
export interface SodConflict {
  rule: SodRuleSpec;
  holderType: HolderType;
  userId: string | null;
  userName: string | null;
  /** The position holding both sides (POSITION holders; null for a person). */
  positionId: string | null;
  left: Holding;
  right: Holding;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Who holds: the person, or the position (a person holding through a position is still that person). */
export function holderKey(h: Pick<Holding, 'holderType' | 'userId' | 'positionId'>): string {
  return h.holderType === 'USER' ? `USER:${h.userId}` : `POSITION:${h.positionId}`;
}

/** Why a rule's sides cannot stand together (the same authority on both sides), or null. */
export function sidesProblem(left: SodSide, right: SodSide): FieldError | null {
  if (same(left.decisionId, right.decisionId) && same(left.authorityTypeId, right.authorityTypeId)) {
    return { field: 'right', message: 'must name another decision or authority type than left' };
  }
  return null;
}

/** The holdings of `side`: those of its decision whose delegation holds its authority type. */
export function holdingsOfSide(side: SodSide, holdingsByDecision: ReadonlyMap<string, readonly Holding[]>): Holding[] {
  return (holdingsByDecision.get(side.decisionId.toLowerCase()) ?? []).filter((h) => h.authorityTypeIds.some((t) => same(t, side.authorityTypeId)));
}

/**
 * Every conflict: for each rule, each holder holding its left side by one delegation and its right
 * side by one delegation (the same delegation when it holds both types), one conflict per pair. With
 * `involving`, only the pairs through one of those delegations (what an issue changes). In a stable
 * order: by rule name, holder, then the delegations' display ids. sameGroupOnly is applied after
 * (keepOverlapping), once the pairs' groups are known.
 */
export function findConflicts(rules: readonly SodRuleSpec[], holdingsByDecision: ReadonlyMap<string, readonly Holding[]>, involving?: ReadonlySet<string>): SodConflict[] {
  const out: SodConflict[] = [];
  for (const rule of rules) {
    const rights = new Map<string, Holding[]>();
    for (const r of holdingsOfSide(rule.right, holdingsByDecision)) rights.set(holderKey(r), [...(rights.get(holderKey(r)) ?? []), r]);
    for (const left of holdingsOfSide(rule.left, holdingsByDecision)) {
      for (const right of rights.get(holderKey(left)) ?? []) {
        if (involving && !involving.has(left.delegationId) && !involving.has(right.delegationId)) continue;
        out.push({
          rule,
          holderType: left.holderType,
          userId: left.holderType === 'USER' ? left.userId : null,
          userName: left.holderType === 'USER' ? (left.userName ?? right.userName) : null,
          positionId: left.holderType === 'POSITION' ? left.positionId : null,
          left,
          right,
        });
      }
    }
  }
  return out.sort(compareConflicts);
}

/** The conflicts that stand: all of a rule without sameGroupOnly; of one with it, those whose two delegations' groups overlap. */
export function keepOverlapping(conflicts: readonly SodConflict[], overlap: (leftDelegationId: string, rightDelegationId: string) => boolean): SodConflict[] {
  return conflicts.filter((c) => !c.rule.sameGroupOnly || overlap(c.left.delegationId, c.right.delegationId));
}

const byNumber = (a: string, b: string) => Number(a) - Number(b) || a.localeCompare(b);

function compareConflicts(a: SodConflict, b: SodConflict): number {
  return (
    a.rule.name.toLowerCase().localeCompare(b.rule.name.toLowerCase()) ||
    a.rule.id.localeCompare(b.rule.id) ||
    a.holderType.localeCompare(b.holderType) ||
    holderKey(a).localeCompare(holderKey(b)) ||
    byNumber(a.left.delegationDisplayId, b.left.delegationDisplayId) ||
    byNumber(a.right.delegationDisplayId, b.right.delegationDisplayId)
  );
}

/**
 * Whether two delegations' groups overlap: a delegation without groups covers the decision's whole
 * scope and overlaps every other; otherwise a group covers itself and every group below it in the
 * hierarchy (`childrenOf`; a group may have several parents), and the two overlap when what they
 * cover meets.
 */
export function groupsOverlap(a: readonly string[], b: readonly string[], childrenOf: (groupId: string) => readonly string[]): boolean {
  if (!a.length || !b.length) return true;
  const covered = new Set<string>();
  for (const todo = a.map((g) => g.toLowerCase()); todo.length; ) {
    const g = todo.pop()!;
    if (covered.has(g)) continue;
    covered.add(g);
    todo.push(...childrenOf(g).map((c) => c.toLowerCase()));
  }
  const seen = new Set<string>();
  for (const todo = b.map((g) => g.toLowerCase()); todo.length; ) {
    const g = todo.pop()!;
    if (covered.has(g)) return true;
    if (seen.has(g)) continue;
    seen.add(g);
    todo.push(...childrenOf(g).map((c) => c.toLowerCase()));
  }
  return false;
}

/**
 * What an acknowledgement records: for each delegation issued (or resumed), the rules of the
 * conflicts held through it or below it. `issuedOf` maps each delegation of their subtrees to the
 * issued one it is (or descends from). Each rule once per delegation, in the conflicts' order.
 */
export function acknowledgements(conflicts: readonly SodConflict[], issuedOf: ReadonlyMap<string, string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const c of conflicts) {
    for (const held of [c.left.delegationId, c.right.delegationId]) {
      const issued = issuedOf.get(held);
      if (issued === undefined) continue;
      const rules = out.get(issued) ?? [];
      if (!rules.includes(c.rule.id)) rules.push(c.rule.id);
      out.set(issued, rules);
    }
  }
  return out;
}

function sideText(side: SodSide): string {
  const decision = side.decisionName ? `"${side.decisionName}"` : `decision ${side.decisionId}`;
  return `${decision} (${side.authorityTypeName ?? `authority type ${side.authorityTypeId}`})`;
}

function holderText(c: Pick<SodConflict, 'holderType' | 'userId' | 'userName' | 'positionId'>): string {
  return c.holderType === 'USER' ? `user ${c.userName ? `${c.userName} (${c.userId})` : c.userId}` : `position ${c.positionId}`;
}

/** A conflict in words: who would hold which side through which delegation. */
export function conflictText(c: SodConflict): string {
  return `${holderText(c)} would hold ${sideText(c.rule.left)} through delegation ${c.left.delegationDisplayId} and ${sideText(c.rule.right)} through delegation ${c.right.delegationDisplayId}`;
}

/**
 * The 409 of an issue that would create conflicts: the message names the first rule (name and id)
 * and how to go on; the errors name every rule broken (`sodRules.<ruleId>`, its name and the
 * conflict in words), one entry per conflict, the first MAX_NAMED_CONFLICTS.
 */
export function conflictRefusal(conflicts: readonly SodConflict[]): { message: string; errors: FieldError[] } {
  if (!conflicts.length) throw new Error('a refusal needs a conflict');
  const rules = [...new Map(conflicts.map((c) => [c.rule.id, c.rule])).values()];
  const first = conflicts[0];
  const more = rules.length > 1 ? ` (and ${rules.length - 1} more rule${rules.length === 2 ? '' : 's'})` : '';
  return {
    message:
      `Segregation of duties: issuing would break rule "${first.rule.name}" (${first.rule.id})${more}: ${conflictText(first)}. ` +
      'A holder of "approve:delegations" may issue it anyway with acknowledgeSodConflict: true',
    errors: conflicts.slice(0, MAX_NAMED_CONFLICTS).map((c) => ({ field: `sodRules.${c.rule.id}`, message: `rule "${c.rule.name}": ${conflictText(c)}` })),
  };
}
