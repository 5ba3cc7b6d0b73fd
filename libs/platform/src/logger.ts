import { LoggerService } from '@nestjs/common';
import type { FastifyBaseLogger } from 'fastify';
import pino, { Bindings, ChildLoggerOptions, Level, Logger } from 'pino';

/** Names of secrets: never written, at whatever depth pino's paths reach (top level, one and two levels down, any array item). */
const SECRET_KEYS = ['password', 'newPassword', 'currentPassword', 'oldPassword', 'sharePassword', 'token', 'accessToken', 'refreshToken', 'idToken', 'secret', 'clientSecret', 'apiKey', 'ticket'];
const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-share-password', 'proxy-authorization', 'x-api-key'];

/**
 * pino `redact` paths: the secrets above and the secret headers of a request or response object
 * (`req.headers`, `headers`, `request.headers`), replaced by "[redacted]". pino paths cannot say
 * "any depth"; three levels and array items cover what the services log (objects with a body,
 * a body's items, an error's details).
 */
export const REDACT_PATHS: string[] = [
  ...SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `*[*].${k}`, `*.*[*].${k}`]),
  ...SECRET_HEADERS.flatMap((h) => ['headers', 'req.headers', 'request.headers', 'res.headers', 'reply.headers'].map((p) => `${p}["${h}"]`)),
];

const SECRET_QUERY = /([?&](?:token|access_token|accessToken|refresh_token|refreshToken|password|secret|code|ticket)=)[^&#]*/gi;

/**
 * A request URL fit for the logs: the share-link token of the external matrix link
 * (`/v1/shared/<token>`, a credential in the path) and secret query parameters (the notifications
 * stream's one-time `ticket` among them) are replaced.
 */
export function redactUrl(url: string): string {
  return url.replace(/(\/v1\/shared\/)[^/?#]+/, '$1[redacted]').replace(SECRET_QUERY, '$1[redacted]');
}

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
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    pino.destination(process.env.LOG_STREAM === 'stderr' ? 2 : 1),
  );
}

const LEVELS: readonly Level[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

/**
 * A request's logger (fastify's `childLoggerFactory`) whose pino child, with the request id, is
 * made on the first line the request logs at an enabled level, not for every request: pino
 * serializes and redacts each child's bindings when it is made, about 3 % of a small read's CPU,
 * while most requests log nothing. With a level of its own (a route's `logLevel`) it is made at once.
 */
export function requestLogger(base: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  // The services' fastify logger is the process's pino logger (createLogger).
  const parent = base as Logger;
  // A route without a level of its own comes with `level: ''` (fastify's default route log level).
  if (options.level && options.level !== parent.level) return parent.child(bindings, options);
  let child: Logger | undefined;
  const materialized = () => (child ??= parent.child(bindings, options));
  const logger: Record<string, unknown> = {
    child: (more: Bindings, moreOptions?: ChildLoggerOptions) => materialized().child(more, moreOptions),
    isLevelEnabled: (level: string) => (child ?? parent).isLevelEnabled(level),
    bindings: () => materialized().bindings(),
    flush: (cb?: (err?: Error) => void) => parent.flush(cb),
    silent: () => undefined,
  };
  for (const level of LEVELS) {
    logger[level] = (...args: unknown[]) => {
      if (!(child ?? parent).isLevelEnabled(level)) return;
      (materialized()[level] as (...a: unknown[]) => void)(...args);
    };
  }
  Object.defineProperty(logger, 'level', {
    get: () => (child ?? parent).level,
    set: (level: string) => void (materialized().level = level),
    enumerable: true,
  });
  return logger as unknown as FastifyBaseLogger;
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
