/**
 * The bulk-job mechanism (libs/platform/src/jobs.ts on Consumers.startLongRunning) against real
 * Postgres and NATS: the job row and its message in the caller's transaction, batches each in one
 * transaction that records its items, the three ends, the completion event once, redeliveries
 * (after a transient failure, after the end, to a second replica mid-job) that do nothing twice.
 *
 * Every job of this file goes to one durable consumer (the JOBS stream is a work queue: one
 * consumer per subject); what `process` does is chosen per job (`behaviours`, set inside the
 * transaction that starts the job, so before the runner can see it).
 */
import { AppError, ErrorCode, JobView } from '@ddm/contracts';
import { JSONCodec, JsMsg } from 'nats';
import { JsMsgImpl } from 'nats/lib/jetstream/jsmsg';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { Consumers } from '../src/consumer';
import { createDataSource } from '../src/database';
import { Db } from '../src/db';
import type { Tx } from '../src/queryable';
import { JobItemOutcome, JobRecord, JobSpec, Jobs } from '../src/jobs';
import { createLogger } from '../src/logger';
import { NatsClient } from '../src/nats';
import { OutboxRelay } from '../src/outbox';
import { isoSql } from '../src/sql';
import { NATS_URL, TestDatabase, TestNamespace, until } from '@ddm/testing';
import { TENANT, WidgetsPlatform, startWidgetsPlatform, widgetsDataSource } from './fixtures/widgets';

const codec = JSONCodec();
const log = createLogger('platform-jobs-test', 'silent');

const JOB = 'job.decision.bulk-duplicate' as const;
const COMPLETED = 'evt.decision.job.completed' as const;
const DURABLE = 'platform-test-jobs';
const OTHER_TENANT = '0190a000-0000-7000-8000-0000000000bb';
const USER = '0190a000-0000-7000-8000-0000000000cc';
const BATCH = 3;
const MAX_DELIVER = 3;
const ACK_WAIT_MS = 1_500;
const END_STATUSES = ['COMPLETED', 'COMPLETED_WITH_ERRORS', 'FAILED'];

/** What `process` does for one job; `call` counts the job's calls (1 for the first). */
type Behaviour = (tx: Tx, job: JobRecord, ids: string[], call: number, runner: string) => Promise<JobItemOutcome[]>;
interface Call {
  jobId: string;
  runner: string;
  ids: string[];
  threw: boolean;
}

