/** Pure rules of matrices: statuses, count ranges, `select`, limits as the grid shows them. No I/O. */

/** The statuses of a matrix, with fixed ids (GET /matrix/v1/matrix/statuses; create and PUT take `matrixStatusId`). */
export const MATRIX_STATUSES = [
  { id: '0199a000-0000-7000-8000-000000000001', statusName: 'Active', isActive: true },
  { id: '0199a000-0000-7000-8000-000000000002', statusName: 'Draft', isActive: true },
  { id: '0199a000-0000-7000-8000-000000000003', statusName: 'Archived', isActive: true },
] as const;
export type MatrixStatusName = (typeof MATRIX_STATUSES)[number]['statusName'];
export const MATRIX_STATUS_NAMES = MATRIX_STATUSES.map((s) => s.statusName) as MatrixStatusName[];

export function statusById(id: string | undefined): (typeof MATRIX_STATUSES)[number] | undefined {
  if (id === undefined) return MATRIX_STATUSES[0];
  return MATRIX_STATUSES.find((s) => s.id === id.toLowerCase());
}

export function statusByName(name: string): (typeof MATRIX_STATUSES)[number] {
  return MATRIX_STATUSES.find((s) => s.statusName === name) ?? MATRIX_STATUSES[0];
}

/** A count range of the search: minValue and maxValue as numbers (null = no bound; "Unlimited" as maxValue = no upper bound). */
export interface CountRange {
  min: number | null;
  max: number | null;
}

/** The bounds of `{ minValue, maxValue }` compared as numbers; null when the range is empty or absent. */
export function countRange(range: { minValue?: string; maxValue?: string } | undefined): CountRange | null {
  if (!range) return null;
  const min = range.minValue === undefined || range.minValue === '' ? null : Number(range.minValue);
  const max = range.maxValue === undefined || range.maxValue === '' || /^unlimited$/i.test(range.maxValue) ? null : Number(range.maxValue);
  if (min === null && max === null) return null;
  return { min, max };
}

/** The fields of a search item `select` may name. */
export const MATRIX_ITEM_FIELDS = [
  'id', 'matrixId', 'matrixName', 'matrixDescription', 'link', 'roleMatrix', 'authorityMatrix', 'tenantId', 'ownerId', 'decisionCount',
  'delegationCount', 'suspendedDelegationsCount', 'pendingDelegationsCount', 'copiedFromMatrix', 'createdOn', 'updatedOn', 'currentTab',
  'isFavorite', 'isUserSavedPersonalView', 'permissions', 'matrixSections', 'matrixCategories', 'ownerDetails', 'matrixStatus', 'matrixSharing',
  'matrixAuthorityRoles', 'matrixGroups', 'matrixPositions', 'matrixUsers', 'matrixDecisions', 'matrixDelegation', 'matrixAuthorityFormatting',
  'matrixExternalSharing',
] as const;

/** The names of `select` (comma-separated) that are not fields of an item. */
export function unknownSelectFields(select: string): string[] {
  const known = new Set<string>(MATRIX_ITEM_FIELDS);
  return selectFields(select).filter((f) => !known.has(f));
}

export function selectFields(select: string | undefined): string[] {
  return (select ?? '').split(',').map((f) => f.trim()).filter((f) => f !== '');
}

/** Only the named fields of an item; none named = the whole item. */
export function pick<T extends object>(item: T, fields: readonly string[]): Partial<T> {
  if (!fields.length) return item;
  return Object.fromEntries(fields.map((f) => [f, (item as Record<string, unknown>)[f]])) as Partial<T>;
}

/** How a matrix shows limits (matrixAuthorityFormatting); unknown values read as the defaults. */
export interface LimitFormatting {
  /** "Abbreviated" (500000 -> 500K) or anything else (in full, with thousands separators). */
  valueAbbrevations?: string | null;
  /** Decimals shown: "0".."4" (default: as many as the value has, at most 2). */
  valueRounding?: string | null;
  /** "Yes" shows the currency code after a currency amount. */
  displayCurrencyCode?: string | null;
  /** The unit a Time limit is shown in (Days, Weeks, Months, Years): the limit's own unit when absent. */
  timeUnit?: string | null;
}

