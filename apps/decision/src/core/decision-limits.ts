/**
 * What a decision's limits and scope are, as far as its delegations need it (no I/O): the
 * pathways, the bounds of its lists, and the rules of an authority limit (value, operator and unit
 * per value type), which a decision's authorities and a delegation's both follow. Unit-tested in
 * decision-limits.spec.ts.
 */
import { AUTHORITY_LIMIT_VALUE_TYPES, AuthorityLimitValueType, FieldError } from '@ddm/contracts';

export const DECISION_PATHWAYS = ['Matrix', 'Direct Line', 'Functional', 'Down-Line'] as const;
export const MAX_DECISION_GROUPS = 100;
export const MAX_DECISION_AUTHORITIES = 20;
export const MAX_DECISION_DOCUMENTS = 100;
/** The one kind of limit in use (spec §2.9: "limit kind Primary"). */
export const AUTHORITY_LIMITS = ['Primary'] as const;
export const TIME_UNITS = ['Days', 'Months', 'Years'] as const;
export const UNLIMITED = 'Unlimited';

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

/** Left out, null or an empty string. */
function isEmpty(v: string | null | undefined): boolean {
  return v === undefined || v === null || v === '';
}

/** A limit value is a non-negative decimal (at most 15 digits before the point, 6 after) or Unlimited. */
export function isLimitValue(v: string): boolean {
  return v === UNLIMITED || DECIMAL.test(v);
}

/**
 * The problems of a decision's authorities, each naming its field (`decisionAuthorities.2.authorityLimitValueUnit`):
 * a value and an operator for every value type but Authorized (which takes no value or unit, and
 * whose operator is ignored: clients send one on every row), an ISO 4217
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
      // Clients send the operator on every row (and empty strings for what does not apply): ignored, stored as absent.
      if (!isEmpty(value)) at('authorityLimitValue', 'must be empty for Authorized');
      if (!isEmpty(unit)) at('authorityLimitValueUnit', 'must be empty for Authorized');
      return;
    }
    if (isEmpty(a.authorityLimitOperator)) at('authorityLimitOperator', `is required for ${type}`);
    if (value === null) at('authorityLimitValue', `is required for ${type}`);
    else if (!isLimitValue(value)) at('authorityLimitValue', 'must be a non-negative decimal (e.g. "500000" or "12.5") or "Unlimited"');
    else if (type === 'Percentage' && value !== UNLIMITED && Number(value) > 100) at('authorityLimitValue', 'must be at most 100 for Percentage');
    if (type === 'Currency') {
      if (unit === null) at('authorityLimitValueUnit', 'is required for Currency (an ISO 4217 code such as USD)');
      else if (!CURRENCIES.has(unit)) at('authorityLimitValueUnit', 'must be an ISO 4217 currency code (e.g. USD, EUR)');
    } else if (type === 'Time') {
      if (unit === null || !(TIME_UNITS as readonly string[]).includes(unit)) at('authorityLimitValueUnit', `must be one of ${TIME_UNITS.join(', ')} for Time`);
    } else if (!isEmpty(unit)) {
      at('authorityLimitValueUnit', `must be empty for ${type}`);
    }
  });
  return out;
}

/** The authorities as stored (after `authorityProblems` found none); the order defaults to their place. */
export function authorityRows(items: readonly AuthorityInput[]): AuthorityRow[] {
  return items.map((a, i) => {
    const authorized = a.authorityLimitValueType === 'Authorized';
    const value = authorized ? null : (a.authorityLimitValue ?? null);
    return {
      authorityTypeId: a.authorityTypeId.toLowerCase(),
      authorityTypeOrder: a.authorityTypeOrder ?? i + 1,
      authorityLimit: a.authorityLimit,
      valueType: a.authorityLimitValueType as AuthorityLimitValueType,
      operator: authorized || isEmpty(a.authorityLimitOperator) ? null : a.authorityLimitOperator!,
      valueText: value,
      valueNumber: value === null || value === UNLIMITED ? null : value,
      unit: authorized || isEmpty(a.authorityLimitValueUnit) ? null : a.authorityLimitValueUnit!,
    };
  });
}