const chunks = <T>(xs: readonly T[], n: number): T[][] => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Fresh item ids, newest first: the order given is not the ids' sort order. */
const freshIds = (n: number) => Array.from({ length: n }, () => uuidv7()).reverse();

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('bulk jobs: start, batches, ends, redeliveries (real Postgres and NATS)', () => {
  let dbx: TestDatabase;
  let ns: TestNamespace;
  let ds: DataSource;
  let nats: NatsClient;
  let relay: OutboxRelay;
  let db: Db;
  let consumers: Consumers;
  let jobs: Jobs;
  let platform: WidgetsPlatform | undefined;
  const behaviours = new Map<string, Behaviour>();
  const calls: Call[] = [];

  /** Every ack of a job message in this process, and the jobs whose first delivery's ack is to be lost. */
  const acks: { jobId: string; delivery: number; lost: boolean }[] = [];
  const loseFirstAck = new Set<string>();
  const realAck = JsMsgImpl.prototype.ack;

  const callsOf = (jobId: string) => calls.filter((c) => c.jobId === jobId);
  const acksOf = (jobId: string) => acks.filter((a) => a.jobId === jobId);
  const count = async (sql: string, params: unknown[] = []) => Number((await ds.query(sql, params))[0].n);

  /** The job spec every runner of this file registers (one durable, as replicas of one service would). */
  const spec = (runner: string): JobSpec<typeof JOB> => ({
    name: DURABLE,
    subject: JOB,
    completedSubject: COMPLETED,
    batchSize: BATCH,
    maxDeliver: MAX_DELIVER,
    ackWaitMs: ACK_WAIT_MS,
    process: async (tx, job, ids) => {
      const call: Call = { jobId: job.id, runner, ids: [...ids], threw: false };
      calls.push(call);
      const behaviour = behaviours.get(job.id);
      try {
        if (!behaviour) throw new Error(`no behaviour for job ${job.id}`);
        return await behaviour(tx, job, ids, callsOf(job.id).length, runner);
      } catch (err) {
        call.threw = true;
        throw err;
      }
    },
  });

  /** The batch's side effect, in its transaction: one row per item (no key, so twice would show twice). */
  const writeEffects = (tx: Tx, job: JobRecord, ids: string[], runner: string) =>
    tx.query(`INSERT INTO platform_test.job_effects (job_id, item_id, runner) SELECT $1, unnest($2::uuid[]), $3`, [job.id, ids, runner]);
  const succeed: Behaviour = async (tx, job, ids, _call, runner) => {
    await writeEffects(tx, job, ids, runner);
    return ids.map((id) => ({ itemId: id, ok: true, resultId: id }));
  };

  /** Starts a job in `tx` and says what its `process` does (before the commit, so before any runner sees it). */
  const startIn = async (tx: Tx, itemIds: readonly string[], behaviour: Behaviour, tenantId = TENANT) => {
    const accepted = await jobs.start(tx, JOB, { tenantId, requestedBy: USER, itemIds });
    behaviours.set(accepted.jobId, behaviour);
    return accepted;
  };
  const start = (itemIds: readonly string[], behaviour: Behaviour = succeed, tenantId = TENANT) => db.transaction((tx) => startIn(tx, itemIds, behaviour, tenantId));

  const ended = (jobId: string, tenantId = TENANT): Promise<JobView> =>
    until(async () => {
      const v = await jobs.status(tenantId, jobId);
      return END_STATUSES.includes(v.status) && v;
    }, `job ${jobId} to end`, 20_000);

  const durableInfo = () => nats.jsm.consumers.info(nats.subjects.jobsStream, nats.subjects.durable(DURABLE));
  /** Nothing of the job stream waits for an ack or a delivery: every delivery so far has been acknowledged or given up. */
  const settled = () =>
    until(async () => {
      const info = await durableInfo();
      return info.num_ack_pending === 0 && info.num_pending === 0;
    }, 'the job stream to settle', 15_000);

  const completionEvents = async (jobId: string) =>
    (await ds.query(`SELECT payload, published_at FROM platform_test.outbox WHERE subject = $1 AND payload->>'jobId' = $2`, [COMPLETED, jobId])) as {
      payload: Record<string, unknown>;
      published_at: Date | null;
    }[];
  const effects = async (jobId: string) =>
    ((await ds.query(`SELECT item_id FROM platform_test.job_effects WHERE job_id = $1`, [jobId])) as { item_id: string }[]).map((r) => r.item_id);
  const statusError = async (tenantId: string, jobId: string): Promise<AppError> => {
    try {
      await jobs.status(tenantId, jobId);
    } catch (err) {
      return err as AppError;
    }
    throw new Error(`status(${tenantId}, ${jobId}) answered`);
  };

  beforeAll(async () => {
    // Acks are observed (and, for a job in loseFirstAck, the first one dropped, as if the runner died right after it ended the job).
    JsMsgImpl.prototype.ack = function (this: JsMsg) {
      const { jobId } = codec.decode(this.data) as { jobId?: string };
      const lost = !!jobId && loseFirstAck.has(jobId) && this.info.deliveryCount === 1;
      if (jobId) acks.push({ jobId, delivery: this.info.deliveryCount, lost });
      if (!lost) realAck.call(this);
    };
    platform = await startWidgetsPlatform('jobs-test', 6, log);
    ({ dbx, ns, ds, nats, relay, db, consumers } = platform);
    jobs = new Jobs(db, consumers, log);
    await jobs.register(spec('A'));
    relay.start();
  });

  afterAll(async () => {
    await platform?.close();
    JsMsgImpl.prototype.ack = realAck;
  });

  describe('a job of N items', () => {
    it("is ACCEPTED in the caller's transaction, RUNNING batch by batch, then COMPLETED; each distinct item once, in the order given", async () => {
      const items = freshIds(10);
      // Duplicates, one in upper case: taken once each, where first named.
      const request = [...items.slice(0, 4), items[1].toUpperCase(), ...items.slice(4), items[0], items[9].toUpperCase()];
      const widget = uuidv7();
      let inBatch2 = false;
      const release = deferred();
      const behaviour: Behaviour = async (tx, job, ids, call, runner) => {
        if (call === 2) {
          inBatch2 = true;
          await release.promise;
        }
        return succeed(tx, job, ids, call, runner);
      };

      /** Starts the job with the relay stopped, so its message stays in the outbox until we have looked. */
      const accept = async (): Promise<string> => {
        await relay.stop();
        try {
          const accepted = await db.transaction(async (tx) => {
            await tx.query(`INSERT INTO platform_test.widgets (id, tenant_id, name) VALUES ($1, $2, 'asked for the job')`, [widget, TENANT]);
            const a = await startIn(tx, request, behaviour);
            // Not committed yet: invisible outside the transaction.
            expect(await count(`SELECT count(*) AS n FROM platform_test.jobs WHERE id = $1`, [a.jobId])).toBe(0);
            return a;
          });
          const jobId = accepted.jobId;
          expect(accepted).toEqual({ jobId: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'ACCEPTED', total: 10 });
          expect(await jobs.status(TENANT, jobId)).toEqual({
            jobId,
            kind: 'bulk-duplicate',
            status: 'ACCEPTED',
            total: 10,
            processed: 0,
            succeeded: 0,
            failed: 0,
            errors: [],
            createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
            startedAt: null,
            finishedAt: null,
            requestedBy: USER,
          });
          const [row] = await ds.query(`SELECT item_ids FROM platform_test.jobs WHERE id = $1`, [jobId]);
          expect(row.item_ids).toEqual(items);
          const messages = await ds.query(`SELECT subject, payload, published_at FROM platform_test.outbox WHERE payload->>'jobId' = $1`, [jobId]);
          expect(messages).toEqual([{ subject: JOB, payload: { tenantId: TENANT, jobId }, published_at: null }]);
          expect(await count(`SELECT count(*) AS n FROM platform_test.widgets WHERE id = $1`, [widget])).toBe(1);
          expect(callsOf(jobId)).toEqual([]);
          return jobId;
        } finally {
          relay.start();
        }
      };

      let jobId: string;
      let running: JobView;
      try {
        jobId = await accept();
        // Batch 1 committed, batch 2 held open: RUNNING, with the first batch's progress.
        await until(() => inBatch2, 'the second batch to start', 10_000);
        running = await jobs.status(TENANT, jobId);
        expect(running).toMatchObject({ status: 'RUNNING', total: 10, processed: BATCH, succeeded: BATCH, failed: 0, errors: [], finishedAt: null });
        expect(running.startedAt).not.toBeNull();
      } finally {
        release.resolve(); // never leave the runner stuck in the batch
      }

      const done = await ended(jobId);
      expect(done).toMatchObject({ jobId, kind: 'bulk-duplicate', status: 'COMPLETED', total: 10, processed: 10, succeeded: 10, failed: 0, errors: [], requestedBy: USER });
      expect(done.startedAt).toBe(running.startedAt);
      expect(Date.parse(done.createdAt)).toBeLessThanOrEqual(Date.parse(done.startedAt!));
      expect(Date.parse(done.startedAt!)).toBeLessThanOrEqual(Date.parse(done.finishedAt!));

      // process saw each item once, in the order given, BATCH at a time.
      expect(callsOf(jobId).map((c) => c.ids)).toEqual(chunks(items, BATCH));
      expect((await effects(jobId)).sort()).toEqual([...items].sort());
      const outcomes = await ds.query(`SELECT item_id, ok, result_id, error FROM platform_test.job_items WHERE job_id = $1 ORDER BY item_id`, [jobId]);
      expect(outcomes).toEqual([...items].sort().map((id) => ({ item_id: id, ok: true, result_id: id, error: null })));
    });

    it('leaves neither the job row nor its message when the transaction rolls back', async () => {
      let doomed: string | undefined;
      await expect(
        db.transaction(async (tx) => {
          doomed = (await startIn(tx, freshIds(2), succeed)).jobId;
          throw new Error('rolled back on purpose');
        }),
      ).rejects.toThrow('rolled back on purpose');
      expect(doomed).toBeDefined();
      expect(await count(`SELECT count(*) AS n FROM platform_test.jobs WHERE id = $1`, [doomed])).toBe(0);
      expect(await count(`SELECT count(*) AS n FROM platform_test.outbox WHERE payload->>'jobId' = $1`, [doomed])).toBe(0);
      // A barrier: jobs leave and run in commit order, so the rolled-back one would have run before this.
      const barrier = await start(freshIds(1));
      await ended(barrier.jobId);
      expect(callsOf(doomed!)).toEqual([]);
      expect((await statusError(TENANT, doomed!)).getStatus()).toBe(404);
    });
  });

  it('ends COMPLETED_WITH_ERRORS with the failed and unanswered items, in the order the request named them', async () => {
    const items = freshIds(9);
    const refused = new Set([items[1], items[4], items[8]]);
    const unanswered = new Set([items[2], items[6]]);
    const { jobId } = await start(items, async (tx, job, ids, call, runner) => {
      await writeEffects(tx, job, ids, runner);
      const answers: JobItemOutcome[] = ids
        .filter((id) => !unanswered.has(id))
        .map((id, i) => (refused.has(id) ? { itemId: id, ok: false, error: `cannot copy ${id}` } : { itemId: i === 0 ? id.toUpperCase() : id, ok: true, resultId: null }));
      return answers.reverse(); // the handler's order is not the request's
    });
    const done = await ended(jobId);
    expect(done).toMatchObject({ status: 'COMPLETED_WITH_ERRORS', total: 9, processed: 9, succeeded: 4, failed: 5 });
    expect(done.errors).toEqual(
      items.filter((id) => refused.has(id) || unanswered.has(id)).map((id) => ({ id, message: refused.has(id) ? `cannot copy ${id}` : 'Not processed' })),
    );
    expect(callsOf(jobId).map((c) => c.ids)).toEqual(chunks(items, BATCH));
    const [event] = await completionEvents(jobId);
    expect(event.payload).toMatchObject({ status: 'COMPLETED_WITH_ERRORS', total: 9, succeeded: 4, failed: 5 });
  });

  it('a batch that throws once rolls back and is redone on the redelivery: the job completes with each item written once', async () => {
    const items = freshIds(9);
    let firstStart: string | undefined;
    const { jobId } = await start(items, async (tx, job, ids, call, runner) => {
      if (call === 1) [{ started_at: firstStart }] = await tx.query<{ started_at: string }>(`SELECT ${isoSql('started_at')} AS started_at FROM platform_test.jobs WHERE id = $1`, [job.id]);
      await writeEffects(tx, job, ids, runner);
      if (call === 2) throw new Error('transient failure in the second batch');
      return ids.map((id) => ({ itemId: id, ok: true }));
    });
    const done = await ended(jobId);
    expect(done).toMatchObject({ status: 'COMPLETED', total: 9, processed: 9, succeeded: 9, failed: 0, errors: [] });
    expect(done.startedAt).toBe(firstStart); // the redelivery resumed the job, it did not start it again
    const [b1, b2, b3] = chunks(items, BATCH);
    expect(callsOf(jobId).map((c) => [c.ids, c.threw])).toEqual([
      [b1, false],
      [b2, true],
      [b2, false],
      [b3, false],
    ]);
    const written = await effects(jobId);
    expect(written.sort()).toEqual([...items].sort());
    expect(await count(`SELECT count(*) AS n FROM platform_test.job_items WHERE job_id = $1`, [jobId])).toBe(9);
    await settled();
    expect(callsOf(jobId)).toHaveLength(4);
  });

  it(`a job whose batches always throw is FAILED after ${MAX_DELIVER} deliveries, its end published once`, async () => {
    const items = freshIds(6);
    const seen: string[] = [];
    const { jobId } = await start(items, async (tx, job) => {
      const [row] = await tx.query<{ status: string }>(`SELECT status FROM platform_test.jobs WHERE id = $1`, [job.id]);
      seen.push(row.status);
      throw new Error('cannot run at all');
    });
    const done = await ended(jobId);
    expect(done).toMatchObject({ status: 'FAILED', total: 6, processed: 0, succeeded: 0, failed: 0, errors: [] });
    expect(done.startedAt).not.toBeNull();
    expect(done.finishedAt).not.toBeNull();
    await settled(); // given up: no further delivery is due
    expect(callsOf(jobId).map((c) => [c.ids, c.threw])).toEqual(Array.from({ length: MAX_DELIVER }, () => [items.slice(0, BATCH), true]));
    expect(seen).toEqual(Array.from({ length: MAX_DELIVER }, () => 'RUNNING'));
    const events = await completionEvents(jobId);
    expect(events.map((e) => e.payload)).toEqual([{ tenantId: TENANT, jobId, kind: 'bulk-duplicate', status: 'FAILED', total: 6, succeeded: 0, failed: 0, requestedBy: USER }]);
    expect(await effects(jobId)).toEqual([]);
  });

  it('publishes exactly one completion event, with its fields, even when the job message is delivered again after the end', async () => {
    const items = freshIds(4);
    // The first delivery's ack is lost (as if the runner died right after recording the end): NATS delivers the message again.
    const { jobId } = await db.transaction(async (tx) => {
      const accepted = await startIn(tx, items, succeed);
      loseFirstAck.add(accepted.jobId); // before the commit, so before any delivery
      return accepted;
    });
    const before = await ended(jobId);
    expect(before).toMatchObject({ status: 'COMPLETED', total: 4, processed: 4, succeeded: 4, failed: 0 });
    await until(() => acksOf(jobId).some((a) => a.delivery === 2), 'the job message to be delivered again after the end', 10_000);
    await settled();
    expect(acksOf(jobId)).toEqual([
      { jobId, delivery: 1, lost: true },
      { jobId, delivery: 2, lost: false },
    ]);
    // The redelivery did nothing: no batch, the same end, one event.
    expect(callsOf(jobId).map((c) => c.ids)).toEqual(chunks(items, BATCH));
    expect(await jobs.status(TENANT, jobId)).toEqual(before);
    const events = await completionEvents(jobId);
    expect(events.map((e) => e.payload)).toEqual([{ tenantId: TENANT, jobId, kind: 'bulk-duplicate', status: 'COMPLETED', total: 4, succeeded: 4, failed: 0, requestedBy: USER }]);
    await until(async () => (await completionEvents(jobId))[0].published_at, 'the completion event to be relayed', 10_000);
  });

  it("status(): another tenant's job and an unknown id are a 404", async () => {
    const mine = await start(freshIds(1));
    const theirs = await start(freshIds(1), succeed, OTHER_TENANT);
    for (const [tenant, id] of [
      [OTHER_TENANT, mine.jobId],
      [TENANT, theirs.jobId],
      [TENANT, uuidv7()],
    ]) {
      const err = await statusError(tenant, id);
      expect(err).toBeInstanceOf(AppError);
      expect(err.code).toBe(ErrorCode.NotFound);
      expect(err.getStatus()).toBe(404);
      expect(err.message).toBe(`Job ${id} not found`);
    }
    expect((await jobs.status(TENANT, mine.jobId)).jobId).toBe(mine.jobId);
    expect((await jobs.status(OTHER_TENANT, theirs.jobId)).jobId).toBe(theirs.jobId);
    await ended(mine.jobId);
    await ended(theirs.jobId, OTHER_TENANT);
  });

  /** A second replica: its own pool, NATS connection, Consumers and Jobs, on the same durable. */
  const replicaB = async () => {
    const dsB = createDataSource(widgetsDataSource, dbx.url, 4);
    await dsB.initialize();
    const natsB = await NatsClient.connect(NATS_URL, ns.namespace, 'jobs-test-b');
    const consumersB = new Consumers(new Db(dsB, 'platform_test', relay), natsB, log);
    const stop = async () => {
      await consumersB.stopAll();
      await natsB.close();
      await dsB.destroy();
    };
    try {
      await new Jobs(new Db(dsB, 'platform_test', relay), consumersB, log).register(spec('B'));
    } catch (err) {
      await stop();
      throw err;
    }
    return stop;
  };

  describe('two runners (replicas on one durable)', () => {
    it('on one job (a batch outlasting the ack wait is redelivered to the other replica): no item twice, one end', async () => {
      const stopB = await replicaB();
      try {
        const items = freshIds(30);
        const { jobId } = await start(items, async (tx, job, ids, call, runner) => {
          // The first batch outlasts the ack wait (time itself must pass): NATS hands the job to the idle replica meanwhile.
          await sleep(call === 1 ? ACK_WAIT_MS + 1_000 : 30);
          return succeed(tx, job, ids, call, runner);
        });
        const done = await ended(jobId);
        await settled();
        expect(done).toMatchObject({ status: 'COMPLETED', total: 30, processed: 30, succeeded: 30, failed: 0, errors: [] });
        const mine = callsOf(jobId);
        expect(new Set(mine.map((c) => c.runner))).toEqual(new Set(['A', 'B'])); // both replicas worked on it
        expect(mine.filter((c) => c.threw)).toEqual([]);
        const processed = mine.flatMap((c) => c.ids);
        expect(processed).toHaveLength(30); // no item handed to process twice
        expect([...processed].sort()).toEqual([...items].sort());
        expect((await effects(jobId)).sort()).toEqual([...items].sort());
        expect(await completionEvents(jobId)).toHaveLength(1);
      } finally {
        await stopB();
      }
    });

    it('a job given up as FAILED by one runner (its last delivery failed) takes no further batch from the other: the row stays what the end published', async () => {
      // Delivery 1 fails on A (transient); delivery 2 goes to A, whose batch outlasts the ack wait; delivery 3 (the
      // last) goes to B, started meanwhile, where every batch fails: B gives the job up as FAILED while A is still at work.
      const items = freshIds(12);
      const { jobId } = await start(items, async (tx, job, ids, call, runner) => {
        if (runner === 'B') throw new Error('this replica cannot run the job');
        if (call === 1) throw new Error('transient failure on the first delivery');
        await sleep(call === 2 ? ACK_WAIT_MS + 1_000 : 300);
        return succeed(tx, job, ids, call, runner);
      });
      await until(() => callsOf(jobId).length === 2, 'the second delivery to start its slow batch', 10_000);
      const stopB = await replicaB();
      try {
        const done = await ended(jobId);
        expect(done.status).toBe('FAILED');
        // A's run is over once it acknowledges its delivery (B's, the last, was terminated: not an ack).
        await until(() => acksOf(jobId).some((a) => a.delivery === 2), "runner A's run to be over", 15_000);
        await settled();
        expect(acksOf(jobId)).toEqual([{ jobId, delivery: 2, lost: false }]);
        expect(callsOf(jobId).filter((c) => c.runner === 'B').map((c) => c.threw)).toEqual([true]);
        const [event] = (await completionEvents(jobId)).map((e) => e.payload);
        expect(event).toMatchObject({ status: 'FAILED', total: 12 });
        // What the end recorded and published is what the job stays: no batch commits after it.
        const after = await jobs.status(TENANT, jobId);
        expect(after).toEqual(done);
        expect({ processed: after.processed, succeeded: after.succeeded, failed: after.failed }).toEqual({
          processed: (event.succeeded as number) + (event.failed as number),
          succeeded: event.succeeded,
          failed: event.failed,
        });
        expect(await count(`SELECT count(*) AS n FROM platform_test.job_items i JOIN platform_test.jobs j ON j.id = i.job_id WHERE j.id = $1 AND i.done_at > j.finished_at`, [jobId])).toBe(0);
      } finally {
        await stopB();
      }
    });
  });

  it("every job of this file ended once: one completion event each, matching the job's end", async () => {
    const rows: { id: string; status: string; events: number; event_status: string | null }[] = await ds.query(
      `SELECT j.id, j.status, count(o.id)::int AS events, min(o.payload->>'status') AS event_status
         FROM platform_test.jobs j LEFT JOIN platform_test.outbox o ON o.subject = $1 AND o.payload->>'jobId' = j.id::text
        GROUP BY j.id, j.status`,
      [COMPLETED],
    );
    expect(rows.length).toBeGreaterThanOrEqual(9);
    for (const r of rows) expect({ id: r.id, events: r.events, status: r.event_status }).toEqual({ id: r.id, events: 1, status: r.status });
  });
});
