import { Subjects } from '@ddm/contracts';
import { PrivateNats, startPrivateNats, startProcessHarness, until } from '@ddm/testing';
import { connect } from 'nats';
import { decisionProcess, DecisionProcesses } from './fixtures/decision-app';
import { insertDecisions } from './fixtures/decision-rows';
import { duplicateOutcome, jobEnd, jobProgress } from './fixtures/jobs';

describe('bulk duplicate survives a NATS restart (a NATS server of this spec, killed mid-job)', () => {
  let nats: PrivateNats;
  let h: DecisionProcesses;

  beforeAll(async () => {
    nats = await startPrivateNats();
    h = await startProcessHarness(decisionProcess({ natsUrl: nats.url }));
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await nats?.stop();
  });

  it('the job completes with exactly 1,000 copies and every event reaches the stream once', async () => {
    const sources = await insertDecisions(h.query, h.demo.id, h.refs, 1000, 'Outage source');
    const res = await h.http.patch('/decision/v1/decisions/bulk-duplicate', { token: h.tokens.admin, body: { tenantId: h.demo.id, decisionIds: sources } });
    const { jobId } = res.body.data;

    await jobProgress(h.query, jobId, 100);
    await nats.kill();
    const [{ processed }] = await h.query<{ processed: number }>(`SELECT processed FROM decision.jobs WHERE id = $1`, [jobId]);
    expect(processed).toBeLessThan(1000);
    // Without NATS the job goes on in Postgres (its events wait in the outbox, its acknowledgement cannot be sent): another batch done meanwhile.
    await jobProgress(h.query, jobId, processed + 100);
    await nats.start();

    const done = await jobEnd(h, jobId);
    expect(done).toMatchObject({ status: 'COMPLETED', total: 1000, processed: 1000, succeeded: 1000, failed: 0 });
    expect(await duplicateOutcome(h.query, jobId, sources)).toEqual({ copies: 1000, sources: 1000, names: 1000, uneven: 0, items: 1000, events: 1000, revisions: 1000 });

    // The outbox drains once NATS is back, and the stream holds each event once (the relay's message ids deduplicate a resend).
    await until(async () => (await h.query(`SELECT 1 FROM decision.outbox WHERE published_at IS NULL LIMIT 1`)).length === 0, 'the outbox to drain', 30_000);
    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await nc.jetstreamManager();
      const subjects = new Subjects(h.env.NATS_NAMESPACE);
      const info = await jsm.streams.info(subjects.eventsStream, { subjects_filter: '>' });
      const count = (subject: string) => info.state.subjects?.[subjects.wire(subject)] ?? 0;
      expect(count('evt.decision.decision.created')).toBe(1000);
      expect(count('evt.decision.job.completed')).toBe(1);
    } finally {
      await nc.close();
    }
  }, 120_000);
});
