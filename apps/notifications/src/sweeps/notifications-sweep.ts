import { ScheduledSweep } from '@ddm/platform';
import { Logger } from 'pino';

/**
 * A sweep of this area: a ScheduledSweep every NOTIFICATIONS_SWEEP_INTERVAL_MS on every replica,
 * or never when that is 0 (tests run the sweeps by hand; ScheduledSweep itself always starts its timer).
 */
export abstract class NotificationsSweep extends ScheduledSweep {
  protected constructor(
    log: Logger,
    private readonly intervalMs: number,
    what: string,
  ) {
    super(log, intervalMs, what);
  }

  override onApplicationBootstrap(): void {
    if (this.intervalMs) super.onApplicationBootstrap();
  }
}
