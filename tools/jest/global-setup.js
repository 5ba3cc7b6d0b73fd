// Jest's moduleNameMapper does not apply to globalSetup, so the setup runs from the SWC build
// (which also keeps dist/ fresh for the specs that start built services as processes).
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

module.exports = async function globalSetup() {
  execFileSync(process.execPath, [join(__dirname, '../build.mjs'), '--quiet'], { stdio: 'inherit' });
  const setup = require('../../dist/tools/jest/global-setup.js').default;
  await setup();
};
