import { startProcessHarness } from '@ddm/testing';
import { decisionProcess, DecisionProcesses } from './fixtures/decision-app';
import { insertDecisions } from './fixtures/decision-rows';
import { duplicateOutcome, jobEnd, jobProgress } from './fixtures/jobs';

describe('bulk duplicate survives a crash (the decision service as its own process, SIGKILL mid-job)', () => {
  let h: DecisionProcesses;

  beforeAll(async () => {
    h = await startProcessHarness(decisionProcess());
  }, 120_000);
  afterAll(() => h?.close());

  it('a 1,000-decision job killed in the middle completes after the restart with exactly 1,000 copies, none twice', async () => {
    const sources = await insertDecisions(h.query, h.demo.id, h.refs, 1000, 'Crash source');
    const res = await h.http.patch('/decision/v1/decisions/bulk-duplicate', { token: h.tokens.admin, body: { tenantId: h.demo.id, decisionIds: sources } });
    expect(res.body.data).toMatchObject({ status: 'ACCEPTED', total: 1000 });
    const { jobId } = res.body.data;

    // At least one batch committed, then no goodbye: the batch in flight rolls back, the message stays unacknowledged.
    await jobProgress(h.query, jobId, 100);
    expect(await h.processes.decision.stop('SIGKILL')).toBeNull();
    const [{ processed, status }] = await h.query<{ processed: number; status: string }>(`SELECT processed, status FROM decision.jobs WHERE id = $1`, [jobId]);
    expect(status).toBe('RUNNING');
    expect(processed).toBeGreaterThanOrEqual(100);
    expect(processed).toBeLessThan(1000);
    expect((await duplicateOutcome(h.query, jobId, sources)).copies).toBe(processed);

    await h.restart();
    const done = await jobEnd(h, jobId);
    expect(done).toMatchObject({ status: 'COMPLETED', total: 1000, processed: 1000, succeeded: 1000, failed: 0, errors: [] });
    expect(await duplicateOutcome(h.query, jobId, sources)).toEqual({ copies: 1000, sources: 1000, names: 1000, uneven: 0, items: 1000, events: 1000, revisions: 1000 });
    const ended = await h.query(`SELECT 1 FROM decision.outbox WHERE subject = 'evt.decision.job.completed' AND payload->>'jobId' = $1`, [jobId]);
    expect(ended).toHaveLength(1);
  }, 120_000);
});
