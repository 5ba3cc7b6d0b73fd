/** Pure rules of the grid: which delegations a matrix shows, in which column, and as what; its export; its external link. No I/O. */

export type ColumnKind = 'user' | 'position' | 'group';

export interface GridColumn {
  id: string;
  kind: ColumnKind;
  name: string;
}

/** One limit as the events carry it (decision and delegation authorities). */
export interface AuthorityRow {
  authorityTypeId: string;
  authorityTypeOrder?: number;
  authorityLimit: string;
  authorityLimitValueType: string;
  authorityLimitOperator: string | null;
  authorityLimitValue: string | null;
  authorityLimitValueUnit: string | null;
}

/** A delegation as the projection (or its history) holds it. */
export interface DelegationState {
  delegation_id: string;
  decision_id: string;
  delegation_display_id: string | null;
  status: string | null;
  recipient_user_id: string | null;
  recipient_position_id: string | null;
  group_ids: string[];
  pathways: string[];
  authorities: AuthorityRow[];
  is_invalid: boolean;
  /** The decision roles the delegation holds with an ACTIVE role status (as of the grid's instant). */
  role_ids: string[];
}

/**
 * The matrix's delegation filters (matrixDelegation) the grid applies, all of them: statuses,
 * authority types, limit ranges, and the role matrix's roles. A matrix is a role matrix when it says
 * so (`roleMatrix`, or matrixDelegation's `delegationRole`); its roles are matrixDelegation's
 * `roleIds` and the enabled matrixAuthorityRoles (see gridFilter). A role matrix with roles chosen
 * shows only the delegations holding at least one of them with an ACTIVE role status; one with
 * none chosen, and any other matrix, does not filter by role. A delegation's roles are those the
 * decision area's delegation events carry (set while drafting too) and its role-assigned events
 * change (delegation.projection.ts), so the grid as of a date filters by the roles held then.
 */
export interface DelegationFilter {
  authorityTypeIds?: string[];
  issuanceStatusNames?: string[];
  primaryLimitTypes?: Record<string, { min?: number | null; max?: number | null } | boolean>;
  /** A role matrix: only delegations holding one of `roleIds` appear (none named: no role filter). */
  delegationRole?: boolean;
  roleIds?: string[];
}

/** What gridFilter reads of a matrix beside its matrixDelegation. */
export interface RoleMatrixFields {
  role_matrix?: boolean | null;
  authority_roles?: readonly { authorityRoleId: string; isEnabled?: boolean | null }[] | null;
}

/**
 * The filter a matrix's grid applies: its matrixDelegation, with the role matrix made whole (the
 * matrix's `roleMatrix` flag as `delegationRole`, its enabled matrixAuthorityRoles added to
 * `roleIds`, ids lower case, once each).
 */
export function gridFilter(stored: DelegationFilter | null | undefined, m: RoleMatrixFields): DelegationFilter {
  const f: DelegationFilter = { ...(stored ?? {}) };
  const delegationRole = !!(f.delegationRole || m.role_matrix);
  const roles = [...(f.roleIds ?? []), ...(m.authority_roles ?? []).filter((a) => a.isEnabled !== false).map((a) => a.authorityRoleId)];
  return { ...f, delegationRole, roleIds: [...new Set(roles.filter((r) => typeof r === 'string').map((r) => r.toLowerCase()))] };
}

/** The roles a delegation must hold one of to appear, or null when the matrix does not filter by role. */
export function chosenRoles(filter: DelegationFilter): string[] | null {
  return filter.delegationRole && filter.roleIds?.length ? filter.roleIds : null;
}

/** Whether a delegation holds (ACTIVE) one of the role matrix's roles; true when the matrix does not filter by role. */
export function holdsChosenRole(d: Pick<DelegationState, 'role_ids'>, filter: DelegationFilter): boolean {
  const roles = chosenRoles(filter);
  if (!roles) return true;
  const held = new Set((d.role_ids ?? []).map((r) => r.toLowerCase()));
  return roles.some((r) => held.has(r.toLowerCase()));
}

export interface CellDelegation {
  delegationId: string;
  delegationDisplayId: string | null;
  authorityTypeId: string | null;
  authorityType: string | null;
  value: string | null;
  unit: string | null;
  operator: string | null;
  formattedLimit: string;
  pathway: string;
  status: string | null;
  isInvalid: boolean;
}

