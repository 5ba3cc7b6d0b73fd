/** The rules of decisions that need no database; unit-tested in decisions.spec.ts. */
import { DecisionStatus, PermissionRule } from '@ddm/contracts';

export const NAME_MAX = 150;
export const DESCRIPTION_MAX = 250;
export const GUIDANCE_MAX = 5000;
/** Most ids a bulk request takes. */
export const MAX_BULK_IDS = 1000;

/** What a decision's `permissions` list, and who holds each key beyond its role keys. */
export const DECISION_PERMISSIONS: readonly PermissionRule[] = [
  { key: 'view:decisions', grantedTo: ['owner'] },
  { key: 'edit:decisions', grantedTo: ['owner'] },
  { key: 'delete:decisions' },
  { key: 'create:root_delegations' },
  { key: 'create:delegations' },
];
export const EDIT_DECISION = DECISION_PERMISSIONS[1];

/** The moves of a decision's status; staying is always allowed. */
const MOVES: Readonly<Record<DecisionStatus, readonly DecisionStatus[]>> = {
  DRAFT: ['PUBLISHED'],
  PUBLISHED: ['ARCHIVED'],
  ARCHIVED: ['PUBLISHED'],
};

/** Why `from` cannot become `to` (a 409), or null when it can. */
export function statusMoveProblem(from: DecisionStatus, to: DecisionStatus): string | null {
  if (from === to || MOVES[from].includes(to)) return null;
  return `A decision cannot move from ${from} to ${to} (allowed: DRAFT to PUBLISHED, PUBLISHED to ARCHIVED, ARCHIVED to PUBLISHED)`;
}

/**
 * The n-th name a copy may take: "Copy of <name>" (n = 1), then "Copy of <name> (2)", ... each cut
 * to the name's maximum so the whole fits. A copy takes the first one no live decision of the
 * tenant (nor an earlier copy of its batch) holds.
 */
export function copyNameCandidate(name: string, n: number): string {
  const suffix = n === 1 ? '' : ` (${n})`;
  return `Copy of ${name}`.slice(0, NAME_MAX - suffix.length).trimEnd() + suffix;
}

/** A value as a revision compares it: list items without their own row ids (a replaced list gets new ones). */
function comparable(value: unknown): string {
  if (!Array.isArray(value)) return JSON.stringify(value);
  return JSON.stringify(value.map((item) => (item && typeof item === 'object' ? { ...(item as Record<string, unknown>), id: undefined } : item)));
}

/** The top-level fields whose values differ between two states of a decision (what a revision names). */
export function changedFields(before: Record<string, unknown> | null, after: Record<string, unknown>, ignore: readonly string[] = []): string[] {
  if (!before) return [];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => !ignore.includes(k) && comparable(before[k]) !== comparable(after[k])).sort();
}

/** Unique ids, lower case, in the order given. */
export function uniqueIds(ids: readonly string[]): string[] {
  return [...new Set(ids.map((x) => x.toLowerCase()))];
}
