import { Inject, Injectable } from '@nestjs/common';
import { Caller, DecisionStatus, JobAcceptedView, Page, badRequest, conflict, notFound, relationshipsOf, requireAllowed } from '@ddm/contracts';
import { Db, Jobs, SERVICE_CONFIG, ServiceConfig, SetClause, TenantUniqueName, Tx, listPage, refuseTakenName, sql, writeUniqueName } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { LIVE_SQL } from '../core/delegation.sql';
import { revalidate } from '../core/invalidation';
import { requireNamedRecords } from './named-records';
import { authorityProblems } from '../core/decision-limits';
import { documentRefs, refsOf, requireLiveRefs } from '../core/live-refs';
import { EDIT_DECISION, changedFields, statusMoveProblem, uniqueIds } from './decision.rules';
import { DecisionFilters, DecisionRow, decisionById, decisionList } from './decision.sql';
import { CreateDecisionDto, DECISION_UPDATE_FIELDS, UpdateDecisionDto } from './dto/decision-change.dto';
import { DecisionDocumentDto } from '../core/dto/limits.dto';
import { recordChanges, replaceAuthorities } from './decision-refs';
import { BulkDeleteResult, BulkRestoreResult, DecisionView, UnlinkRecordsResult, selectDecisionFields, toDecisionView } from './dto/decision.response';

/** Fields of the view that move with every change and are not what a revision names as changed. */
const BOOKKEEPING = ['updatedAt', 'updatedBy', 'updatedByUsername', 'updatedByUserProfileUrl', 'updatedByDetails'];

/** Decision names are unique in the tenant among decisions not deleted (a check, backed by the index against races). */
export const DECISION_NAME: TenantUniqueName = {
  table: 'decision.decisions',
  column: 'name',
  index: 'decisions_name_unique',
  taken: (name) => `A decision named "${name}" already exists in this tenant`,
};

/**
 * Decisions of a tenant: read (one statement each), created, changed, deleted and restored (one
 * by one or in bulk), duplicated in bulk (a job), unlinked from a document. Every change stores a
 * revision of each decision it touched and publishes evt.decision.decision.* in its transaction.
 */
@Injectable()
export class DecisionsService {
  constructor(
    private readonly db: Db,
    private readonly jobs: Jobs,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
  ) {}

  async get(caller: Caller, id: string): Promise<DecisionView> {
    const [row] = await this.db.query<DecisionRow>(decisionById(id, caller.tenantId));
    if (!row) throw notFound(`Decision ${id} not found`);
    return toDecisionView(row.view, caller, this.config.appUrl);
  }

  list(caller: Caller, filters: DecisionFilters, select?: readonly string[]): Promise<Page<Partial<DecisionView>>> {
    return listPage(this.db, decisionList(caller.tenantId, filters), (row: DecisionRow) => selectDecisionFields(toDecisionView(row.view, caller, this.config.appUrl), select));
  }

  async create(caller: Caller, dto: CreateDecisionDto): Promise<DecisionView> {
    const tenantId = caller.tenantId;
    refuseBadAuthorities(dto);
    const id = uuidv7();
    await this.db.transaction(async (tx) => {
      const known = await requireNamedRecords(tx, tenantId, namedRecordsOf(dto, dto.ownerId ?? caller.userId));
      await requireLiveRefs(tx, tenantId, documentRefs('decisionDocuments', dto.decisionDocuments));
      refuseCategoryOfAnotherSection(dto.sectionId ?? null, known.categorySection);
      await refuseTakenName(tx, DECISION_NAME, tenantId, dto.name, null);
      const displayId = await tx.nextDisplayId(tenantId, 'decision');
      await writeUniqueName(DECISION_NAME, dto.name, () =>
        tx.query(
          `INSERT INTO decision.decisions (id, tenant_id, decision_display_id, name, description, guidance, section_id, category_id, owner_id, status,
                                           delegable, condition_enabled, role_enabled, delegation_pathway, created_by, updated_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15)`,
          [
            id,
            tenantId,
            displayId,
            dto.name,
            dto.description ?? null,
            dto.guidance ?? null,
            dto.sectionId ?? null,
            dto.categoryId ?? null,
            dto.ownerId ?? caller.userId,
            dto.status ?? 'DRAFT',
            dto.delegable ?? true,
            dto.conditionEnabled ?? false,
            dto.roleEnabled ?? false,
            dto.delegationPathway ?? [],
            caller.userId,
          ],
        ),
      );
      await writeChildren(tx, tenantId, id, dto, known.groups);
      await recordChanges(tx, tenantId, 'evt.decision.decision.created', [id], caller.userId);
    });
    return this.get(caller, id);
  }

