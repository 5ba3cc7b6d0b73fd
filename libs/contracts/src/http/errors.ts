import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';

/** One field's problem in a 400. `field` is the body field (dotted path) or query parameter. */
export interface FieldError {
  field: string;
  message: string;
  /** Every value the field accepts, when it takes one of a list (`select`, `sortBy`, a status): whole, however long the message. */
  allowed?: string[];
}

/** The one error body of every failure in every service (ARCHITECTURE §3). */
export interface ErrorBody {
  statusCode: number;
  timestamp: string;
  message: string;
  error: string;
  path: string;
  requestId: string;
  errors?: FieldError[];
}

/** Stable codes; each maps to one HTTP status in `STATUS_OF`. */
export enum ErrorCode {
  ValidationFailed = 'VALIDATION_FAILED',
  Unauthenticated = 'UNAUTHENTICATED',
  Forbidden = 'FORBIDDEN',
  NotFound = 'NOT_FOUND',
  Conflict = 'CONFLICT',
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  /** Well-formed but not acceptable as sent (an Idempotency-Key reused for another request). */
  Unprocessable = 'UNPROCESSABLE',
  UnsupportedMediaType = 'UNSUPPORTED_MEDIA_TYPE',
  RateLimited = 'RATE_LIMITED',
  DependencyDown = 'DEPENDENCY_DOWN',
}

const STATUS_OF: Record<ErrorCode, number> = {
  [ErrorCode.ValidationFailed]: 400,
  [ErrorCode.Unauthenticated]: 401,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.Conflict]: 409,
  [ErrorCode.PayloadTooLarge]: 413,
  [ErrorCode.UnsupportedMediaType]: 415,
  [ErrorCode.Unprocessable]: 422,
  [ErrorCode.RateLimited]: 429,
  [ErrorCode.DependencyDown]: 503,
};

/** The typed exception every service throws; the global filter renders it. */
export class AppError extends HttpException {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
    /** Seconds the client should wait before retrying (the Retry-After of a 503 or 429; RETRY_AFTER_SECONDS otherwise). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message, STATUS_OF[code]);
  }
}

export const badRequest = (message: string, errors?: FieldError[]) => new AppError(ErrorCode.ValidationFailed, message, errors);
export const unauthenticated = (message: string) => new AppError(ErrorCode.Unauthenticated, message);
export const forbidden = (message: string) => new AppError(ErrorCode.Forbidden, message);
export const notFound = (message: string, errors?: FieldError[]) => new AppError(ErrorCode.NotFound, message, errors);
export const conflict = (message: string, errors?: FieldError[]) => new AppError(ErrorCode.Conflict, message, errors);
/** A 503 that says when to retry: something the answer needs is not there yet (or not reachable). */
export const unavailable = (message: string, retryAfterSeconds: number) => new AppError(ErrorCode.DependencyDown, message, undefined, retryAfterSeconds);

const REASON: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function reasonPhrase(status: number): string {
  return REASON[status] ?? HttpStatus[status]?.replace(/_/g, ' ') ?? 'Error';
}

/** Builds the error body; also used by the gateway so every failure looks the same. */
export function errorBody(status: number, message: string, path: string, requestId: string, errors?: FieldError[]): ErrorBody {
  const body: ErrorBody = { statusCode: status, timestamp: new Date().toISOString(), message, error: reasonPhrase(status), path, requestId };
  if (errors?.length) body.errors = errors;
  return body;
}

/** Largest request body any service (and the gateway) accepts. */
export const BODY_LIMIT = 1024 * 1024;
export const BODY_TOO_LARGE_MESSAGE = 'Request body is larger than the 1 MiB limit';

/** The one route that takes more than BODY_LIMIT: a document's file upload (multipart, streamed), whose file may hold 25 MiB. */
export const UPLOAD_ROUTE = { method: 'POST', path: '/document/v1/files' } as const;
/** The upload route's body limit: a 25 MiB file and its multipart framing. */
export const UPLOAD_BODY_LIMIT = 25 * 1024 * 1024 + 64 * 1024;

/** The body limit of a request: UPLOAD_BODY_LIMIT on the upload route, `otherwise` everywhere else. */
export function bodyLimitOf(method: string, url: string, otherwise: number): number {
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).replace(/\/+$/, '');
  return method === UPLOAD_ROUTE.method && path === UPLOAD_ROUTE.path ? UPLOAD_BODY_LIMIT : otherwise;
}

/** Fastify's own errors (body parsing, limits) by code. */
const FASTIFY_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: BODY_TOO_LARGE_MESSAGE },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'Request body must be JSON (Content-Type: application/json)' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'Content-Length does not match the body' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'Body is empty but Content-Type is application/json' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'Body is not valid JSON' },
};

const CODE_OF_STATUS: Record<number, ErrorCode> = { 400: ErrorCode.ValidationFailed, 413: ErrorCode.PayloadTooLarge, 415: ErrorCode.UnsupportedMediaType };

