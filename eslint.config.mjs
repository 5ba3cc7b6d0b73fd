import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import folderImports from './tools/lint/folder-imports.js';

export default [
  { ignores: ['**/dist', '**/node_modules', '**/.nx', '.data', 'coverage', 'tmp'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      // Apps never import apps; libs never import apps; only declared tags may depend on each other.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // Request DTOs say what null means with @OptionalNotNull() or @Nullable() (libs/contracts, http/validation.ts);
    // class-validator's IsOptional lets null through to handlers. No service reaches for TypeORM's EntityManager:
    // Tx and Db (libs/platform) are the one way to run a statement.
    files: ['apps/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'class-validator', importNames: ['IsOptional'], message: 'Use @OptionalNotNull() or @Nullable() from @ddm/contracts: they say what null means.' },
            { name: 'typeorm', importNames: ['EntityManager', 'Repository', 'DataSource'], message: 'Run statements through Tx/Db from @ddm/platform.' },
          ],
        },
      ],
    },
  },
  {
    // Inside an app, arrows between folders point down (CONTRIBUTING, "The shape of a service"): a folder
    // imports its own files, core/, another folder's *-refs.ts and the libs; core/ imports only core/.
    files: ['apps/*/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    plugins: { ddm: folderImports },
    rules: { 'ddm/folder-imports': 'error', 'ddm/no-folder-cycles': 'error' },
  },
  {
    // CommonJS config and setup files (jest.config.js, tools/jest/global-setup.js).
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', URL: 'readonly', fetch: 'readonly', Buffer: 'readonly', setInterval: 'readonly', clearInterval: 'readonly' } },
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'libs/testing/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
];
