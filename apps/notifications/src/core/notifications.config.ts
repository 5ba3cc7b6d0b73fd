import { Env, envInt } from '@ddm/platform';

/** The notifications area's own settings (environment, checked at start-up). */
export interface NotificationsOptions {
  /** A comment line on every open stream this often, so proxies keep it (NOTIFICATIONS_SSE_HEARTBEAT_MS, default 25 s). */
  heartbeatMs: number;
  /** Open streams per person on a replica; the oldest is closed when one more opens (NOTIFICATIONS_SSE_MAX_STREAMS, default 5). */
  maxStreamsPerUser: number;
  /** Read notifications older than this many days are deleted (NOTIFICATIONS_RETENTION_DAYS, default 180). */
  retentionDays: number;
  /** How often each sweep runs: retention, expiring delegations, digest (NOTIFICATIONS_SWEEP_INTERVAL_MS, default 1 hour; 0 = never, e.g. in tests that run them by hand). */
  sweepIntervalMs: number;
  /** How long a stream ticket may wait to be used (NOTIFICATIONS_STREAM_TICKET_TTL_SECONDS, 1..60, default 30). */
  streamTicketTtlSeconds: number;
}

export const NOTIFICATIONS_OPTIONS = Symbol('NOTIFICATIONS_OPTIONS');

export function loadNotificationsOptions(env: Env): NotificationsOptions {
  return {
    heartbeatMs: envInt(env, 'NOTIFICATIONS_SSE_HEARTBEAT_MS', 25_000, 100, 600_000),
    maxStreamsPerUser: envInt(env, 'NOTIFICATIONS_SSE_MAX_STREAMS', 5, 1, 100),
    retentionDays: envInt(env, 'NOTIFICATIONS_RETENTION_DAYS', 180, 1, 36_500),
    sweepIntervalMs: envInt(env, 'NOTIFICATIONS_SWEEP_INTERVAL_MS', 3_600_000, 0, 7 * 24 * 3_600_000),
    streamTicketTtlSeconds: envInt(env, 'NOTIFICATIONS_STREAM_TICKET_TTL_SECONDS', 30, 1, 60),
  };
}
