import { AreaName, ROUTES } from '@ddm/contracts';
import { TestDatabase, createTestDatabase } from './database';
import { HttpClient, httpClient } from './http';
import { TestNamespace, createTestNamespace } from './nats';
import { RunningProcess, freePort, runSeed, spawnBuilt } from './processes';
import { testEnv } from './service';

export interface RunningSystem {
  /** The gateway, as clients call it. */
  gateway: RunningProcess;
  http: HttpClient;
  /** Each service started, by area. */
  services: Map<AreaName, RunningProcess>;
  /** The environment the services run with (for the seed and other tools). */
  env: Record<string, string>;
  /** Stops the gateway and the services (the database and namespace stay the caller's). */
  stop(): Promise<void>;
}

/**
 * The system as `npm start` runs it: built services (all seven, or `areas`) as their own
 * processes on one database and one NATS namespace, behind the built gateway.
 */
export async function startSystem(
  db: TestDatabase,
  ns: TestNamespace,
  options: { areas?: readonly AreaName[]; env?: Record<string, string>; gatewayEnv?: Record<string, string> } = {},
): Promise<RunningSystem> {
  const env = testEnv(db, ns, { LOG_LEVEL: 'warn', DB_POOL_SIZE: '3', ...options.env });
  const routes = ROUTES.filter((r) => !options.areas || options.areas.includes(r.area));
  const services = new Map<AreaName, RunningProcess>();
  try {
    // Started together, as in a cluster: each migrates its own schema (database-wide work waits on one lock).
    // allSettled: when one fails, the others have finished starting and are stopped below.
    const started = await Promise.allSettled(
      routes.map(async (r) => services.set(r.area, await spawnBuilt(`apps/${r.area}/src/main.js`, { ...env, PORT: String(await freePort()) }))),
    );
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    const upstreams = Object.fromEntries([...services].map(([area, p]) => [`${area.toUpperCase()}_URL`, p.url]));
    const gateway = await spawnBuilt('apps/gateway/src/main.js', { ...upstreams, LOG_LEVEL: 'warn', ...options.gatewayEnv, PORT: String(await freePort()) }, '/health/live');
    return {
      gateway,
      http: httpClient(gateway.url),
      services,
      env,
      stop: async () => {
        await gateway.stop();
        await Promise.all([...services.values()].map((p) => p.stop()));
      },
    };
  } catch (err) {
    await Promise.all([...services.values()].map((p) => p.stop()));
    throw err;
  }
}

/** A running system on a test database and namespace of its own, seeded. */
export interface TestSystem extends RunningSystem {
  db: TestDatabase;
  ns: TestNamespace;
  /** The seed's answer (runSeed). */
  seeded: ReturnType<typeof runSeed>;
  /** Stops the gateway and the services, drops the database and the namespace's streams. */
  close(): Promise<void>;
}

/**
 * startSystem on a fresh test database and NATS namespace, then the seed: every area, or `seed`
 * (SEED_AREAS). For the specs that drive the system behind the gateway.
 */
export async function startTestSystem(options: { areas?: readonly AreaName[]; env?: Record<string, string>; gatewayEnv?: Record<string, string>; seed?: readonly string[] } = {}): Promise<TestSystem> {
  const db = await createTestDatabase();
  const ns = createTestNamespace();
  let system: RunningSystem | undefined;
  const close = async () => {
    await system?.stop();
    await db.drop();
    await ns.cleanup();
  };
  try {
    system = await startSystem(db, ns, options);
    const seeded = runSeed(system.env, options.seed && [...options.seed]);
    return { ...system, db, ns, seeded, close };
  } catch (err) {
    await close();
    throw err;
  }
}