/**
 * Fastify's own refusal of a request body (FASTIFY_ERRORS: empty or malformed JSON, a `__proto__`
 * key, a Content-Length the body does not match, too large, not JSON) as the AppError the filter
 * answers in the house wording; undefined for any other error. Nest would otherwise hand the filter
 * Fastify's message without its code.
 */
export function bodyErrorOf(err: unknown): AppError | undefined {
  const code = (err as { code?: unknown })?.code;
  const known = typeof code === 'string' ? FASTIFY_ERRORS[code] : undefined;
  return known && new AppError(CODE_OF_STATUS[known.status], known.message);
}

/**
 * The error body of a request the router refused before any handler, hook or filter ran (Fastify's
 * `frameworkErrors`): a path parameter over the length limit (414) or a malformed URL (400).
 * The path is cut short: it is the caller's own input, possibly very long.
 */
export function frameworkErrorBody(err: { code?: string; statusCode?: number }, url: string, requestId: string): ErrorBody {
  const path = (url.split('?')[0] ?? '').slice(0, 200);
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return errorBody(414, 'A path parameter is longer than 100 characters', path, requestId);
  if (err.code === 'FST_ERR_BAD_URL') return errorBody(400, 'The URL is not valid (a malformed percent-encoding)', path, requestId);
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  return errorBody(status, reasonPhrase(status), path, requestId);
}

const REQUEST_LINE = /^[A-Z]{3,10} (\/[^\s?]*)/;
const REQUEST_ID_HEADER = /\r\nx-request-id: *([A-Za-z0-9._:-]{1,128}) *\r\n/i;

/**
 * The raw HTTP answer to a request that Node's HTTP parser refused before any framework saw it
 * (`clientError`): a Content-Length that is not a number, given twice or beside Transfer-Encoding,
 * a malformed header, headers over the size limit (431), a request too slow to arrive (408). The
 * house error body, with the path and the caller's x-request-id read from the bytes received when
 * they are there (`newId()` otherwise), and Connection: close (the connection cannot be read on).
 */
