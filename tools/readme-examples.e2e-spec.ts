/**
 * The README's examples, pasted as written, against the whole system (the seven built services and
 * the gateway, seeded: what `npm start` and `npm run seed` give a reader). The shell blocks of
 * "Getting a token and calling an endpoint" and of the area sections after it (up to "Layout") run
 * in order in one bash, as a reader pastes them into one terminal: `npm run token` and `npm run seed`
 * as written, against the test system's database (its environment is the shell's), and
 * `http://localhost:8080` (the only change to the text) naming the test gateway.
 *
 * Every curl must answer 2xx: the shell defines `curl` as the real one with `--fail-with-body` (a
 * 4xx or 5xx fails the command, and `set -e -o pipefail` stops the script) that also writes each
 * answer's status to stderr, which the spec reads.
 *
 * Skipped, by rule (the list below is asserted, so nothing is left out silently): a command that
 * starts or tests the system (`npm start`, `npm test`, `npm ci`): the test kit started it; a bare
 * `npm run seed`: the test kit ran the same seed; `curl -N` (a Server-Sent Events stream, which
 * never ends: apps/notifications/test covers it).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, TestSystem, startTestSystem } from '@ddm/testing';

const README_BASE_URL = 'http://localhost:8080';
const FIRST_SECTION = '## Getting a token and calling an endpoint';
const END_SECTION = '## Layout';

/** Why a command is not run; undefined: it runs. */
function skipReason(command: string): string | undefined {
  const words = command.replace(/#.*$/, '').trim();
  if (/^npm (start|test|ci)\b/.test(words)) return 'starts or tests the system: the test kit started it';
  if (/^npm run seed$/.test(words)) return 'the test kit ran the same seed';
  if (/^curl -N\b/.test(words)) return 'a Server-Sent Events stream never ends';
  return undefined;
}

/** The shell commands of the README's examples (lines continued with `\` joined), in order. */
function readmeCommands(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(FIRST_SECTION);
  const end = readme.indexOf(END_SECTION, start);
  expect([start, end].every((i) => i >= 0)).toBe(true);
  const commands: string[] = [];
  for (const block of readme.slice(start, end).matchAll(/^```(?:sh|bash)\n([\s\S]*?)^```$/gm)) {
    let current = '';
    for (const line of block[1].split('\n')) {
      current += (current ? '\n' : '') + line;
      if (line.endsWith('\\')) continue;
      if (current.trim()) commands.push(current);
      current = '';
    }
  }
  return commands;
}

describe('README examples, pasted as written, against the seeded system', () => {
  let system: TestSystem;
  let dir: string;

  beforeAll(async () => {
    system = await startTestSystem();
    // Inside the repository (npm finds its package.json), apart from it: the examples write files (policy.pdf, the export).
    dir = mkdtempSync(join(ROOT, '.data', 'readme-examples-'));
  }, 180_000);

  afterAll(async () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    await system?.close();
  });

  it("the seed's JSON names an id of each kind the examples use", () => {
    const demo = system.seeded.tenants.find((t) => t.name === 'Demo Co') as unknown as { examples: Record<string, string> };
    expect(Object.keys(demo.examples).sort()).toEqual(['actionId', 'delegationId', 'documentId', 'groupId', 'matrixId', 'positionId', 'publishedDecisionId']);
    for (const id of Object.values(demo.examples)) expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('skips only what its rule names', () => {
    const skipped = readmeCommands().filter((c) => skipReason(c) !== undefined).map((c) => c.replace(/\s+#.*$/, '').trim());
    expect(skipped).toEqual(['npm run seed', `curl -N ${README_BASE_URL}/v1/notifications/stream -H "Authorization: Bearer $TOKEN"`]);
  });

  it('runs every example with every request answered 2xx', () => {
    const commands = readmeCommands().filter((c) => skipReason(c) === undefined);
    const requests = commands.join('\n').match(/\bcurl /g)?.length ?? 0;
    expect(requests).toBeGreaterThan(30);
    const script = [
      'set -e -o pipefail',
      `curl() { command curl --fail-with-body -w '%{stderr}HTTP %{http_code} %{url_effective}\\n' "$@"; }`,
      ...commands.map((c) => c.split(README_BASE_URL).join(system.gateway.url)),
    ].join('\n');
    const run = spawnSync('bash', ['-c', script], { cwd: dir, env: { ...process.env, ...system.env, LOG_LEVEL: 'warn' }, encoding: 'utf8', timeout: 240_000 });
    const answers = [...run.stderr.matchAll(/^HTTP (\d{3}) (\S+)$/gm)].map((m) => ({ status: Number(m[1]), url: m[2] }));
    const failed = answers.filter((a) => a.status < 200 || a.status > 299);
    expect({ failed, status: run.status, stderrTail: run.status === 0 ? '' : run.stderr.slice(-3000) }).toEqual({ failed: [], status: 0, stderrTail: '' });
    expect(answers).toHaveLength(requests);
  }, 300_000);
});
