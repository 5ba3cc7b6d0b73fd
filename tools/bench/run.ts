/**
 * npm run bench -- <name> [options]: runs one benchmark of tools/bench/ (each prints its own usage).
 *   actions   actions get-by-id and "my open actions" against a bare Fastify + pg handler (2,000 and 200,000 actions)
 *   authority the authority check at depth 8 against a bare Fastify + pg handler (1,000,000 delegations), now and a year ago, one at a time, check-batch of 1,000
 *   auth      users list with a search term at 1,000 and at 100,000 users
 *   documents the documents list as a user who sees a tenth of the restricted ones against a bare Fastify + pg handler (1,000 and 100,000 documents), a 20 MiB download
 *   delegations delegations get-by-id and list against a bare Fastify + pg handler (1,000,000 delegations), the cascading check over 1,111, issuing a redelegation
 *   decisions decisions get-by-id and lists against a bare Fastify + pg handler (1,000 and 100,000 decisions), statements per request, bulk duplicate and delete of 1,000
 *   gateway   the auth details endpoint directly and through the gateway
 *   matrix    matrix global search against a bare Fastify + pg handler (50,000 matrices), the grid's first page now and a year ago (1,000 decisions × 200 positions, 200,000 delegations)
 *   notifications the caller's count and list against a bare Fastify + pg handler (1,000,000 notifications, 10,000 people), count p95 at 100 vs 10,000, events to notifications per second, SSE delivery latency
 *   settings  positions get-by-id and list against a bare Fastify + pg handler running the same SQL (1,000 and 100,000 positions)
 */
const BENCHES: Record<string, string> = {
  actions: './actions',
  auth: './auth',
  authority: './authority',
  decisions: './decisions',
  delegations: './delegations',
  documents: './documents',
  gateway: './gateway',
  matrix: './matrix',
  notifications: './notifications',
  settings: './settings',
};

const name = process.argv[2];
if (!name || !Object.prototype.hasOwnProperty.call(BENCHES, name)) {
  process.stderr.write(`usage: npm run bench -- <${Object.keys(BENCHES).join('|')}> [options]\n`);
  process.exit(2);
}
// The benchmark reads its own options from argv[2...].
process.argv.splice(2, 1);
// eslint-disable-next-line @typescript-eslint/no-require-imports
require(BENCHES[name]);
