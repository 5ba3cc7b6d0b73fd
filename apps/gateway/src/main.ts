import { ConfigError, loadGatewayConfig } from './config';
import { buildGateway, createGatewayLogger } from './gateway';

/**
 * Runs the gateway: listens on PORT (8080), and on SIGTERM/SIGINT stops taking requests, lets
 * the in-flight ones finish and exits 0 (1 past SHUTDOWN_TIMEOUT_MS).
 */
async function main() {
  let config;
  try {
    config = loadGatewayConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`gateway: configuration error: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createGatewayLogger(config.logLevel);
  const app = buildGateway({ config, logger });
  await app.listen({ port: config.port, host: config.host });
  logger.info({ port: config.port, upstreams: config.upstreams, docs: '/docs' }, 'gateway listening');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: draining in-flight requests');
    setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    try {
      await app.close();
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

main().catch((err) => {
  process.stderr.write(`gateway: failed to start: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
