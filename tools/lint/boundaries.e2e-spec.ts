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
    return result.messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries');
  };

  it('fails an app importing another app by relative path', async () => {
    const problems = await lint(`import { AuthModule } from '../../auth/src/auth.module';\nexport const x = AuthModule;\n`);
    expect(problems).toHaveLength(1);
    expect(problems[0].severity).toBe(2);
  });

  it('fails a lib importing an app', async () => {
    const problems = await lint(`import { AuthModule } from '../../../apps/auth/src/auth.module';\nexport const x = AuthModule;\n`, 'libs/platform/src/probe.ts');
    expect(problems).toHaveLength(1);
  });

  it('passes an app importing the shared libs', async () => {
    const problems = await lint(`import { ROUTES } from '@ddm/contracts';\nimport { Db } from '@ddm/platform';\nexport const x = [ROUTES, Db];\n`);
    expect(problems).toEqual([]);
  });
});
