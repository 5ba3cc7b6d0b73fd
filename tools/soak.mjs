#!/usr/bin/env node
/**
 * npm run soak -- authority [--seeds 20] [--steps 200] [--seed <first>]
 *
 * Long runs of a model-based spec: the same spec `npm test` runs with a few seeds, here with many
 * seeds and long operation sequences (through jest, whose global setup finds or starts Postgres and
 * NATS and migrates the template database). Each seed prints its figures; the totals (operations
 * applied, comparisons, disagreements) are printed at the end. Exit code: jest's.
 *   authority  the authority answers against the independent organisation model (apps/gateway/test/authority-model.e2e-spec.ts)
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOAKS = { authority: { spec: 'apps/gateway/test/authority-model.e2e-spec.ts', env: 'AUTHORITY_MODEL' } };

const [name, ...rest] = process.argv.slice(2);
const soak = SOAKS[name];
if (!soak) {
  process.stderr.write(`usage: npm run soak -- <${Object.keys(SOAKS).join('|')}> [--seeds N] [--steps M] [--seed first]\n`);
  process.exit(2);
}
const options = { seeds: '20', steps: '200', seed: String(Date.now() % 1_000_000_000) };
for (let i = 0; i < rest.length; i += 2) {
  const key = rest[i].replace(/^--/, '');
  if (!(key in options) || !/^\d+$/.test(rest[i + 1] ?? '')) {
    process.stderr.write(`unknown or bad option ${rest[i]} ${rest[i + 1] ?? ''}: --seeds N, --steps M and --seed first take whole numbers\n`);
    process.exit(2);
  }
  options[key] = rest[i + 1];
}
const env = { ...process.env, [`${soak.env}_SEED`]: options.seed, [`${soak.env}_SEEDS`]: options.seeds, [`${soak.env}_STEPS`]: options.steps };
const jest = spawnSync(process.execPath, [join(root, 'node_modules/jest/bin/jest.js'), soak.spec, '--verbose'], { cwd: root, env, stdio: 'inherit' });
process.exit(jest.status ?? 1);
