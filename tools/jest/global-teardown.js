// Runs once after the test files: stops the embedded PostgreSQL / nats-server the global setup
// started (nothing when it used servers that were already running).
module.exports = async function globalTeardown() {
  await globalThis.__ddmTestServices?.stop();
};
