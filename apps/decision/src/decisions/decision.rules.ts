/** The rules of decisions that need no database; unit-tested in decisions.spec.ts. */
import { AUTHORITY_LIMIT_VALUE_TYPES, AuthorityLimitValueType, DecisionStatus, FieldError, PermissionRule } from '@ddm/contracts';

export const DECISION_PATHWAYS = ['Matrix', 'Direct Line', 'Functional', 'Down-Line'] as const;
export const NAME_MAX = 150;
export const DESCRIPTION_MAX = 250;
export const GUIDANCE_MAX = 5000;
export const MAX_DECISION_GROUPS = 100;
export const MAX_DECISION_AUTHORITIES = 20;
export const MAX_DECISION_DOCUMENTS = 100;
/** Most ids a bulk request takes. */
export const MAX_BULK_IDS = 1000;
/** The one kind of limit in use (spec §2.9: "limit kind Primary"). */
export const AUTHORITY_LIMITS = ['Primary'] as const;
export const TIME_UNITS = ['Days', 'Months', 'Years'] as const;
export const UNLIMITED = 'Unlimited';

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

export interface AuthorityInput {
  authorityTypeId: string;
  authorityTypeOrder?: number;
  authorityLimit: string;
  authorityLimitValueType: string;
  authorityLimitOperator?: string | null;
  authorityLimitValue?: string | null;
  authorityLimitValueUnit?: string | null;
}

/** An authority as stored: the value as sent, and the number it means (null for Unlimited and Authorized). */
export interface AuthorityRow {
  authorityTypeId: string;
  authorityTypeOrder: number;
  authorityLimit: string;
  valueType: AuthorityLimitValueType;
  operator: string | null;
  valueText: string | null;
  valueNumber: string | null;
  unit: string | null;
}

const DECIMAL = /^(0|[1-9]\d{0,14})(\.\d{1,6})?$/;
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** A limit value is a non-negative decimal (at most 15 digits before the point, 6 after) or Unlimited. */
export function isLimitValue(v: string): boolean {
  return v === UNLIMITED || DECIMAL.test(v);
}

/**
 * The problems of a decision's authorities, each naming its field (`decisionAuthorities.2.authorityLimitValueUnit`):
 * a value and an operator for every value type but Authorized (which takes neither), an ISO 4217
 * unit for Currency, Days/Months/Years for Time, no unit otherwise, a percentage up to 100.
 */
export function authorityProblems(items: readonly AuthorityInput[]): FieldError[] {
  const out: FieldError[] = [];
  items.forEach((a, i) => {
    const at = (field: string, message: string) => out.push({ field: `decisionAuthorities.${i}.${field}`, message });
    const type = a.authorityLimitValueType as AuthorityLimitValueType;
    if (!(AUTHORITY_LIMIT_VALUE_TYPES as readonly string[]).includes(type)) return; // the DTO names it
    const value = a.authorityLimitValue ?? null;
    const unit = a.authorityLimitValueUnit ?? null;
    if (type === 'Authorized') {
      if (value !== null) at('authorityLimitValue', 'must be empty for Authorized');
      if (unit !== null) at('authorityLimitValueUnit', 'must be empty for Authorized');
      if ((a.authorityLimitOperator ?? null) !== null) at('authorityLimitOperator', 'must be empty for Authorized');
      return;
    }
    if (value === null) at('authorityLimitValue', `is required for ${type}`);
    else if (!isLimitValue(value)) at('authorityLimitValue', 'must be a non-negative decimal (e.g. "500000" or "12.5") or "Unlimited"');
    else if (type === 'Percentage' && value !== UNLIMITED && Number(value) > 100) at('authorityLimitValue', 'must be at most 100 for Percentage');
    if ((a.authorityLimitOperator ?? null) === null) at('authorityLimitOperator', `is required for ${type}`);
    if (type === 'Currency') {
      if (unit === null) at('authorityLimitValueUnit', 'is required for Currency (an ISO 4217 code such as USD)');
      else if (!CURRENCIES.has(unit)) at('authorityLimitValueUnit', 'must be an ISO 4217 currency code (e.g. USD, EUR)');
    } else if (type === 'Time') {
      if (unit === null || !(TIME_UNITS as readonly string[]).includes(unit)) at('authorityLimitValueUnit', `must be one of ${TIME_UNITS.join(', ')} for Time`);
    } else if (unit !== null) {
      at('authorityLimitValueUnit', `must be empty for ${type}`);
    }
  });
  return out;
}

/** The authorities as stored (after `authorityProblems` found none); the order defaults to their place. */
export function authorityRows(items: readonly AuthorityInput[]): AuthorityRow[] {
  return items.map((a, i) => {
    const value = a.authorityLimitValueType === 'Authorized' ? null : (a.authorityLimitValue ?? null);
    return {
      authorityTypeId: a.authorityTypeId.toLowerCase(),
      authorityTypeOrder: a.authorityTypeOrder ?? i + 1,
      authorityLimit: a.authorityLimit,
      valueType: a.authorityLimitValueType as AuthorityLimitValueType,
      operator: a.authorityLimitOperator ?? null,
      valueText: value,
      valueNumber: value === null || value === UNLIMITED ? null : value,
      unit: a.authorityLimitValueUnit ?? null,
    };
  });
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
