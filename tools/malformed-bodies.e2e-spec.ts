import { AddressInfo, connect } from 'node:net';
import { Type } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { AREAS, AreaName, MAX_BODY_DEPTH } from '@ddm/contracts';
import { ServiceDataSource } from '@ddm/platform';
import { TestDatabase, TestNamespace, TestService, createTestDatabase, createTestNamespace, runSeed, startTestService, testEnv, tokenFor } from '@ddm/testing';
import { ActionsModule } from '../apps/actions/src/actions.module';
import { actionsDataSource } from '../apps/actions/src/data-source';
import { AuthModule } from '../apps/auth/src/auth.module';
import { authDataSource } from '../apps/auth/src/data-source';
import { DecisionModule } from '../apps/decision/src/decision.module';
import { decisionDataSource } from '../apps/decision/src/data-source';
import { DocumentModule } from '../apps/document/src/document.module';
import { documentDataSource } from '../apps/document/src/data-source';
import { buildGateway } from '../apps/gateway/src/gateway';
import { MatrixModule } from '../apps/matrix/src/matrix.module';
import { matrixDataSource } from '../apps/matrix/src/data-source';
import { NotificationsModule } from '../apps/notifications/src/notifications.module';
import { notificationsDataSource } from '../apps/notifications/src/data-source';
import { SettingsModule } from '../apps/settings/src/settings.module';
import { settingsDataSource } from '../apps/settings/src/data-source';

type Json = Record<string, any>;

/** Every area's service, started in this process in this order (auth first: it resolves the callers of the others). */
const SERVICES: [AreaName, Type<unknown>, ServiceDataSource][] = [
  ['auth', AuthModule, authDataSource],
  ['settings', SettingsModule, settingsDataSource],
  ['decision', DecisionModule, decisionDataSource],
  ['actions', ActionsModule, actionsDataSource],
  ['matrix', MatrixModule, matrixDataSource],
  ['document', DocumentModule, documentDataSource],
  ['notifications', NotificationsModule, notificationsDataSource],
];

/** One JSON operation of each area, as a client calls it. */
const OPERATIONS: Record<AreaName, { method: 'POST' | 'PATCH'; path: string }> = {
  decision: { method: 'POST', path: '/decision/v1/decisions' },
  actions: { method: 'POST', path: '/actions/v1/actions' },
  settings: { method: 'POST', path: '/settings/v1/decision-roles' },
  matrix: { method: 'POST', path: '/matrix/v1/matrix' },
  auth: { method: 'PATCH', path: '/auth/v1/user/preferences' },
  document: { method: 'POST', path: '/document/v1/documents' },
  notifications: { method: 'PATCH', path: '/v1/notifications/preferences' },
};

/** A malformed body as a client might send it: the raw bytes after the headers, and what is declared of them. */
interface Case {
  name: string;
  body: Buffer;
  /** The Content-Length header as sent (the true length otherwise). */
  contentLength?: string;
  /** The field the 400 names, where the body parsed and one field is at fault. */
  field?: string;
}