export interface LimitValue {
  valueType: string;
  operator: string | null;
  value: string | null;
  unit: string | null;
}

const ABBREVIATIONS: [number, string][] = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
];

const DAYS_PER: Record<string, number> = { days: 1, weeks: 7, months: 30, years: 365 };

/** One formatter per rounding, made once: building an Intl formatter per limit costs a grid page of thousands of limits most of its time. */
const FORMATTERS = new Map<string, Intl.NumberFormat>();

function rounded(n: number, decimals: number | null): string {
  const d = decimals ?? (Number.isInteger(n) ? 0 : 2);
  const key = `${decimals ?? 0}:${d}`;
  let f = FORMATTERS.get(key);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals ?? 0, maximumFractionDigits: d });
    FORMATTERS.set(key, f);
  }
  return f.format(Number(n.toFixed(d)));
}

/** A limit as the grid shows it ("< 500K USD", "<= 30 Days", "Authorized", "Unlimited"). */
export function formatLimit(limit: LimitValue, f: LimitFormatting = {}): string {
  if (limit.valueType === 'Authorized' || limit.value === null) return 'Authorized';
  const op = limit.operator ? `${limit.operator} ` : '';
  if (/^unlimited$/i.test(limit.value)) return `${op}Unlimited`.trim();
  let n = Number(limit.value);
  if (!Number.isFinite(n)) return `${op}${limit.value}`;
  const decimals = f.valueRounding !== undefined && f.valueRounding !== null && /^[0-4]$/.test(f.valueRounding) ? Number(f.valueRounding) : null;
  let unit = limit.unit;
  if (limit.valueType === 'Time' && f.timeUnit && limit.unit) {
    const from = DAYS_PER[limit.unit.toLowerCase()];
    const to = DAYS_PER[f.timeUnit.toLowerCase()];
    if (from && to) {
      n = (n * from) / to;
      unit = f.timeUnit;
    }
  }
  let text: string;
  const abbreviation = f.valueAbbrevations && /^abbreviated$/i.test(f.valueAbbrevations) ? ABBREVIATIONS.find(([size]) => Math.abs(n) >= size) : undefined;
  if (abbreviation && limit.valueType !== 'Percentage' && limit.valueType !== 'Time') text = `${rounded(n / abbreviation[0], decimals)}${abbreviation[1]}`;
  else text = rounded(n, decimals);
  if (limit.valueType === 'Percentage') return `${op}${text}%`;
  if (limit.valueType === 'Currency') return f.displayCurrencyCode && /^yes$/i.test(f.displayCurrencyCode) && unit ? `${op}${text} ${unit}` : `${op}${text}`;
  return unit ? `${op}${text} ${unit}` : `${op}${text}`;
}

/** A download name for an export: the matrix name in safe characters, the date when `at` is given. */
export function exportFileName(matrixName: string, format: 'csv' | 'xlsx', at?: string): string {
  const base = matrixName.replace(/[^A-Za-z0-9 _-]+/g, '').trim().replace(/\s+/g, '-').slice(0, 80) || 'matrix';
  return `${base}${at ? `-as-of-${at.slice(0, 10)}` : ''}.${format}`;
}

/** One CSV field (RFC 4180), with formula-leading characters neutralised so a spreadsheet never runs a cell. */
export function csvField(value: unknown): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Whether an external link may be used now: enabled, and not past its expiry when expiry is on. */
export function externalLinkOpen(link: { enabled: boolean; expirationEnabled: boolean; expirationDate: string | null }, now: Date): boolean {
  if (!link.enabled) return false;
  if (link.expirationEnabled && link.expirationDate && Date.parse(link.expirationDate) <= now.getTime()) return false;
  return true;
}

/** Wrong passwords allowed per link per window before a 429. */
export const SHARE_PASSWORD_TRIES = 10;
export const SHARE_PASSWORD_WINDOW_SECONDS = 15 * 60;
