import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { JobItemOutcome, JobRecord, Jobs, Tx } from '@ddm/platform';
import { addDocuments } from '../core/delegation.sql';
import { recordDelegationChange } from '../core/delegation-changes';
import { stateSubjectOf } from '../core/delegation.status';

/** Items (delegations) per transaction. */
const BATCH = 200;

/**
 * PATCH /decision/v1/delegations/bulk-link-documents, done: each delegation of the tenant (not
 * DELETED) gets the documents it lacks, in one INSERT ... SELECT per batch (a pair already linked
 * changes nothing); each delegation that gained one gets a revision and its `updated` event. An
 * unknown or deleted delegation fails with a reason.
 */
@Injectable()
export class BulkLinkDocumentsJob implements OnApplicationBootstrap {
  constructor(private readonly jobs: Jobs) {}

  onApplicationBootstrap(): Promise<void> {
    return this.jobs.register({
      name: 'decision-bulk-link-documents',
      subject: 'job.decision.bulk-link-documents',
      completedSubject: 'evt.decision.job.completed',
      batchSize: BATCH,
      ackWaitMs: 10_000,
      process: (tx, job, ids) => linkDocuments(tx, job, ids),
    });
  }
}

export async function linkDocuments(tx: Tx, job: JobRecord, ids: string[]): Promise<JobItemOutcome[]> {
  const documentIds = (job.params.documentIds as string[] | undefined) ?? [];
  const rows = await addDocuments(tx, job.tenantId, ids, documentIds, job.requestedBy);
  // One revision statement and one event statement per kind of state subject (drafts publish nothing).
  const changed = rows.filter((r) => r.added > 0);
  const bySubject = new Map<ReturnType<typeof stateSubjectOf>, string[]>();
  for (const r of changed) bySubject.set(stateSubjectOf(r.status), [...(bySubject.get(stateSubjectOf(r.status)) ?? []), r.id]);
  for (const [subject, group] of bySubject) await recordDelegationChange(tx, job.tenantId, group, 'documents linked', job.requestedBy, subject);
  const found = new Set(rows.map((r) => r.id));
  return ids.map((id): JobItemOutcome => (found.has(id) ? { itemId: id, ok: true, resultId: null } : { itemId: id, ok: false, error: 'Delegation not found' }));
}
