import { Logger } from 'pino';

/**
 * On SIGTERM/SIGINT: run `close` (stop taking requests, let in-flight ones finish, release
 * connections), then exit 0; exit 1 if it fails or takes longer than `timeoutMs`.
 */
export function exitGracefullyOnSignals(close: () => Promise<unknown>, logger: Logger, timeoutMs: number, onSignal?: () => void): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    onSignal?.();
    logger.info({ signal }, 'shutting down: draining in-flight requests');
    setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, timeoutMs).unref();
    try {
      await close();
      logger.info('shutdown complete');
      logger.flush?.();
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}
