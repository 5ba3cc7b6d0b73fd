/** Pure rules of a notification as every resource shows it: its statuses and its relative time. */

export const STATUSES = ['UNREAD', 'READ'] as const;
export type NotificationStatus = (typeof STATUSES)[number];

const UNITS: [number, string][] = [
  [365 * 24 * 3600, 'year'],
  [30 * 24 * 3600, 'month'],
  [7 * 24 * 3600, 'week'],
  [24 * 3600, 'day'],
  [3600, 'hour'],
  [60, 'minute'],
];

/** "just now" (under a minute), "1 minute ago", "5 minutes ago", "2 days ago", ... computed when answered. */
export function relativeTime(createdAt: Date, now: Date): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - createdAt.getTime()) / 1000));
  for (const [size, unit] of UNITS) {
    if (seconds >= size) {
      const n = Math.floor(seconds / size);
      return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
    }
  }
  return 'just now';
}
