import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT } from './env';

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  server.close();
  await once(server, 'close');
  return port;
}

export interface RunningProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** SIGTERM, wait for exit; returns the exit code (null if killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Waits until `url` answers 200 (or the process dies, or `timeoutMs` passes). */
export async function waitForOk(url: string, timeoutMs = 30_000, child?: ChildProcess, output?: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`process exited (${child.exitCode}) before ${url} was ready:\n${output?.() ?? ''}`);
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
    } catch {
      /* not yet listening */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${url}:\n${output?.() ?? ''}`);
}

/**
 * Runs a built entry point (dist/...) as its own process, like production does, and waits for
 * its readiness URL. Run `node tools/build.mjs` first (npm test does).
 */
export async function spawnBuilt(entry: string, env: Record<string, string>, readyPath = '/health/ready'): Promise<RunningProcess> {
  const port = env.PORT ?? String(await freePort());
  let out = '';
  const child = spawn(process.execPath, [join(ROOT, 'dist', entry)], {
    env: { ...process.env, ...env, PORT: port },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out = (out + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (out = (out + d).slice(-20_000)));
  const url = `http://127.0.0.1:${port}`;
  const output = () => out;
  try {
    await waitForOk(url + readyPath, 30_000, child, output);
  } catch (err) {
    // Not ready in time: the caller never gets the process to stop, and a child left running keeps jest from exiting.
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
    throw err;
  }
  return {
    child,
    url,
    output,
    stop: async (signal: NodeJS.Signals = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const [code] = (await exited) as [number | null];
      clearTimeout(timer);
      return code;
    },
  };
}

export interface FinishedProcess {
  /** Exit code, null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last 20,000 characters of its stdout and stderr. */
  output: string;
}

/**
 * Runs a built entry point (dist/...) that does its work and exits, such as a service's migrate
 * command, as its own process; killed after `timeoutMs`. Run
 * `node tools/build.mjs` first (npm test does).
 */
export async function runBuilt(entry: string, env: Record<string, string>, timeoutMs = 90_000): Promise<FinishedProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'dist', entry)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output = (output + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (output = (output + d).slice(-20_000)));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  try {
    // 'close' rather than 'exit': all of its output has been read by then.
    const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
    return { code, signal, output };
  } finally {
    clearTimeout(timer);
  }
}

export interface SeededTenants {
  tenants: { id: string; name: string; users: { id: string; email: string; role: string }[] }[];
}

/**
 * Runs the built seed (`npm run seed`) against `env`'s database and NATS; returns its JSON with a
 * tenant-id lookup. `areas` limits what is seeded (SEED_AREAS), e.g. ['auth'] for tenants and users only.
 */
export function runSeed(env: Record<string, string>, areas?: string[]): SeededTenants & { tenantId(name: string): string } {
  const seedEnv = { ...process.env, ...env, ...(areas ? { SEED_AREAS: areas.join(',') } : {}) };
  const seed = spawnSync(process.execPath, [join(ROOT, 'dist/tools/seed.js')], { env: seedEnv, encoding: 'utf8' });
  if (seed.status !== 0) throw new Error(`seed failed: ${seed.stderr}`);
  const seeded = JSON.parse(seed.stdout) as SeededTenants;
  return {
    ...seeded,
    tenantId: (name: string) => {
      const tenant = seeded.tenants.find((t) => t.name === name);
      if (!tenant) throw new Error(`seed made no tenant "${name}"`);
      return tenant.id;
    },
  };
}
