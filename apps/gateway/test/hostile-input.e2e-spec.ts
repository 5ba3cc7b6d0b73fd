import { randomUUID } from 'node:crypto';
import {
  TestSystem,
  expectErrorBody,
  startTestSystem,
  tokenFor,
} from '@ddm/testing';

type Json = Record<string, any>;

interface Operation {
  method: string;
  path: string;
  op: Json;
}

const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';
/** An error answer stays small whatever the input (the first 50 problems are listed). */
const SMALL = 20_000;

/**
 * Every operation of the merged OpenAPI document, tried as a hostile client would (issue: bad input
 * never reaches a 500 and never buys a huge answer). The checks are the shared pipeline's, so they
 * hold for every operation an area adds: this spec walks the document rather than a list.
 */
describe('hostile input, on every operation of the API (through the gateway)', () => {
  let system: TestSystem;
  let tenantId: string;
  let token: string;
  let operations: Operation[];
  let doc: Json;

  const resolve = (schema: Json | undefined): Json | undefined => {
    if (!schema?.$ref) return schema;
    return doc.components.schemas[String(schema.$ref).split('/').pop()!];
  };

  /** The operation's path with real-looking parameters: the caller's tenant where a tenant is named, fresh ids elsewhere. */
  const urlOf = (o: Operation, override?: string) =>
    o.path.replace(/\{([^}]+)\}/g, (_m, name: string) => override ?? (name === 'tenantId' || (name === 'id' && o.path.startsWith('/auth/v1/tenants/')) ? tenantId : randomUUID()));

  const call = (o: Operation, url: string, body?: unknown) =>
    fetch(system.gateway.url + url, {
      method: o.method.toUpperCase(),
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    }).then(async (res) => ({ status: res.status, headers: res.headers, text: await res.text() }));

  const parsed = (r: { status: number; headers: Headers; text: string }) => ({ ...r, body: JSON.parse(r.text) });

  beforeAll(async () => {
    system = await startTestSystem({ areas: ['auth', 'settings', 'decision'] });
    tenantId = system.seeded.tenantId('Demo Co');
    token = tokenFor('admin@demo.test');
    doc = (await system.http.get('/docs-json')).body;
    operations = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'post', 'patch', 'put', 'delete'].includes(method))
        .map(([method, op]) => ({ method, path, op })),
    );
    expect(operations.length).toBeGreaterThan(30);
  }, 120_000);

  afterAll(async () => {
    await system?.close();
  });

  it('refuses an unknown query parameter with a 400 naming it, on every operation', async () => {
    for (const o of operations) {
      const res = parsed(await call(o, `${urlOf(o)}?bogusParam=1`, o.op.requestBody ? {} : undefined));
      expectErrorBody(res, 400);
      expect({ op: `${o.method} ${o.path}`, fields: res.body.errors.map((e: Json) => e.field) }).toEqual({ op: `${o.method} ${o.path}`, fields: expect.arrayContaining(['bogusParam']) });
    }
  });

  it('refuses a NUL character in a query string and in a body string with a 400 naming the field, on every operation', async () => {
    for (const o of operations) {
      const inQuery = parsed(await call(o, `${urlOf(o)}?search=a%00b`, o.op.requestBody ? {} : undefined));
      expectErrorBody(inQuery, 400);
      expect(inQuery.body.errors).toContainEqual({ field: 'search', message: NUL_MESSAGE });
      if (!o.op.requestBody) continue;
      const schema = resolve(o.op.requestBody.content?.['application/json']?.schema);
      // Not tenantId: the guard reads it first and refuses anything but a UUID (a 400 naming it too).
      const field = Object.keys(schema?.properties ?? {}).find((f) => f !== 'tenantId') ?? 'anything';
      const inBody = parsed(await call(o, urlOf(o), { [field]: 'a\u0000b', nested: { list: ['ok', 'b\u0000'] } }));
      expectErrorBody(inBody, 400);
      expect(inBody.body.errors).toEqual(expect.arrayContaining([{ field, message: NUL_MESSAGE }, { field: 'nested.list.1', message: NUL_MESSAGE }]));
    }
  });

  it('answers a path parameter over 100 characters with 414 in the project error body, never echoing the whole path', async () => {
    for (const o of operations.filter((x) => x.path.includes('{'))) {
      const res = parsed(await call(o, urlOf(o, 'a'.repeat(150)), o.op.requestBody ? {} : undefined));
      expectErrorBody(res, 414);
      expect(res.body.message).toBe('A path parameter is longer than 100 characters');
      expect(res.body.path.length).toBeLessThanOrEqual(200);
    }
  });

  it('never answers a 500 to null in any body field; where null is not allowed the 400 names the field', async () => {
    for (const o of operations.filter((x) => x.op.requestBody)) {
      const schema = resolve(o.op.requestBody.content?.['application/json']?.schema);
      for (const [field, prop] of Object.entries((schema?.properties ?? {}) as Record<string, Json>)) {
        const res = parsed(await call(o, urlOf(o), { [field]: null }));
        expect({ op: `${o.method} ${o.path}`, field, status: res.status }).toEqual({ op: `${o.method} ${o.path}`, field, status: expect.any(Number) });
        expect(res.status).toBeLessThan(500);
        if (!prop.nullable && field !== 'tenantId') {
          expectErrorBody(res, 400);
          expect({ op: `${o.method} ${o.path}`, errors: res.body.errors }).toEqual({ op: `${o.method} ${o.path}`, errors: expect.arrayContaining([expect.objectContaining({ field })]) });
        }
      }
    }
  });

  it('refuses an array over its documented maximum by its size alone, with a small answer', async () => {
    let checked = 0;
    for (const o of operations.filter((x) => x.op.requestBody)) {
      const schema = resolve(o.op.requestBody.content?.['application/json']?.schema);
      for (const [field, prop] of Object.entries((schema?.properties ?? {}) as Record<string, Json>)) {
        if (prop.type !== 'array' || typeof prop.maxItems !== 'number') continue;
        const items = Array.from({ length: Math.max(prop.maxItems * 10, 1000) + 1 }, () => ({ junk: 'x'.repeat(20) }));
        const res = await call(o, urlOf(o), { [field]: items });
        expect(res.text.length).toBeLessThan(SMALL);
        const body = parsed(res);
        expectErrorBody(body, 400);
        expect(body.body.errors).toContainEqual({ field, message: `must contain no more than ${prop.maxItems} elements` });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(3);
  });

  it('the cases found by hand stay fixed', async () => {
    const admin = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    // A PATCH with an unknown query parameter changes nothing.
    const role = parsed(
      await fetch(`${system.gateway.url}/settings/v1/decision-roles`, { method: 'POST', headers: admin, body: JSON.stringify({ roleName: 'Keep me' }) }).then(async (r) => ({
        status: r.status,
        headers: r.headers,
        text: await r.text(),
      })),
    ).body.data;
    const dry = await fetch(`${system.gateway.url}/settings/v1/decision-roles/${role.id}?dryRun=true`, { method: 'PATCH', headers: admin, body: JSON.stringify({ isDeleted: true }) });
    expect(dry.status).toBe(400);
    const list = await system.http.get('/settings/v1/decision-roles?search=Keep', { token });
    expect(list.body.data.data.map((r: Json) => r.id)).toContain(role.id);
    // Thousands of dashboard cells: refused by their count, with a small answer.
    for (const n of [5_000, 10_000]) {
      const res = await fetch(`${system.gateway.url}/auth/v1/user/preferences`, {
        method: 'PATCH',
        headers: admin,
        body: JSON.stringify({ dashboardData: Array.from({ length: n }, (_, i) => ({ x: 'a', y: 0, w: 1, h: 1, i: String(i) })) }),
      });
      const text = await res.text();
      expect(res.status).toBe(400);
      expect(text.length).toBeLessThan(SMALL);
    }
    // A 40 KB body of bad items buys a small answer, not 848 KB.
    const bad = await fetch(`${system.gateway.url}/auth/v1/user/preferences`, {
      method: 'PATCH',
      headers: admin,
      body: JSON.stringify({ dashboardData: Array.from({ length: 20 }, () => ({ x: 'no', y: 'no', w: 'no', h: 'no', i: 5, extra: 'x'.repeat(1500) })) }),
    });
    expect(bad.status).toBe(400);
    expect((await bad.text()).length).toBeLessThan(SMALL);
    expect((await system.http.get('/auth/v1/user/details?bogusParam=1', { token })).status).toBe(400);
  });
});
