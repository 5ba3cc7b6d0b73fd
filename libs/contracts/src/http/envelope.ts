import { ExecutionContext, Injectable, SetMetadata, Type, applyDecorators } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtraModels, ApiOkResponse, SchemaObject, getSchemaPath } from '@nestjs/swagger';
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

/**
 * What a controller returns for a list; the envelope (envelopeAnswer) turns it into the paged data.
 * `extra` fields (described by ApiPageResponse's `extra`) go beside `page`, `limit` and `total`:
 * `{ page, limit, total, ...extra, data }`.
 */
export class Page<T> implements PageBody<T> {
  constructor(
    readonly data: T[],
    readonly total: number,
    readonly page: number,
    readonly limit: number,
    readonly extra?: Readonly<Record<string, unknown>>,
  ) {}
}

const MESSAGE_KEY = 'ddm:response-message';

/** The envelope's `message` for this route (default: "Success"). */
export const ResponseMessage = (message: string) => SetMetadata(MESSAGE_KEY, message);

/** On a request whose answer goes in the envelope: its route's message. */
const ENVELOPE_MESSAGE = Symbol('ddm:envelope-message');

type EnvelopedRequest = { headers?: Record<string, string | string[] | undefined>; [ENVELOPE_MESSAGE]?: string };

/**
 * The envelope of every controller result, in two halves: `mark` (a step of the request, before
 * the handler) tells the request that its answer goes in the envelope, with its route's message;
 * `envelopeAnswer` (the service's HTTP adapter, as Nest hands it the handler's result) wraps it.
 * Controllers return plain data or a Page; nothing guesses. The message is looked up once per
 * route, not per request. No interceptor: Nest pays an async resource and a chain of observables
 * for each one a request passes, a third of a small read's CPU.
 */
@Injectable()
export class ResponseEnvelope {
  private readonly messages = new WeakMap<object, string>();

  constructor(private readonly reflector: Reflector) {}

  /** The request's answer goes in the envelope, with its route's message. */
  mark(context: ExecutionContext): void {
    const handler = context.getHandler();
    let message = this.messages.get(handler);
    if (message === undefined) {
      message = this.reflector.getAllAndOverride<string>(MESSAGE_KEY, [handler, context.getClass()]) ?? 'Success';
      this.messages.set(handler, message);
    }
    context.switchToHttp().getRequest<EnvelopedRequest>()[ENVELOPE_MESSAGE] = message;
  }
}

/**
 * What is sent for a handler's `result`: in the envelope (status `statusCode`, a fresh timestamp,
 * the route's message) when the request was marked, as it is otherwise. A Page becomes the paged
 * data; JsonText (data serialized once and kept) becomes the bytes of the envelope around it,
 * compressed for a client that takes deflate.
 */
export function envelopeAnswer(reply: Reply & { request?: EnvelopedRequest }, result: unknown, statusCode: number = reply.statusCode): unknown {
  const request = reply.request;
  const message = request?.[ENVELOPE_MESSAGE];
  if (message === undefined) return result;
  if (result instanceof JsonText) return jsonEnvelope(reply, statusCode, message, result, acceptsDeflate(request?.headers?.['accept-encoding']));
  const envelope: Envelope<unknown> = {
    statusCode,
    timestamp: new Date().toISOString(),
    message,
    data: result instanceof Page ? { page: result.page, limit: result.limit, total: result.total, ...result.extra, data: result.data } : (result ?? null),
  };
  return envelope;
}

type Reply = { statusCode: number; header(name: string, value: string): unknown };

/**
 * The envelope around already serialized data, as the bytes that are sent (same fields, same
 * order); compressed for a client that takes deflate (the data's kept blocks, the envelope's own
 * pieces stored around them).
 */
function jsonEnvelope(reply: Reply, statusCode: number, message: string, data: JsonText, deflate: boolean): Buffer {
  reply.header('content-type', 'application/json; charset=utf-8');
  reply.header('vary', 'accept-encoding');
  const answer = JsonText.join([`{"statusCode":${statusCode},"timestamp":"${new Date().toISOString()}","message":${JSON.stringify(message)},"data":`, data, '}']);
  if (!deflate) return answer.bytes();
  reply.header('content-encoding', 'deflate');
  return answer.deflated();
}

/**
 * Swagger: a 200 whose `data` is a page (`page`, `limit`, `total`, `data: [model]`); `extra`
 * describes the fields a Page's `extra` adds beside them (each one always answered).
 */
export const ApiPageResponse = (model: Type<unknown>, description: string, extra: Readonly<Record<string, SchemaObject>> = {}) =>
  applyDecorators(
    ApiExtraModels(model),
    ApiOkResponse({
      description,
      schema: {
        required: ['page', 'limit', 'total', ...Object.keys(extra), 'data'],
        properties: {
          page: { type: 'number', minimum: 1 },
          limit: { type: 'number', minimum: 1 },
          total: { type: 'number', minimum: 0 },
          ...extra,
          data: { type: 'array', items: { $ref: getSchemaPath(model) } },
        },
      },
    }),
  );
