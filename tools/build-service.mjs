#!/usr/bin/env node
// The image context of one service: `node tools/build-service.mjs <area> [--out <dir>]`
// (Nx: `npx nx run <area>:bundle`; default output dist/image/<area>/).
//
// After the SWC build (run here, it is incremental), it copies from dist/ only the compiled
// files that the service's entry points (main.js, migrate.js) reach through require(), keeping
// the layout (apps/<area>/src/..., libs/<lib>/src/...), and writes:
//   package.json       the npm packages that code requires, with the root package.json's ranges,
//                      plus peer dependencies of those packages that the root provides (TypeORM
//                      loads `pg` by name, @nestjs/swagger needs @fastify/static with Fastify);
//                      "main" is the service, so `node .` starts it;
//   package-lock.json  the root lock file cut down to what those packages need, so
//                      `npm ci --omit=dev` installs exactly the versions the tests ran with.
// A bare import that is not a runtime dependency of the root package.json (a devDependency,
// or missing) stops the build: the image would fail at start otherwise.
// docker/Dockerfile copies this folder and runs `npm ci --omit=dev --ignore-scripts` in it.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const MARKER = 'ddmImage';

function fail(message) {
  process.stderr.write(`build-service: ${message}\n`);
  process.exit(1);
}

const args = process.argv.slice(2);
const area = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--out');
const outArg = args.includes('--out') ? args[args.indexOf('--out') + 1] : undefined;
const quiet = args.includes('--quiet');
if (!area || !/^[a-z][a-z0-9-]*$/.test(area)) fail('usage: node tools/build-service.mjs <area> [--out <dir>] [--quiet]');
if (args.includes('--out') && !outArg) fail('--out needs a directory');
const out = outArg ? (isAbsolute(outArg) ? outArg : resolve(process.cwd(), outArg)) : join(dist, 'image', area);

execFileSync(process.execPath, [join(root, 'tools/build.mjs'), '--quiet'], { stdio: 'inherit' });

const entries = ['main.js', 'migrate.js'].map((f) => join(dist, 'apps', area, 'src', f));
if (!existsSync(entries[0])) fail(`no service "${area}": ${relative(root, entries[0])} was not built (apps/${area}/src/main.ts missing?)`);
if (!existsSync(entries[1])) fail(`service "${area}" has no apps/${area}/src/migrate.ts: the image needs its migrate command`);

