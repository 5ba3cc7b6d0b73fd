/**
 * One jest run for the whole workspace (`npm run test:jest`): unit specs (*.spec.ts) beside the
 * code, and specs that need Postgres, NATS, dist/ or an outside tool (*.e2e-spec.ts) under each
 * project's test/ and in tools/. jest.unit.config.js runs the unit specs alone.
 */
const swc = require('./.swcrc.json');
delete swc.$schema;

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swc, sourceMaps: 'inline' }] },
  moduleNameMapper: { '^@ddm/(contracts|platform|testing)$': '<rootDir>/libs/$1/src/index.ts' },
  // Finds or starts Postgres and NATS, checks kubectl, builds dist/ and migrates the template
  // database; the teardown stops what the setup started. `npm run test:unit` (jest.unit.config.js)
  // runs the *.spec.ts files without either.
  globalSetup: '<rootDir>/tools/jest/global-setup.js',
  globalTeardown: '<rootDir>/tools/jest/global-teardown.js',
  testTimeout: 60_000,
  maxWorkers: 2,
  // Children spawned by system specs are stopped in afterAll; this catches a hang, not a pass.
  forceExit: false,
};
