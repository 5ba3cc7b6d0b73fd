import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const plugin = require('./folder-imports.js');

/**
 * The folder import rule of an app (tools/lint/folder-imports.js): each planted violation fails,
 * each allowed arrow passes; and the apps as they are keep it (no folder imports another's
 * internals, no circle of folders), read from the files themselves.
 */
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser as never, ecmaVersion: 2022, sourceType: 'module' } });
const ROOT = join(__dirname, '../..');
const at = (file: string) => join(ROOT, 'apps/decision/src', file);

describe('ddm/folder-imports', () => {
  // RuleTester runs its own describe/it blocks.
  tester.run('folder-imports', plugin.rules['folder-imports'], {
    valid: [
      { filename: at('delegations/delegations.service.ts'), code: "import { holds } from '../core/delegation.rules';" },
      { filename: at('delegations/delegations.service.ts'), code: "import { SodRefs } from '../authority/sod/sod-refs';" },
      { filename: at('delegations/delegations.service.ts'), code: "import { x } from './delegation.sql';\nimport { y } from './dto/delegation-change.dto';" },
      { filename: at('core/delegation.sql.ts'), code: "import { z } from './delegation.types';\nimport { Db } from '@ddm/platform';" },
      // Root files (the module, main, seed) stand above every folder and import anything.
      { filename: at('decision.module.ts'), code: "import { DelegationsService } from './delegations/delegations.service';" },
      // Specs are not held to it.
      { filename: at('authority/authority.spec.ts'), code: "import { x } from '../delegations/delegation.sql';" },
      // Another app or a lib is the Nx boundary rule's business, not this one's.
      { filename: join(ROOT, 'libs/platform/src/db.ts'), code: "import { x } from './sql';" },
    ],
    invalid: [
      {
        filename: at('authority/authority.service.ts'),
        code: "import { DELEGATION_LIST } from '../delegations/delegation.sql';",
        errors: [{ message: /authority\/ imports delegations\/delegation\.sql, an internal of delegations\// }],
      },
      {
        filename: at('jobs/bulk-duplicate.job.ts'),
        code: "export { DecisionsService } from '../decisions/decisions.service';\nconst later = () => import('../decisions/decision.rules');\nexport default later;",
        errors: [{ message: /internal of decisions\// }, { message: /internal of decisions\// }],
      },
      {
        filename: at('core/delegation.rules.ts'),
        code: "import { SodRefs } from '../authority/sod/sod-refs';",
        errors: [{ message: /^core\/ imports only core\// }],
      },
      {
        filename: at('sweeps/expiry.sweep.ts'),
        code: "import { DecisionModule } from '../decision.module';",
        errors: [{ message: /root file decision\.module/ }],
      },
      {
        filename: join(ROOT, 'apps/settings/src/groups/groups.service.ts'),
        code: "import { POSITION_COLUMNS } from '../positions/position.sql';",
        errors: [{ message: /internal of positions\// }],
      },
    ],
  });
});

describe('ddm/no-folder-cycles', () => {
  // A small app on disk: a/ publishes a-refs and imports b's refs; core/ is below both.
  const dir = mkdtempSync(join(tmpdir(), 'ddm-folder-cycles-'));
  const src = join(dir, 'apps/demo/src');
  const put = (file: string, text: string) => {
    mkdirSync(dirname(join(src, file)), { recursive: true });
    writeFileSync(join(src, file), text);
  };
  put('a/a.service.ts', "import { b } from '../b/b-refs';\nimport { c } from '../core/c';\nexport const a = [b, c];\n");
  put('a/a-refs.ts', "export const aRef = 1;\n");
  put('b/b-refs.ts', "export const b = 1;\n");
  put('b/b.service.ts', "import { c } from '../core/c';\nexport const bb = c;\n");
  put('core/c.ts', "export const c = 1;\n");
  put('c2/x.ts', "import { y } from '../c3/c3-refs';\nexport const x = y;\n");
  put('c3/c3-refs.ts', "import { z } from '../c4/c4-refs';\nexport const y = z;\n");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  tester.run('no-folder-cycles', plugin.rules['no-folder-cycles'], {
    valid: [
      { filename: join(src, 'b/b.service.ts'), code: "import { c } from '../core/c';" },
      { filename: join(src, 'a/a.service.ts'), code: "import { b } from '../b/b-refs';" },
    ],
    invalid: [
      {
        // b importing what a publishes closes a -> b -> a, although each import alone keeps the import rule.
        filename: join(src, 'b/b.service.ts'),
        code: "import { aRef } from '../a/a-refs';",
        errors: [{ message: 'folder cycle: b -> a -> b; arrows between folders point one way (move what both need to core/)' }],
      },
      {
        // A longer circle: c4 -> c2 -> c3 -> c4.
        filename: join(src, 'c4/c4-refs.ts'),
        code: "import { x } from '../c2/x';\nexport const z = x;",
        errors: [{ message: /^folder cycle: c4 -> c2 -> c3 -> c4;/ }],
      },
    ],
  });
});

describe('the apps as they are', () => {
  const apps = readdirSync(join(ROOT, 'apps')).filter((a) => readdirSync(join(ROOT, 'apps', a)).includes('src'));

  it.each(apps)('%s: every import between folders is allowed (core/, a *-refs.ts), and no folder imports another resource\'s SQL', (app) => {
    const src = join(ROOT, 'apps', app, 'src');
    const problems: string[] = [];
    for (const [file] of plugin.diskGraph(src) as Map<string, unknown>) {
      const place = plugin.placeOf(file);
      if (place.folder === '') continue;
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g)) {
        const target = plugin.targetOf(file, m[1], src);
        const problem = target && plugin.problemOf(place.folder, target);
        if (problem) problems.push(`${file.slice(src.length + 1)}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(apps)('%s: the folders form no circle (every strongly connected set is one folder)', (app) => {
    const graph = plugin.diskGraph(join(ROOT, 'apps', app, 'src')) as Map<string, { folder: string; to: Set<string> }>;
    const edges = new Map<string, Set<string>>();
    for (const { folder, to } of graph.values()) for (const t of to) edges.set(folder, (edges.get(folder) ?? new Set()).add(t));
    // A folder that can reach itself is on a circle.
    const reaches = (from: string, goal: string): boolean => {
      const seen = new Set<string>();
      for (const todo = [...(edges.get(from) ?? [])]; todo.length; ) {
        const f = todo.pop()!;
        if (f === goal) return true;
        if (seen.has(f)) continue;
        seen.add(f);
        todo.push(...(edges.get(f) ?? []));
      }
      return false;
    };
    expect([...edges.keys()].filter((f) => reaches(f, f))).toEqual([]);
  });
});
