/**
 * `npm run test:unit`: the unit specs (`*.spec.ts` beside the code) alone, for a quick loop. No
 * global setup, so no Postgres, NATS, build or outside tool; specs that need any of those are
 * named `*.e2e-spec.ts` and run in the full `npm run test:jest` (jest.config.js).
 */
module.exports = {
  ...require('./jest.config'),
  testMatch: ['**/*.spec.ts'],
  globalSetup: undefined,
  globalTeardown: undefined,
};
