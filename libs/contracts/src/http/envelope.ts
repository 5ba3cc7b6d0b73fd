import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata, Type, applyDecorators } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Observable, map } from 'rxjs';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';
import { constants as zlib, deflateRawSync } from 'node:zlib';

/** The success envelope of every endpoint (spec §1.4). */
export interface Envelope<T> {
  statusCode: number;
  timestamp: string;
  message: string;
  data: T;
}

/** The paged `data` (spec §1.5). */
export interface PageBody<T> {
  page: number;
  limit: number;
  total: number;
  data: T[];
}

/** What a controller returns for a list; the interceptor turns it into the paged envelope. */
export class Page<T> implements PageBody<T> {
  constructor(
    readonly data: T[],
    readonly total: number,
    readonly page: number,
    readonly limit: number,
  ) {}
}

/**
 * A `data` already serialized as JSON, as UTF-8 bytes (a kept answer served again): the interceptor
 * puts the envelope around the bytes instead of serializing and encoding megabytes once more.
 */
export class JsonText {
  readonly json: Buffer;
  private deflated?: Deflated;
  constructor(json: string | Buffer) {
    this.json = typeof json === 'string' ? Buffer.from(json) : json;
  }

  /** The JSON as raw deflate blocks ending on a byte boundary, with its Adler-32: made once, on the first client that accepts deflate. */
  deflatedOnce(): Deflated {
    return (this.deflated ??= deflatePart(this.json));
  }
}

/** Raw deflate blocks of one part of a response (not final, byte-aligned: parts can follow each other) and the part's Adler-32 and length. */
interface Deflated {
  blocks: Buffer;
  adler: number;
  length: number;
}

function deflatePart(bytes: Buffer, last = false): Deflated {
  // Compressed on its own (no reference reaches before the part), so parts compressed apart can be joined.
  const blocks = deflateRawSync(bytes, { level: 6, finishFlush: last ? zlib.Z_FINISH : zlib.Z_SYNC_FLUSH });
  return { blocks, adler: adler32(bytes), length: bytes.length };
}

/**
 * A part as one stored (uncompressed) block: the envelope's head, ~120 bytes, costs no zlib stream
 * per request. Starts on a byte boundary (as every part ends); header byte 0 = not final, stored.
 */
function storedPart(bytes: Buffer): Deflated {
  if (bytes.length > 0xffff) return deflatePart(bytes);
  const header = Buffer.alloc(5);
  header.writeUInt16LE(bytes.length, 1);
  header.writeUInt16LE(~bytes.length & 0xffff, 3);
  return { blocks: Buffer.concat([header, bytes]), adler: adler32(bytes), length: bytes.length };
}

const ADLER_BASE = 65521;

function adler32(bytes: Buffer): number {
  let a = 1;
  let b = 0;
  // 5552 bytes at most between reductions keep the sums within 2^53 (zlib's NMAX is for 32-bit sums).
  for (let i = 0; i < bytes.length; ) {
    const end = Math.min(i + 5552, bytes.length);
    for (; i < end; i++) {
      a += bytes[i];
      b += a;
    }
    a %= ADLER_BASE;
    b %= ADLER_BASE;
  }
  return b * 65536 + a;
}

/** The Adler-32 of two parts one after the other, from each part's (zlib's adler32_combine). */
function adler32Combine(adler1: number, adler2: number, length2: number): number {
  const rem = length2 % ADLER_BASE;
  const a1 = adler1 % 65536;
  const b1 = Math.floor(adler1 / 65536);
  const a2 = adler2 % 65536;
  const b2 = Math.floor(adler2 / 65536);
  const a = (a1 + a2 + ADLER_BASE - 1) % ADLER_BASE;
  const b = (((rem * a1) % ADLER_BASE) + b1 + b2 + ADLER_BASE - rem) % ADLER_BASE;
  return b * 65536 + a;
}