  /** Changes the fields given; lists replace what the decision has. The owner may edit their own decision. */
  async update(caller: Caller, id: string, dto: UpdateDecisionDto): Promise<DecisionView> {
    const tenantId = caller.tenantId;
    if (!DECISION_UPDATE_FIELDS.some((f) => dto[f] !== undefined)) throw badRequest(`Nothing to change: send at least one of ${DECISION_UPDATE_FIELDS.join(', ')}`);
    refuseBadAuthorities(dto);
    await this.db.transaction(async (tx) => {
      const [current] = await tx.query<{ owner_id: string | null; status: DecisionStatus; section_id: string | null; name: string }>(
        `SELECT owner_id, status, section_id, name FROM decision.decisions WHERE id = $1 AND tenant_id = $2 AND NOT is_deleted FOR UPDATE`,
        [id, tenantId],
      );
      if (!current) throw notFound(`Decision ${id} not found`);
      requireAllowed(caller, EDIT_DECISION, relationshipsOf(caller.userId, { owner: current.owner_id }));
      if (dto.status !== undefined) {
        const problem = statusMoveProblem(current.status, dto.status);
        if (problem) throw conflict(problem);
      }
      const known = await requireNamedRecords(tx, tenantId, namedRecordsOf(dto, dto.ownerId));
      if (dto.categoryId) refuseCategoryOfAnotherSection(dto.sectionId !== undefined ? dto.sectionId : current.section_id, known.categorySection);
      if (dto.name !== undefined) await refuseTakenName(tx, DECISION_NAME, tenantId, dto.name, id);
      const [before] = await tx.query<DecisionRow>(decisionById(id, tenantId));
      await requireLiveRefs(tx, tenantId, documentRefs('decisionDocuments', dto.decisionDocuments, before.view.decisionDocuments.map((d) => d.documentId)));

      const sets = new SetClause().raw(sql`updated_on = now()`, sql`updated_by = ${caller.userId}`, sql`version = version + 1`);
      const columns: Record<string, keyof UpdateDecisionDto> = {
        name: 'name',
        description: 'description',
        guidance: 'guidance',
        section_id: 'sectionId',
        category_id: 'categoryId',
        owner_id: 'ownerId',
        status: 'status',
        delegable: 'delegable',
        condition_enabled: 'conditionEnabled',
        role_enabled: 'roleEnabled',
        delegation_pathway: 'delegationPathway',
      };
      for (const [column, field] of Object.entries(columns)) if (dto[field] !== undefined) sets.set(column, dto[field]);
      await writeUniqueName(DECISION_NAME, dto.name ?? current.name, () =>
        tx.query(sql`UPDATE decision.decisions SET ${sets.sql} WHERE id = ${id} AND tenant_id = ${tenantId}`),
      );
      await writeChildren(tx, tenantId, id, dto, known.groups);
      const [after] = await tx.query<DecisionRow>(decisionById(id, tenantId));
      const changed = new Map([[id, changedFields(before.view as unknown as Record<string, unknown>, after.view as unknown as Record<string, unknown>, BOOKKEEPING)]]);
      await recordChanges(tx, tenantId, 'evt.decision.decision.updated', [id], caller.userId, changed);
      // Narrower limits, pathways or groups (or an archived decision) make its delegations invalid, never rewritten.
      await revalidate(tx, tenantId, { decisionIds: [id] }, caller.userId);
    });
    return this.get(caller, id);
  }

  /** Deletes one decision (softly); answers it as it was, now deleted. */
  async remove(caller: Caller, id: string): Promise<DecisionView> {
    const tenantId = caller.tenantId;
    const [view] = await this.db.transaction(async (tx) => {
      const deleted = await softDelete(tx, tenantId, [id], caller.userId);
      if (!deleted.length) throw notFound(`Decision ${id} not found`);
      return recordChanges(tx, tenantId, 'evt.decision.decision.deleted', deleted, caller.userId);
    });
    return toDecisionView(view, caller, this.config.appUrl);
  }

