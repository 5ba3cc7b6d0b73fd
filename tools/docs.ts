/**
 * npm run docs: writes the API contract the system serves into the repository, so every contract
 * change shows in review:
 *   docs/openapi.json    the merged OpenAPI document the gateway serves at /docs-json
 *   docs/asyncapi.json   the AsyncAPI document of every event (gateway: /docs/asyncapi.json)
 *   libs/testing/src/api/openapi.d.ts   the typed client's types, generated from docs/openapi.json
 * It starts the seven services and the gateway on a scratch database and NATS namespace (Postgres
 * and NATS as the tests find them), fetches what they serve, and stops them. A spec fails when the
 * committed files differ from what is served (apps/gateway/test/system.e2e-spec.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { ADMIN_DATABASE_URL, ROOT, createTestNamespace, randomName, startSystem, withDatabase } from '@ddm/testing';

export const OPENAPI_FILE = join(ROOT, 'docs/openapi.json');
export const ASYNCAPI_FILE = join(ROOT, 'docs/asyncapi.json');
export const CLIENT_TYPES_FILE = join(ROOT, 'libs/testing/src/api/openapi.d.ts');

/**
 * openapi-typescript's options: a field with a default is still optional in a request
 * (its `defaultNonNullable` would make it required).
 */
export const OPENAPI_TYPESCRIPT_OPTIONS = ['--default-non-nullable', 'false'];

/** The committed form of a document: two-space JSON and a final newline. */
export const documentText = (doc: unknown) => JSON.stringify(doc, null, 2) + '\n';

async function admin<T>(work: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: ADMIN_DATABASE_URL });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

async function main() {
  const name = randomName('ddm_docs_');
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const ns = createTestNamespace();
  const db = { name, url: withDatabase(ADMIN_DATABASE_URL, name), drop: () => admin(async (c) => void (await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))) };
  try {
    const system = await startSystem(db, ns);
    try {
      const openapi = await system.http.get('/docs-json');
      const asyncapi = await system.http.get('/docs/asyncapi.json');
      if (openapi.status !== 200 || asyncapi.status !== 200) throw new Error(`the gateway answered ${openapi.status} and ${asyncapi.status}`);
      const missing: string[] = openapi.body['x-unavailable-areas'] ?? [];
      if (missing.length) throw new Error(`the merged document is missing areas that did not answer: ${missing.join(', ')}`);
      mkdirSync(join(ROOT, 'docs'), { recursive: true });
      writeFileSync(OPENAPI_FILE, documentText(openapi.body));
      writeFileSync(ASYNCAPI_FILE, documentText(asyncapi.body));
    } finally {
      await system.stop();
    }
  } finally {
    await db.drop();
    await ns.cleanup();
  }
  mkdirSync(join(ROOT, 'libs/testing/src/api'), { recursive: true });
  execFileSync(process.execPath, [join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), OPENAPI_FILE, ...OPENAPI_TYPESCRIPT_OPTIONS, '--output', CLIENT_TYPES_FILE], { stdio: 'inherit' });
  process.stderr.write(`docs: wrote ${OPENAPI_FILE}, ${ASYNCAPI_FILE} and ${CLIENT_TYPES_FILE}\n`);
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`docs failed: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
}
