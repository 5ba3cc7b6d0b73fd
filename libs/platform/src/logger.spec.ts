import { Writable } from 'node:stream';
import pino, { Logger } from 'pino';
import { REDACT_PATHS, requestLogger } from './logger';

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
