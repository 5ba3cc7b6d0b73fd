import { ConfigError, createLogger, exitGracefullyOnSignals, startTracing } from '@ddm/platform';
import { loadGatewayConfig } from './config';
import { buildGateway } from './gateway';

/**
 * Runs the gateway: tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set, then listens on PORT (8080),
 * and on SIGTERM/SIGINT stops taking requests, lets the in-flight ones finish, sends the last
 * spans and exits 0 (1 past SHUTDOWN_TIMEOUT_MS).
 */
async function main() {
  // First: the HTTP server must be created with the instrumentations in place.
  const tracing = startTracing('gateway');
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

  const close = async () => {
    await app.close();
    await tracing?.shutdown();
  };
  exitGracefullyOnSignals(close, logger, config.shutdownTimeoutMs);
}

main().catch((err) => {
  process.stderr.write(`gateway: failed to start: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
