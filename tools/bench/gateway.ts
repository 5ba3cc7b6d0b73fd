/**
 * npm run bench:gateway -- [--duration 10] [--connections 16] [--warmup 3]
 *
 * What the gateway costs: GET /auth/v1/user/tenant/{tenantId}/details measured directly against
 * the auth service and through the gateway, in one run, on loopback. Seeds the demo data, starts
 * auth and the gateway as child processes, warms both paths up, then runs direct, gateway,
 * direct, gateway and keeps the better run of each. Prints a table, the gateway/direct ratio and
 * one JSON line. Exits 1 if any response was not a 200. The children are stopped in every case.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { DEV_KEYS_DIR, ROOT, runtime } from '../lib/runtime';
import { signDevToken } from '../lib/sign';

// autocannon ships no types; the little of its API used here.
interface AutocannonResult {
  duration: number;
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}
interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTimeMs: number) => void): void;
  stop(): void;
}
type Autocannon = (opts: { url: string; connections: number; duration: number; pipelining?: number; headers?: Record<string, string> }) => AutocannonInstance;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon: Autocannon = require('autocannon');

const NATS_NAMESPACE = 'bench';
const DEMO_TENANT = 'Demo Co';
const USER = 'admin@demo.test';
const READY_TIMEOUT_MS = 60_000;

interface Options {
  duration: number;
  connections: number;
  warmup: number;
}

interface Run {
  target: 'direct' | 'gateway';
  round: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  requests: number;
  non200: number;
  errors: number;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { duration: 10, connections: 16, warmup: 3 };
  const limits: Record<keyof Options, [number, number]> = { duration: [1, 120], connections: [1, 256], warmup: [0, 60] };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const key = flag.replace(/^--/, '') as keyof Options;
    if (!flag.startsWith('--') || !(key in opts)) usage(`unknown option ${argv[i]}`);
    const raw = inline ?? argv[++i];
    const n = Number(raw);
    const [min, max] = limits[key];
    if (!Number.isInteger(n) || n < min || n > max) usage(`--${key} must be an integer from ${min} to ${max} (got "${raw}")`);
    opts[key] = n;
  }
  return opts;
}

function usage(msg: string): never {
  process.stderr.write(`${msg}\nusage: npm run bench:gateway -- [--duration <s>] [--connections <n>] [--warmup <s>]\n`);
  process.exit(2);
}

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

const children: ChildProcess[] = [];

function start(name: string, script: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [join(ROOT, script)], { env: { ...process.env, ...env }, stdio: ['ignore', 2, 2] });
  child.once('exit', (code, signal) => {
    if (!stopping) log(`${name} exited early (code ${code}, signal ${signal})`);
  });
  children.push(child);
  return child;
}

let stopping = false;
async function stopChildren(): Promise<void> {
  stopping = true;
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }),
  );
}

async function seed(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [join(ROOT, 'dist/tools/seed.js')], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 2] });
  children.push(child);
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

async function waitReady(name: string, child: ChildProcess, base: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited before it was ready`);
    try {
      const res = await fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(1_000) });
      await res.body?.cancel();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${name} was not ready within ${READY_TIMEOUT_MS / 1000} s (${base}/health/ready)`);
}

async function checkOnce(name: string, url: string, headers: Record<string, string>): Promise<void> {
  const res = await fetch(url, { headers });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${name}: GET ${url} answered ${res.status}: ${body.slice(0, 300)}`);
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function measure(target: Run['target'], round: number, url: string, headers: Record<string, string>, connections: number, duration: number): Promise<Run> {
  let times = new Float64Array(1 << 16);
  let n = 0;
  const instance = autocannon({ url, connections, duration, pipelining: 1, headers });
  // autocannon's own percentiles are whole milliseconds; loopback latencies need finer ones.
  instance.on('response', (_client, _status, _bytes, ms) => {
    if (n === times.length) {
      const bigger = new Float64Array(times.length * 2);
      bigger.set(times);
      times = bigger;
    }
    times[n++] = ms;
  });
  const result = await instance;
  const sorted = times.slice(0, n).sort();
  const ok = result.statusCodeStats['200']?.count ?? 0;
  const answered = Object.values(result.statusCodeStats).reduce((sum, s) => sum + s.count, 0);
  return {
    target,
    round,
    rps: Math.round(result.requests.average),
    p50: round2(percentile(sorted, 50)),
    p95: round2(percentile(sorted, 95)),
    p99: round2(percentile(sorted, 99)),
    requests: answered,
    non200: answered - ok,
    errors: result.errors + result.timeouts,
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const pad = (s: string | number, w: number) => String(s).padStart(w);

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const rt = runtime();
  const baseEnv = { DATABASE_URL: rt.databaseUrl, NATS_URL: rt.natsUrl, NATS_NAMESPACE, DEV_KEYS_DIR, LOG_LEVEL: 'warn' };

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
  await Promise.all([waitReady('auth', auth, authBase), waitReady('gateway', gateway, gatewayBase)]);

  const path = `/auth/v1/user/tenant/${tenantId}/details`;
  const urls = { direct: `${authBase}${path}`, gateway: `${gatewayBase}${path}` };
  await checkOnce('direct', urls.direct, headers);
  await checkOnce('gateway', urls.gateway, headers);

  const warmups: Run[] = [];
  if (opts.warmup > 0) {
    log(`warming up (${opts.warmup} s each)`);
    warmups.push(await measure('direct', 0, urls.direct, headers, opts.connections, opts.warmup));
    warmups.push(await measure('gateway', 0, urls.gateway, headers, opts.connections, opts.warmup));
  }
  const runs: Run[] = [];
  for (const [round, target] of [[1, 'direct'], [1, 'gateway'], [2, 'direct'], [2, 'gateway']] as const) {
    log(`${target} run ${round}: ${opts.connections} connections, ${opts.duration} s`);
    runs.push(await measure(target, round, urls[target], headers, opts.connections, opts.duration));
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
  const summary = (r: Run) => ({ rps: r.rps, p50: r.p50, p95: r.p95, p99: r.p99 });
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

  const bad = [...warmups, ...runs].filter((r) => r.non200 > 0 || r.errors > 0);
  if (bad.length) {
    log(`FAILED: not every response was a 200 (${bad.map((r) => `${r.target}#${r.round}: ${r.non200} non-200, ${r.errors} errors`).join('; ')})`);
    process.exitCode = 1;
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    void stopChildren().finally(() => process.exit(130));
  });
}

main()
  .catch((err) => {
    log(`failed: ${(err as Error).message}`);
    process.exitCode = 1;
  })
  .finally(() => stopChildren());
