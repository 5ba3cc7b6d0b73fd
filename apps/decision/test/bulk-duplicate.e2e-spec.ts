import { randomUUID } from 'node:crypto';
import { expectErrorBody, ISO, startHarness, until, UUID7 } from '@ddm/testing';
import { duplicateDecisions } from '../src/decisions/decision-refs';
import { decisionApp, DecisionHarness } from './fixtures/decision-app';
import { insertDecisions } from './fixtures/decision-rows';

const PATH = '/decision/v1/decisions';
const FINAL = ['COMPLETED', 'COMPLETED_WITH_ERRORS', 'FAILED'];

describe('bulk duplicate of decisions (e2e: the job through JetStream, real Postgres)', () => {
  let h: DecisionHarness;
  const query = <T>(text: string, params?: unknown[]) => h.db.query<T>(text, params);
  const duplicate = (decisionIds: string[], token = h.tokens.admin) => h.svc.http.patch(`${PATH}/bulk-duplicate`, { token, body: { tenantId: h.demo.id, decisionIds } });
  const job = (jobId: string, token = h.tokens.admin) => h.svc.http.get(`/decision/v1/jobs/${jobId}`, { token });
  const finished = (jobId: string) =>
    until(
      async () => {
        const res = await job(jobId);
        return FINAL.includes(res.body.data?.status) && res.body.data;
      },
      `job ${jobId} to end`,
      30_000,
    );

  beforeAll(async () => {
    h = await startHarness(decisionApp);
  });
  afterAll(() => h?.close());

  it('duplicates 1,000 decisions: the job reaches COMPLETED with 1,000 copies, each with the source\'s groups, authorities, documents and settings', async () => {
    const sources = await insertDecisions(query, h.demo.id, h.refs, 1000, 'Thousand');
    const res = await duplicate(sources);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Decisions are being duplicated');
    expect(res.body.data).toEqual({ jobId: expect.any(String), status: 'ACCEPTED', total: 1000 });

    const done = await finished(res.body.data.jobId);
    expect(done).toEqual({
      jobId: res.body.data.jobId,
      kind: 'bulk-duplicate',
      status: 'COMPLETED',
      total: 1000,
      processed: 1000,
      succeeded: 1000,
      failed: 0,
      errors: [],
      createdAt: expect.stringMatching(ISO),
      startedAt: expect.stringMatching(ISO),
      finishedAt: expect.stringMatching(ISO),
      requestedBy: h.refs.users.get('admin@demo.test'),
    });

    const [copies] = await query<{ n: number; sources: number; drafts: number; named: number; by_admin: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT c.copied_from)::int AS sources, count(*) FILTER (WHERE c.status = 'DRAFT')::int AS drafts,
              count(*) FILTER (WHERE c.name = 'Copy of ' || s.name)::int AS named, count(*) FILTER (WHERE c.created_by = $2)::int AS by_admin
         FROM decision.decisions c JOIN decision.decisions s ON s.id = c.copied_from WHERE c.copied_from = ANY($1::uuid[])`,
      [sources, h.refs.users.get('admin@demo.test')],
    );
    expect(copies).toEqual({ n: 1000, sources: 1000, drafts: 1000, named: 1000, by_admin: 1000 });
    // Every copy's children are the source's, row for row (groups, authorities, documents).
    for (const table of ['decision_groups', 'decision_authorities', 'decision_documents']) {
      const [counts] = await query<{ source_rows: number; copy_rows: number; mismatched: number }>(
        `SELECT (SELECT count(*)::int FROM decision.${table} WHERE decision_id = ANY($1::uuid[])) AS source_rows,
                (SELECT count(*)::int FROM decision.${table} t JOIN decision.decisions c ON c.id = t.decision_id WHERE c.copied_from = ANY($1::uuid[])) AS copy_rows,
                (SELECT count(*)::int FROM decision.decisions c WHERE c.copied_from = ANY($1::uuid[])
                   AND (SELECT count(*) FROM decision.${table} t WHERE t.decision_id = c.id) <> (SELECT count(*) FROM decision.${table} t WHERE t.decision_id = c.copied_from)) AS mismatched`,
        [sources],
      );
      expect({ table, ...counts }).toEqual({ table, source_rows: counts.source_rows, copy_rows: counts.source_rows, mismatched: 0 });
      expect(counts.source_rows).toBeGreaterThanOrEqual(1000);
    }

    // One copy as the API answers it.
    const [{ id: copyId }] = await query<{ id: string }>(`SELECT id FROM decision.decisions WHERE copied_from = $1`, [sources[0]]);
    const [source, copy] = await Promise.all([h.svc.http.get(`${PATH}/${sources[0]}`, { token: h.tokens.admin }), h.svc.http.get(`${PATH}/${copyId}`, { token: h.tokens.admin })]);
    const strip = (d: Record<string, unknown>) => ({
      ...d,
      decisionGroups: (d.decisionGroups as object[]).map((g) => ({ ...g, id: undefined, denormalizedDecisionId: undefined })),
      decisionAuthorities: (d.decisionAuthorities as object[]).map((a) => ({ ...a, id: undefined, denormalizedDecisionId: undefined })),
      decisionDocuments: (d.decisionDocuments as object[]).map((x) => ({ ...x, id: undefined, denormalizedDecisionId: undefined })),
    });
    expect(strip(copy.body.data)).toEqual({
      ...strip(source.body.data),
      id: copyId,
      decisionId: copyId,
      link: expect.stringMatching(new RegExp(`/decisions/${copyId}$`)),
      decisionDisplayId: expect.not.stringMatching(`^${source.body.data.decisionDisplayId}$`),
      name: `Copy of ${source.body.data.name}`,
      status: 'DRAFT',
      copiedFrom: sources[0],
      createdBy: h.refs.users.get('admin@demo.test'),
      createdByUsername: 'Ada Admin',
      createdByDetails: expect.objectContaining({ email: 'admin@demo.test' }),
      createdByUserProfileUrl: null,
      updatedBy: h.refs.users.get('admin@demo.test'),
      updatedByUsername: 'Ada Admin',
      updatedByDetails: expect.objectContaining({ email: 'admin@demo.test' }),
      updatedByUserProfileUrl: null,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });

    // Each copy has a created revision and a created event; the job's end is published.
    const [{ revisions }] = await query<{ revisions: number }>(
      `SELECT count(*)::int AS revisions FROM decision.decision_revisions r JOIN decision.decisions c ON c.id = r.decision_id WHERE c.copied_from = ANY($1::uuid[]) AND r.change = 'created'`,
      [sources],
    );
    expect(revisions).toBe(1000);
    const [{ events }] = await query<{ events: number }>(
      `SELECT count(*)::int AS events FROM decision.outbox o JOIN decision.decisions c ON c.id::text = o.payload->'decision'->>'id'
        WHERE o.subject = 'evt.decision.decision.created' AND c.copied_from = ANY($1::uuid[])`,
      [sources],
    );
    expect(events).toBe(1000);
    const completed = await query<{ payload: Record<string, unknown> }>(`SELECT payload FROM decision.outbox WHERE subject = 'evt.decision.job.completed' AND payload->>'jobId' = $1`, [
      res.body.data.jobId,
    ]);
    expect(completed.map((c) => c.payload)).toEqual([
      { tenantId: h.demo.id, jobId: res.body.data.jobId, kind: 'bulk-duplicate', status: 'COMPLETED', total: 1000, succeeded: 1000, failed: 0, requestedBy: h.refs.users.get('admin@demo.test') },
    ]);
  });

  it('names a second copy "(2)", cuts long names to 150 characters; a source that is deleted, another tenant\'s or unknown is a 404 naming it, and no job', async () => {
    const [a] = await insertDecisions(query, h.demo.id, h.refs, 1, 'Twice copied');
    const long = (await h.svc.http.post(PATH, { token: h.tokens.admin, body: { name: 'L'.repeat(150) } })).body.data.id;
    const deleted = (await h.svc.http.post(PATH, { token: h.tokens.admin, body: { name: 'Deleted source' } })).body.data.id;
    await h.svc.http.delete(`${PATH}/${deleted}`, { token: h.tokens.admin });
    const otherTenants = (await h.svc.http.post(PATH, { token: h.tokens.otherAdmin, body: { name: 'Not Demo Co' } })).body.data.id;
    const unknown = '0190f5c4-0000-7000-8000-00000000f00d';

    const first = await finished((await duplicate([a, long])).body.data.jobId);
    expect(first.status).toBe('COMPLETED');
    const jobs = async () => (await query<{ n: number }>(`SELECT count(*)::int AS n FROM decision.jobs WHERE tenant_id = $1`, [h.demo.id]))[0].n;
    const jobsBefore = await jobs();
    const refused = await duplicate([a, long, long, deleted, otherTenants, unknown]);
    expectErrorBody(refused, 404);
    expect(refused.body.errors).toEqual([deleted, otherTenants, unknown].map((id, i) => ({ field: `decisionIds.${i + 3}`, message: `Decision ${id} not found` })));
    expect(await jobs()).toBe(jobsBefore);
    const second = await finished((await duplicate([a, long, long])).body.data.jobId);
    expect(second).toMatchObject({ status: 'COMPLETED', total: 2, processed: 2, succeeded: 2, failed: 0 });

    const names = await query<{ name: string }>(`SELECT name FROM decision.decisions WHERE copied_from = ANY($1::uuid[]) ORDER BY created_on, name`, [[a, long]]);
    expect(names.map((n) => n.name).sort()).toEqual(
      ['Copy of Twice copied 1', 'Copy of Twice copied 1 (2)', `Copy of ${'L'.repeat(142)}`, `Copy of ${'L'.repeat(138)} (2)`].sort(),
    );
    expect(names.every((n) => n.name.length <= 150)).toBe(true);
    expect(await query(`SELECT 1 FROM decision.decisions WHERE copied_from = $1`, [otherTenants])).toEqual([]);
  });

  it('a source deleted between the acceptance and the run fails with its reason while the others are copied (the items a job ends COMPLETED_WITH_ERRORS with)', async () => {
    // The job's batch as the job runs it (the run's order cannot be raced from outside: the request checks every source first).
    const [kept, gone] = await insertDecisions(query, h.demo.id, h.refs, 2, 'Deleted meanwhile');
    await h.svc.http.delete(`${PATH}/${gone}`, { token: h.tokens.admin });
    const admin = h.refs.users.get('admin@demo.test')!;
    const job = { id: randomUUID(), tenantId: h.demo.id, kind: 'bulk-duplicate', requestedBy: admin, params: {} };
    const outcomes = await h.db.transaction((tx) => duplicateDecisions(tx, job, [gone, kept]));
    expect(outcomes).toEqual([
      { itemId: gone, ok: false, error: 'Decision not found' },
      { itemId: kept, ok: true, resultId: expect.stringMatching(UUID7) },
    ]);
    expect(await query(`SELECT name FROM decision.decisions WHERE copied_from = ANY($1::uuid[])`, [[kept, gone]])).toEqual([{ name: 'Copy of Deleted meanwhile 1' }]);
  });

  it("follows a job only in its tenant: another tenant's job id is a 404; a bad id a 400", async () => {
    const [a] = await insertDecisions(query, h.demo.id, h.refs, 1, 'Tenant job');
    const { jobId } = (await duplicate([a])).body.data;
    await finished(jobId);
    expectErrorBody(await job(jobId, h.tokens.otherAdmin), 404);
    expectErrorBody(await job('0190f5c4-0000-7000-8000-00000000f00d'), 404);
    expectErrorBody(await job('nope'), 400);
    // Any member may follow the tenant's jobs.
    expect((await job(jobId, h.tokens.auditor)).status).toBe(200);
  });

  it('needs create:decisions: an Auditor or Global User is refused and no job is made', async () => {
    const [a] = await insertDecisions(query, h.demo.id, h.refs, 1, 'Refused job');
    const [{ before }] = await query<{ before: number }>(`SELECT count(*)::int AS before FROM decision.jobs`);
    for (const token of [h.tokens.auditor, h.tokens.user]) {
      const res = await duplicate([a], token);
      expectErrorBody(res, 403);
      expect(res.body.message).toBe('Missing permission "create:decisions"');
    }
    expect((await query<{ n: number }>(`SELECT count(*)::int AS n FROM decision.jobs`))[0].n).toBe(before);
  });
});
