import { ConfigError, createLogger, exitGracefullyOnSignals } from '@ddm/platform';
import { loadGatewayConfig } from './config';
import { buildGateway } from './gateway';

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
  const logger = createLogger('gateway', config.logLevel);
  const app = buildGateway({ config, logger });
  await app.listen({ port: config.port, host: config.host });
  logger.info({ port: config.port, upstreams: config.upstreams, docs: '/docs' }, 'gateway listening');

  exitGracefullyOnSignals(() => app.close(), logger, config.shutdownTimeoutMs);
}

main().catch((err) => {
  process.stderr.write(`gateway: failed to start: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
