import { Writable } from 'node:stream';
import pino, { Logger } from 'pino';
import { REDACT_PATHS, redactUrl, requestLogger } from './logger';

/** A pino logger like createLogger's (redaction on) writing its lines into `lines`. */
function capturingLogger(level: string): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink), lines };
}

describe('requestLogger (the per-request logger fastify makes)', () => {
  it('makes no pino child until the request logs a line at an enabled level', () => {
    const { logger } = capturingLogger('warn');
    const child = jest.spyOn(logger, 'child');
    // What fastify passes for a route without a level of its own: `level: ''`.
    const log = requestLogger(logger, { requestId: 'r-1' }, { level: '' }) as Logger;
    log.info('dropped: below the level');
    log.debug({ a: 1 }, 'dropped too');
    expect(child).not.toHaveBeenCalled();
    expect(log.level).toBe('warn');
    expect(log.isLevelEnabled('info')).toBe(false);
    log.warn('kept');
    log.error('kept too');
    expect(child).toHaveBeenCalledTimes(1);
  });

  it('writes the request id with every line, redacted like any other', () => {
    const { logger, lines } = capturingLogger('info');
    const log = requestLogger(logger, { requestId: 'r-2' }, { level: '' }) as Logger;
    log.info({ password: 'hunter2', path: '/x' }, 'hello');
    log.child({ step: 'inner' }).warn('from a grandchild');
    expect(lines).toEqual([
      expect.objectContaining({ requestId: 'r-2', path: '/x', password: '[redacted]', msg: 'hello' }),
      expect.objectContaining({ requestId: 'r-2', step: 'inner', msg: 'from a grandchild' }),
    ]);
  });

  it('gives a route with a level of its own a real child at once, at that level', () => {
    const { logger, lines } = capturingLogger('warn');
    const child = jest.spyOn(logger, 'child');
    const log = requestLogger(logger, { requestId: 'r-3' }, { level: 'debug' }) as Logger;
    expect(child).toHaveBeenCalledTimes(1);
    log.debug('visible at debug');
    expect(lines).toEqual([expect.objectContaining({ requestId: 'r-3', msg: 'visible at debug' })]);
  });

  it('follows a level set on it (fastify sets a route level this way)', () => {
    const { logger, lines } = capturingLogger('warn');
    const log = requestLogger(logger, { requestId: 'r-4' }, {}) as Logger;
    log.level = 'info';
    log.info('now visible');
    expect(logger.level).toBe('warn');
    expect(lines).toEqual([expect.objectContaining({ requestId: 'r-4', msg: 'now visible' })]);
  });
});

describe('redactUrl (the URL a request line logs)', () => {
  it('hides the stream ticket, tokens and the share-link token, and keeps the rest', () => {
    expect(redactUrl('/v1/notifications/stream?ticket=q0Zr3c8mJ1c2Vx5a7Q0b9Kx2Yw4n6p8s1u3w5y7A9C0&tenantId=t1')).toBe('/v1/notifications/stream?ticket=[redacted]&tenantId=t1');
    expect(redactUrl('/v1/notifications/stream?tenantId=t1&ticket=abc')).toBe('/v1/notifications/stream?tenantId=t1&ticket=[redacted]');
    expect(redactUrl('/v1/notifications/stream?access_token=abc')).toBe('/v1/notifications/stream?access_token=[redacted]');
    expect(redactUrl('/matrix/v1/shared/secret-token?page=2')).toBe('/matrix/v1/shared/[redacted]?page=2');
    expect(redactUrl('/v1/notifications?limit=20')).toBe('/v1/notifications?limit=20');
  });

  it('redacts a ticket in a logged object (an answer or a body)', () => {
    const { logger, lines } = capturingLogger('info');
    logger.info({ data: { ticket: 'abc', expiresAt: 'x' } }, 'answer');
    expect(lines[0]).toMatchObject({ data: { ticket: '[redacted]', expiresAt: 'x' } });
  });
});
