/**
 * What the decisions resource offers the area's other folders: a decision's limits read and
 * replaced as a PATCH writes them (the reorg what-if applies a proposed limit with them), recording
 * a change of decisions (a revision and the event of each), copying decisions (the bulk-duplicate
 * job), and a decision's view (its revisions answer it as it stood).
 */
import { EventSubject } from '@ddm/contracts';
import { JobItemOutcome, JobRecord, Queryable, Tx } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { AuthorityInput, AuthorityRow, authorityRows } from '../core/decision-limits';
import { copyNameCandidate } from './decision.rules';
import { DECISION_AUTHORITIES_SQL, DecisionRow, reviseDecisions } from './decision.sql';
import { StoredDecisionView, toDecisionPayload } from './dto/decision.response';

export { DecisionView, toDecisionView } from './dto/decision.response';
export type { StoredDecisionView } from './dto/decision.response';

type DecisionSubject = Extract<EventSubject, `evt.decision.decision.${string}`>;
/** Names tried per source and round when looking for a free "Copy of ..." name. */
const NAMES_PER_ROUND = 20;

/** A live decision's authorities (its limits) as a PATCH would send them back, in their order; none for an unknown decision. */
export function authoritiesOf(q: Queryable, tenantId: string, id: string): Promise<AuthorityInput[]> {
  return q.query<AuthorityInput>(DECISION_AUTHORITIES_SQL, [id, tenantId]);
}

/**
 * Replaces a decision's authorities (its limits) with `items`, checked already (authorityProblems):
 * what a create or a PATCH naming decisionAuthorities writes, and what the reorg what-if writes for
 * a proposed limit before it checks the decision's delegations again.
 */
export async function replaceAuthorities(tx: Tx, tenantId: string, id: string, items: readonly AuthorityInput[]): Promise<void> {
  const rows: AuthorityRow[] = authorityRows(items);
  await tx.query(`DELETE FROM decision.decision_authorities WHERE decision_id = $1`, [id]);
  await tx.query(
    `INSERT INTO decision.decision_authorities (id, tenant_id, decision_id, authority_type_id, authority_type_order, authority_limit, value_type, operator, value_text, value_number, unit, position)
     SELECT gen_random_uuid(), $1, $2, x.type_id, x.type_order, x.lim, x.value_type, x.operator, x.value_text, x.value_number, x.unit, x.n
       FROM unnest($3::uuid[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::numeric[], $10::text[])
            WITH ORDINALITY AS x(type_id, type_order, lim, value_type, operator, value_text, value_number, unit, n)`,
    [
      tenantId,
      id,
      rows.map((r) => r.authorityTypeId),
      rows.map((r) => r.authorityTypeOrder),
      rows.map((r) => r.authorityLimit),
      rows.map((r) => r.valueType),
      rows.map((r) => r.operator),
      rows.map((r) => r.valueText),
      rows.map((r) => r.valueNumber),
      rows.map((r) => r.unit),
    ],
  );
}

/**
 * A change of the decisions named, as they are now in the transaction: a revision of each (who,
 * the change the subject names, the fields changed) and `subject` published for each, from one
 * statement that reads them; answers their stored views, in the order named.
 */
export async function recordChanges(
  tx: Queryable & Pick<Tx, 'publishMany'>,
  tenantId: string,
  subject: DecisionSubject,
  ids: readonly string[],
  by: string | null,
  changed?: ReadonlyMap<string, string[]>,
): Promise<StoredDecisionView[]> {
  if (!ids.length) return [];
  const rows = await tx.query<DecisionRow>(reviseDecisions(tenantId, ids, subject.slice(subject.lastIndexOf('.') + 1), by, changed));
  await tx.publishMany(subject, rows.map((r) => ({ tenantId, decision: toDecisionPayload(r.view, r.version) })));
  return rows.map((r) => r.view);
}

/** Copies the batch's sources in one transaction (a fixed number of statements, whatever the batch size). */
export async function duplicateDecisions(tx: Tx, job: JobRecord, ids: string[]): Promise<JobItemOutcome[]> {
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
    // A join, so each candidate is one probe of the unique name index (an `= ANY(array)` of thousands is misestimated into a scan of the tenant's decisions);
    // name_key, not lower(name): under row-level security only a leakproof condition can be the index's.
    const rows = await tx.query<{ name: string }>(
      `SELECT c.name FROM unnest($2::text[]) AS c(name)
        WHERE EXISTS (SELECT 1 FROM decision.decisions d WHERE d.tenant_id = $1 AND NOT d.is_deleted AND d.name_key = c.name)`,
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
