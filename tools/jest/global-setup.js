// Runs once before the test files, in jest's own process:
//  1. finds or starts Postgres and NATS and checks kubectl (tools/jest/services.mjs: ES module
//     code shared with npm start, hence the dynamic import), failing at once with one line when
//     something is missing;
//  2. hands their URLs to the test files through process.env (TEST_DATABASE_URL, NATS_URL), which
//     jest's workers inherit and libs/testing/src/env.ts reads;
//  3. builds dist/ and migrates the template database (dist/tools/jest/global-setup.js: jest's
//     moduleNameMapper does not apply to globalSetup, so that part runs from the SWC build, which
//     also keeps dist/ fresh for the specs that start built services as processes).
// global-teardown.js stops what step 1 started.
const { execFileSync } = require('node:child_process');
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '../..');

module.exports = async function globalSetup(globalConfig) {
  const { startTestServices } = await import('./services.mjs');
  const services = await startTestServices({
    root: ROOT,
    needsKubectl: runsSpecsIn(globalConfig, join(ROOT, 'tools', 'deploy')),
    needsNatsServer: runsSpecsIn(globalConfig, ROOT, /nats-restart|nats-outage/),
  });
  try {
    process.env.TEST_DATABASE_URL = services.databaseUrl;
    process.env.NATS_URL = services.natsUrl;
    if (services.natsServerBin) process.env.DDM_NATS_SERVER_BIN = services.natsServerBin;
    execFileSync(process.execPath, [join(__dirname, '../build.mjs'), '--quiet'], { stdio: 'inherit' });
    const setup = require('../../dist/tools/jest/global-setup.js').default;
    await setup(services.databaseUrl);
  } catch (err) {
    await services.stop(); // jest runs no teardown after a failed setup
    throw err;
  }
  // Jest runs globalSetup and globalTeardown in this same process: the global carries it over.
  globalThis.__ddmTestServices = services;
};

/**
 * Whether the run includes spec files under `dir` (whose names match `name`, when given): kubectl
 * is needed by the deployment specs (tools/deploy) only, nats-server by the specs that restart
 * their own NATS (*nats-restart*, *nats-outage*), so a run narrowed to other files (`jest <pattern>`) goes on
 * without them. Jest matches the pattern against absolute paths, ignoring case.
 */
function runsSpecsIn(globalConfig, dir, name = /./) {
  const pattern = globalConfig.testPathPattern ? new RegExp(globalConfig.testPathPattern, 'i') : null;
  return specFiles(dir).some((file) => name.test(file) && (!pattern || pattern.test(file)));
}

/** The spec files under `dir`, outside node_modules, dist and .data. */
function specFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', '.data', '.git', '.nx', 'tmp'].includes(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...specFiles(path));
    else if (/\.(e2e-)?spec\.ts$/.test(entry.name)) out.push(path);
  }
  return out;
}
