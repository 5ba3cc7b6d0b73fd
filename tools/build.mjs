#!/usr/bin/env node
// Compiles every TypeScript file of apps/, libs/ and tools/ into dist/ with SWC, keeping the
// folder layout, so `node dist/apps/<area>/src/main.js` runs a service. SWC rather than tsc or
// webpack: a full build takes about a second on two cores; type checking is `npm run typecheck`.
// Unchanged files are skipped (mtime), so the token and seed commands start at once.
import { readFileSync, readdirSync, statSync, mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import swc from '@swc/core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist');
const quiet = process.argv.includes('--quiet');
const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8'));
const base = JSON.parse(readFileSync(join(root, '.swcrc.json'), 'utf8'));
delete base.$schema;
const options = {
  ...base,
  jsc: { ...base.jsc, baseUrl: root, paths: tsconfig.compilerOptions.paths },
};
const configStamp = Math.max(statSync(join(root, 'tsconfig.base.json')).mtimeMs, statSync(join(root, '.swcrc.json')).mtimeMs);

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const p = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(p);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !/\.(e2e-)?spec\.ts$/.test(entry.name)) yield p;
  }
}

const files = ['apps', 'libs', 'tools'].filter((d) => existsSync(join(root, d))).flatMap((d) => [...walk(join(root, d))]);
const started = Date.now();
let built = 0;
await Promise.all(
  files.map(async (file) => {
    const target = join(out, relative(root, file)).replace(/\.ts$/, '.js');
    if (existsSync(target)) {
      const t = statSync(target).mtimeMs;
      if (t >= statSync(file).mtimeMs && t >= configStamp) return;
    }
    const { code, map } = await swc.transformFile(file, { ...options, filename: file, sourceFileName: relative(dirname(target), file) });
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, code + `\n//# sourceMappingURL=${target.split('/').pop()}.map`);
    if (map) writeFileSync(target + '.map', map);
    built++;
  }),
);
if (!quiet || built) console.error(`build: ${built} of ${files.length} files compiled in ${Date.now() - started} ms`);