  /** Deletes (softly) the live decisions named (those deleted already change nothing and are not counted); an unknown or another tenant's id is a 404 naming it, and nothing changes. */
  async bulkDelete(caller: Caller, ids: readonly string[]): Promise<BulkDeleteResult> {
    const tenantId = caller.tenantId;
    const deleted = await this.db.transaction(async (tx) => {
      await requireLiveRefs(tx, tenantId, refsOf('anyDecision', 'decisionIds', ids));
      const done = await softDelete(tx, tenantId, uniqueIds(ids), caller.userId);
      await recordChanges(tx, tenantId, 'evt.decision.decision.deleted', done, caller.userId);
      return done;
    });
    return { deleteCount: deleted.length };
  }

  /**
   * Brings back the deleted decisions named. One whose name a live decision has taken meanwhile
   * stays deleted (and is not counted), as does the second of two deleted decisions of one name.
   */
  async bulkRestore(caller: Caller, ids: readonly string[]): Promise<BulkRestoreResult> {
    const tenantId = caller.tenantId;
    const restored = await this.db.transaction(async (tx) => {
      await requireLiveRefs(tx, tenantId, refsOf('anyDecision', 'decisionIds', ids));
      const rows = await tx.query<{ id: string }>(sql`
        WITH candidates AS (
          SELECT DISTINCT ON (d.name_key) d.id FROM decision.decisions d
           WHERE d.tenant_id = ${tenantId} AND d.id = ANY(${uniqueIds(ids)}::uuid[]) AND d.is_deleted
             AND NOT EXISTS (SELECT 1 FROM decision.decisions l WHERE l.tenant_id = d.tenant_id AND l.name_key = d.name_key AND NOT l.is_deleted)
           ORDER BY d.name_key, d.deleted_on DESC, d.id)
        UPDATE decision.decisions d SET is_deleted = false, deleted_on = NULL, deleted_by = NULL, updated_on = now(), updated_by = ${caller.userId}, version = version + 1
          FROM candidates c WHERE d.id = c.id
        RETURNING d.id`);
      const done = rows.map((r) => r.id);
      await recordChanges(tx, tenantId, 'evt.decision.decision.restored', done, caller.userId);
      return done;
    });
    return { updateCount: restored.length };
  }

  /** Accepts a bulk duplicate: the job row and its message commit together; the copies are made by the job (jobs/). */
  bulkDuplicate(caller: Caller, ids: readonly string[]): Promise<JobAcceptedView> {
    return this.db.transaction(async (tx) => {
      await requireLiveRefs(tx, caller.tenantId, refsOf('decision', 'decisionIds', ids));
      return this.jobs.start(tx, 'job.decision.bulk-duplicate', { tenantId: caller.tenantId, requestedBy: caller.userId, itemIds: ids });
    });
  }

