import { randomUUID } from 'node:crypto';
import { startHarness, until } from '@ddm/testing';
import { decisionApp, DecisionHarness } from './fixtures/decision-app';
import { insertDecisions } from './fixtures/decision-rows';

const BULK_DUPLICATE = '/decision/v1/decisions/bulk-duplicate';

/**
 * Idempotency-Key on an asynchronous bulk PATCH (libs/platform/src/idempotency.ts): a retry of an
 * accepted bulk duplicate answers the same job, and the decisions are copied once.
 */
describe('Idempotency-Key on bulk duplicate (e2e: the job through JetStream, real Postgres)', () => {
  let h: DecisionHarness;
  const query = <T>(text: string, params?: unknown[]) => h.db.query<T>(text, params);
  const duplicate = (decisionIds: string[], key: string) =>
    h.svc.http.patch(BULK_DUPLICATE, { token: h.tokens.admin, body: { tenantId: h.demo.id, decisionIds }, headers: { 'idempotency-key': key } });

  beforeAll(async () => {
    h = await startHarness(decisionApp);
  });
  afterAll(() => h?.close());

  it('a retry answers the same accepted job and starts no second one; each decision is copied once', async () => {
    const sources = await insertDecisions(query, h.demo.id, h.refs, 3, `Idem ${randomUUID().slice(0, 8)}`);
    const key = randomUUID();
    const first = await duplicate(sources, key);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ jobId: expect.any(String), status: 'ACCEPTED', total: 3 });
    const retry = await duplicate([...sources], key);
    expect(retry.status).toBe(200);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');

    const jobId = first.body.data.jobId;
    await until(async () => (await h.svc.http.get(`/decision/v1/jobs/${jobId}`, { token: h.tokens.admin })).body.data?.status === 'COMPLETED', `job ${jobId} to complete`, 30_000);
    const [{ jobs }] = await query<{ jobs: number }>(`SELECT count(*)::int AS jobs FROM decision.jobs WHERE tenant_id = $1 AND kind = 'bulk-duplicate' AND created_at > now() - interval '5 minutes'`, [h.demo.id]);
    expect(jobs).toBe(1);
    const [{ copies }] = await query<{ copies: number }>(`SELECT count(*)::int AS copies FROM decision.decisions WHERE copied_from = ANY($1::uuid[])`, [sources]);
    expect(copies).toBe(3);
  });
});
