/**
 * One jest run for the whole workspace (`npm run test:jest`): unit specs (*.spec.ts) beside the
 * code, and specs that need Postgres, NATS, dist/ or an outside tool (*.e2e-spec.ts) under each
 * project's test/ and in tools/. jest.unit.config.js runs the unit specs alone.
 */
const swc = require('./.swcrc.json');
delete swc.$schema;
const ESM_ONLY = '(file-type|strtok3|token-types|@tokenizer/inflate|uint8array-extras|@borewit/text-codec)';

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...swc, sourceMaps: 'inline' }],
    // file-type and the packages it reads with are ES modules only. The services load them with
    // require (Node >= 20.19 loads an ES module so); jest's own module loader cannot, so it compiles them.
    [`/node_modules/${ESM_ONLY}/.+\\.js$`]: ['@swc/jest', { ...swc, jsc: { ...swc.jsc, parser: { syntax: 'ecmascript' } } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!${ESM_ONLY}/)`],
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
