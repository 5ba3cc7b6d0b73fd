import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { JobItemOutcome, JobRecord, Jobs, Tx } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { copyNameCandidate } from '../decisions/decision.rules';
import { recordChanges } from '../decisions/decisions.service';

/** Items per transaction: a batch of 100 copies is a handful of set-based statements. */
const BATCH = 100;
/** Names tried per source and round when looking for a free "Copy of ..." name. */
const NAMES_PER_ROUND = 20;

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
      process: (tx, job, ids) => duplicate(tx, job, ids),
    });
  }
}

/** Copies the batch's sources in one transaction (a fixed number of statements, whatever the batch size). */
export async function duplicate(tx: Tx, job: JobRecord, ids: string[]): Promise<JobItemOutcome[]> {
  const tenantId = job.tenantId;
  const sources = await tx.query<{ id: string; name: string }>(
    `SELECT id, name FROM decision.decisions WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND NOT is_deleted`,
    [tenantId, ids],
  );
  const names = await copyNames(tx, tenantId, sources.map((s) => s.name));
  const displayIds = await tx.nextDisplayIds(tenantId, 'decision', sources.length);
  const copies = sources.map((s, i) => ({ source: s.id, id: uuidv7(), displayId: displayIds[i], name: names[i] }));

  if (copies.length) {
    const pairs = [copies.map((c) => c.id), copies.map((c) => c.source)];
    await tx.query(
      `INSERT INTO decision.decisions (id, tenant_id, decision_display_id, name, description, guidance, section_id, category_id, owner_id, status,
                                       delegable, condition_enabled, role_enabled, delegation_pathway, copied_from, created_by, updated_by)
       SELECT x.id, s.tenant_id, x.display_id, x.name, s.description, s.guidance, s.section_id, s.category_id, s.owner_id, 'DRAFT',
              s.delegable, s.condition_enabled, s.role_enabled, s.delegation_pathway, s.id, $2, $2
         FROM unnest($3::uuid[], $4::uuid[], $5::text[], $6::text[]) WITH ORDINALITY AS x(id, source, display_id, name, n)
         JOIN decision.decisions s ON s.id = x.source AND s.tenant_id = $1
        ORDER BY x.n`,
      [tenantId, job.requestedBy, ...pairs, copies.map((c) => c.displayId), copies.map((c) => c.name)],
    );
    const children = `FROM unnest($2::uuid[], $3::uuid[]) AS x(id, source) JOIN decision.%s c ON c.decision_id = x.source AND c.tenant_id = $1`;
    await tx.query(
      `INSERT INTO decision.decision_groups (id, tenant_id, decision_id, group_id, tenant_group_type_id, position)
       SELECT gen_random_uuid(), $1, x.id, c.group_id, c.tenant_group_type_id, c.position ${children.replace('%s', 'decision_groups')}`,
      [tenantId, ...pairs],
    );
    await tx.query(
      `INSERT INTO decision.decision_authorities (id, tenant_id, decision_id, authority_type_id, authority_type_order, authority_limit, value_type, operator, value_text, value_number, unit, position)
       SELECT gen_random_uuid(), $1, x.id, c.authority_type_id, c.authority_type_order, c.authority_limit, c.value_type, c.operator, c.value_text, c.value_number, c.unit, c.position
       ${children.replace('%s', 'decision_authorities')}`,
      [tenantId, ...pairs],
    );
    await tx.query(
      `INSERT INTO decision.decision_documents (id, tenant_id, decision_id, document_id, is_pinned, position)
       SELECT gen_random_uuid(), $1, x.id, c.document_id, c.is_pinned, c.position ${children.replace('%s', 'decision_documents')}`,
      [tenantId, ...pairs],
    );
    const newIds = copies.map((c) => c.id);
    await recordChanges(tx, tenantId, 'evt.decision.decision.created', newIds, job.requestedBy);
  }

  const made = new Map(copies.map((c) => [c.source, c.id]));
  return ids.map((id): JobItemOutcome => {
    const copy = made.get(id);
    return copy ? { itemId: id, ok: true, resultId: copy } : { itemId: id, ok: false, error: 'Decision not found' };
  });
}

/**
 * A free "Copy of <name>" for each name, in order: candidates are looked up by the unique name
 * index, NAMES_PER_ROUND at a time per name, until each has one no live decision (and no earlier
 * copy of the batch) holds.
 */
async function copyNames(tx: Tx, tenantId: string, names: readonly string[]): Promise<string[]> {
  const taken = new Set<string>();
  const result: string[] = [];
  let pending = names.map((name, i) => ({ name, i }));
  for (let round = 0; pending.length; round++) {
    const candidates = pending.flatMap(({ name }) => candidatesOf(name, round));
    // A join, so each candidate is one probe of the unique name index (an `= ANY(array)` of thousands is misestimated into a scan of the tenant's decisions).
    const rows = await tx.query<{ name: string }>(
      `SELECT c.name FROM unnest($2::text[]) AS c(name)
        WHERE EXISTS (SELECT 1 FROM decision.decisions d WHERE d.tenant_id = $1 AND NOT d.is_deleted AND lower(d.name) = c.name)`,
      [tenantId, candidates.map((c) => c.toLowerCase())],
    );
    for (const r of rows) taken.add(r.name);
    const next: typeof pending = [];
    for (const p of pending) {
      const free = candidatesOf(p.name, round).find((c) => !taken.has(c.toLowerCase()));
      if (free) {
        taken.add(free.toLowerCase());
        result[p.i] = free;
      } else next.push(p);
    }
    pending = next;
  }
  return result;
}

/** The candidates of one round: the names numbered round*N+1 .. (round+1)*N. */
function candidatesOf(name: string, round: number): string[] {
  return Array.from({ length: NAMES_PER_ROUND }, (_, k) => copyNameCandidate(name, round * NAMES_PER_ROUND + k + 1));
}