export interface GridCell {
  columnId: string;
  delegations: CellDelegation[];
}

export interface RowAuthority {
  authorityTypeId: string;
  authorityType: string | null;
  authorityLimit: string;
  value: string | null;
  unit: string | null;
  operator: string | null;
  formattedLimit: string;
}

export interface GridRow {
  decisionId: string;
  decisionDisplayId: string;
  name: string;
  sectionName: string | null;
  categoryName: string | null;
  authorities: RowAuthority[];
  cells: GridCell[];
}

/** Whether a delegation passes the matrix's limit ranges: for each limit type named, its limit of that type (if any) lies in the range. */
export function withinLimitRanges(d: Pick<DelegationState, 'authorities'>, ranges: DelegationFilter['primaryLimitTypes']): boolean {
  if (!ranges) return true;
  for (const [limitType, range] of Object.entries(ranges)) {
    if (typeof range === 'boolean' || !range) continue;
    for (const a of d.authorities) {
      if (a.authorityLimit !== limitType) continue;
      if (a.authorityLimitValue === null || /^unlimited$/i.test(a.authorityLimitValue)) {
        if (range.max !== undefined && range.max !== null) return false;
        continue;
      }
      const n = Number(a.authorityLimitValue);
      if (range.min !== undefined && range.min !== null && n < range.min) return false;
      if (range.max !== undefined && range.max !== null && n > range.max) return false;
    }
  }
  return true;
}

/** The authorities of a delegation the matrix shows (those of its authority types, when it names any). */
export function shownAuthorities(d: Pick<DelegationState, 'authorities'>, filter: DelegationFilter): AuthorityRow[] {
  const types = filter.authorityTypeIds?.length ? new Set(filter.authorityTypeIds.map((t) => t.toLowerCase())) : null;
  return types ? d.authorities.filter((a) => types.has(a.authorityTypeId.toLowerCase())) : d.authorities;
}

/** Whether the matrix shows a delegation at all (its status, roles, authority types and limit ranges). */
export function shows(d: DelegationState, filter: DelegationFilter): boolean {
  if (filter.issuanceStatusNames?.length && !filter.issuanceStatusNames.includes(d.status ?? '')) return false;
  if (!holdsChosenRole(d, filter)) return false;
  if (filter.authorityTypeIds?.length && !shownAuthorities(d, filter).length) return false;
  return withinLimitRanges(d, filter.primaryLimitTypes);
}

/** Whether a delegation is held in a column: its recipient user or position, or one of its groups. */
export function heldIn(d: Pick<DelegationState, 'recipient_user_id' | 'recipient_position_id' | 'group_ids'>, c: Pick<GridColumn, 'id' | 'kind'>): boolean {
  if (c.kind === 'user') return d.recipient_user_id === c.id;
  if (c.kind === 'position') return d.recipient_position_id === c.id;
  return d.group_ids.includes(c.id);
}

/**
 * Formatted limits, one cache per formatting object (a page builds one): a page of 10,000 entries
 * holds a few hundred distinct limits, and formatting each entry again was a tenth of its time.
 */
const FORMATTED = new WeakMap<LimitFormatting, Map<string, string>>();

/** A limit of the events as the matrix shows it (formatLimit, cached per formatting object). */
export function formattedLimit(a: AuthorityRow, formatting: LimitFormatting): string {
  let cache = FORMATTED.get(formatting);
  if (!cache) FORMATTED.set(formatting, (cache = new Map()));
  const key = `${a.authorityLimitValueType}\u0000${a.authorityLimitOperator ?? '\u0001'}\u0000${a.authorityLimitValue ?? '\u0001'}\u0000${a.authorityLimitValueUnit ?? '\u0001'}`;
  let text = cache.get(key);
  if (text === undefined) {
    text = formatLimit({ valueType: a.authorityLimitValueType, operator: a.authorityLimitOperator, value: a.authorityLimitValue, unit: a.authorityLimitValueUnit }, formatting);
    cache.set(key, text);
  }
  return text;
}

