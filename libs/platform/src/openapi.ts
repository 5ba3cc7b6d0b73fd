/**
 * What the OpenAPI document says must be what is answered, since clients are generated from it.
 * Controllers describe their payload (`@ApiOkResponse({ type: View })`, `ApiPageResponse`); the
 * envelope and the error body are added here, once, for every operation of every service.
 */
import type { OpenAPIObject } from '@nestjs/swagger';
import { ANSWER_NOT_KEPT, isIdempotentOperation } from './idempotency';

type Schema = Record<string, unknown>;

const ERROR_BODY: Schema = {
  type: 'object',
  description: 'The one error body of every failure (ARCHITECTURE §3)',
  required: ['statusCode', 'timestamp', 'message', 'error', 'path', 'requestId'],
  properties: {
    statusCode: { type: 'integer', example: 400 },
    timestamp: { type: 'string', format: 'date-time' },
    message: { type: 'string', description: 'One readable sentence' },
    error: { type: 'string', example: 'Bad Request' },
    path: { type: 'string', description: 'The request path' },
    requestId: { type: 'string', description: 'The x-request-id sent, or the one made up (also the x-request-id header)' },
    errors: {
      type: 'array',
      description: 'Each bad field (at most 50 are listed; the message counts the rest)',
      items: { $ref: '#/components/schemas/FieldError' },
    },
  },
};

const FIELD_ERROR: Schema = {
  type: 'object',
  required: ['field', 'message'],
  properties: {
    field: { type: 'string', description: 'The body field (dotted path for nested ones) or query parameter' },
    message: { type: 'string', description: 'At most 300 characters; a longer one ends at a word boundary with "…"' },
    allowed: {
      type: 'array',
      items: { type: 'string' },
      description: 'When the field takes one of a list of values (select, sortBy, a status): every accepted value, however long the message',
    },
  },
};

/** The success envelope around a payload schema (spec §1.4). */
function envelope(data: Schema | undefined, status: number): Schema {
  return {
    type: 'object',
    required: ['statusCode', 'timestamp', 'message', 'data'],
    properties: {
      statusCode: { type: 'integer', enum: [status] },
      timestamp: { type: 'string', format: 'date-time' },
      message: { type: 'string' },
      data: data ?? { description: 'Not described' },
    },
  };
}

interface ResponseObject {
  description?: string;
  headers?: Record<string, { description: string; schema: Schema }>;
  content?: Record<string, { schema?: Schema }>;
}

/** The abuse limits' answer (libs/platform hardening), possible on every operation. */
const RATE_LIMITED_HEADERS: NonNullable<ResponseObject['headers']> = {
  'Retry-After': { description: 'Seconds until the limit\'s window ends', schema: { type: 'integer' } },
  'RateLimit-Limit': { description: 'Requests allowed in the window (the tighter of the caller\'s and the tenant\'s budgets)', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window ends', schema: { type: 'integer' } },
};
const RATE_LIMITED = 'Too many requests: a rate limit per caller, per tenant or of the operation\'s kind (bulk, invitations, shared link) was reached; retry after Retry-After seconds';

/** The optional Idempotency-Key of POSTs and bulk PATCHes (libs/platform idempotency). */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the first answer (status and body) is kept for 24 h per tenant, caller and key, and a retry with the same key and ' +
    'request (method, path, query and JSON body) gets it again (with `Idempotent-Replayed: true`) without the operation running twice. ' +
    'A 5xx or 429 is not kept. A multipart upload is matched by its media type and Content-Length. Malformed: 400.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$', example: 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6' },
};
const KEY_IN_PROGRESS = 'A request with the same Idempotency-Key is still in progress; retry after Retry-After seconds';
const KEY_REUSED = 'The Idempotency-Key was used with another request (method, path, query or body)';
const REPLAYED_HEADER = { 'Idempotent-Replayed': { description: '`true` when this is the kept answer of an earlier request with the same Idempotency-Key', schema: { type: 'string', enum: ['true'] } } };

/** Every write's answer may name the changes it committed (libs/platform consistency). */
const CONSISTENCY_TOKEN_HEADER = {
  'x-consistency-token': {
    description:
      'When the request committed changes: a token naming them. Sent back to a read that takes it (the authority check, holders, "my authority", ' +
      'a delegation; header `x-consistency-token` or body `consistency.atLeastAsFresh`), it makes that read wait until the changes are applied there.',
    schema: { type: 'string' },
  },
};
const WRITES = new Set(['post', 'put', 'patch', 'delete']);

interface Operation {
  parameters?: { name: string; in: string }[];
  responses?: Record<string, ResponseObject>;
}

/** The Idempotency-Key header, its 409 and 422, and the replay header on an operation that takes the key. */
function describeIdempotency(operation: Operation): void {
  const responses = operation.responses!;
  operation.parameters = [...(operation.parameters ?? []).filter((p) => !(p.in === 'header' && p.name === 'Idempotency-Key')), IDEMPOTENCY_KEY_PARAMETER];
  const conflict = responses['409'];
  responses['409'] = {
    ...conflict,
    description: conflict?.description ? `${conflict.description}, or ${KEY_IN_PROGRESS[0].toLowerCase()}${KEY_IN_PROGRESS.slice(1)}` : KEY_IN_PROGRESS,
    headers: { ...conflict?.headers, 'Retry-After': { description: 'Seconds to wait (a request with the same Idempotency-Key in progress)', schema: { type: 'integer' } } },
  };
  responses['422'] ??= { description: KEY_REUSED };
  for (const [code, response] of Object.entries(responses)) {
    if (Number(code) >= 200 && Number(code) < 300) response.headers = { ...response.headers, ...REPLAYED_HEADER };
  }
}

/**
 * Wraps every documented success response in the envelope, gives every error response the error
 * body, every operation its 429, the operations that take an Idempotency-Key their header, and
 * every write's success its x-consistency-token header.
 */
export function describeEnvelopes(doc: OpenAPIObject): OpenAPIObject {
  doc.components ??= {};
  doc.components.schemas = { ...doc.components.schemas, ErrorBody: ERROR_BODY, FieldError: FIELD_ERROR } as typeof doc.components.schemas;
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      if (!operation?.responses) continue;
      if (isIdempotentOperation(method, path) && !(operation as Record<string, unknown>)[ANSWER_NOT_KEPT]) describeIdempotency(operation);
      const limited = operation.responses['429'];
      operation.responses['429'] = { ...limited, description: limited?.description ?? RATE_LIMITED, headers: { ...limited?.headers, ...RATE_LIMITED_HEADERS } };
      for (const [code, response] of Object.entries(operation.responses)) {
        const status = Number(code);
        if (status >= 200 && status < 300) {
          if (WRITES.has(method)) response.headers = { ...response.headers, ...CONSISTENCY_TOKEN_HEADER };
          const data = response.content?.['application/json']?.schema;
          response.content = { 'application/json': { schema: envelope(data, status) } };
        } else if (status >= 400) {
          response.content = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } };
        }
      }
    }
  }
  return doc;
}
