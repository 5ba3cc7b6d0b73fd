import {
  ArgumentsHost,
  BadRequestException,
  ForbiddenException,
  HttpException,
  NotFoundException,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { AllExceptionsFilter, AppError, ErrorBody, bodyErrorOf, clientErrorAnswer, ErrorCode, badRequest, conflict, errorBody, isDependencyDown, unavailable } from './errors';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A fake Fastify request/reply pair that records what the filter answers. */
function render(exception: unknown, url = '/decision/v1/decisions/list?page=2', id = 'req-42') {
  const sent = { status: undefined as number | undefined, headers: {} as Record<string, string>, body: undefined as ErrorBody | undefined, sends: 0 };
  const logged: unknown[] = [];
  const warned: unknown[] = [];
  const request = { url, id, log: { error: (obj: unknown) => logged.push(obj), warn: (obj: unknown) => warned.push(obj) } };
  const reply = {
    status(code: number) {
      sent.status = code;
      return reply;
    },
    header(name: string, value: string) {
      sent.headers[name.toLowerCase()] = value;
      return reply;
    },
    send(b: ErrorBody) {
      sent.body = b;
      sent.sends++;
      return reply;
    },
  };
  const host = {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply, getNext: () => undefined }),
    getType: () => 'http',
  } as unknown as ArgumentsHost;
  new AllExceptionsFilter().catch(exception, host);
  return { ...sent, logged, warned };
}

