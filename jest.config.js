/** One jest run for the whole workspace: unit specs beside the code, e2e specs under each project's test/. */
const swc = require('./.swcrc.json');
delete swc.$schema;

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swc, sourceMaps: 'inline' }] },
  moduleNameMapper: { '^@ddm/(contracts|platform|testing)$': '<rootDir>/libs/$1/src/index.ts' },
  globalSetup: '<rootDir>/tools/jest/global-setup.js',
  testTimeout: 60_000,
  maxWorkers: 2,
  // Children spawned by system specs are stopped in afterAll; this catches a hang, not a pass.
  forceExit: false,
};