/** A zlib stream (Content-Encoding: deflate) of the parts in order: header, their blocks, the Adler-32 of the whole. */
function zlibStream(parts: Deflated[]): Buffer {
  let adler = parts[0].adler;
  for (const p of parts.slice(1)) adler = adler32Combine(adler, p.adler, p.length);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(adler >>> 0);
  return Buffer.concat([ZLIB_HEADER, ...parts.map((p) => p.blocks), trailer]);
}
const ZLIB_HEADER = Buffer.from([0x78, 0x9c]);

/** Whether the client takes `Content-Encoding: deflate` (listed, and not with q=0). */
export function acceptsDeflate(header: string | string[] | undefined): boolean {
  if (!header) return false;
  for (const item of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = item.trim().toLowerCase().split(';');
    if (name.trim() !== 'deflate') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  }
  return false;
}

const MESSAGE_KEY = 'ddm:response-message';

/** The envelope's `message` for this route (default: "Success"). */
export const ResponseMessage = (message: string) => SetMetadata(MESSAGE_KEY, message);

/**
 * Wraps every controller result in the envelope. Controllers return plain data or a Page;
 * nothing guesses. The message is looked up once per route, not per request.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  private readonly messages = new WeakMap<object, string>();

  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<Envelope<unknown> | Buffer> {
    return this.wrap(context, next.handle());
  }

  /** The handler's answer in the envelope, for a caller composing the steps of a request itself. */
  wrap(context: ExecutionContext, answer: Observable<unknown>): Observable<Envelope<unknown> | Buffer> {
    const handler = context.getHandler();
    let message = this.messages.get(handler);
    if (message === undefined) {
      message = this.reflector.getAllAndOverride<string>(MESSAGE_KEY, [handler, context.getClass()]) ?? 'Success';
      this.messages.set(handler, message);
    }
    const http = context.switchToHttp();
    const reply = http.getResponse<Reply>();
    const msg = message;
    return answer.pipe(
      map((result: unknown) => {
        if (result instanceof JsonText) return jsonEnvelope(reply, msg, result, acceptsDeflate(http.getRequest<{ headers?: Record<string, string | string[] | undefined> }>().headers?.['accept-encoding']));
        return {
          statusCode: reply.statusCode,
          timestamp: new Date().toISOString(),
          message: msg,
          data: result instanceof Page ? { page: result.page, limit: result.limit, total: result.total, data: result.data } : (result ?? null),
        };
      }),
    );
  }
}

type Reply = { statusCode: number; header(name: string, value: string): unknown };

/**
 * The envelope around already serialized data, as the bytes that are sent (same fields, same
 * order). To a client that accepts deflate: compressed, the data's blocks made once and the
 * envelope's own (fresh timestamp) around them.
 */
function jsonEnvelope(reply: Reply, message: string, data: JsonText, deflate: boolean): Buffer {
  reply.header('content-type', 'application/json; charset=utf-8');
  reply.header('vary', 'accept-encoding');
  const head = Buffer.from(`{"statusCode":${reply.statusCode},"timestamp":"${new Date().toISOString()}","message":${JSON.stringify(message)},"data":`);
  if (!deflate) return Buffer.concat([head, data.json, CLOSE]);
  reply.header('content-encoding', 'deflate');
  return zlibStream([storedPart(head), data.deflatedOnce(), DEFLATED_CLOSE]);
}
const CLOSE = Buffer.from('}');
const DEFLATED_CLOSE = deflatePart(CLOSE, true);

/** Swagger: a 200 whose `data` is a page (`page`, `limit`, `total`, `data: [model]`). */
export const ApiPageResponse = (model: Type<unknown>, description: string) =>
  applyDecorators(
    ApiExtraModels(model),
    ApiOkResponse({
      description,
      schema: {
        required: ['page', 'limit', 'total', 'data'],
        properties: {
          page: { type: 'number', minimum: 1 },
          limit: { type: 'number', minimum: 1 },
          total: { type: 'number', minimum: 0 },
          data: { type: 'array', items: { $ref: getSchemaPath(model) } },
        },
      },
    }),
  );