// --- the files the entry points reach, and the packages they require ---------------------------
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const REQUIRE = /\brequire(?:\.resolve)?\(\s*(["'])([^"']+)\1\s*\)/g;

function resolveFile(from, spec) {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.js`, `${base}.json`, join(base, 'index.js')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const packageName = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);

const files = new Set();
/** package name -> first file that requires it (for messages) */
const imported = new Map();
const queue = [...entries];
while (queue.length) {
  const file = queue.pop();
  if (files.has(file)) continue;
  files.add(file);
  if (!file.endsWith('.js')) continue;
  const code = readFileSync(file, 'utf8');
  for (const [, , spec] of code.matchAll(REQUIRE)) {
    if (builtins.has(spec) || builtins.has(spec.split('/')[0])) continue;
    if (spec.startsWith('.') || spec.startsWith('/')) {
      const target = resolveFile(file, spec);
      if (!target) fail(`${relative(root, file)} requires ${spec}, which is not in dist/`);
      if (relative(dist, target).startsWith('..')) fail(`${relative(root, file)} requires ${spec} outside dist/`);
      queue.push(target);
    } else {
      const name = packageName(spec);
      if (!imported.has(name)) imported.set(name, relative(dist, file));
    }
  }
}

// --- dependencies and the lock file subset ------------------------------------------------------
const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const runtime = rootPkg.dependencies ?? {};
const problems = [...imported].filter(([name]) => !runtime[name]);
if (problems.length) {
  fail(
    problems
      .map(([name, file]) => `${file} requires "${name}", which is ${rootPkg.devDependencies?.[name] ? 'only a devDependency' : 'not a dependency'} of the root package.json`)
      .join('\n'),
  );
}

/** Where node finds `name` from the package installed at `from` ('' = the project root). */
function locate(name, from) {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!dir) return null;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut === -1 ? '' : dir.slice(0, cut);
  }
}

/** Packages reachable from `roots`; `optionalEdges` also follows optional dependencies. */
function reach(roots, optionalEdges) {
  const seen = new Set();
  const todo = roots.map((name) => ({ name, from: '' }));
  while (todo.length) {
    const { name, from } = todo.pop();
    const at = locate(name, from);
    if (!at) {
      if (optionalEdges) continue; // an optional package of another platform that npm left out
      fail(`package-lock.json has no ${name} (needed from ${from || 'the root'}): run npm install`);
    }
    if (seen.has(at)) continue;
    seen.add(at);
    const entry = lock.packages[at];
    const meta = entry.peerDependenciesMeta ?? {};
    const edges = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((p) => !meta[p]?.optional),
      ...(optionalEdges ? Object.keys(entry.optionalDependencies ?? {}) : []),
    ];
    for (const dep of edges) todo.push({ name: dep, from: at });
  }
  return seen;
}

// Peers the root chose to provide (optional ones included: that is how `pg` reaches TypeORM).
const direct = new Set(imported.keys());
for (let grew = true; grew; ) {
  grew = false;
  for (const at of reach([...direct], true)) {
    const entry = lock.packages[at];
    for (const peer of Object.keys(entry.peerDependencies ?? {})) {
      if (runtime[peer] && !direct.has(peer)) {
        direct.add(peer);
        grew = true;
      }
    }
  }
}

const dependencies = Object.fromEntries([...direct].sort().map((name) => [name, runtime[name]]));
const required = reach([...direct], false);
const all = reach([...direct], true);
const packages = {
  '': { name: `ddm-${area}`, version: rootPkg.version, license: rootPkg.license, dependencies, engines: rootPkg.engines },
};
for (const at of [...all].sort()) {
  // The root lock's flags describe the workspace's tree; here every package is a runtime one.
  const entry = { ...lock.packages[at] };
  for (const flag of ['dev', 'devOptional', 'peer', 'optional']) delete entry[flag];
  packages[at] = required.has(at) ? entry : { ...entry, optional: true };
}

const pkg = {
  name: `ddm-${area}`,
  version: rootPkg.version,
  private: true,
  description: `${rootPkg.description} (${area} service image)`,
  license: rootPkg.license,
  engines: rootPkg.engines,
  main: `apps/${area}/src/main.js`,
  scripts: { start: `node apps/${area}/src/main.js`, migrate: `node apps/${area}/src/migrate.js` },
  dependencies,
  [MARKER]: { area, generatedBy: 'tools/build-service.mjs' },
};

// --- write the folder ---------------------------------------------------------------------------
if (existsSync(out) && readdirSync(out).length) {
  let ours = false;
  try {
    ours = !!JSON.parse(readFileSync(join(out, 'package.json'), 'utf8'))[MARKER];
  } catch {
    /* not a folder this script wrote */
  }
  if (!ours) fail(`${out} exists and is not an image folder written by this script; refusing to empty it`);
  rmSync(out, { recursive: true, force: true });
}
mkdirSync(out, { recursive: true });
for (const file of files) {
  const target = join(out, relative(dist, file));
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(file, target);
}
writeFileSync(join(out, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
writeFileSync(join(out, 'package-lock.json'), JSON.stringify({ name: pkg.name, version: pkg.version, lockfileVersion: 3, requires: true, packages }, null, 2) + '\n');

if (!quiet) {
  process.stderr.write(
    `build-service: ${area} -> ${relative(process.cwd(), out) || '.'}: ${files.size} files, ${Object.keys(dependencies).length} dependencies ` +
      `(${Object.keys(dependencies).join(', ')}), ${all.size} packages locked\n`,
  );
}
