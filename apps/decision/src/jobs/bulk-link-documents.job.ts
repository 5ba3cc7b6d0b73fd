import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { JobItemOutcome, JobRecord, Jobs, Tx } from '@ddm/platform';
import { DelegationStatus } from '../core/delegation.types';
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
  const rows = await tx.query<{ id: string; status: DelegationStatus; added: number }>(
    `WITH targets AS (
       SELECT g.id, g.status FROM decision.delegations g WHERE g.tenant_id = $1 AND g.id = ANY($2::uuid[]) AND g.status <> 'DELETED' FOR UPDATE),
     linked AS (
       INSERT INTO decision.delegation_documents (id, tenant_id, delegation_id, document_id, is_pinned, position)
       SELECT gen_random_uuid(), $1, t.id, d.document_id, false,
              coalesce((SELECT max(x.position) FROM decision.delegation_documents x WHERE x.delegation_id = t.id), 0) + d.n
         FROM targets t CROSS JOIN unnest($3::uuid[]) WITH ORDINALITY AS d(document_id, n)
       ON CONFLICT (delegation_id, document_id) DO NOTHING
       RETURNING delegation_id)
     SELECT t.id, t.status, (SELECT count(*)::int FROM linked l WHERE l.delegation_id = t.id) AS added FROM targets t`,
    [job.tenantId, ids, documentIds],
  );
  const changed = rows.filter((r) => r.added > 0);
  if (changed.length) {
    await tx.query(`UPDATE decision.delegations SET updated_on = now(), updated_by = $2, version = version + 1 WHERE id = ANY($1::uuid[])`, [
      changed.map((r) => r.id),
      job.requestedBy,
    ]);
    // One revision statement and one event statement per kind of state subject (drafts publish nothing).
    const bySubject = new Map<ReturnType<typeof stateSubjectOf>, string[]>();
    for (const r of changed) bySubject.set(stateSubjectOf(r.status), [...(bySubject.get(stateSubjectOf(r.status)) ?? []), r.id]);
    for (const [subject, group] of bySubject) await recordDelegationChange(tx, job.tenantId, group, 'documents linked', job.requestedBy, subject);
  }
  const found = new Set(rows.map((r) => r.id));
  return ids.map((id): JobItemOutcome => (found.has(id) ? { itemId: id, ok: true, resultId: null } : { itemId: id, ok: false, error: 'Delegation not found' }));
}
