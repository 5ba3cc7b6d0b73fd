import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './processes';

/** A PostgreSQL server of one spec, which it may stop and start again (the shared one serves every file at once). */
export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication). */
  url: string;
  port: number;
  /** `pg_ctl stop -m fast`: open connections are terminated (57P01), new ones refused; the data stays. */
  stopServer(): Promise<void>;
  /** Starts it again (after `stopServer`) on the same port and data folder; resolves once it accepts connections. */
  startServer(): Promise<void>;
  /** Stops the server and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * The folder holding initdb, pg_ctl and postgres: DDM_PG_BIN_DIR, else the newest
 * /usr/lib/postgresql/<version>/bin, else the one of `pg_ctl` on PATH. Fails naming what is
 * missing (a spec that needs its own server fails, it does not skip).
 */
export function postgresBinDir(): string {
  const has = (dir: string) => ['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(join(dir, b)));
  const given = process.env.DDM_PG_BIN_DIR;
  if (given) {
    if (!has(given)) throw new Error(`DDM_PG_BIN_DIR=${given} holds no initdb, pg_ctl and postgres`);
    return given;
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (has(join(root, v, 'bin'))) return join(root, v, 'bin');
  const which = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' });
  const onPath = which.status === 0 ? which.stdout.trim() : '';
  if (onPath) {
    const real = execFileSync('readlink', ['-f', onPath], { encoding: 'utf8' }).trim();
    const dir = real.slice(0, real.lastIndexOf('/'));
    if (has(dir)) return dir;
  }
  throw new Error('PostgreSQL server binaries (initdb, pg_ctl, postgres) not found: install the postgresql package, or set DDM_PG_BIN_DIR');
}

/**
 * Starts a PostgreSQL server of its own on a free port, with its data and socket in a temporary
 * folder, trust authentication for user `postgres`. Postgres refuses to run as root: as root, the
 * folder is given to the `postgres` user and the server runs as that user (runuser).
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  const root = process.getuid?.() === 0;
  const owner = root ? osUser('postgres') : undefined;
  if (root && !owner) throw new Error('running as root, and there is no "postgres" user to run a private PostgreSQL server as');
  const dir = mkdtempSync(join(tmpdir(), 'ddm-pg-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const port = await freePort();
  const run = (tool: string, args: string[]) => {
    const [cmd, argv] = owner ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
    const out = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 60_000 });
    if (out.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${out.status ?? out.signal}): ${out.stderr || out.stdout || out.error?.message}`);
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const startServer = async () => {
    run('pg_ctl', ['start', '-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '30']);
    await accepting(url);
  };
  let running = false;
  const stopServer = async () => {
    if (!running) return;
    run('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w', '-t', '30']);
    running = false;
  };
  try {
    await startServer();
    running = true;
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    port,
    stopServer,
    startServer: async () => {
      await startServer();
      running = true;
    },
    stop: async () => {
      try {
        await stopServer();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function osUser(name: string): { uid: number; gid: number } | undefined {
  const out = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  if (out.status !== 0) return undefined;
  const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  return { uid: Number(out.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Resolves once the server answers a query (pg_ctl -w waits for the postmaster; this also waits for recovery). */
async function accepting(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const c = new Client({ connectionString: url });
    try {
      await c.connect();
      await c.query('SELECT 1');
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`the private PostgreSQL at ${url} does not accept connections: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await c.end().catch(() => undefined);
    }
  }
}