  /** Removes the document from the decisions named; each decision that lost it gets a revision and an event. */
  async unlinkRecords(caller: Caller, documentId: string, ids: readonly string[]): Promise<UnlinkRecordsResult> {
    const tenantId = caller.tenantId;
    return this.db.transaction(async (tx) => {
      await requireLiveRefs(tx, tenantId, refsOf('decision', 'decisionIds', ids));
      const rows = await tx.query<{ decision_id: string }>(
        `DELETE FROM decision.decision_documents dd USING decision.decisions d
          WHERE dd.tenant_id = $1 AND dd.document_id = $2 AND dd.decision_id = ANY($3::uuid[]) AND d.id = dd.decision_id AND NOT d.is_deleted
          RETURNING dd.decision_id`,
        [tenantId, documentId, uniqueIds(ids)],
      );
      const touched = [...new Set(rows.map((r) => r.decision_id))];
      if (touched.length) {
        await tx.query(`UPDATE decision.decisions SET updated_on = now(), updated_by = $3, version = version + 1 WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [
          tenantId,
          touched,
          caller.userId,
        ]);
        await recordChanges(tx, tenantId, 'evt.decision.decision.updated', touched, caller.userId, new Map(touched.map((t) => [t, ['decisionDocuments']])));
      }
      return { deletedCount: rows.length };
    });
  }
}

function refuseBadAuthorities(dto: { decisionAuthorities?: CreateDecisionDto['decisionAuthorities'] }): void {
  const problems = authorityProblems(dto.decisionAuthorities ?? []);
  if (problems.length) throw badRequest(`Invalid input: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`, problems);
}

function refuseCategoryOfAnotherSection(sectionId: string | null | undefined, categorySection: string | null | undefined): void {
  if (sectionId && categorySection && categorySection !== sectionId.toLowerCase()) {
    throw badRequest('categoryId belongs to another decision section', [{ field: 'categoryId', message: 'belongs to another decision section than sectionId' }]);
  }
}

function namedRecordsOf(dto: CreateDecisionDto | UpdateDecisionDto, ownerId: string | undefined) {
  return {
    sectionId: dto.sectionId,
    categoryId: dto.categoryId,
    ownerId,
    groupIds: dto.decisionGroups?.map((g) => g.groupId),
    authorityTypeIds: dto.decisionAuthorities?.map((a) => a.authorityTypeId),
  };
}

/** Replaces the groups, authorities and documents the change names (set-based; a list left out stays as it is). */
async function writeChildren(tx: Tx, tenantId: string, id: string, dto: CreateDecisionDto | UpdateDecisionDto, groupTypes: Map<string, string | null>): Promise<void> {
  if (dto.decisionGroups) {
    const groups = uniqueIds(dto.decisionGroups.map((g) => g.groupId));
    await tx.query(`DELETE FROM decision.decision_groups WHERE decision_id = $1`, [id]);
    await tx.query(
      `INSERT INTO decision.decision_groups (id, tenant_id, decision_id, group_id, tenant_group_type_id, position)
       SELECT gen_random_uuid(), $1, $2, x.group_id, x.type_id, x.n FROM unnest($3::uuid[], $4::uuid[]) WITH ORDINALITY AS x(group_id, type_id, n)`,
      [tenantId, id, groups, groups.map((g) => groupTypes.get(g) ?? null)],
    );
  }
  if (dto.decisionAuthorities) await replaceAuthorities(tx, tenantId, id, dto.decisionAuthorities);
  if (dto.decisionDocuments) {
    const documents = uniqueDocuments(dto.decisionDocuments);
    await tx.query(`DELETE FROM decision.decision_documents WHERE decision_id = $1`, [id]);
    await tx.query(
      `INSERT INTO decision.decision_documents (id, tenant_id, decision_id, document_id, is_pinned, position)
       SELECT gen_random_uuid(), $1, $2, x.document_id, x.pinned, x.n FROM unnest($3::uuid[], $4::boolean[]) WITH ORDINALITY AS x(document_id, pinned, n)`,
      [tenantId, id, documents.map((d) => d.documentId), documents.map((d) => d.isPinned)],
    );
  }
}

function uniqueDocuments(items: readonly DecisionDocumentDto[]): { documentId: string; isPinned: boolean }[] {
  const byId = new Map<string, boolean>();
  for (const d of items) byId.set(d.documentId.toLowerCase(), (byId.get(d.documentId.toLowerCase()) ?? false) || d.isPinned === true);
  return [...byId].map(([documentId, isPinned]) => ({ documentId, isPinned }));
}

/** Deletes (softly) the live decisions of the tenant named; answers the ids deleted (the caller records the change). */
async function softDelete(tx: Tx, tenantId: string, ids: readonly string[], by: string): Promise<string[]> {
  const held = await tx.query<{ id: string; name: string; n: number }>(
    `SELECT d.id, d.name, count(*)::int AS n FROM decision.decisions d JOIN decision.delegations g ON g.tenant_id = d.tenant_id AND g.decision_id = d.id
      WHERE d.tenant_id = $1 AND d.id = ANY($2::uuid[]) AND NOT d.is_deleted AND g.status IN ${LIVE_SQL}
      GROUP BY d.id, d.name ORDER BY d.name LIMIT 10`,
    [tenantId, ids],
  );
  if (held.length)
    throw conflict(
      `Revoke the live delegations of a decision before deleting it: ${held.map((h) => `"${h.name}" (${h.id}) has ${h.n}`).join(', ')}`,
    );
  const rows = await tx.query<{ id: string }>(
    `UPDATE decision.decisions SET is_deleted = true, deleted_on = now(), deleted_by = $3, updated_on = now(), updated_by = $3, version = version + 1
      WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND NOT is_deleted
      RETURNING id`,
    [tenantId, ids, by],
  );
  return rows.map((r) => r.id);
}

