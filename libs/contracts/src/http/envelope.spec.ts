import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { inflateSync } from 'node:zlib';
import { Envelope, Page, ResponseEnvelope, ResponseMessage, envelopeAnswer } from './envelope';
import { JsonText, acceptsDeflate } from './json-text';

class DecisionsController {
  @ResponseMessage('Decision created')
  create() {
    return undefined;
  }

  list() {
    return undefined;
  }
}

@ResponseMessage('Roles listed')
class RolesController {
  list() {
    return undefined;
  }

  @ResponseMessage('Role changed')
  update() {
    return undefined;
  }
}

type TestReply = { statusCode: number; header: (name: string, value: string) => unknown; request: { headers?: Record<string, string> } };

/** A request to `controller.method` and its reply (as fastify's: the reply knows its request). */
function contextFor(
  controller: new () => object,
  method: string,
  reply: { statusCode: number; header?: (name: string, value: string) => unknown },
  request: { headers?: Record<string, string> } = {},
): ExecutionContext & { reply: TestReply } {
  const handler = (controller.prototype as Record<string, unknown>)[method];
  const fullReply: TestReply = Object.assign(reply, { header: reply.header ?? (() => undefined), request });
  return {
    reply: fullReply,
    getHandler: () => handler,
    getClass: () => controller,
    switchToHttp: () => ({ getResponse: () => fullReply, getRequest: () => request }),
  } as unknown as ExecutionContext & { reply: TestReply };
}