/** A delegation's entries in a cell: one per authority shown (one without a limit when it holds none). */
export function cellEntries(d: DelegationState, filter: DelegationFilter, formatting: LimitFormatting, typeNames: ReadonlyMap<string, string>): CellDelegation[] {
  // Object literals with every key in one order (no spread): one hidden class for the thousands of entries of a page.
  const pathway = d.pathways.join(', ');
  const authorities = shownAuthorities(d, filter);
  if (!authorities.length) {
    return [
      {
        delegationId: d.delegation_id,
        delegationDisplayId: d.delegation_display_id,
        pathway,
        status: d.status,
        isInvalid: d.is_invalid,
        authorityTypeId: null,
        authorityType: null,
        value: null,
        unit: null,
        operator: null,
        formattedLimit: '',
      },
    ];
  }
  return authorities.map((a) => ({
    delegationId: d.delegation_id,
    delegationDisplayId: d.delegation_display_id,
    pathway,
    status: d.status,
    isInvalid: d.is_invalid,
    authorityTypeId: a.authorityTypeId,
    authorityType: typeNames.get(a.authorityTypeId) ?? null,
    value: a.authorityLimitValue,
    unit: a.authorityLimitValueUnit,
    operator: a.authorityLimitOperator,
    formattedLimit: formattedLimit(a, formatting),
  }));
}

/**
 * The order of a cell's entries: by display id, numeric ids by their value (shorter first), then by
 * delegation id; a delegation's own entries (one per authority) stay together in their order.
 */
export function byDisplayId(a: CellDelegation, b: CellDelegation): number {
  const x = a.delegationDisplayId;
  const y = b.delegationDisplayId;
  if (x !== y) {
    if (x === null) return 1;
    if (y === null) return -1;
    if (x.length !== y.length) return x.length - y.length;
    return x < y ? -1 : 1;
  }
  return a.delegationId === b.delegationId ? 0 : a.delegationId < b.delegationId ? -1 : 1;
}

/**
 * The cells of one row: for each column, the entries of the delegations of the row's decision held
 * there, in display id order (byDisplayId: the delegations come in any order, sorting each cell's
 * few entries is cheaper than sorting a page's 10,000 rows in the database).
 */
export function rowCells(
  columns: readonly GridColumn[],
  delegations: readonly DelegationState[],
  filter: DelegationFilter,
  formatting: LimitFormatting,
  typeNames: ReadonlyMap<string, string>,
): GridCell[] {
  // Each delegation is placed once under every column key it is held in (user, position, groups), so a
  // row costs its delegations plus its columns, not their product (200 columns × 200 delegations).
  const byColumn = new Map<string, CellDelegation[]>();
  const place = (key: string, entries: CellDelegation[]) => {
    const list = byColumn.get(key);
    if (!list) byColumn.set(key, entries.slice());
    else for (const e of entries) list.push(e);
  };
  for (const d of delegations) {
    if (!shows(d, filter)) continue;
    const entries = cellEntries(d, filter, formatting, typeNames);
    if (d.recipient_user_id) place(`user:${d.recipient_user_id}`, entries);
    if (d.recipient_position_id) place(`position:${d.recipient_position_id}`, entries);
    for (const g of d.group_ids.length > 1 ? new Set(d.group_ids) : d.group_ids) place(`group:${g}`, entries);
  }
  for (const list of byColumn.values()) if (list.length > 1) list.sort(byDisplayId);
  return columns.map((c) => ({ columnId: c.id, delegations: byColumn.get(`${c.kind}:${c.id}`) ?? [] }));
}

/** A cell as the exports write it: one line per entry ("< 500K Approval (Direct Line, ISSUED) #10001"). */
export function cellText(cell: GridCell): string {
  return cell.delegations
    .map((e) => {
      const limit = [e.formattedLimit, e.authorityType].filter((x) => x).join(' ');
      const details = [e.pathway, e.status, e.isInvalid ? 'invalid' : null].filter((x) => x).join(', ');
      return `${limit}${limit ? ' ' : ''}(${details})${e.delegationDisplayId ? ` #${e.delegationDisplayId}` : ''}`;
    })
    .join('\n');
}

/** The export's header and a row's fields (the same for CSV and XLSX). */
export function exportHeader(columns: readonly GridColumn[]): string[] {
  return ['Section', 'Category', 'Decision ID', 'Decision', ...columns.map((c) => c.name)];
}

export function exportFields(row: GridRow): string[] {
  return [row.sectionName ?? '', row.categoryName ?? '', row.decisionDisplayId, row.name, ...row.cells.map(cellText)];
}

export function csvLine(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
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
