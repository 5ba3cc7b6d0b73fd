// Small helpers shared by the dev launcher (tools/dev/start.mjs) and the jest setup (tools/jest/services.mjs).
import { once } from 'node:events';
import { createServer } from 'node:net';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** An environment flag such as DDM_EMBEDDED_PG=1. */
export const truthy = (v) => ['1', 'true', 'yes', 'on'].includes(String(v ?? '').toLowerCase());

/** A port from the environment variable `name`, else `fallback`; a bad value is an error rather than silently the default. */
export function portFromEnv(name, fallback) {
  const raw = process.env[name];
  if (!raw) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${name} must be a port number (got "${raw}")`);
  return port;
}

/** True when nothing listens on `port` (checked by binding it, on all interfaces unless `host`). */
export async function isPortFree(port, host) {
  const server = createServer();
  server.unref();
  try {
    server.listen({ port, host, exclusive: true });
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([err]) => Promise.reject(err))]);
  } catch {
    return false;
  }
  server.close();
  await once(server, 'close');
  return true;
}

/** A free TCP port on loopback. */
export async function freePort() {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

/** `preferred` when it is free on 127.0.0.1, else (and when `preferred` is 0) any free port. */
export async function preferredOrFreePort(preferred) {
  return preferred && (await isPortFree(preferred, '127.0.0.1')) ? preferred : freePort();
}

/** A URL with its password replaced by ***, for printing. */
export function redactUrl(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

/** True while a spawned ChildProcess has not exited. */
export const isAlive = (child) => !!child && child.pid !== undefined && child.exitCode === null && child.signalCode === null;

/**
 * Sends `signal`, waits up to `timeoutMs` for the exit, then sends `thenSignal` (default
 * SIGKILL) and waits again. Resolves with [code, signal].
 */
export async function stopChild(child, { signal = 'SIGTERM', timeoutMs = 20_000, thenSignal = 'SIGKILL', onTimeout } = {}) {
  if (!isAlive(child)) return [child.exitCode, child.signalCode];
  const exited = once(child, 'exit');
  try {
    child.kill(signal);
  } catch {
    /* already gone */
  }
  let timer;
  const timedOut = new Promise((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  const first = await Promise.race([exited, timedOut]);
  clearTimeout(timer);
  if (first !== 'timeout') return first;
  onTimeout?.();
  try {
    child.kill(thenSignal);
  } catch {
    /* already gone */
  }
  return exited;
}

/** Keeps the last `max` characters written to it (for showing a failed process's output). */
export function tail(max = 16_000) {
  let text = '';
  return {
    push(chunk) {
      text = (text + chunk).slice(-max);
    },
    toString() {
      return text;
    },
  };
}
