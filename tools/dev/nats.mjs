// NATS for `npm start`: NATS_URL, else a server on 127.0.0.1:4222, else `nats-server -js`
// from PATH (JetStream data in .data/nats), else a message saying how to get one.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join, relative } from 'node:path';
import { isAlive, preferredOrFreePort, sleep, stopChild, tail } from './util.mjs';

const LOCAL_PORT = 4222;

export class NatsUnavailable extends Error {}

/**
 * Picks (and if needed starts) a NATS server. Returns { url, kind }. `track(handle)` is called
 * as soon as a process is started (see resolvePostgres).
 */
export async function resolveNats({ root, log, debug, track, forceSpawn }) {
  if (forceSpawn) {
    if (process.env.NATS_URL) log('DDM_SPAWN_NATS is set: ignoring NATS_URL');
  } else if (process.env.NATS_URL) {
    return { url: process.env.NATS_URL, kind: 'NATS_URL' };
  } else if (await probeNats('127.0.0.1', LOCAL_PORT)) {
    return { url: `nats://127.0.0.1:${LOCAL_PORT}`, kind: `local, 127.0.0.1:${LOCAL_PORT}` };
  }
  const bin = findNatsServer();
  if (!bin) {
    throw new NatsUnavailable(
      [
        `no NATS server: NATS_URL is not set, nothing answers on 127.0.0.1:${LOCAL_PORT}, and nats-server is not on PATH.`,
        'Get one of these, then run npm start again:',
        '  - install nats-server: apt-get install nats-server (Debian/Ubuntu), brew install nats-server (macOS),',
        '    or download it from https://nats.io/download/ (https://github.com/nats-io/nats-server/releases) onto your PATH',
        `  - run one in Docker: docker run -d -p ${LOCAL_PORT}:4222 nats -js`,
        '  - or use an existing server: NATS_URL=nats://host:4222 npm start',
      ].join('\n'),
    );
  }
  return spawnNats({ bin, root, debug, track });
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

/** nats-server from PATH (plus the sbin folders, which a non-root PATH often lacks). */
function findNatsServer() {
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

async function spawnNats({ bin, root, debug, track }) {
  const storeDir = join(root, '.data', 'nats');
  mkdirSync(storeDir, { recursive: true });
  const port = await preferredOrFreePort(LOCAL_PORT);
  const output = tail();
  const child = spawn(bin, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], {
    cwd: root,
    detached: true, // own process group: a terminal Ctrl-C reaches only the launcher
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
