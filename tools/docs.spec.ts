import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_REGISTRY, asyncApiDocument, asyncApiId } from '@ddm/contracts';
import { ROOT } from '@ddm/testing';
import { OPENAPI_TYPESCRIPT_OPTIONS } from './docs';

const committed = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const RUN_DOCS = 'run `npm run docs` and commit the result';

type Json = Record<string, any>;

/** Every `$ref` of a document, with where it stands. */
function refsOf(node: unknown, at = '#'): { at: string; ref: string }[] {
  if (!node || typeof node !== 'object') return [];
  if (Array.isArray(node)) return node.flatMap((x, i) => refsOf(x, `${at}/${i}`));
  return Object.entries(node as Json).flatMap(([k, v]) => (k === '$ref' && typeof v === 'string' ? [{ at, ref: v }] : refsOf(v, `${at}/${k}`)));
}

function resolves(doc: Json, ref: string): boolean {
  let node: unknown = doc;
  for (const part of ref.replace(/^#\//, '').split('/')) node = (node as Json)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node !== undefined;
}

describe('the committed contract (docs/)', () => {
  const asyncapi = asyncApiDocument() as Json;

  it(`docs/asyncapi.json is the document the event registry generates (${RUN_DOCS})`, () => {
    expect(JSON.parse(committed('docs/asyncapi.json'))).toEqual(asyncapi);
  });

  it('the AsyncAPI document has a channel, a send operation and a payload schema for every registered subject; every $ref resolves', () => {
    expect(asyncapi.asyncapi).toBe('3.0.0');
    for (const [subject, entry] of Object.entries(EVENT_REGISTRY)) {
      const id = asyncApiId(subject);
      expect(asyncapi.channels[id]).toMatchObject({ address: subject });
      expect(asyncapi.operations[`send_${id}`]).toMatchObject({ action: 'send', channel: { $ref: `#/channels/${id}` } });
      expect(asyncapi.components.messages[id].payload).toEqual({ $ref: `#/components/schemas/${entry.payload.name}` });
      const schema = asyncapi.components.schemas[entry.payload.name];
      if (subject.startsWith('evt.')) expect(schema.required).toContain('tenantId');
    }
    const broken = refsOf(asyncapi).filter((r) => !resolves(asyncapi, r.ref));
    expect(broken).toEqual([]);
  });

  it(`libs/testing/src/api/openapi.d.ts is what openapi-typescript makes of docs/openapi.json (${RUN_DOCS})`, () => {
    const generated = execFileSync(process.execPath, [join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), join(ROOT, 'docs/openapi.json'), ...OPENAPI_TYPESCRIPT_OPTIONS], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    expect(generated).toBe(committed('libs/testing/src/api/openapi.d.ts'));
  });

  it('docs/openapi.json says what is answered: envelopes, error bodies, no untyped object, every $ref resolves', () => {
    const doc = JSON.parse(committed('docs/openapi.json')) as Json;
    const untyped: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach((x, i) => walk(x, `${at}/${i}`));
      const n = node as Json;
      if (n.type === 'object' && !n.properties && !n.additionalProperties && !n.allOf && !n.oneOf && !n.anyOf) untyped.push(at);
      for (const [k, v] of Object.entries(n)) walk(v, `${at}/${k}`);
    };
    walk(doc.paths, '#/paths');
    walk(doc.components, '#/components');
    expect(untyped).toEqual([]);
    expect(refsOf(doc).filter((r) => !resolves(doc, r.ref))).toEqual([]);
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [code, response] of Object.entries((op as Json).responses ?? {})) {
          const schema = (response as Json).content?.['application/json']?.schema;
          if (Number(code) < 300) expect({ op: `${method} ${path} ${code}`, required: schema?.required }).toEqual({ op: `${method} ${path} ${code}`, required: ['statusCode', 'timestamp', 'message', 'data'] });
          else expect({ op: `${method} ${path} ${code}`, schema }).toEqual({ op: `${method} ${path} ${code}`, schema: { $ref: '#/components/schemas/ErrorBody' } });
        }
      }
    }
  });
});
