/** Pure rules of notifications: periods, links, payload size, placeholders. */

export const TIME_PERIODS = ['1m', '3m', '6m', 'all'] as const;
export type TimePeriod = (typeof TIME_PERIODS)[number];

/** Months a period reaches back (null: all time). */
const PERIOD_MONTHS: Record<TimePeriod, number | null> = { '1m': 1, '3m': 3, '6m': 6, all: null };

/**
 * The earliest creation time a period counts: `now` less its months, by the calendar (a
 * notification 31 days old is outside 1m and inside 3m); null for `all`.
 */
export function periodStart(period: TimePeriod, now: Date): Date | null {
  const months = PERIOD_MONTHS[period];
  if (months === null) return null;
  const start = new Date(now.getTime());
  const day = start.getUTCDate();
  start.setUTCDate(1);
  start.setUTCMonth(start.getUTCMonth() - months);
  // The same day of that month, or its last day (31 March less one month is 28/29 February).
  const last = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0)).getUTCDate();
  start.setUTCDate(Math.min(day, last));
  return start;
}

/** A link a notification may carry: a path of the app ("/delegations/..."), or an http/https URL. Never javascript:, data:, or a protocol-relative "//host". */
export function isAllowedActionUrl(url: string): boolean {
  if (url.startsWith('/')) return !url.startsWith('//') && !url.startsWith('/\\');
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Largest `payload` a notification takes, as JSON text (UTF-8 bytes). */
export const MAX_PAYLOAD_BYTES = 16 * 1024;

export function payloadBytes(payload: unknown): number {
  return Buffer.byteLength(JSON.stringify(payload ?? null), 'utf8');
}

export const MAX_PLACEHOLDERS = 50;
export const MAX_PLACEHOLDER_LENGTH = 1000;

/**
 * The problems of `placeholders` (an object of string -> string, at most 50 keys, values at
 * most 1000 characters), each with the field it names; [] when fine.
 */
export function placeholderProblems(placeholders: unknown): { field: string; message: string }[] {
  if (typeof placeholders !== 'object' || placeholders === null || Array.isArray(placeholders)) return [{ field: 'placeholders', message: 'placeholders must be an object of strings' }];
  const entries = Object.entries(placeholders);
  const out: { field: string; message: string }[] = [];
  if (entries.length > MAX_PLACEHOLDERS) out.push({ field: 'placeholders', message: `placeholders must have at most ${MAX_PLACEHOLDERS} keys` });
  for (const [k, v] of entries) {
    if (typeof v !== 'string') out.push({ field: `placeholders.${k}`, message: `placeholders.${k} must be a string` });
    else if (v.length > MAX_PLACEHOLDER_LENGTH) out.push({ field: `placeholders.${k}`, message: `placeholders.${k} must be at most ${MAX_PLACEHOLDER_LENGTH} characters` });
  }
  return out.slice(0, 50);
}
