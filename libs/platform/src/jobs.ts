/**
 * Bulk jobs, one way in every area (ARCHITECTURE §3, async acceptance):
 * - the request validates, then ONE transaction writes the job row (tenant, kind, requester, the
 *   item ids, total) and its message on JOBS through the outbox; the answer is
 *   `{ jobId, status: "ACCEPTED", total }`;
 * - a durable consumer does the work in batches, each batch in one transaction that also records
 *   each item's outcome (job_items, keyed by job and item) and the job's progress: a batch
 *   redelivered after a crash finds its items done and creates nothing twice;
 * - the job ends COMPLETED, COMPLETED_WITH_ERRORS (per-item reasons) or FAILED (it could not run),
 *   and its end is published (`evt.<area>.job.completed`) in the transaction that records it.
 */
import { EventSubject, JobAcceptedView, JobView, notFound } from '@ddm/contracts';
import { Logger } from 'pino';
import { QueryRunner } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { Consumers } from './consumer';
import { Db } from './db';
import type { Tx } from './queryable';
import { isoSql } from './sql';

export type JobSubject = Extract<EventSubject, `job.${string}`>;
export type JobCompletedSubject = Extract<EventSubject, `evt.${string}.job.completed`>;

/** The job tables of a service schema; call from one of its migrations. */
export async function createJobTables(q: QueryRunner, schema: string): Promise<void> {
  await q.query(`
    CREATE TABLE "${schema}".jobs (
      id uuid PRIMARY KEY,
      tenant_id uuid NOT NULL,
      kind text NOT NULL,
      status text NOT NULL DEFAULT 'ACCEPTED',
      requested_by uuid,
      item_ids uuid[] NOT NULL,
      params jsonb NOT NULL DEFAULT '{}',
      total integer NOT NULL,
      processed integer NOT NULL DEFAULT 0,
      succeeded integer NOT NULL DEFAULT 0,
      failed integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      finished_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
  await q.query(`CREATE INDEX jobs_tenant ON "${schema}".jobs (tenant_id, created_at)`);
  await q.query(`
    CREATE TABLE "${schema}".job_items (
      job_id uuid NOT NULL REFERENCES "${schema}".jobs(id) ON DELETE CASCADE,
      item_id uuid NOT NULL,
      tenant_id uuid NOT NULL,
      ok boolean NOT NULL,
      result_id uuid,
      error text,
      done_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (job_id, item_id)
    )`);
}

export async function dropJobTables(q: QueryRunner, schema: string): Promise<void> {
  await q.query(`DROP TABLE IF EXISTS "${schema}".job_items, "${schema}".jobs`);
}

/** What a job's handler knows of its job. */
export interface JobRecord {
  id: string;
  tenantId: string;
  kind: string;
  requestedBy: string | null;
  params: Record<string, unknown>;
}

/** The outcome of one item: done (with the record it made, if any) or not, and why. */
export type JobItemOutcome = { itemId: string; ok: true; resultId?: string | null } | { itemId: string; ok: false; error: string };

export interface JobSpec<S extends JobSubject> {
  /** Durable consumer name, unique per service (e.g. `decision-bulk-duplicate`). */
  name: string;
  subject: S;
  /** The area's `evt.<area>.job.completed`. */
  completedSubject: JobCompletedSubject;
  /** Items per transaction. */
  batchSize: number;
  /** Deliveries before a job that keeps failing is given up as FAILED (default 5). */
  maxDeliver?: number;
  /** How long a batch may take before the message is redelivered (default 30 s). */
  ackWaitMs?: number;
  /**
   * Handles a batch of the job's items in the batch's transaction, set-based; answers each item's
   * outcome (an item it does not answer counts as failed). Throwing rolls the batch back and
   * retries the job later (a transient failure).
   */
  process(tx: Tx, job: JobRecord, itemIds: string[]): Promise<JobItemOutcome[]>;
}

interface JobRow {
  id: string;
  tenant_id: string;
  kind: string;
  status: string;
  requested_by: string | null;
  params: Record<string, unknown>;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  errors: { id: string; message: string }[];
}

const kindOf = (subject: string) => subject.split('.').slice(2).join('.');

/** The service's bulk jobs: starting one (in a request's transaction), running them, and their status. */
export class Jobs {
  constructor(
    private readonly db: Db,
    private readonly consumers: Consumers,
    private readonly log: Logger,
  ) {}

  /**
   * In the caller's transaction: the job row and its message on JOBS (through the outbox) commit
   * together with whatever else the request wrote. Item ids are taken once each, in the order given.
   */
  async start<S extends JobSubject>(tx: Tx, subject: S, job: { tenantId: string; requestedBy: string | null; itemIds: readonly string[]; params?: Record<string, unknown> }): Promise<JobAcceptedView> {
    const ids = [...new Set(job.itemIds.map((x) => x.toLowerCase()))];
    const id = uuidv7();
    await tx.query(
      `INSERT INTO "${this.db.schema}".jobs (id, tenant_id, kind, requested_by, item_ids, params, total) VALUES ($1, $2, $3, $4, $5::uuid[], $6, $7)`,
      [id, job.tenantId, kindOf(subject), job.requestedBy, ids, JSON.stringify(job.params ?? {}), ids.length],
    );
    await tx.publish(subject as JobSubject, { tenantId: job.tenantId, jobId: id } as never);
    return { jobId: id, status: 'ACCEPTED', total: ids.length };
  }

  /** The job as GET /<area>/v1/jobs/{jobId} answers it (one statement); another tenant's is a 404. */
  async status(tenantId: string, jobId: string): Promise<JobView> {
    const [row] = await this.db.query<JobRow>(
      `SELECT j.id, j.tenant_id, j.kind, j.status, j.requested_by, j.params, j.total, j.processed, j.succeeded, j.failed,
              ${isoSql('j.created_at')} AS created_at, ${isoSql('j.started_at')} AS started_at, ${isoSql('j.finished_at')} AS finished_at,
              coalesce((SELECT json_agg(json_build_object('id', i.item_id, 'message', i.error) ORDER BY x.n)
                          FROM unnest(j.item_ids) WITH ORDINALITY AS x(id, n)
                          JOIN "${this.db.schema}".job_items i ON i.job_id = j.id AND i.item_id = x.id AND NOT i.ok), '[]') AS errors
         FROM "${this.db.schema}".jobs j WHERE j.id = $1 AND j.tenant_id = $2`,
      [jobId, tenantId],
    );
    if (!row) throw notFound(`Job ${jobId} not found`);
    return {
      jobId: row.id,
      kind: row.kind,
      status: row.status,
      total: row.total,
      processed: row.processed,
      succeeded: row.succeeded,
      failed: row.failed,
      errors: row.errors,
      createdAt: row.created_at,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      requestedBy: row.requested_by,
    };
  }

  /** Runs the jobs of one subject: a long-running durable consumer (one job at a time). */
  register<S extends JobSubject>(spec: JobSpec<S>): Promise<void> {
    const maxDeliver = spec.maxDeliver ?? 5;
    return this.consumers.startLongRunning({
      name: spec.name,
      subjects: [spec.subject] as readonly JobSubject[],
      maxDeliver,
      ackWaitMs: spec.ackWaitMs,
      run: async (message, working) => {
        const { tenantId, jobId } = message.payload as { tenantId: string; jobId: string };
        try {
          await this.run(spec, tenantId, jobId, working);
        } catch (err) {
          if (message.deliveryCount >= maxDeliver) await this.end(spec, tenantId, jobId, 'FAILED');
          throw err;
        }
      },
    });
  }

  private async run<S extends JobSubject>(spec: JobSpec<S>, tenantId: string, jobId: string, working: () => void): Promise<void> {
    const schema = this.db.schema;
    const [row] = await this.db.query<{ id: string; tenant_id: string; kind: string; requested_by: string | null; params: Record<string, unknown> }>(
      `UPDATE "${schema}".jobs SET status = 'RUNNING', started_at = coalesce(started_at, now()), updated_at = now()
        WHERE id = $1 AND tenant_id = $2 AND status IN ('ACCEPTED', 'RUNNING')
        RETURNING id, tenant_id, kind, requested_by, params`,
      [jobId, tenantId],
    );
    if (!row) return; // ended already (a redelivery after the end) or not this service's
    const job: JobRecord = { id: row.id, tenantId: row.tenant_id, kind: row.kind, requestedBy: row.requested_by, params: row.params };
    for (;;) {
      const more = await this.db.transaction(async (tx) => {
        // One runner at a time per job (a redelivery while the first is still at work waits here, then finds less to do);
        // a job another runner ended meanwhile (given up as FAILED on its last delivery) takes no further batch.
        const [locked] = await tx.query<{ status: string }>(`SELECT status FROM "${schema}".jobs WHERE id = $1 FOR UPDATE`, [jobId]);
        if (!locked || (locked.status !== 'ACCEPTED' && locked.status !== 'RUNNING')) return false;
        const pending = await tx.query<{ id: string }>(
          `SELECT x.id FROM "${schema}".jobs j, unnest(j.item_ids) WITH ORDINALITY AS x(id, n)
            WHERE j.id = $1 AND NOT EXISTS (SELECT 1 FROM "${schema}".job_items i WHERE i.job_id = j.id AND i.item_id = x.id)
            ORDER BY x.n LIMIT $2`,
          [jobId, spec.batchSize],
        );
        if (!pending.length) return false;
        const ids = pending.map((p) => p.id);
        const answered = new Map((await spec.process(tx, job, ids)).map((o) => [o.itemId.toLowerCase(), o]));
        const outcomes: JobItemOutcome[] = ids.map((id) => answered.get(id) ?? { itemId: id, ok: false, error: 'Not processed' });
        await tx.query(
          `INSERT INTO "${schema}".job_items (job_id, item_id, tenant_id, ok, result_id, error)
           SELECT $1, x.item_id, $6, x.ok, x.result_id, x.error FROM unnest($2::uuid[], $3::boolean[], $4::uuid[], $5::text[]) AS x(item_id, ok, result_id, error)`,
          [jobId, ids, outcomes.map((o) => o.ok), outcomes.map((o) => (o.ok ? (o.resultId ?? null) : null)), outcomes.map((o) => (o.ok ? null : o.error.slice(0, 500))), tenantId],
        );
        const ok = outcomes.filter((o) => o.ok).length;
        await tx.query(
          `UPDATE "${schema}".jobs SET processed = processed + $2, succeeded = succeeded + $3, failed = failed + $4, updated_at = now() WHERE id = $1`,
          [jobId, outcomes.length, ok, outcomes.length - ok],
        );
        return true;
      });
      if (!more) break;
      working();
    }
    await this.end(spec, tenantId, jobId, null);
  }

  /**
   * Records the job's end (once) and publishes it in the same transaction; `status` null: by its
   * items. `finished_at` is the moment the row is ended (clock_timestamp: after waiting for a batch
   * that holds the job), not the start of the ending transaction, so it follows every batch's items.
   */
  private async end<S extends JobSubject>(spec: JobSpec<S>, tenantId: string, jobId: string, status: 'FAILED' | null): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [ended] = await tx.query<{ kind: string; status: string; total: number; succeeded: number; failed: number; requested_by: string | null }>(
        `UPDATE "${this.db.schema}".jobs
            SET status = coalesce($3, CASE WHEN failed = 0 THEN 'COMPLETED' ELSE 'COMPLETED_WITH_ERRORS' END), finished_at = clock_timestamp(), updated_at = now()
          WHERE id = $1 AND tenant_id = $2 AND status IN ('ACCEPTED', 'RUNNING')
          RETURNING kind, status, total, succeeded, failed, requested_by`,
        [jobId, tenantId, status],
      );
      if (!ended) return;
      await tx.publish(spec.completedSubject, {
        tenantId,
        jobId,
        kind: ended.kind,
        status: ended.status,
        total: ended.total,
        succeeded: ended.succeeded,
        failed: ended.failed,
        requestedBy: ended.requested_by,
      });
      if (ended.status !== 'COMPLETED') this.log.warn({ jobId, kind: ended.kind, status: ended.status, failed: ended.failed }, 'job ended with failures');
    });
  }
}
