// NATS for `npm start` and for the tests (tools/jest/services.mjs): NATS_URL, else a server on
// 127.0.0.1:4222, else `nats-server -js` from PATH (JetStream data in .data/nats, or
// .data/test-nats for the tests), else a message saying how to get one.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join, relative } from 'node:path';
import { isAlive, portFromEnv, preferredOrFreePort, sleep, stopChild, tail } from './util.mjs';

const SPAWN_PORT = 4222;

/** The local port looked at: 4222, or DDM_LOCAL_NATS_PORT (a closed port there tries the spawn fallback). */
export const localNatsPort = () => portFromEnv('DDM_LOCAL_NATS_PORT', 4222);

export class NatsUnavailable extends Error {}

/**
 * Picks (and if needed starts) a NATS server. Returns { url, kind }. `track(handle)` is called
 * as soon as a process is started (see resolvePostgres); spawnNats lists the other options.
 */
export async function resolveNats(options) {
  const found = await findNats(options);
  if (found) return found;
  const bin = findNatsServer();
  if (!bin) {
    const port = localNatsPort();
    throw new NatsUnavailable(
      [
        `no NATS server: NATS_URL is not set, nothing answers on 127.0.0.1:${port}, and nats-server is not on PATH.`,
        'Get one of these, then run npm start again:',
        '  - install nats-server: apt-get install nats-server (Debian/Ubuntu), brew install nats-server (macOS),',
        '    or download it from https://nats.io/download/ (https://github.com/nats-io/nats-server/releases) onto your PATH',
        `  - run one in Docker: docker run -d -p ${port}:4222 nats -js`,
        '  - or use an existing server: NATS_URL=nats://host:4222 npm start',
      ].join('\n'),
    );
  }
  return spawnNats({ ...options, bin });
}

/** A NATS server that is there already, without starting anything: { url, kind }, or null. */
export async function findNats({ log, forceSpawn }) {
  if (forceSpawn) {
    if (process.env.NATS_URL) log('DDM_SPAWN_NATS is set: ignoring NATS_URL');
    return null;
  }
  if (process.env.NATS_URL) return { url: process.env.NATS_URL, kind: 'NATS_URL' };
  const port = localNatsPort();
  if (await probeNats('127.0.0.1', port)) return { url: `nats://127.0.0.1:${port}`, kind: `local, 127.0.0.1:${port}` };
  return null;
}

/** True when a NATS server answers on host:port (it greets every client with an INFO line). */
export function probeNats(host, port, timeoutMs = 1500) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let data = '';
    const done = (ok) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('data', (chunk) => {
      data += chunk;
      if (data.length >= 5) done(data.startsWith('INFO '));
    });
    socket.on('error', () => done(false));
    socket.on('close', () => done(false));
  });
}

/** nats-server from PATH (plus the sbin folders, which a non-root PATH often lacks), or null. */
export function findNatsServer() {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/local/sbin', '/usr/sbin', '/sbin', '/usr/local/bin', '/opt/homebrew/bin'];
  for (const dir of dirs.filter(Boolean)) {
    const candidate = join(dir, process.platform === 'win32' ? 'nats-server.exe' : 'nats-server');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* not here */
    }
  }
  return null;
}

/**
 * Starts `bin` with JetStream on loopback. storeDir: JetStream's folder (.data/nats); port: the
 * preferred port, 0 for any free one (4222, else a free one); detached: its own process group
 * (npm start stops it itself, after the services; the tests keep it in jest's, so a Ctrl-C stops it).
 */
export async function spawnNats({ bin, root, debug, track, storeDir = join(root, '.data', 'nats'), port: preferredPort = SPAWN_PORT, detached = true }) {
  mkdirSync(storeDir, { recursive: true });
  const port = await preferredOrFreePort(preferredPort);
  const output = tail();
  const child = spawn(bin, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], {
    cwd: root,
    detached,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const onData = (d) => {
    output.push(d);
    if (debug) for (const line of String(d).split('\n')) if (line) process.stderr.write(`nats-server: ${line}\n`);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  let spawnError;
  child.once('error', (err) => (spawnError = err));
  track({ name: 'nats-server', child, stop: () => stopChild(child, { signal: 'SIGTERM', timeoutMs: 10_000 }) });

  const deadline = Date.now() + 20_000;
  for (;;) {
    if (await probeNats('127.0.0.1', port, 500)) break;
    if (!isAlive(child)) {
      await sleep(100);
      const how = spawnError ? spawnError.message : child.signalCode ? `signal ${child.signalCode}` : `code ${child.exitCode}`;
      throw new Error(`nats-server (${bin}) exited during start-up (${how}):\n${output}`);
    }
    if (Date.now() > deadline) throw new Error(`nats-server did not answer on 127.0.0.1:${port} within 20 s:\n${output}`);
    await sleep(150);
  }
  return { url: `nats://127.0.0.1:${port}`, kind: `spawned ${bin}, JetStream in ${relative(root, storeDir)}, pid ${child.pid}` };
}
