import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { asAppRole } from '@ddm/platform';

export { asAppRole };

/** Repository root (tools run from dist/tools/...). */
export const ROOT = resolve(__dirname, existsSync(resolve(__dirname, '../../package.json')) ? '../..' : '../../..');
export const DATA_DIR = join(ROOT, '.data');
export const DEV_KEYS_DIR = process.env.DEV_KEYS_DIR || join(DATA_DIR, 'dev-keys');
export const RUNTIME_FILE = join(DATA_DIR, 'runtime.json');

export interface Runtime {
  /** The schema owner's (migrations, seeds' checks). */
  databaseUrl: string;
  /** The services' own role: row-level security applies to it. */
  appDatabaseUrl: string;
  natsUrl: string;
  natsNamespace: string;
}

/** Postgres or NATS is nowhere to be found; the message is the one line to print. */
export class RuntimeUnavailable extends Error {}

const PROBE_TIMEOUT_MS = 1500;

/** Whether a Postgres server accepts `url` (a wrong database or password still says a server is there: the tool reports that itself). */
async function postgresAnswers(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  client.on('error', () => {});
  try {
    await client.connect();
    return true;
  } catch (err) {
    return !['ECONNREFUSED', 'EADDRNOTAVAIL', 'EHOSTUNREACH', 'ENOTFOUND'].includes((err as { code?: string }).code ?? '') && !/timeout/i.test((err as Error).message);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Whether a NATS server answers at `url` (it greets every client with an INFO line). */
function natsAnswers(url: string): Promise<boolean> {
  const first = url.split(',')[0];
  const { hostname, port } = new URL(first.includes('://') ? first : `nats://${first}`);
  return new Promise((done) => {
    const socket = connect({ host: hostname, port: Number(port || 4222) });
    let data = '';
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      done(ok);
    };
    const timer = setTimeout(() => finish(false), PROBE_TIMEOUT_MS);
    socket.on('data', (chunk) => {
      data += chunk.toString();
      if (data.length >= 5) finish(data.startsWith('INFO '));
    });
    socket.on('error', () => finish(false));
    socket.on('close', () => finish(false));
  });
}

const hostOf = (url: string) => {
  const u = new URL(url.split(',')[0]);
  return `${u.hostname}:${u.port}`;
};

/**
 * Where Postgres and NATS are: the environment (used as it is), else what `npm start` recorded in
 * .data/runtime.json while those servers still answer, else what `npm start` would find (Postgres
 * on 127.0.0.1:5432 or DDM_LOCAL_PG_PORT, NATS on 127.0.0.1:4222 or DDM_LOCAL_NATS_PORT). Once
 * `npm start` has stopped, its embedded Postgres and spawned nats-server are gone: then the local
 * servers, or a RuntimeUnavailable saying in one line what to run. `nats: false` for a tool that
 * needs only Postgres (its NATS URL is then not checked).
 */
export async function findRuntime(options: { file?: string; env?: NodeJS.ProcessEnv; nats?: boolean } = {}): Promise<Runtime> {
  const env = options.env ?? process.env;
  // DDM_RUNTIME_FILE: another record to read (a spec's, so that the checkout's own never decides its outcome).
  const file = options.file ?? env.DDM_RUNTIME_FILE ?? RUNTIME_FILE;
  const saved: Partial<Runtime> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const localDatabaseUrl = `postgres://postgres@127.0.0.1:${env.DDM_LOCAL_PG_PORT || 5432}/ddm`;
  const localNatsUrl = `nats://127.0.0.1:${env.DDM_LOCAL_NATS_PORT || 4222}`;
  const stale: string[] = [];

  let databaseUrl = env.MIGRATION_DATABASE_URL || env.DATABASE_URL;
  let appDatabaseUrl = env.MIGRATION_DATABASE_URL && env.DATABASE_URL ? env.DATABASE_URL : undefined;
  if (!databaseUrl && saved.databaseUrl) {
    if (await postgresAnswers(saved.databaseUrl)) {
      databaseUrl = saved.databaseUrl;
      appDatabaseUrl = saved.appDatabaseUrl;
    } else stale.push(`Postgres at ${hostOf(saved.databaseUrl)}`);
  }
  if (!databaseUrl) {
    if (!(await postgresAnswers(localDatabaseUrl.replace(/\/ddm$/, '/postgres')))) {
      throw new RuntimeUnavailable(
        `${stale.length ? `${stale[0]} (recorded by npm start in .data/runtime.json) no longer answers, and no` : 'No'} Postgres answers on ${hostOf(localDatabaseUrl)}: run \`npm start\` (in another terminal) first, or set DATABASE_URL.`,
      );
    }
    databaseUrl = localDatabaseUrl;
  }

  let natsUrl = env.NATS_URL;
  if (!natsUrl && options.nats === false) natsUrl = saved.natsUrl || localNatsUrl;
  if (!natsUrl && saved.natsUrl) {
    if (await natsAnswers(saved.natsUrl)) natsUrl = saved.natsUrl;
    else stale.push(`NATS at ${hostOf(saved.natsUrl)}`);
  }
  if (!natsUrl) {
    if (!(await natsAnswers(localNatsUrl))) {
      const recorded = saved.natsUrl ? `NATS at ${hostOf(saved.natsUrl)} (recorded by npm start in .data/runtime.json) no longer answers, and no` : 'No';
      throw new RuntimeUnavailable(`${recorded} NATS answers on ${hostOf(localNatsUrl)}: run \`npm start\` (in another terminal) first, or set NATS_URL.`);
    }
    natsUrl = localNatsUrl;
  }
  if (stale.length) process.stderr.write(`${stale.join(' and ')} recorded in .data/runtime.json no longer answer${stale.length > 1 ? '' : 's'} (npm start has stopped): using ${[databaseUrl === localDatabaseUrl ? `Postgres on ${hostOf(localDatabaseUrl)}` : '', natsUrl === localNatsUrl ? `NATS on ${hostOf(localNatsUrl)}` : ''].filter(Boolean).join(' and ')}\n`);
  return {
    databaseUrl,
    appDatabaseUrl: appDatabaseUrl || asAppRole(databaseUrl),
    natsUrl,
    natsNamespace: env.NATS_NAMESPACE ?? saved.natsNamespace ?? '',
  };
}

/** findRuntime for a command-line tool: when nothing answers, the one line on stderr and exit 1. */
export async function runtime(options: { nats?: boolean } = {}): Promise<Runtime> {
  try {
    return await findRuntime(options);
  } catch (err) {
    if (!(err instanceof RuntimeUnavailable)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
