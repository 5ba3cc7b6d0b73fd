/**
 * What the OpenAPI document says must be what is answered, since clients are generated from it.
 * Controllers describe their payload (`@ApiOkResponse({ type: View })`, `ApiPageResponse`); the
 * envelope and the error body are added here, once, for every operation of every service.
 */
import type { OpenAPIObject } from '@nestjs/swagger';

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
    message: { type: 'string' },
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

/** Wraps every documented success response in the envelope, gives every error response the error body, and every operation its 429. */
export function describeEnvelopes(doc: OpenAPIObject): OpenAPIObject {
  doc.components ??= {};
  doc.components.schemas = { ...doc.components.schemas, ErrorBody: ERROR_BODY, FieldError: FIELD_ERROR } as typeof doc.components.schemas;
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item as Record<string, { responses?: Record<string, ResponseObject> }>)) {
      if (!operation?.responses) continue;
      const limited = operation.responses['429'];
      operation.responses['429'] = { ...limited, description: limited?.description ?? RATE_LIMITED, headers: { ...limited?.headers, ...RATE_LIMITED_HEADERS } };
      for (const [code, response] of Object.entries(operation.responses)) {
        const status = Number(code);
        if (status >= 200 && status < 300) {
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
