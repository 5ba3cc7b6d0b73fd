import { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Logger } from 'pino';

/**
 * A scheduled sweep, the one way every service runs one (expiring delegations, moving actions to
 * Overdue, ...): every `everyMs` each replica runs `sweep()` unless its previous run is still
 * going; a failure is logged and the next run retries; shutdown waits for the run in flight. The
 * sweep itself must be safe with many replicas (take its rows with FOR UPDATE SKIP LOCKED) and
 * bounded (a batch per run). `sweep()` stays public so specs run one at a time.
 */
export abstract class ScheduledSweep implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  /**
   * @param everyMs how often it runs; 0: never on its own (a deployment that turns it off, or specs
   *   that run `sweep()` by hand)
   * @param what what a run's count counts, for the log line ("delegations expired")
   */
  protected constructor(
    protected readonly log: Logger,
    private readonly everyMs: number,
    private readonly what: string,
  ) {}

  /** One run: answers how many records it changed. */
  abstract sweep(): Promise<number>;

  onApplicationBootstrap(): void {
    if (this.everyMs <= 0) return;
    this.timer = setInterval(() => void this.tick(), this.everyMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    try {
      const n = await (this.running = this.sweep());
      if (n) this.log.info({ count: n }, this.what);
    } catch (err) {
      this.log.error({ err }, `sweep failed (${this.what}; the next run retries)`);
    } finally {
      this.running = undefined;
    }
  }
}

/**
 * Something written to a long-lived response every `everyMs` (an SSE comment line, so proxies keep
 * the connection and the client knows it is alive), for as long as the connection is open: the
 * timer stops by itself when the socket closes, and never keeps the process up. Answers a stop
 * for closing it earlier.
 */
export function heartbeat(socket: { on(event: 'close', listener: () => void): unknown }, everyMs: number, beat: () => void): () => void {
  const timer = setInterval(beat, everyMs);
  timer.unref();
  const stop = () => clearInterval(timer);
  socket.on('close', stop);
  return stop;
}
