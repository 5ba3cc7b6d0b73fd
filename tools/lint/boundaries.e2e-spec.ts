import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The module-boundary rule is live: code in one app that imports another app fails lint, in both
 * the relative and the aliased form, while imports of the shared libs pass.
 */
describe('Nx module boundaries (eslint @nx/enforce-module-boundaries)', () => {
  const root = join(__dirname, '../..');
  // ESLint runs as its own process: its flat-config loader needs real dynamic import(), which jest's VM lacks.
  const lint = async (code: string, file = 'apps/decision/src/probe.ts') => {
    const run = spawnSync(process.execPath, [join(root, 'node_modules/eslint/bin/eslint.js'), '--stdin', '--stdin-filename', file, '--format', 'json'], {
      cwd: root,
      input: code,
      encoding: 'utf8',
      env: { ...process.env, NX_DAEMON: 'false' },
    });
    const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string; severity: number; message: string }[] }[];
    return result.messages;
  };
  const boundary = async (code: string, file?: string) => (await lint(code, file)).filter((m) => m.ruleId === '@nx/enforce-module-boundaries');

  it('fails an app importing another app by relative path', async () => {
    const problems = await boundary(`import { AuthModule } from '../../auth/src/auth.module';\nexport const x = AuthModule;\n`);
    expect(problems).toHaveLength(1);
    expect(problems[0].severity).toBe(2);
  });

  it('fails a lib importing an app', async () => {
    const problems = await boundary(`import { AuthModule } from '../../../apps/auth/src/auth.module';\nexport const x = AuthModule;\n`, 'libs/platform/src/probe.ts');
    expect(problems).toHaveLength(1);
  });

  it('passes an app importing the shared libs', async () => {
    const problems = await boundary(`import { ROUTES } from '@ddm/contracts';\nimport { Db } from '@ddm/platform';\nexport const x = [ROUTES, Db];\n`);
    expect(problems).toEqual([]);
  });
});

/**
 * The folder import rule (tools/lint/folder-imports.js) is live in every app, as an error: a folder
 * importing another folder's internals, or core/ importing a resource, fails lint.
 */
describe('the folder import rule in every app (eslint ddm/folder-imports, ddm/no-folder-cycles)', () => {
  const root = join(__dirname, '../..');
  const lint = (code: string, file: string) => {
    const run = spawnSync(process.execPath, [join(root, 'node_modules/eslint/bin/eslint.js'), '--stdin', '--stdin-filename', file, '--format', 'json'], {
      cwd: root,
      input: code,
      encoding: 'utf8',
      env: { ...process.env, NX_DAEMON: 'false' },
    });
    const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string; severity: number; message: string }[] }[];
    return result.messages.filter((m) => m.ruleId?.startsWith('ddm/'));
  };
  // One planted import per app: a resource reaching into another resource's SQL or service.
  const PLANTED: Record<string, [file: string, code: string]> = {
    actions: ['apps/actions/src/consumers/probe.ts', "import * as x from '../actions/actions.service';\nexport const y = x;\n"],
    auth: ['apps/auth/src/invitations/probe.ts', "import * as x from '../users/user.sql';\nexport const y = x;\n"],
    decision: ['apps/decision/src/conditions/probe.ts', "import * as x from '../delegations/delegation.sql';\nexport const y = x;\n"],
    document: ['apps/document/src/files/probe.ts', "import * as x from '../documents/document.sql';\nexport const y = x;\n"],
    matrix: ['apps/matrix/src/grid/probe.ts', "import * as x from '../matrices/matrix.sql';\nexport const y = x;\n"],
    notifications: ['apps/notifications/src/preferences/probe.ts', "import * as x from '../notifications/notification.sql';\nexport const y = x;\n"],
    settings: ['apps/settings/src/groups/probe.ts', "import * as x from '../positions/position.sql';\nexport const y = x;\n"],
  };

  it.each(Object.entries(PLANTED))('%s: importing another resource\'s internals is an error', (_app, [file, code]) => {
    const problems = lint(code, file);
    expect(problems.map((p) => [p.ruleId, p.severity])).toEqual([['ddm/folder-imports', 2]]);
  });

  it('core/ importing a resource is an error twice over: the import rule, and the circle it closes', () => {
    const problems = lint("import * as x from '../delegations/delegations.service';\nexport const y = x;\n", 'apps/decision/src/core/probe.ts');
    expect(problems.map((p) => [p.ruleId, p.severity]).sort()).toEqual([
      ['ddm/folder-imports', 2],
      ['ddm/no-folder-cycles', 2],
    ]);
    expect(problems.find((p) => p.ruleId === 'ddm/no-folder-cycles')!.message).toMatch(/^folder cycle: core -> delegations -> core/);
  });
});
