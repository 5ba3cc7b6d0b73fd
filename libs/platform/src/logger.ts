import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';

/**
 * JSON logs (pino), one logger per process, carrying the service name. Services log to stdout;
 * command-line tools whose stdout is their answer (seed) set LOG_STREAM=stderr.
 */
export function createLogger(service: string, level: string): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: pino.stdSerializers.err },
    },
    pino.destination(process.env.LOG_STREAM === 'stderr' ? 2 : 1),
  );
}

/** Nest's own messages through the same pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, message instanceof Error ? message.message : String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
