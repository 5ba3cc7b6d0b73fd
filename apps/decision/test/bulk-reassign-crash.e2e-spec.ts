import { startProcessHarness } from '@ddm/testing';
import { decisionProcess, DecisionProcesses } from './fixtures/decision-app';
import { insertDecisions, insertDelegations } from './fixtures/decision-rows';
import { jobEnd, jobProgress } from './fixtures/jobs';

describe('bulk reassign survives a crash (the decision service as its own process, SIGKILL mid-job)', () => {
  let h: DecisionProcesses;

  beforeAll(async () => {
    h = await startProcessHarness(decisionProcess());
  }, 120_000);
  afterAll(() => h?.close());

  /** Per delegation of `ids`: its recipient, how many reassignment revisions and updated events naming the new recipient it has. */
  const outcome = (ids: string[], to: string) =>
    h.query<{ reassigned: number; revisions: number; events: number; twice: number }>(
      `WITH r AS (SELECT delegation_id, count(*) AS n FROM decision.delegation_revisions WHERE delegation_id = ANY($1::uuid[]) AND change = 'recipient reassigned' GROUP BY delegation_id),
            e AS (SELECT (payload->>'delegationId')::uuid AS delegation_id, count(*) AS n FROM decision.outbox
                   WHERE subject = 'evt.decision.delegation.updated' AND payload->>'recipientUserId' = $2 AND (payload->>'delegationId')::uuid = ANY($1::uuid[]) GROUP BY 1)
       SELECT (SELECT count(*)::int FROM decision.delegations WHERE id = ANY($1::uuid[]) AND recipient_user_id = $2::uuid) AS reassigned,
              (SELECT coalesce(sum(n), 0)::int FROM r) AS revisions,
              (SELECT coalesce(sum(n), 0)::int FROM e) AS events,
              (SELECT count(*)::int FROM r WHERE n > 1) + (SELECT count(*)::int FROM e WHERE n > 1) AS twice`,
      [ids, to],
    );

  it('a 1,000-delegation reassignment killed in the middle completes after the restart: every delegation reassigned once', async () => {
    const [decisionId] = await insertDecisions(h.query, h.demo.id, h.refs, 1, 'Crash reassign');
    const [admin, user, auditor] = ['admin', 'user', 'auditor'].map((n) => h.refs.users.get(`${n}@demo.test`)!);
    const ids = await insertDelegations(h.query, h.demo.id, h.refs, decisionId, admin, user, 1000);
    const res = await h.http.patch('/decision/v1/delegations/bulk-reassign-recipients', {
      token: h.tokens.admin,
      body: { tenantId: h.demo.id, delegationIds: ids, recipientType: 'SPECIFIC_PERSONNEL', delegationRecipients: [{ recipientUserId: auditor }] },
    });
    expect(res.body.data).toMatchObject({ status: 'ACCEPTED', total: 1000 });
    const { jobId } = res.body.data;

    // At least one batch committed, then no goodbye: the batch in flight rolls back, the message stays unacknowledged.
    await jobProgress(h.query, jobId, 100);
    expect(await h.processes.decision.stop('SIGKILL')).toBeNull();
    const [{ processed, status }] = await h.query<{ processed: number; status: string }>(`SELECT processed, status FROM decision.jobs WHERE id = $1`, [jobId]);
    expect(status).toBe('RUNNING');
    expect(processed).toBeGreaterThanOrEqual(100);
    expect(processed).toBeLessThan(1000);
    const [mid] = await outcome(ids, auditor);
    expect(mid).toEqual({ reassigned: processed, revisions: processed, events: processed, twice: 0 });

    await h.restart();
    const done = await jobEnd(h, jobId);
    expect(done).toMatchObject({ status: 'COMPLETED', total: 1000, processed: 1000, succeeded: 1000, failed: 0, errors: [] });
    expect(await outcome(ids, auditor)).toEqual([{ reassigned: 1000, revisions: 1000, events: 1000, twice: 0 }]);
    const ended = await h.query(`SELECT 1 FROM decision.outbox WHERE subject = 'evt.decision.job.completed' AND payload->>'jobId' = $1`, [jobId]);
    expect(ended).toHaveLength(1);
  }, 120_000);
});
