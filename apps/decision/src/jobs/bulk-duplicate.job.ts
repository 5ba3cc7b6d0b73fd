import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Jobs } from '@ddm/platform';
import { duplicateDecisions } from '../decisions/decision-refs';

/** Items per transaction: a batch of 100 copies is a handful of set-based statements. */
const BATCH = 100;

/**
 * PATCH /decision/v1/decisions/bulk-duplicate, done: each live source decision gets a copy (new
 * id and display id, copiedFrom the source, "Copy of <name>", status DRAFT, created by the
 * requester; the source's owner, section, category, settings, pathways, groups, authorities and
 * documents). A source that is gone (unknown, deleted, another tenant's) fails with a reason.
 */
@Injectable()
export class BulkDuplicateJob implements OnApplicationBootstrap {
  constructor(private readonly jobs: Jobs) {}

  onApplicationBootstrap(): Promise<void> {
    return this.jobs.register({
      name: 'decision-bulk-duplicate',
      subject: 'job.decision.bulk-duplicate',
      completedSubject: 'evt.decision.job.completed',
      batchSize: BATCH,
      // A batch takes well under a second and each one tells the stream the job is alive: after a
      // crash the job is handed out again (to this replica restarted, or another) within this.
      ackWaitMs: 10_000,
      process: (tx, job, ids) => duplicateDecisions(tx, job, ids),
    });
  }
}