describe('ResponseEnvelope and envelopeAnswer', () => {
  const envelope = new ResponseEnvelope(new Reflector());
  /** The request passes the envelope step, then its handler's result leaves through the adapter. */
  const send = (ctx: ExecutionContext & { reply: TestReply }, value: unknown, statusCode?: number) => {
    envelope.mark(ctx);
    return envelopeAnswer(ctx.reply, value, statusCode);
  };
  const run = async (ctx: ExecutionContext & { reply: TestReply }, value: unknown) => send(ctx, value) as Envelope<unknown>;

  it('wraps plain data with the reply status, an ISO timestamp and the route message', async () => {
    const before = Date.now();
    const env = await run(contextFor(DecisionsController, 'create', { statusCode: 201 }), { id: 'd1', name: 'Budget' });
    expect(env).toEqual({
      statusCode: 201,
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      message: 'Decision created',
      data: { id: 'd1', name: 'Budget' },
    });
    expect(Date.parse(env.timestamp)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(env.timestamp)).toBeLessThanOrEqual(Date.now());
  });

  it("says 'Success' when the route names no message", async () => {
    const env = await run(contextFor(DecisionsController, 'list', { statusCode: 200 }), [1, 2]);
    expect(env).toMatchObject({ statusCode: 200, message: 'Success', data: [1, 2] });
  });

  it('takes the message of the controller class, and a method message over it', async () => {
    await expect(run(contextFor(RolesController, 'list', { statusCode: 200 }), 'x')).resolves.toMatchObject({ message: 'Roles listed' });
    await expect(run(contextFor(RolesController, 'update', { statusCode: 200 }), 'x')).resolves.toMatchObject({ message: 'Role changed' });
  });

  it("takes the route's status Nest answers with, else the reply's when the result leaves", async () => {
    const reply = { statusCode: 200 };
    const ctx = contextFor(DecisionsController, 'list', reply);
    await expect(run(ctx, 1)).resolves.toMatchObject({ statusCode: 200 });
    reply.statusCode = 202;
    await expect(run(ctx, 1)).resolves.toMatchObject({ statusCode: 202 });
    expect(send(ctx, 1, 201)).toMatchObject({ statusCode: 201 });
  });

  it('leaves the answer of a request that did not pass the envelope step as it is (health, documents, errors)', () => {
    const reply = { statusCode: 200, header: () => undefined, request: {} };
    expect(envelopeAnswer(reply, { status: 'ok' })).toEqual({ status: 'ok' });
    expect(envelopeAnswer({ statusCode: 200, header: () => undefined }, 'text')).toBe('text');
  });

  it('turns a Page into the paged data {page, limit, total, data}', async () => {
    const env = (await run(contextFor(DecisionsController, 'list', { statusCode: 200 }), new Page([{ id: 'a' }, { id: 'b' }], 12, 2, 2))) as Envelope<unknown>;
    expect(env.data).toEqual({ page: 2, limit: 2, total: 12, data: [{ id: 'a' }, { id: 'b' }] });
    expect(env.data).not.toBeInstanceOf(Page);
    expect(Object.keys(env.data as object).sort()).toEqual(['data', 'limit', 'page', 'total']);
  });

  it("puts a Page's extra fields beside page, limit and total, before data", async () => {
    const env = (await run(contextFor(DecisionsController, 'list', { statusCode: 200 }), new Page([{ id: 'a' }], 1, 1, 10, { consistentAsOf: '2030-01-01T00:00:00.000Z' }))) as Envelope<unknown>;
    expect(Object.keys(env.data as object)).toEqual(['page', 'limit', 'total', 'consistentAsOf', 'data']);
    expect(env.data).toEqual({ page: 1, limit: 10, total: 1, consistentAsOf: '2030-01-01T00:00:00.000Z', data: [{ id: 'a' }] });
  });

  it('answers an empty page with total 0 and an empty array', async () => {
    const env = await run(contextFor(DecisionsController, 'list', { statusCode: 200 }), new Page([], 0, 1, 10));
    expect(env.data).toEqual({ page: 1, limit: 10, total: 0, data: [] });
  });

  it('answers data null when the handler returns nothing', async () => {
    await expect(run(contextFor(DecisionsController, 'create', { statusCode: 200 }), undefined)).resolves.toMatchObject({ data: null });
  });

  it('does not wrap a page-shaped plain object (nothing guesses)', async () => {
    const shaped = { page: 1, limit: 10, total: 0, data: [], extra: true };
    await expect(run(contextFor(DecisionsController, 'list', { statusCode: 200 }), shaped)).resolves.toMatchObject({ data: shaped });
  });

  it('writes the envelope around already serialized data (JsonText) as JSON text, the same fields in the same order', async () => {
    const headers: Record<string, string> = {};
    const reply = { statusCode: 200, header: (name: string, value: string) => (headers[name] = value) };
    const data = { rows: [{ id: 'r1', cells: [] }], page: 1, note: 'a "quoted" word, 5 000 € × 2' };
    const sent = send(contextFor(RolesController, 'update', reply), JsonText.of(JSON.stringify(data))) as Buffer;
    expect(Buffer.isBuffer(sent)).toBe(true);
    const text = sent.toString('utf8');
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    const parsed = JSON.parse(text) as Envelope<unknown>;
    expect(Object.keys(parsed)).toEqual(['statusCode', 'timestamp', 'message', 'data']);
    expect(parsed).toEqual({ statusCode: 200, timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/), message: 'Role changed', data });
  });

  it('compresses it for a client that accepts deflate: the data compressed once, the envelope around it fresh, one valid zlib stream', async () => {
    // Over 32 KB and repetitive, so the data's blocks hold back-references and several blocks.
    const data = { rows: Array.from({ length: 3000 }, (_, i) => ({ id: `r${i}`, name: `Decision ${i % 97} ünïcödé`, cells: [{ value: i * 7 }] })) };
    const text = JsonText.of(JSON.stringify(data));
    const ask = (acceptEncoding: string) => {
      const headers: Record<string, string> = {};
      const reply = { statusCode: 200, header: (name: string, value: string) => (headers[name] = value) };
      const body = send(contextFor(RolesController, 'update', reply, { headers: { 'accept-encoding': acceptEncoding } }), text) as Buffer;
      return { headers, body };
    };
    const first = ask('gzip, deflate, br');
    expect(first.headers['content-encoding']).toBe('deflate');
    expect(first.headers.vary).toBe('accept-encoding');
    expect(first.body.length).toBeLessThan(text.byteLength / 5);
    const inflated = JSON.parse(inflateSync(first.body).toString('utf8')) as Envelope<unknown>;
    expect(inflated).toEqual({ statusCode: 200, timestamp: expect.stringMatching(/^\d{4}-/), message: 'Role changed', data });
    await new Promise((r) => setTimeout(r, 2));
    const second = ask('deflate');
    const again = JSON.parse(inflateSync(second.body).toString('utf8')) as Envelope<unknown>;
    expect(again.data).toEqual(data);
    expect(again.timestamp > inflated.timestamp).toBe(true);
    const plain = ask('gzip;q=1, deflate;q=0');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect((JSON.parse(plain.body.toString('utf8')) as Envelope<unknown>).data).toEqual(data);
  });

  it('reads Accept-Encoding for deflate', () => {
    expect(acceptsDeflate(undefined)).toBe(false);
    expect(acceptsDeflate('gzip, br')).toBe(false);
    expect(acceptsDeflate('gzip, deflate')).toBe(true);
    expect(acceptsDeflate('DEFLATE;q=0.5')).toBe(true);
    expect(acceptsDeflate('deflate;q=0')).toBe(false);
    expect(acceptsDeflate(['gzip', 'deflate'])).toBe(true);
    expect(acceptsDeflate('*')).toBe(false);
  });
});
