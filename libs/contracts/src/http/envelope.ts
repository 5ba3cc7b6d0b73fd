import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata, Type, applyDecorators } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Observable, map } from 'rxjs';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';

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
  constructor(json: string | Buffer) {
    this.json = typeof json === 'string' ? Buffer.from(json) : json;
  }
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
    const reply = context.switchToHttp().getResponse<{ statusCode: number; header(name: string, value: string): unknown }>();
    const msg = message;
    return answer.pipe(
      map((result: unknown) => {
        if (result instanceof JsonText) return jsonEnvelope(reply, msg, result);
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

/** The envelope around already serialized data, as the bytes that are sent (same fields, same order). */
function jsonEnvelope(reply: { statusCode: number; header(name: string, value: string): unknown }, message: string, data: JsonText): Buffer {
  reply.header('content-type', 'application/json; charset=utf-8');
  const head = `{"statusCode":${reply.statusCode},"timestamp":"${new Date().toISOString()}","message":${JSON.stringify(message)},"data":`;
  return Buffer.concat([Buffer.from(head), data.json, CLOSE]);
}
const CLOSE = Buffer.from('}');

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
