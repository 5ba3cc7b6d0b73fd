/**
 * Where the tools (npm run token, seed, migrate, bench) find Postgres and NATS after `npm start`
 * recorded them in .data/runtime.json: the recorded servers while they answer; once they are gone
 * (npm start stopped its embedded Postgres), what `npm start` would find on the local ports; and
 * with nothing there, one line saying what to run. Real servers (the test kit's) and real closed
 * ports; the local ports are pointed at with DDM_LOCAL_PG_PORT / DDM_LOCAL_NATS_PORT, as npm start's are.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_DATABASE_URL, NATS_URL, ROOT, freePort } from '@ddm/testing';
import { RuntimeUnavailable, findRuntime } from './runtime';

const portOf = (url: string) => new URL(url).port;

describe('tools/lib/runtime: the servers npm start recorded, else what it would find', () => {
  let dir: string;
  let closedPg: number;
  let closedNats: number;
  const file = () => join(dir, 'runtime.json');
  const record = (databaseUrl: string, natsUrl: string) =>
    writeFileSync(file(), JSON.stringify({ databaseUrl, appDatabaseUrl: `${databaseUrl}?app`, natsUrl, natsNamespace: '' }));
  /** The local servers npm start would look at: the test kit's (they listen on 127.0.0.1). */
  const local = { DDM_LOCAL_PG_PORT: portOf(ADMIN_DATABASE_URL), DDM_LOCAL_NATS_PORT: portOf(NATS_URL) };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ddm-runtime-'));
    closedPg = await freePort();
    closedNats = await freePort();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('uses the recorded servers while they answer', async () => {
    record(ADMIN_DATABASE_URL, NATS_URL);
    await expect(findRuntime({ file: file(), env: {} })).resolves.toEqual({
      databaseUrl: ADMIN_DATABASE_URL,
      appDatabaseUrl: `${ADMIN_DATABASE_URL}?app`,
      natsUrl: NATS_URL,
      natsNamespace: '',
    });
  });

  it('falls back to the local servers when the recorded ones are gone (npm start stopped)', async () => {
    record(`postgres://postgres:postgres@127.0.0.1:${closedPg}/ddm`, `nats://127.0.0.1:${closedNats}`);
    const rt = await findRuntime({ file: file(), env: local });
    expect(rt).toMatchObject({ databaseUrl: `postgres://postgres@127.0.0.1:${local.DDM_LOCAL_PG_PORT}/ddm`, natsUrl: `nats://127.0.0.1:${local.DDM_LOCAL_NATS_PORT}` });
    expect(rt.appDatabaseUrl).not.toContain(String(closedPg));
  });

  it('says in one line what to run when nothing answers', async () => {
    record(`postgres://postgres:postgres@127.0.0.1:${closedPg}/ddm`, `nats://127.0.0.1:${closedNats}`);
    const nothing = { DDM_LOCAL_PG_PORT: String(closedPg), DDM_LOCAL_NATS_PORT: String(closedNats) };
    const err = await findRuntime({ file: file(), env: nothing }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RuntimeUnavailable);
    expect((err as Error).message).toBe(
      `Postgres at 127.0.0.1:${closedPg} (recorded by npm start in .data/runtime.json) no longer answers, and no Postgres answers on 127.0.0.1:${closedPg}: run \`npm start\` (in another terminal) first, or set DATABASE_URL.`,
    );
    // NATS alone gone: named the same way.
    record(ADMIN_DATABASE_URL, `nats://127.0.0.1:${closedNats}`);
    await expect(findRuntime({ file: file(), env: nothing })).rejects.toThrow(
      `NATS at 127.0.0.1:${closedNats} (recorded by npm start in .data/runtime.json) no longer answers, and no NATS answers on 127.0.0.1:${closedNats}: run \`npm start\` (in another terminal) first, or set NATS_URL.`,
    );
    // A tool that needs only Postgres (npm run token) does not ask for NATS.
    await expect(findRuntime({ file: file(), env: nothing, nats: false })).resolves.toMatchObject({ databaseUrl: ADMIN_DATABASE_URL });
  });

  it('the environment wins, unchecked', async () => {
    record(`postgres://postgres@127.0.0.1:${closedPg}/ddm`, `nats://127.0.0.1:${closedNats}`);
    await expect(findRuntime({ file: file(), env: { DATABASE_URL: 'postgres://x@db.example:5432/ddm', NATS_URL: 'nats://nats.example:4222' } })).resolves.toMatchObject({
      databaseUrl: 'postgres://x@db.example:5432/ddm',
      natsUrl: 'nats://nats.example:4222',
    });
  });

  it('npm run token prints that one line and exits 1, not a stack of ECONNREFUSED', () => {
    // The record npm start left (servers now gone), not the checkout's own .data/runtime.json, which may name live ones.
    record(`postgres://postgres@127.0.0.1:${closedPg}/ddm`, `nats://127.0.0.1:${closedNats}`);
    const nothing = { DDM_LOCAL_PG_PORT: String(closedPg), DDM_LOCAL_NATS_PORT: String(closedNats), DDM_RUNTIME_FILE: file() };
    const env: NodeJS.ProcessEnv = { ...process.env, ...nothing };
    for (const name of ['DATABASE_URL', 'MIGRATION_DATABASE_URL', 'NATS_URL', 'TEST_DATABASE_URL']) delete env[name];
    const run = spawnSync(process.execPath, [join(ROOT, 'dist/tools/token.js'), 'admin@demo.test'], { env, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^Postgres at 127\.0\.0\.1:\d+ \(recorded by npm start in \.data\/runtime\.json\) no longer answers, .*run `npm start` \(in another terminal\) first, or set DATABASE_URL\.$/m);
  });
});
