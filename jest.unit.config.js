/**
 * `npm run test:unit`: the unit specs (`*.spec.ts` beside the code) alone, for a quick loop. No
 * global setup, so no Postgres, NATS, build or outside tool; specs that need any of those are
 * named `*.e2e-spec.ts` and run in the full `npm run test:jest` (jest.config.js).
 */
const { globalSetup: _setup, globalTeardown: _teardown, ...shared } = require('./jest.config');

module.exports = {
  ...shared,
  testMatch: ['**/*.spec.ts'],
  testTimeout: 10_000,
};