const deep = (levels: number) => Buffer.from(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`);

const CASES: Case[] = [
  { name: 'an empty body', body: Buffer.alloc(0) },
  { name: 'malformed JSON', body: Buffer.from('{"roleName": "x",') },
  { name: 'a Content-Length that is not a number', body: Buffer.from('{}'), contentLength: 'abc' },
  { name: 'a Content-Length given twice, differently', body: Buffer.from('{}'), contentLength: '2\r\nContent-Length: 5' },
  { name: 'a __proto__ key', body: Buffer.from('{"__proto__": {"isAdmin": true}}') },
  { name: 'a constructor.prototype key', body: Buffer.from('{"constructor": {"prototype": {"isAdmin": true}}}') },
  { name: 'an escaped NUL character in a string', body: Buffer.from('{"anything": "a\\u0000b"}'), field: 'anything' },
  { name: 'a raw NUL byte in a string', body: Buffer.from('{"anything": "a\u0000b"}') },
  { name: `nesting deeper than ${MAX_BODY_DEPTH} levels`, body: deep(MAX_BODY_DEPTH + 8) },
  { name: 'nesting 100,000 levels deep', body: deep(100_000) },
];

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Json;
  text: string;
}

/**
 * Sends a request as bytes (so a Content-Length can be wrong) and reads the answer to the end: the
 * request says Connection: close, so the server closes once it has answered.
 */
function sendRaw(baseUrl: string, head: string, body: Buffer): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    // Written, not ended: a client that half-closes may lose the answer (Node's server ends such a connection).
    const socket = connect(Number(port), hostname, () => socket.write(Buffer.concat([Buffer.from(head), body])));
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks).toString('utf8');
      const at = all.indexOf('\r\n\r\n');
      const lines = all.slice(0, at).split('\r\n');
      const headers = Object.fromEntries(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      let text = all.slice(at + 4);
      // A chunked answer (the gateway relays some so): its one chunk.
      if (/chunked/i.test(headers['transfer-encoding'] ?? '')) text = text.slice(text.indexOf('\r\n') + 2, text.lastIndexOf('\r\n0\r\n'));
      let parsed: Json = {};
      try {
        parsed = JSON.parse(text);
      } catch {
        /* asserted below */
      }
      resolve({ status: Number(lines[0].split(' ')[1]), headers, body: parsed, text });
    });
  });
}

/**
 * Every malformed body, sent to one JSON operation of every area, directly to the service (as a
 * Kubernetes ingress reaches it) and through the gateway: each is refused with the one error body
 * of every failure (ARCHITECTURE §3), with the requestId the caller sent in x-request-id, never
 * Fastify's own body and never a 500. A client of the product reads every refusal the same way.
 * The seven services run in this process (one after the other: seven processes starting at once
 * on two cores take longer than a start is given), on one database and NATS namespace, behind the
 * gateway, as in production.
 */
describe('malformed request bodies, on one JSON operation of every area, directly and through the gateway', () => {
  let db: TestDatabase;
  let ns: TestNamespace;
  const services = new Map<AreaName, TestService>();
  let gateway: FastifyInstance | undefined;
  let gatewayUrl: string;
  let token: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    ns = createTestNamespace();
    for (const [area, module, dataSource] of SERVICES) services.set(area, await startTestService(module, { area, dataSource }, { db, ns }));
    runSeed(testEnv(db, ns), ['auth']);
    gateway = buildGateway({ config: { upstreams: Object.fromEntries([...services].map(([area, s]) => [area, s.url])), logLevel: 'silent' }, env: {} });
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    gatewayUrl = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
    token = tokenFor('admin@demo.test');
  }, 180_000);

  afterAll(async () => {
    await gateway?.close();
    for (const s of [...services.values()].reverse()) await s.app.close();
    await db?.drop();
    await ns?.cleanup();
  });

  it('starts every area', () => {
    expect([...services.keys()].sort()).toEqual([...AREAS].sort());
  });

  for (const via of ['service', 'gateway'] as const) {
    for (const c of CASES) {
      it(`answers ${c.name} with a 400 in the house error body, on every area (${via})`, async () => {
        for (const area of AREAS) {
          const op = OPERATIONS[area];
          const requestId = `malformed-${via}-${area}-${CASES.indexOf(c)}`;
          const head =
            `${op.method} ${op.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
            `X-Request-Id: ${requestId}\r\nContent-Length: ${c.contentLength ?? c.body.length}\r\nConnection: close\r\n\r\n`;
          const url = via === 'gateway' ? gatewayUrl : services.get(area)!.url;
          const res = await sendRaw(url, head, c.body);
          const seen = { area, status: res.status, body: res.body };
          expect(seen).toEqual({
            area,
            status: 400,
            body: {
              statusCode: 400,
              timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
              message: expect.any(String),
              error: 'Bad Request',
              path: op.path,
              requestId,
              ...(res.body.errors ? { errors: expect.any(Array) } : {}),
            },
          });
          expect({ area, header: res.headers['x-request-id'] }).toEqual({ area, header: requestId });
          expect(res.body).not.toHaveProperty('code');
          if (c.field) expect({ area, fields: res.body.errors?.map((e: Json) => e.field) }).toEqual({ area, fields: expect.arrayContaining([c.field]) });
        }
      });
    }
  }
});