describe('AllExceptionsFilter', () => {
  it('renders an AppError as the one error body, with path (no query) and request id', async () => {
    const out = render(conflict('Decision name already exists'));
    expect(out.status).toBe(409);
    expect(out.sends).toBe(1);
    expect(out.body).toEqual({
      statusCode: 409,
      timestamp: expect.stringMatching(ISO),
      message: 'Decision name already exists',
      error: 'Conflict',
      path: '/decision/v1/decisions/list',
      requestId: 'req-42',
    });
    expect(out.body).not.toHaveProperty('errors');
    expect(out.headers['x-request-id']).toBe('req-42');
    expect(out.logged).toEqual([]);
  });

  it('keeps the field errors of a 400 AppError', async () => {
    const errors = [
      { field: 'title', message: 'must be a string' },
      { field: 'items.0.name', message: 'must be a string' },
    ];
    const out = render(badRequest('Invalid input', errors));
    expect(out.status).toBe(400);
    expect(out.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Invalid input', errors });
  });

  it.each([
    [ErrorCode.Unauthenticated, 401, 'Unauthorized'],
    [ErrorCode.Forbidden, 403, 'Forbidden'],
    [ErrorCode.NotFound, 404, 'Not Found'],
    [ErrorCode.RateLimited, 429, 'Too Many Requests'],
    [ErrorCode.DependencyDown, 503, 'Service Unavailable'],
  ])('maps the code %s to %i %s', async (code, status, reason) => {
    const out = render(new AppError(code, 'nope'));
    expect(out.status).toBe(status);
    expect(out.body).toMatchObject({ statusCode: status, error: reason, message: 'nope' });
    // ARCHITECTURE §3: a 503 (and a 429) tells the client when to retry.
    expect(out.headers['retry-after']).toBe(status === 503 || status === 429 ? '5' : undefined);
  });

  it('answers an AppError that says when to retry with that Retry-After (unavailable: a 503)', async () => {
    const out = render(unavailable('Not applied yet; retry shortly', 1));
    expect(out.status).toBe(503);
    expect(out.headers['retry-after']).toBe('1');
    expect(out.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable', message: 'Not applied yet; retry shortly' });
  });

  it('answers a unique-constraint race (Postgres 23505) as a 409', async () => {
    const out = render(Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code: '23505' }));
    expect(out.status).toBe(409);
    expect(out.body?.message).not.toMatch(/constraint "x"/);
  });

  it('joins the message array of a plain HttpException into one string', async () => {
    const out = render(new BadRequestException(['title must be a string', 'limit must not be greater than 100']));
    expect(out.status).toBe(400);
    expect(out.body).toEqual({
      statusCode: 400,
      timestamp: expect.stringMatching(ISO),
      message: 'title must be a string; limit must not be greater than 100',
      error: 'Bad Request',
      path: '/decision/v1/decisions/list',
      requestId: 'req-42',
    });
  });

  it('uses the message of a plain HttpException with a string response', async () => {
    const out = render(new ForbiddenException('Not yours'));
    expect(out.status).toBe(403);
    expect(out.body).toMatchObject({ statusCode: 403, message: 'Not yours', error: 'Forbidden' });
    const raw = render(new HttpException('Method not allowed here', 405));
    expect(raw.status).toBe(405);
    expect(raw.body).toMatchObject({ statusCode: 405, message: 'Method not allowed here', error: 'Method Not Allowed' });
  });

  it('answers an HttpException 413 in our wording', async () => {
    const out = render(new PayloadTooLargeException('request entity too large'));
    expect(out.status).toBe(413);
    expect(out.body).toMatchObject({ statusCode: 413, error: 'Payload Too Large', message: 'Request body is larger than the 1 MiB limit' });
  });

  it('answers an HttpException 415 in our wording', async () => {
    const out = render(new UnsupportedMediaTypeException());
    expect(out.status).toBe(415);
    expect(out.body).toMatchObject({
      statusCode: 415,
      error: 'Unsupported Media Type',
      message: 'Request body must be JSON (Content-Type: application/json)',
    });
  });

  it("answers Fastify's own body errors by their code", async () => {
    const tooLarge = render(Object.assign(new Error('Request body is too large'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body?.message).toBe('Request body is larger than the 1 MiB limit');
    const badJson = render(Object.assign(new SyntaxError('Unexpected token } in JSON'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 }));
    expect(badJson.status).toBe(400);
    expect(badJson.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Body is not valid JSON' });
  });

  it("turns Fastify's refusals of a body into the AppError of their status, in our wording, and nothing else", () => {
    const empty = bodyErrorOf(Object.assign(new Error("Body cannot be empty when content-type is set to 'application/json'"), { code: 'FST_ERR_CTP_EMPTY_JSON_BODY', statusCode: 400 }));
    expect(empty).toBeInstanceOf(AppError);
    expect([empty?.getStatus(), empty?.message]).toEqual([400, 'Body is empty but Content-Type is application/json']);
    expect(bodyErrorOf(Object.assign(new Error('x'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE' }))?.getStatus()).toBe(413);
    expect(bodyErrorOf(Object.assign(new Error('x'), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' }))?.getStatus()).toBe(415);
    expect(bodyErrorOf(Object.assign(new Error('x'), { code: 'FST_ERR_SOMETHING_ELSE', statusCode: 400 }))).toBeUndefined();
    expect(bodyErrorOf(new Error('boom'))).toBeUndefined();
    expect(bodyErrorOf(undefined)).toBeUndefined();
  });

  it("answers what Node's HTTP parser refuses as the house body, with the path and x-request-id of the bytes received", () => {
    const answer = clientErrorAnswer(
      { code: 'HPE_INVALID_CONTENT_LENGTH', rawPacket: Buffer.from('POST /settings/v1/decision-roles?x=1 HTTP/1.1\r\nHost: x\r\nX-Request-Id: rid-7\r\nContent-Length: abc\r\n\r\n') },
      () => 'made-up',
    );
    const [head, body] = answer.split('\r\n\r\n');
    expect(head.split('\r\n')).toEqual(expect.arrayContaining(['HTTP/1.1 400 Bad Request', 'x-request-id: rid-7', 'Connection: close', `Content-Length: ${Buffer.byteLength(body)}`]));
    expect(JSON.parse(body)).toEqual({
      statusCode: 400,
      timestamp: expect.stringMatching(ISO),
      message: 'Content-Length is not valid (not a number, given twice, or beside Transfer-Encoding)',
      error: 'Bad Request',
      path: '/settings/v1/decision-roles',
      requestId: 'rid-7',
    });
    const overflow = clientErrorAnswer({ code: 'HPE_HEADER_OVERFLOW' }, () => 'made-up');
    expect(overflow).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(JSON.parse(overflow.split('\r\n\r\n')[1])).toMatchObject({ statusCode: 431, path: '/', requestId: 'made-up' });
  });

  it("rewords Nest's unknown-route 404", async () => {
    const out = render(new NotFoundException('Cannot GET /decision/v1/nope'));
    expect(out.status).toBe(404);
    expect(out.body?.message).toBe('No route for GET /decision/v1/nope');
  });

  it('answers an unknown Error as a 500 that hides internals, and logs it with the path', async () => {
    const boom = new Error('relation "decision.secret_table" does not exist; password=hunter2');
    const out = render(boom);
    expect(out.status).toBe(500);
    expect(out.body).toEqual({
      statusCode: 500,
      timestamp: expect.stringMatching(ISO),
      message: 'Internal server error',
      error: 'Internal Server Error',
      path: '/decision/v1/decisions/list',
      requestId: 'req-42',
    });
    expect(JSON.stringify(out.body)).not.toMatch(/secret_table|hunter2/);
    expect(out.headers['retry-after']).toBeUndefined();
    expect(out.headers['x-request-id']).toBe('req-42');
    expect(out.logged).toEqual([{ err: boom, path: '/decision/v1/decisions/list' }]);
  });

  it('answers a thrown non-Error value as a 500 as well', async () => {
    const out = render('just a string');
    expect(out.status).toBe(500);
    expect(out.body?.message).toBe('Internal server error');
  });

  it('answers a pg connection refusal as a 503 with Retry-After', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', errno: -111, syscall: 'connect', address: '127.0.0.1', port: 5432 });
    const out = render(refused);
    expect(out.status).toBe(503);
    expect(out.headers['retry-after']).toBe('5');
    expect(out.body).toEqual({
      statusCode: 503,
      timestamp: expect.stringMatching(ISO),
      message: 'A dependency is unavailable; retry shortly',
      error: 'Service Unavailable',
      path: '/decision/v1/decisions/list',
      requestId: 'req-42',
    });
    expect(JSON.stringify(out.body)).not.toContain('5432');
    // Expected while the database is down, hundreds a second: a warning line without a stack, not an error.
    expect(out.logged).toEqual([]);
    expect(out.warned).toEqual([{ path: '/decision/v1/decisions/list', reason: 'connect ECONNREFUSED 127.0.0.1:5432' }]);
  });

  it('answers a TypeORM error whose driver error says Postgres cannot connect as a 503', async () => {
    const out = render(Object.assign(new Error('query failed'), { driverError: { code: '57P03' } }));
    expect(out.status).toBe(503);
    expect(out.headers['retry-after']).toBe('5');
  });

  it.each([
    ['a terminated connection (pg, no code)', new Error('Connection terminated unexpectedly')],
    ['a pool that timed out connecting', new Error('timeout exceeded when trying to connect')],
    ['a client broken by an earlier connection error', new Error('Client has encountered a connection error and is not queryable')],
    ['an admin shutdown (57P01)', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a server shutting down (57P03)', Object.assign(new Error('the database system is shutting down'), { code: '57P03' })],
    ['a connection exception (08006)', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['a reset socket', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a COMMIT on a connection TypeORM gave up when the server ended it', Object.assign(new Error('Query runner already released. Cannot run queries anymore.'), { name: 'QueryRunnerAlreadyReleasedError' })],
    ['a statement on a connection TypeORM gave up', Object.assign(new Error('Database connection provided by a query runner was already released'), { name: 'QueryRunnerProviderAlreadyReleasedError' })],
    ['a TypeORM error caused by a refusal', Object.assign(new Error('query failed'), { cause: { code: 'ECONNREFUSED' } })],
  ])('answers %s as a 503 with Retry-After, never a 500', async (_what, err) => {
    const out = render(err);
    expect(out.status).toBe(503);
    expect(out.headers['retry-after']).toBe('5');
    expect(out.body?.message).toBe('A dependency is unavailable; retry shortly');
  });

  it('still answers a statement error that is not about the connection as a 500', async () => {
    const out = render(Object.assign(new Error('column "nope" does not exist'), { code: '42703' }));
    expect(out.status).toBe(500);
    expect(isDependencyDown(Object.assign(new Error('x'), { code: '23503' }))).toBe(false);
  });
});

describe('errorBody', () => {
  it('leaves out an empty errors list', async () => {
    expect(errorBody(400, 'x', '/p', 'r', [])).not.toHaveProperty('errors');
  });
});
