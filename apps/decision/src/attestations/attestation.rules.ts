/**
 * The rules of attestation campaigns, with no I/O: what a scope may name, when an answer is taken,
 * what a campaign counts, and how the report's CSV is written. Unit-tested in attestations.spec.ts.
 *
 * A campaign covers every delegation held when it opens (ISSUED or ACCEPTED, in force, not invalid)
 * that its scope names: the decisions named, the groups named (a delegation covering one of them
 * or a group below one, or of a decision in one of them or below), or all; several criteria add up
 * (a delegation matching any of them is in). A scope holding nothing is refused (400): a campaign
 * without items would close at once and tell nobody anything.
 */
import { ATTESTATION_OUTCOMES, AttestationOutcome, FieldError } from '@ddm/contracts';
import { DelegationStatus, HOLDING_STATUSES } from '../core/delegation.types';

export const CAMPAIGN_NAME_MAX = 200;
/** Most ids each list of a scope names. */
export const MAX_SCOPE_IDS = 500;
/**
 * Most delegations one campaign covers: every one is an item, an event and an action in the same
 * transaction. A larger scope is refused (400); split it into several campaigns.
 */
export const MAX_CAMPAIGN_ITEMS = 10_000;

export const CAMPAIGN_STATUSES = ['OPEN', 'CLOSED'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const ITEM_STATUSES = ['PENDING', 'CONFIRMED', 'DISPUTED', 'OVERDUE'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];
export { ATTESTATION_OUTCOMES };
export type { AttestationOutcome };

/** Where an answer came from: the decision area's endpoint, or the actions area's Attestation action. */
export type ResponseChannel = 'API' | 'ACTION';

export interface CampaignScope {
  decisionIds: string[];
  groupIds: string[];
  all: boolean;
}

/**
 * A scope as a campaign stores it (ids lower case, each once), or the problems of the one sent:
 * it must name something (all, or at least one id), and `all` excludes naming ids.
 */
export function normalizeScope(scope: { decisionIds?: readonly string[] | null; groupIds?: readonly string[] | null; all?: boolean | null }): CampaignScope | FieldError[] {
  const unique = (ids?: readonly string[] | null) => [...new Set((ids ?? []).map((id) => id.toLowerCase()))];
  const decisionIds = unique(scope.decisionIds);
  const groupIds = unique(scope.groupIds);
  const all = scope.all === true;
  if (all && (decisionIds.length || groupIds.length)) {
    return [{ field: 'scope.all', message: 'all covers every delegation: send it without decisionIds and groupIds' }];
  }
  if (!all && !decisionIds.length && !groupIds.length) {
    return [{ field: 'scope', message: 'must name decisionIds, groupIds, or all: true' }];
  }
  return { decisionIds, groupIds, all };
}

/** The problem of a due date (it must lie ahead), or null. */
export function dueDateProblem(dueDate: Date, now: Date): string | null {
  return dueDate.getTime() > now.getTime() ? null : `must be in the future (it is ${dueDate.toISOString()}, now is ${now.toISOString()})`;
}

/** What an answer meets: the item's status, the campaign's due date, and the delegation's status now. */
export interface AnswerContext {
  itemStatus: ItemStatus;
  dueDate: Date;
  delegationStatus: DelegationStatus;
  delegationDisplayId: string;
}

/**
 * Why an answer is not taken (a 409), or null: an item is answered once; past the due date it is
 * overdue, answered or not by the sweep yet; a delegation no longer held (suspended, revoked,
 * expired, ...) has nothing left to attest.
 */
export function answerProblem(c: AnswerContext, now: Date): string | null {
  const d = c.delegationDisplayId;
  if (c.itemStatus === 'CONFIRMED' || c.itemStatus === 'DISPUTED') return `Delegation ${d} was already answered in this campaign (${c.itemStatus}); an answer cannot be changed`;
  if (c.itemStatus === 'OVERDUE' || c.dueDate.getTime() <= now.getTime()) return `The campaign was due at ${c.dueDate.toISOString()}: delegation ${d} can no longer be answered`;
  if (!HOLDING_STATUSES.includes(c.delegationStatus)) return `Delegation ${d} is ${c.delegationStatus}: only an ISSUED or ACCEPTED delegation can be attested`;
  return null;
}

/** What an answer does to the delegation's dispute flag: set it (disputed), clear an earlier one (confirmed), or nothing. */
export function flagChange(outcome: AttestationOutcome, flaggedBy: string | null): 'flag' | 'clear' | null {
  if (outcome === 'DISPUTED') return 'flag';
  return flaggedBy !== null ? 'clear' : null;
}

export interface CampaignCounts {
  total: number;
  confirmed: number;
  disputed: number;
  pending: number;
  overdue: number;
}

/** A campaign is open while an item waits for an answer. */
export function campaignStatusOf(counts: Pick<CampaignCounts, 'pending'>): CampaignStatus {
  return counts.pending > 0 ? 'OPEN' : 'CLOSED';
}

// ---------------------------------------------------------------------------------------------
// The report (CSV)

/** The report's columns, in order: the header line and each item's line. */
export const REPORT_COLUMNS = [
  ['delegationDisplayId', 'Delegation ID'],
  ['decisionDisplayId', 'Decision ID'],
  ['decisionName', 'Decision'],
  ['recipientType', 'Recipient type'],
  ['holderName', 'Holder'],
  ['holderEmail', 'Holder email'],
  ['holderPositionName', 'Holder position'],
  ['status', 'Status'],
  ['respondedByName', 'Responded by'],
  ['respondedByEmail', 'Responded by email'],
  ['respondedAt', 'Responded at'],
  ['comment', 'Comment'],
] as const;

export type ReportLine = Record<(typeof REPORT_COLUMNS)[number][0], string | null>;

/** Characters that make a spreadsheet read a cell as a formula (or, tab and carriage return, shift it into one). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): a cell a spreadsheet would read as a formula (=, +, -, @, tab, CR
 * first) is prefixed with a single quote, so it is shown as text; a cell holding a quote, comma,
 * CR or LF is quoted, its quotes doubled. null is an empty cell.
 */
export function csvCell(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line (CRLF-terminated, RFC 4180). */
export function csvLine(cells: readonly (string | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export const REPORT_HEADER = csvLine(REPORT_COLUMNS.map(([, title]) => title));

/** An item's line of the report. */
export function reportCsvLine(line: ReportLine): string {
  return csvLine(REPORT_COLUMNS.map(([key]) => line[key]));
}

/** The report's file name: the campaign's display id, nothing taken from its (free-text) name. */
export function reportFileName(campaignDisplayId: string): string {
  return `attestation-campaign-${campaignDisplayId.replace(/[^0-9A-Za-z-]/g, '')}.csv`;
}
