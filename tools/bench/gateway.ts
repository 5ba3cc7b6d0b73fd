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
import { BENCH_RATE_LIMITS, Stats, failUnlessAll200, freePort, log, measure, pad, parseArgs, runBench, spawnScript, start, stopChildren, summary, waitReady } from './lib';

const NATS_NAMESPACE = 'bench';
const DEMO_TENANT = 'Demo Co';
const USER = 'admin@demo.test';
const READY_TIMEOUT_MS = 60_000;
const USAGE = 'npm run bench:gateway -- [--duration <s>] [--connections <n>] [--warmup <s>]';

interface Run extends Stats {
  target: 'direct' | 'gateway';
  round: number;
}

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

async function checkOnce(name: string, url: string, headers: Record<string, string>): Promise<void> {
  const res = await fetch(url, { headers });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${name}: GET ${url} answered ${res.status}: ${body.slice(0, 300)}`);
}

async function run(target: Run['target'], round: number, url: string, headers: Record<string, string>, connections: number, duration: number): Promise<Run> {
  return { target, round, ...(await measure(url, headers, connections, duration)) };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2), { duration: 10, connections: 16, warmup: 3 }, USAGE);
  const rt = runtime();
  const baseEnv = { DATABASE_URL: rt.appDatabaseUrl, MIGRATION_DATABASE_URL: rt.databaseUrl, NATS_URL: rt.natsUrl, NATS_NAMESPACE, DEV_KEYS_DIR, LOG_LEVEL: 'warn', ...BENCH_RATE_LIMITS };

  log(`seeding (${rt.databaseUrl.replace(/\/\/[^@]*@/, '//')})`);
  const tenantId = await seed(baseEnv);
  const token = signDevToken({ sub: `dev|${USER}`, email: USER }, DEV_KEYS_DIR, '1h');
  const headers = { authorization: `Bearer ${token}` };

  const [authPort, gatewayPort] = [await freePort(), await freePort()];
  const authBase = `http://127.0.0.1:${authPort}`;
  const gatewayBase = `http://127.0.0.1:${gatewayPort}`;
  log(`starting auth on ${authPort} and the gateway on ${gatewayPort}`);
  const auth = start('auth', 'dist/apps/auth/src/main.js', { ...baseEnv, AUTH_DEV_KEYS: 'true', PORT: String(authPort), HOST: '127.0.0.1' });
  const gateway = start('gateway', 'dist/apps/gateway/src/main.js', { AUTH_URL: authBase, PORT: String(gatewayPort), HOST: '127.0.0.1' });
  await Promise.all([waitReady('auth', auth, authBase, READY_TIMEOUT_MS), waitReady('gateway', gateway, gatewayBase, READY_TIMEOUT_MS)]);

  const path = `/auth/v1/user/tenant/${tenantId}/details`;
  const urls = { direct: `${authBase}${path}`, gateway: `${gatewayBase}${path}` };
  await checkOnce('direct', urls.direct, headers);
  await checkOnce('gateway', urls.gateway, headers);

  const warmups: Run[] = [];
  if (opts.warmup > 0) {
    log(`warming up (${opts.warmup} s each)`);
    warmups.push(await run('direct', 0, urls.direct, headers, opts.connections, opts.warmup));
    warmups.push(await run('gateway', 0, urls.gateway, headers, opts.connections, opts.warmup));
  }
  const runs: Run[] = [];
  for (const [round, target] of [[1, 'direct'], [1, 'gateway'], [2, 'direct'], [2, 'gateway']] as const) {
    log(`${target} run ${round}: ${opts.connections} connections, ${opts.duration} s`);
    runs.push(await run(target, round, urls[target], headers, opts.connections, opts.duration));
  }

  const best = (target: Run['target']) => runs.filter((r) => r.target === target).reduce((a, b) => (b.rps > a.rps ? b : a));
  const direct = best('direct');
  const viaGateway = best('gateway');
  const ratio = viaGateway.rps / direct.rps;
  const overheadPct = (1 - ratio) * 100;

  const lines = [
    `GET ${path} — ${opts.connections} connections, ${opts.duration} s per run, better of 2 runs each`,
    '',
    `${'target'.padEnd(8)} ${pad('round', 5)} ${pad('req/s', 8)} ${pad('p50 ms', 7)} ${pad('p95 ms', 7)} ${pad('p99 ms', 7)} ${pad('requests', 9)} ${pad('non-200', 7)} ${pad('errors', 6)}`,
    ...runs.map(
      (r) =>
        `${r.target.padEnd(8)} ${pad(r.round, 5)} ${pad(r.rps, 8)} ${pad(r.p50.toFixed(2), 7)} ${pad(r.p95.toFixed(2), 7)} ${pad(r.p99.toFixed(2), 7)} ${pad(r.requests, 9)} ${pad(r.non200, 7)} ${pad(r.errors, 6)}${r === direct || r === viaGateway ? '  *' : ''}`,
    ),
    '',
    `gateway/direct req/s: ${ratio.toFixed(3)}  (overhead ${overheadPct.toFixed(1)} %; p95 ${direct.p95.toFixed(2)} -> ${viaGateway.p95.toFixed(2)} ms)`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  process.stdout.write(
    JSON.stringify({
      bench: 'gateway',
      path: '/auth/v1/user/tenant/{tenantId}/details',
      connections: opts.connections,
      durationSec: opts.duration,
      direct: summary(direct),
      gateway: summary(viaGateway),
      ratio: Math.round(ratio * 1000) / 1000,
      overheadPct: Math.round(overheadPct * 10) / 10,
      runs,
    }) + '\n',
  );

  failUnlessAll200([...warmups, ...runs], (r) => `${r.target}#${r.round}`);
}

runBench(main, () => stopChildren(5_000));