export function clientErrorAnswer(err: { code?: string; rawPacket?: unknown }, newId: () => string): string {
  const received = Buffer.isBuffer(err.rawPacket) ? err.rawPacket.subarray(0, 16 * 1024).toString('latin1') : '';
  const path = (REQUEST_LINE.exec(received)?.[1] ?? '/').slice(0, 200);
  const requestId = REQUEST_ID_HEADER.exec(received)?.[1] ?? newId();
  const [status, message] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'The request did not arrive in time']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'The request headers are larger than the limit']
        : err.code === 'HPE_INVALID_CONTENT_LENGTH' || err.code === 'HPE_UNEXPECTED_CONTENT_LENGTH'
          ? [400, 'Content-Length is not valid (not a number, given twice, or beside Transfer-Encoding)']
          : err.code === 'HPE_INVALID_EOF_STATE'
            ? [400, 'The request ended before the length it declared']
            : [400, 'The request is not valid HTTP'];
  const body = JSON.stringify(errorBody(status, message, path, requestId));
  return (
    `HTTP/1.1 ${status} ${reasonPhrase(status)}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `x-request-id: ${requestId}\r\nConnection: close\r\n\r\n${body}`
  );
}

/**
 * Fastify's `clientErrorHandler` of every service and of the gateway: answers clientErrorAnswer and
 * closes the connection (nothing to answer on a connection the client reset).
 */
export function answerClientError(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) socket.write(clientErrorAnswer(err, randomUUID));
  socket.destroy(err);
}

interface RequestLike {
  url: string;
  id?: string;
  log?: { error: (obj: unknown, msg?: string) => void; warn?: (obj: unknown, msg?: string) => void };
}

/** Seconds a client should wait after a 503 or 429. */
export const RETRY_AFTER_SECONDS = '5';

function pgCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; driverError?: { code?: unknown } };
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Socket-level codes of a database (or other dependency) that cannot be reached. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * TypeORM's errors for a statement on a connection it has already given up: it releases a
 * transaction's connection when the server ends it, so the next statement or the COMMIT fails so.
 */
const RELEASED = new Set(['QueryRunnerAlreadyReleasedError', 'QueryRunnerProviderAlreadyReleasedError']);

/** What pg says when the server went away or cannot be reached in time (it gives these no code). */
const UNREACHABLE_MESSAGE =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed|the database system is (shutting down|starting up|in recovery mode)/i;

/**
 * Whether a failure means Postgres is unreachable or refusing work for now, not that the statement
 * is wrong: the connection was refused, reset or terminated, the pool timed out connecting, or the
 * server said so (class 08 connection exception, 57P01 admin shutdown, 57P02 crash shutdown, 57P03
 * cannot connect now, 53300 too many connections), or a transaction's connection was already given up
 * by TypeORM after the server ended it. Such a request is answered 503 with
 * Retry-After (the filter below), and a consumer waits for the database instead of spending a delivery.
 * Looks at the error itself, TypeORM's `driverError` and a `cause`.
 */
export function isDependencyDown(err: unknown): boolean {
  for (const e of [err, (err as { driverError?: unknown })?.driverError, (err as { cause?: unknown })?.cause]) {
    if (!e || typeof e !== 'object') continue;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (UNREACHABLE.has(code) || code.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(code))) return true;
    if (e instanceof Error && (RELEASED.has(e.name) || UNREACHABLE_MESSAGE.test(e.message))) return true;
  }
  return false;
}

/**
 * An answer settled before the handler runs, thrown by a step of the request so the handler does
 * not run (a retry of an idempotent request answered from its stored answer): the exception
 * filter sends it as it is, not as an error.
 */
export class SettledAnswer extends Error {
  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    readonly body: Buffer,
  ) {
    super('answered before the handler ran');
    this.name = 'SettledAnswer';
  }
}

/**
 * The global exception filter: every failure leaves as the one error body, with the request id.
 * A 500 shows no internals; it is logged with the request id. A SettledAnswer leaves as it is.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const request = ctx.getRequest<RequestLike>();
    const reply = ctx.getResponse<{ status(code: number): unknown; header(k: string, v: string): unknown; getHeader?(k: string): unknown; send(b: unknown): unknown }>();
    if (exception instanceof SettledAnswer) {
      reply.status(exception.status);
      for (const [name, value] of Object.entries(exception.headers)) reply.header(name, value);
      reply.send(exception.body);
      return;
    }
    const path = (request.url ?? '').split('?')[0];
    const requestId = request.id ?? '';
    let status = 500;
    let message = 'Internal server error';
    let errors: FieldError[] | undefined;

    const fastifyCode = (exception as { code?: unknown })?.code ?? (exception as { cause?: { code?: unknown } })?.cause?.code;
    if (typeof fastifyCode === 'string' && FASTIFY_ERRORS[fastifyCode]) {
      ({ status, message } = FASTIFY_ERRORS[fastifyCode]);
    } else if (exception instanceof AppError) {
      status = exception.getStatus();
      message = exception.message;
      errors = exception.errors;
    } else if (exception instanceof HttpException) {
      status = exception.getStatus();
      const res = exception.getResponse();
      const raw = typeof res === 'string' ? res : (res as { message?: unknown }).message;
      message = Array.isArray(raw) ? raw.join('; ') : typeof raw === 'string' ? raw : exception.message;
      // Nest turns fastify's body errors into plain HttpExceptions; give them our wording.
      if (status === 413) message = FASTIFY_ERRORS.FST_ERR_CTP_BODY_TOO_LARGE.message;
      if (status === 415) message = FASTIFY_ERRORS.FST_ERR_CTP_INVALID_MEDIA_TYPE.message;
      if (status >= 500) message = status === 500 ? 'Internal server error' : reasonPhrase(status);
      if (status === 404 && /^Cannot (GET|POST|PUT|PATCH|DELETE)/.test(message)) message = `No route for ${message.slice(7)}`;
    } else if (typeof (exception as { statusCode?: unknown })?.statusCode === 'number' && (exception as { statusCode: number }).statusCode < 500) {
      status = (exception as { statusCode: number }).statusCode;
      message = (exception as Error).message;
    } else if (isDependencyDown(exception)) {
      status = 503;
      message = 'A dependency is unavailable; retry shortly';
    } else if (pgCode(exception) === '23505') {
      // A unique constraint caught a race that the service's own check let through.
      status = 409;
      message = 'A record with the same unique value already exists';
    }
    // An error that knows when to retry says so; a rate limit that knows when its window ends has said so already (libs/platform hardening).
    const retryAfter = exception instanceof AppError ? exception.retryAfterSeconds : undefined;
    if (retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
    else if ((status === 503 || status === 429) && reply.getHeader?.('retry-after') === undefined) reply.header('Retry-After', RETRY_AFTER_SECONDS);

    if (status === 503) {
      // A dependency is down: expected while it lasts (hundreds a second under load), so one warning line each, without a stack.
      const reason = exception instanceof Error ? exception.message : String(exception);
      if (request.log?.warn) request.log.warn({ path, reason }, 'request refused: a dependency is unavailable');
      else this.logger.warn(`request refused: a dependency is unavailable (${path}: ${reason})`);
    } else if (status >= 500) {
      const log = request.log ?? { error: (o: unknown, m?: string) => this.logger.error(m, o) };
      log.error({ err: exception, path }, 'request failed');
    }
    reply.header('x-request-id', requestId);
    reply.status(status);
    reply.send(errorBody(status, message, path, requestId, errors));
  }
}
