import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { JobItemOutcome, JobRecord, Jobs, Tx } from '@ddm/platform';
import { NewRecipient, reassignRecipients } from '../core/reassign';

/** Items (delegations) per transaction. */
const BATCH = 100;

/**
 * PATCH /decision/v1/delegations/bulk-reassign-recipients, done: a batch of delegations at a time
 * reassigned by reassign.ts, as the requester with the keys they held when asking (the job's
 * params). A delegation the rules refuse, or that the requester may not manage, is a per-item
 * error (the job then ends COMPLETED_WITH_ERRORS).
 */
@Injectable()
export class BulkReassignRecipientsJob implements OnApplicationBootstrap {
  constructor(private readonly jobs: Jobs) {}

  onApplicationBootstrap(): Promise<void> {
    return this.jobs.register({
      name: 'decision-bulk-reassign-recipients',
      subject: 'job.decision.bulk-reassign-recipients',
      completedSubject: 'evt.decision.job.completed',
      batchSize: BATCH,
      ackWaitMs: 10_000,
      process: (tx, job, ids) => reassign(tx, job, ids),
    });
  }
}

export interface ReassignParams {
  to: NewRecipient;
  /** The requester's keys that widen who may manage a delegation, as they were when they asked. */
  keys: string[];
}

function reassign(tx: Tx, job: JobRecord, ids: string[]): Promise<JobItemOutcome[]> {
  const params = job.params as unknown as ReassignParams;
  if (!job.requestedBy) return Promise.resolve(ids.map((id) => ({ itemId: id, ok: false as const, error: 'The job has no requester' })));
  return reassignRecipients(tx, { tenantId: job.tenantId, userId: job.requestedBy, keys: new Set(params.keys) }, ids, params.to);
}
