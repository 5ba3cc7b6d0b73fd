/**
 * The API as its clients see it: a typed client generated from the committed OpenAPI document
 * (docs/openapi.json -> ./openapi.d.ts by `npm run docs`, with openapi-typescript) over
 * openapi-fetch. Every answer is also checked against the document at run time: a success must
 * match its operation's documented schema (envelope included), a failure the error body. So a
 * schema that lies fails to compile (types) or fails the spec that called it (shapes).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import createClient, { Client, Middleware } from 'openapi-fetch';
import { ROOT } from '../env';
import type { paths } from './openapi';

export type ApiPaths = paths;
export type ApiClient = Client<paths>;

type Json = Record<string, unknown>;

/**
 * OpenAPI 3.0's `nullable` as JSON Schema. Beside a plain `type`, ajv reads it itself; beside
 * `$ref`/`allOf`/`oneOf`/`anyOf` (Nest writes a nullable object as `{ nullable, type: object,
 * allOf: [$ref] }`) null must pass without the subschemas: any of the schema, or null.
 */
function normalize(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normalize);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) out[k] = normalize(v);
  const composed = ['$ref', 'allOf', 'oneOf', 'anyOf'].some((k) => k in out);
  if (out.nullable === true && (out.type === undefined || composed)) {
    const { nullable: _nullable, ...rest } = out;
    return { anyOf: [rest, { type: 'null' }] };
  }
  return out;
}

const escape = (segment: string) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));

export class ResponseChecker {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly doc: Json;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(file: string) {
    addFormats(this.ajv);
    this.doc = normalize(JSON.parse(readFileSync(file, 'utf8'))) as Json;
    this.ajv.addSchema(this.doc, 'openapi');
  }

  /** Problems of an answer to `method schemaPath` with `status` (none: it is what the document says). */
  problems(method: string, schemaPath: string, status: number, body: unknown): string[] {
    let pointer: string;
    if (status >= 400) pointer = '#/components/schemas/ErrorBody';
    else {
      const responses = ((this.doc.paths as Json)?.[schemaPath] as Json)?.[method] as { responses?: Json } | undefined;
      if (!responses?.responses?.[String(status)]) return [`${method.toUpperCase()} ${schemaPath} answered ${status}, which the OpenAPI document does not describe`];
      pointer = `#/paths/${escape(schemaPath)}/${method}/responses/${status}/content/${escape('application/json')}/schema`;
    }
    let validate = this.cache.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi${pointer}` });
      this.cache.set(pointer, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}`);
  }
}

let checker: ResponseChecker | undefined;

/** Checks every JSON answer against the committed document; a mismatch fails the call that got it. */
const conformance: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    if (!(response.headers.get('content-type') ?? '').includes('application/json')) return undefined;
    checker ??= new ResponseChecker(join(ROOT, 'docs/openapi.json'));
    const body = await response.clone().json();
    const problems = checker.problems(request.method.toLowerCase(), schemaPath, response.status, body);
    if (problems.length) throw new Error(`${request.method} ${schemaPath} -> ${response.status} does not match docs/openapi.json:\n  ${problems.slice(0, 10).join('\n  ')}`);
    return undefined;
  },
};

/** A typed client of the gateway (or a service) at `baseUrl`, calling as the holder of `token`. */
export function apiClient(baseUrl: string, token?: string): ApiClient {
  const client = createClient<paths>({ baseUrl, headers: token ? { authorization: `Bearer ${token}` } : {} });
  client.use(conformance);
  return client;
}
