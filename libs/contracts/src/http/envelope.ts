import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata, Type, applyDecorators } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Observable, map } from 'rxjs';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';
import { JsonText, acceptsDeflate } from './json-text';

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
 * order); compressed for a client that takes deflate (the data's kept blocks, the envelope's own
 * pieces stored around them).
 */
function jsonEnvelope(reply: Reply, message: string, data: JsonText, deflate: boolean): Buffer {
  reply.header('content-type', 'application/json; charset=utf-8');
  reply.header('vary', 'accept-encoding');
  const answer = JsonText.join([`{"statusCode":${reply.statusCode},"timestamp":"${new Date().toISOString()}","message":${JSON.stringify(message)},"data":`, data, '}']);
  if (!deflate) return answer.bytes();
  reply.header('content-encoding', 'deflate');
  return answer.deflated();
}

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
