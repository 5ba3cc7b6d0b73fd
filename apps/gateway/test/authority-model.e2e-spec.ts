import { ModelTarget, RunResult, TestSystem, modelReport, runModelSeed, shrinkModelRun, startTestSystem, tokenFor } from '@ddm/testing';

/**
 * The authority answers against an independent model of the organisation (libs/testing
 * authority-model: its own rules, none of the product's code), driven through the gateway with
 * auth, settings and the decision area as separate processes. After each random operation every
 * delegation's status and invalid fields, checks now and at an earlier instant, holders and what
 * people may decide are compared, and what-if before each change of the organisation.
 * AUTHORITY_MODEL_SEED replays a run (AUTHORITY_MODEL_SEEDS, AUTHORITY_MODEL_STEPS size it); a
 * disagreement prints the shrunk sequence of API calls. `npm test` runs a few short seeds;
 * `npm run soak -- authority --seeds N --steps M` runs this spec long.
 */
const FIRST_SEED = Number(process.env.AUTHORITY_MODEL_SEED ?? Date.now() % 1_000_000_000);
const SEEDS = Number(process.env.AUTHORITY_MODEL_SEEDS ?? (process.env.AUTHORITY_MODEL_SEED ? 1 : 3));
const STEPS = Number(process.env.AUTHORITY_MODEL_STEPS ?? 30);
/** A step takes well under a second here; the bound is for a loaded machine. */
const SEED_TIMEOUT_MS = 120_000 + STEPS * 6_000;

describe('system: the authority answers agree with an independent model of the organisation', () => {
  let system: TestSystem;
  let target: ModelTarget;
  const totals = { seeds: 0, operations: 0, applied: 0, comparisons: 0, expired: 0, swept: 0, disagreements: 0 };

  beforeAll(async () => {
    system = await startTestSystem({ areas: ['auth', 'settings', 'decision'] });
    const demo = system.seeded.tenants.find((t) => t.name === 'Demo Co')!;
    target = {
      http: system.http,
      admin: tokenFor('admin@demo.test'),
      tenantId: demo.id,
      people: demo.users.filter((u) => /^staff\d+@/.test(u.email)).sort((a, b) => a.email.localeCompare(b.email)),
      tokenOf: (email) => tokenFor(email),
    };
  }, 180_000);

  afterAll(async () => {
    process.stdout.write(
      `authority model: ${totals.seeds} seeds × ${STEPS} steps from seed ${FIRST_SEED}: ${totals.operations} operations, ${totals.applied} applied, ` +
        `${totals.comparisons} comparisons, ${totals.expired} delegations expired (${totals.swept} swept to EXPIRED), ${totals.disagreements} disagreements\n`,
    );
    await system?.close();
  });

  for (let k = 0; k < SEEDS; k++) {
    const seed = FIRST_SEED + k;
    it(`seed ${seed}: ${STEPS} operations through the API, no disagreement with the model`, async () => {
      const began = Date.now();
      const result = await runModelSeed(target, seed, STEPS);
      totals.seeds++;
      totals.operations += result.ops.length;
      totals.applied += result.applied;
      totals.comparisons += result.comparisons;
      totals.expired += result.expired;
      totals.swept += result.swept;
      process.stdout.write(
        `seed ${seed}: ${result.ops.length} operations, ${result.applied} applied, ${result.comparisons} comparisons, ${result.expired} delegations expired (${result.swept} swept to EXPIRED), ${result.disagreement ? 'a disagreement' : 'no disagreement'}\n`,
      );
      if (result.disagreement) {
        totals.disagreements++;
        // Said at once, whole: a run over real time may not replay exactly, and the shrinking that follows takes minutes.
        process.stdout.write(`seed ${seed}: the disagreement as the run met it\n${modelReport(result)}\n`);
        const shrunk: RunResult = await shrinkModelRun(target, result, 40, began + SEED_TIMEOUT_MS * 0.9);
        const shorter = shrunk.disagreement && shrunk.ops.length < result.ops.length ? `\nshrunk to:\n${modelReport(shrunk)}` : '\n(no shorter sequence found)';
        throw new Error(`the product and the model disagree (AUTHORITY_MODEL_SEED=${seed} replays it)\n${modelReport(result)}${shorter}`);
      }
      // Not a vacuous run: some of the operations were taken, and each taken one was compared many ways (about 30 comparisons each).
      expect(result.applied).toBeGreaterThanOrEqual(STEPS / 6);
      expect(result.comparisons).toBeGreaterThanOrEqual(result.applied * 10);
    }, SEED_TIMEOUT_MS);
  }
});
