/**
 * The import rule of an app, as lint rules (CONTRIBUTING, "The shape of a service"):
 *
 *   A folder of `apps/<app>/src/` imports only its own files, `core/` (the app's ground floor),
 *   another folder's published `*-refs.ts`, and the libs; `core/` imports only `core/`; and no
 *   folder imports the app's root files (main, module, seed), which stand above every folder.
 *
 * - `ddm/folder-imports` checks each import of a file against that sentence.
 * - `ddm/no-folder-cycles` fails an import that closes a circle of folders (a imports b, b
 *   imports a, directly or through others): arrows between folders point one way only. The graph is
 *   read from the app's files on disk, with the linted file's own imports in place of its disk copy.
 *
 * CommonJS, so that eslint.config.mjs and the jest specs load the same file.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const GROUND_FLOOR = 'core';
const REFS = /-refs$/;
const SPEC = /\.(e2e-)?spec\.ts$/;
/** Import specifiers in a file's text: static and dynamic imports, re-exports, require. */
const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

/** Where a file sits: its app's src folder and its top folder there ('' for a root file); null outside apps/<app>/src. */
function placeOf(file) {
  const parts = path.resolve(file).split(path.sep);
  for (let i = parts.length - 3; i >= 0; i--) {
    if (parts[i] === 'apps' && parts[i + 2] === 'src') {
      const src = parts.slice(0, i + 3).join(path.sep);
      const rest = parts.slice(i + 3);
      return { app: parts[i + 1], src, folder: rest.length > 1 ? rest[0] : '' };
    }
  }
  return null;
}

/** What a relative specifier in `file` names: its folder in the same app ('' for a root file) and its path; null when it leaves the app's src. */
function targetOf(file, specifier, src) {
  if (!specifier.startsWith('.')) return null;
  const target = path.resolve(path.dirname(file), specifier);
  const rel = path.relative(src, target);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(path.sep);
  return { folder: parts.length > 1 ? parts[0] : '', rel, base: parts[parts.length - 1].replace(/\.(ts|js)$/, '') };
}

/** Why importing `target` from `folder` breaks the rule, or null when it keeps it. */
function problemOf(folder, target) {
  if (target.folder === folder) return null;
  if (target.folder === '') return `a folder imports the app's root file ${target.rel}: root files (main, module, seed) stand above every folder`;
  if (target.folder === GROUND_FLOOR) return null;
  if (folder === GROUND_FLOOR) return `${GROUND_FLOOR}/ imports only ${GROUND_FLOOR}/ (and libs), not ${target.rel}: the ground floor stands under every folder`;
  if (REFS.test(target.base)) return null;
  return `${folder}/ imports ${target.rel}, an internal of ${target.folder}/: import ${GROUND_FLOOR}/, or what ${target.folder}/ publishes in a *-refs.ts`;
}

function walk(dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.ts$/.test(e.name) && !SPEC.test(e.name)) out.push(p);
  }
  return out;
}

/** The folder graph of an app on disk, by file: file -> the folders (other than its own) it imports. Read once per lint run and app. */
const diskGraphs = new Map();
function diskGraph(src) {
  let graph = diskGraphs.get(src);
  if (graph) return graph;
  graph = new Map();
  for (const file of walk(src, [])) {
    const from = placeOf(file);
    const to = new Set();
    for (const m of fs.readFileSync(file, 'utf8').matchAll(SPECIFIERS)) {
      const t = targetOf(file, m[1], src);
      if (t && t.folder !== from.folder && from.folder !== '' && t.folder !== '') to.add(t.folder);
    }
    graph.set(path.resolve(file), { folder: from.folder, to });
  }
  diskGraphs.set(src, graph);
  return graph;
}

/** A path of folders from `start` to `goal` (both included), or null, over folder edges. */
function pathBetween(edges, start, goal) {
  const before = new Map([[start, null]]);
  for (const queue = [start]; queue.length; ) {
    const at = queue.shift();
    if (at === goal) {
      const out = [];
      for (let x = goal; x !== null; x = before.get(x)) out.unshift(x);
      return out;
    }
    for (const next of edges.get(at) ?? []) {
      if (!before.has(next)) {
        before.set(next, at);
        queue.push(next);
      }
    }
  }
  return null;
}

/** Calls `check(node, specifier)` for every import-like node of a file. */
function visitImports(check) {
  const literal = (node, source) => source && source.type === 'Literal' && typeof source.value === 'string' && check(node, source.value);
  return {
    ImportDeclaration: (node) => literal(node, node.source),
    ExportNamedDeclaration: (node) => literal(node, node.source),
    ExportAllDeclaration: (node) => literal(node, node.source),
    ImportExpression: (node) => literal(node, node.source),
    CallExpression: (node) => node.callee.type === 'Identifier' && node.callee.name === 'require' && literal(node, node.arguments[0]),
  };
}

const folderImports = {
  meta: {
    type: 'problem',
    docs: { description: "a folder of an app imports only its own files, core/, another folder's *-refs.ts and the libs" },
    schema: [],
  },
  create(context) {
    const file = context.filename ?? context.getFilename();
    const place = placeOf(file);
    if (!place || place.folder === '' || SPEC.test(file)) return {};
    return visitImports((node, specifier) => {
      const target = targetOf(file, specifier, place.src);
      const problem = target && problemOf(place.folder, target);
      if (problem) context.report({ node, message: problem });
    });
  },
};

const noFolderCycles = {
  meta: {
    type: 'problem',
    docs: { description: 'imports between the folders of an app point one way: no circle of folders' },
    schema: [],
  },
  create(context) {
    const file = context.filename ?? context.getFilename();
    const place = placeOf(file);
    if (!place || place.folder === '' || SPEC.test(file)) return {};
    const mine = [];
    return {
      ...visitImports((node, specifier) => {
        const target = targetOf(file, specifier, place.src);
        if (target && target.folder !== place.folder && target.folder !== '') mine.push({ node, folder: target.folder });
      }),
      'Program:exit'() {
        if (!mine.length) return;
        // The app's folder edges, this file's own imports in place of its copy on disk.
        const edges = new Map();
        const add = (from, to) => {
          if (!edges.has(from)) edges.set(from, new Set());
          edges.get(from).add(to);
        };
        for (const [f, entry] of diskGraph(place.src)) if (f !== path.resolve(file)) for (const to of entry.to) add(entry.folder, to);
        for (const m of mine) add(place.folder, m.folder);
        const reported = new Set();
        for (const m of mine) {
          if (reported.has(m.folder)) continue;
          const back = pathBetween(edges, m.folder, place.folder);
          if (!back) continue;
          reported.add(m.folder);
          context.report({ node: m.node, message: `folder cycle: ${[place.folder, ...back].join(' -> ')}; arrows between folders point one way (move what both need to ${GROUND_FLOOR}/)` });
        }
      },
    };
  },
};

module.exports = {
  meta: { name: 'ddm-folder-imports' },
  rules: { 'folder-imports': folderImports, 'no-folder-cycles': noFolderCycles },
  // For the structure spec: the same reading of the tree, without ESLint.
  placeOf,
  targetOf,
  problemOf,
  diskGraph,
};
