/**
 * npm run bench:gateway -- [--duration 10] [--connections 16] [--warmup 3]
 *
 * What the gateway costs: GET /auth/v1/user/tenant/{tenantId}/details measured directly against
 * the auth service and through the gateway, in one run, on loopback. Seeds the demo data, starts
 * auth and the gateway as child processes, warms both paths up, then runs direct, gateway,
 * direct, gateway and keeps the better run of each. Prints a table, the gateway/direct ratio and
 * one JSON line. Exits 1 if any response was not a 200. The children are stopped in every case.
 */
import { once } from 'node:events';
import { DEV_KEYS_DIR, runtime } from '../lib/runtime';
import { signDevToken } from '../lib/sign';
import { BENCH_DEFAULTS, BENCH_RATE_LIMITS, best, Column, failUnlessAll200, fetchJson, log, measureRounds, parseArgs, printReport, Run, runBench, runsNote, runsTable, spawnScript, startService, stopChildren, summary, Target, warmUp } from './lib';

const NATS_NAMESPACE = 'bench';
const DEMO_TENANT = 'Demo Co';
const USER = 'admin@demo.test';
const READY_TIMEOUT_MS = 60_000;
const USAGE = 'npm run bench:gateway -- [--duration <s>] [--connections <n>] [--warmup <s>]';

type Key = { target: 'direct' | 'gateway' };

async function seed(env: Record<string, string>): Promise<string> {
  const child = spawnScript('dist/tools/seed.js', env, 'pipe');
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`seed failed (exit ${code})`);
  // The seed prints its result last, pretty-printed; a warning logged before it (pino, one line) is skipped.
  const start = out.lastIndexOf('{\n  "tenants"');
  const result = JSON.parse(start >= 0 ? out.slice(start) : out) as { tenants: { id: string; name: string }[] };
  const tenant = result.tenants.find((t) => t.name === DEMO_TENANT);
  if (!tenant) throw new Error(`the seed did not report the "${DEMO_TENANT}" tenant`);
  return tenant.id;
}

/** The figures of this benchmark's table (wider columns, the non-200 answers and the errors apart). */
const right = (title: string, width: number, of: (r: Run<Key>) => string | number): Column<Run<Key>> => ({ title, width, of, right: true });
const COLUMNS: Column<Run<Key>>[] = [
  right('round', 5, (r) => r.round),
  right('req/s', 8, (r) => r.rps),
  right('p50 ms', 7, (r) => r.p50.toFixed(2)),
  right('p95 ms', 7, (r) => r.p95.toFixed(2)),
  right('p99 ms', 7, (r) => r.p99.toFixed(2)),
  right('requests', 9, (r) => r.requests),
  right('non-200', 7, (r) => r.non200),
  right('errors', 6, (r) => r.errors),
];

async function main() {
  const opts = parseArgs(process.argv.slice(2), USAGE, BENCH_DEFAULTS);
  const rt = await runtime();
  const baseEnv = { DATABASE_URL: rt.appDatabaseUrl, MIGRATION_DATABASE_URL: rt.databaseUrl, NATS_URL: rt.natsUrl, NATS_NAMESPACE, DEV_KEYS_DIR, LOG_LEVEL: 'warn', ...BENCH_RATE_LIMITS };

  log(`seeding (${rt.databaseUrl.replace(/\/\/[^@]*@/, '//')})`);
  const tenantId = await seed(baseEnv);
  const token = signDevToken({ sub: `dev|${USER}`, email: USER }, DEV_KEYS_DIR, '1h');
  const headers = { authorization: `Bearer ${token}` };

  const auth = await startService('auth', 'dist/apps/auth/src/main.js', { ...baseEnv, AUTH_DEV_KEYS: 'true', HOST: '127.0.0.1' }, READY_TIMEOUT_MS);
  const gateway = await startService('gateway', 'dist/apps/gateway/src/main.js', { AUTH_URL: auth.base, HOST: '127.0.0.1' }, READY_TIMEOUT_MS);

  const path = `/auth/v1/user/tenant/${tenantId}/details`;
  const targets: Target<Key>[] = [
    { key: { target: 'direct' }, url: `${auth.base}${path}`, headers },
    { key: { target: 'gateway' }, url: `${gateway.base}${path}`, headers },
  ];
  for (const t of targets) await fetchJson(t.key.target, t);

  const warmups = await warmUp(targets, opts);
  const runs = await measureRounds(targets, opts);

  const direct = best(runs, { target: 'direct' });
  const viaGateway = best(runs, { target: 'gateway' });
  const ratio = viaGateway.rps / direct.rps;
  const overheadPct = (1 - ratio) * 100;
  printReport(
    [
      `GET ${path} — ${runsNote(opts)}`,
      '',
      ...runsTable(runs, [{ title: 'target', width: 8, of: (r) => r.target }], new Set([direct, viaGateway]), COLUMNS),
      '',
      `gateway/direct req/s: ${ratio.toFixed(3)}  (overhead ${overheadPct.toFixed(1)} %; p95 ${direct.p95.toFixed(2)} -> ${viaGateway.p95.toFixed(2)} ms)`,
    ],
    {
      bench: 'gateway',
      path: '/auth/v1/user/tenant/{tenantId}/details',
      connections: opts.connections,
      durationSec: opts.duration,
      direct: summary(direct),
      gateway: summary(viaGateway),
      ratio: Math.round(ratio * 1000) / 1000,
      overheadPct: Math.round(overheadPct * 10) / 10,
      runs,
    },
  );
  failUnlessAll200([...warmups, ...runs], (r) => `${r.target}#${r.round}`);
}

runBench(main, () => stopChildren(5_000));
