import { Inject, Injectable } from '@nestjs/common';
import { Caller, DocumentOversightEvent, DocumentStatus, FieldError, Page, badRequest, conflict, forbidden, notFound, relationshipsOf, requireAllowed } from '@ddm/contracts';
import { Db, Queryable, SERVICE_CONFIG, ServiceConfig, SetClause, Tx, listPage, pageRows, raw, sql } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { documentAudience } from './document-audience';
import {
  ApprovalStatus,
  CONTENT_FIELDS,
  EDIT_DOCUMENT,
  OversightOutcome,
  OversightState,
  ReviewStatus,
  afterApproval,
  afterReview,
  answerProblem,
  changeKindOf,
  changesBetween,
  isNamed,
  nextOversight,
  statusMoveProblem,
} from './document.rules';
import {
  ADD_REVISION_SQL,
  Audience,
  DELETE_AUDIENCE_SQL,
  DOCUMENT_VIEW_SQL,
  DocumentFilters,
  DocumentRow,
  INSERT_AUDIENCE_SQL,
  TRACKED_SQL,
  documentById,
  documentCounts,
  documentList,
  visibleTo,
} from './document.sql';
import { requireNamedRecords } from './named-records';
import { ApprovalAnswerDto, CreateDocumentDto, DOCUMENT_UPDATE_FIELDS, DocumentOversightDto, OVERSIGHT_FIELDS, ReviewAnswerDto, UpdateDocumentDto } from './dto/document-change.dto';
import { ChangelogQuery, ListDocumentsQuery } from './dto/list-documents.query';
import { ChangelogEntryView, DocumentCountsView, DocumentView, StoredDocumentView, selectDocumentFields, toDocumentPayload, toDocumentView } from './dto/document.response';

/** A document row as the flow and the permissions read it (locked for a change). */
interface CurrentRow {
  owner_id: string | null;
  document_status: DocumentStatus;
  document_upload_type: string;
  document_url: string | null;
  file_id: string | null;
  responsible_user_id: string | null;
  responsible_position_id: string | null;
  reviewer_user_id: string | null;
  reviewer_position_id: string | null;
  approver_user_id: string | null;
  approver_position_id: string | null;
  review_status: ReviewStatus | null;
  approval_status: ApprovalStatus | null;
  review_cycle_id: string | null;
  approval_cycle_id: string | null;
  visible: boolean;
}

type Oversight = DocumentOversightDto;
type Step = 'review' | 'approval';

/** A pending request withdrawn by a change, with the people it was assigned to. */
interface Withdrawal {
  step: Step;
  cycleId: string;
  userId: string | null;
  positionId: string | null;
}

/** The columns of the oversight's people, by request field. */
const OVERSIGHT_COLUMNS: Record<(typeof OVERSIGHT_FIELDS)[number], string> = {
  responsibleUserId: 'responsible_user_id',
  responsibleUsername: 'responsible_username',
  responsiblePositionId: 'responsible_position_id',
  responsiblePositionName: 'responsible_position_name',
  reviewerUserId: 'reviewer_user_id',
  reviewerUsername: 'reviewer_username',
  reviewerPositionId: 'reviewer_position_id',
  reviewerPositionName: 'reviewer_position_name',
  approverUserId: 'approver_user_id',
  approverUsername: 'approver_username',
  approverPositionId: 'approver_position_id',
  approverPositionName: 'approver_position_name',
};

/** The plain columns a change may set, by request field. */
const FIELD_COLUMNS = {
  documentName: 'document_name',
  documentDescription: 'document_description',
  documentIcon: 'document_icon',
  documentOwnerId: 'owner_id',
  documentMetadata: 'document_metadata',
  documentTypeId: 'document_type_id',
  documentSharingType: 'document_sharing_type',
  documentUploadType: 'document_upload_type',
  isExternal: 'is_external',
} as const satisfies Partial<Record<keyof UpdateDocumentDto, string>>;

/** The names a body gives are kept only where it names no id (the projection's name wins otherwise). */
function oversightOf(dto: Oversight & { documentOversights?: Oversight }): Oversight {
  const merged: Oversight = {};
  for (const f of OVERSIGHT_FIELDS) {
    const nested = dto.documentOversights?.[f];
    const value = nested !== undefined ? nested : dto[f];
    if (value !== undefined) merged[f] = value;
  }
  return merged;
}

const LOCK_SQL = (a: Audience) => sql`SELECT d.owner_id, d.document_status, d.document_upload_type, d.document_url, d.file_id,
    d.responsible_user_id, d.responsible_position_id, d.reviewer_user_id, d.reviewer_position_id, d.approver_user_id, d.approver_position_id,
    d.review_status, d.approval_status, d.review_cycle_id, d.approval_cycle_id,
    ${visibleTo(a).length ? visibleTo(a)[0] : sql`true`} AS visible
  FROM document.documents d`;

/**
 * Documents of a tenant: read as their audience sees them (a restricted document does not exist
 * for anyone else), created, changed (status, sharing, oversight), deleted softly, favoured, and
 * reviewed and approved by the people named. Every change is one change log entry and publishes
 * evt.document.document.* (and the oversight's steps) in its transaction.
 */
@Injectable()
export class DocumentsService {
  constructor(
    private readonly db: Db,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
  ) {}

  async get(caller: Caller, id: string): Promise<DocumentView> {
    const a = await documentAudience(this.db, caller);
    const [row] = await this.db.query<DocumentRow>(documentById(caller.tenantId, id, a));
    if (!row) throw notFound(`Document ${id} not found`);
    return this.view(row.view, caller, a, row.is_favourite ?? false);
  }

  async list(caller: Caller, q: ListDocumentsQuery): Promise<Page<Partial<DocumentView>>> {
    const a = await documentAudience(this.db, caller);
    const rows = await this.db.query<DocumentRow & { total: number; ord: unknown }>(documentList(caller.tenantId, a, q));
    const { items, total } = pageRows(rows, (row: DocumentRow) => selectDocumentFields(this.view(row.view, caller, a, row.is_favourite ?? false), q.select));
    return new Page(items, total, q.page, q.limit);
  }

  async counts(caller: Caller, f: DocumentFilters): Promise<DocumentCountsView> {
    const a = await documentAudience(this.db, caller);
    const [row] = await this.db.query<DocumentCountsView>(documentCounts(caller.tenantId, a, f));
    return row;
  }

  async create(caller: Caller, dto: CreateDocumentDto): Promise<DocumentView> {
    const tenantId = caller.tenantId;
    const uploadType = dto.documentUploadType ?? 'LINKED';
    refuseMissingContent(uploadType, dto.documentUrl ?? null, dto.fileId ?? null);
    const oversight = oversightOf(dto);
    const id = uuidv7();
    await this.db.transaction(async (tx) => {
      const groupTypes = await requireNamedRecords(tx, tenantId, namedRecordsOf(dto, oversight, dto.documentOwnerId));
      const displayId = await tx.nextDisplayId(tenantId, 'document');
      const outcome = nextOversight(
        { reviewStatus: null, approvalStatus: null },
        { hasReviewer: !!(oversight.reviewerUserId || oversight.reviewerPositionId), hasApprover: !!(oversight.approverUserId || oversight.approverPositionId) },
        { reviewerChanged: true, approverChanged: true, contentChanged: true },
      );
      const cycles = { review: outcome.requestReview ? uuidv7() : null, approval: outcome.requestApproval ? uuidv7() : null };
      const columns: Record<string, unknown> = {
        id,
        tenant_id: tenantId,
        document_display_id: displayId,
        document_name: dto.documentName,
        document_description: dto.documentDescription ?? null,
        document_metadata: dto.documentMetadata ?? null,
        document_type_id: dto.documentTypeId ?? null,
        document_type_name: dto.documentTypeId ? null : (dto.documentTypeName ?? null),
        document_icon: dto.documentIcon ?? null,
        document_status: dto.documentStatus ?? 'DRAFT',
        document_sharing_type: dto.documentSharingType ?? 'RESTRICTED',
        document_upload_type: uploadType,
        document_url: uploadType === 'LINKED' ? (dto.documentUrl ?? null) : null,
        file_id: uploadType === 'UPLOADED' ? (dto.fileId ?? null) : null,
        owner_id: dto.documentOwnerId ?? caller.userId,
        is_external: dto.isExternal ?? false,
        oversight_id: uuidv7(),
        review_status: outcome.reviewStatus,
        approval_status: outcome.approvalStatus,
        review_cycle_id: cycles.review,
        approval_cycle_id: cycles.approval,
        created_by: caller.userId,
        updated_by: caller.userId,
      };
      for (const [field, column] of Object.entries(OVERSIGHT_COLUMNS)) columns[column] = oversightColumnValue(oversight, field as keyof Oversight);
      const names = Object.keys(columns);
      await tx.query(`INSERT INTO document.documents (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(columns));
      await writeSharing(tx, tenantId, id, dto, groupTypes);
      const [{ tracked }] = await tx.query<{ tracked: Record<string, unknown> }>(TRACKED_SQL, [id]);
      await this.record(tx, caller, id, 'created', changesBetween(null, tracked), 'evt.document.document.created', outcome, cycles);
    });
    return this.get(caller, id);
  }

  /** Changes the fields given; lists replace what the document has. The owner may edit their own document. */
  async update(caller: Caller, id: string, dto: UpdateDocumentDto): Promise<DocumentView> {
    const tenantId = caller.tenantId;
    if (!DOCUMENT_UPDATE_FIELDS.some((f) => dto[f] !== undefined)) throw badRequest(`Nothing to change: send at least one of ${DOCUMENT_UPDATE_FIELDS.join(', ')}`);
    const oversight = oversightOf(dto);
    const result = await this.db.transaction(async (tx) => {
      const a = await documentAudience(tx, caller);
      const current = await this.lock(tx, caller, id, a);
      requireAllowed(caller, EDIT_DOCUMENT, relationshipsOf(caller.userId, { owner: current.owner_id }));
      const status = (dto.documentStatus ?? current.document_status) as DocumentStatus;
      const problem = statusMoveProblem(current.document_status, status);
      if (problem) throw conflict(problem);
      const uploadType = dto.documentUploadType ?? current.document_upload_type;
      const url = dto.documentUrl !== undefined ? dto.documentUrl : uploadType === current.document_upload_type ? current.document_url : null;
      const fileId = dto.fileId !== undefined ? dto.fileId : uploadType === current.document_upload_type ? current.file_id : null;
      refuseMissingContent(uploadType, url, fileId);
      const groupTypes = await requireNamedRecords(tx, tenantId, namedRecordsOf(dto, oversight, dto.documentOwnerId));
      const [{ tracked: before }] = await tx.query<{ tracked: Record<string, unknown> }>(TRACKED_SQL, [id]);

      const sets = new SetClause().raw(sql`updated_on = now()`, sql`updated_by = ${caller.userId}`, sql`version = version + 1`);
      for (const [field, column] of Object.entries(FIELD_COLUMNS)) {
        const value = dto[field as keyof typeof FIELD_COLUMNS];
        if (value !== undefined) sets.set(column, value);
      }
      // A document holds the content of its upload type only; a type id makes the body's type name moot.
      sets.set('document_url', uploadType === 'LINKED' ? url : null);
      sets.set('file_id', uploadType === 'UPLOADED' ? fileId : null);
      if (dto.documentTypeId) sets.set('document_type_name', null);
      else if (dto.documentTypeName !== undefined) sets.set('document_type_name', dto.documentTypeName);
      for (const [field, column] of Object.entries(OVERSIGHT_COLUMNS)) {
        if (oversight[field as keyof Oversight] !== undefined || namesIdOf(field, oversight)) sets.set(column, oversightColumnValue(oversight, field as keyof Oversight));
      }
      if (dto.documentLinking?.decisionLinkAllowed !== undefined) sets.set('decision_link_allowed', dto.documentLinking.decisionLinkAllowed);
      if (dto.documentLinking?.delegationLinkAllowed !== undefined) sets.set('delegation_link_allowed', dto.documentLinking.delegationLinkAllowed);
      if (status !== current.document_status) {
        sets.set('document_status', status);
        if (status === 'ARCHIVED') sets.raw(sql`archived_on = now()`);
        if (status === 'DELETED') sets.raw(sql`is_deleted = true`, sql`deleted_on = now()`, sql`deleted_by = ${caller.userId}`);
      }
      const [after] = await tx.query<CurrentRow>(
        sql`UPDATE document.documents SET ${sets.sql} WHERE id = ${id} AND tenant_id = ${tenantId}
            RETURNING reviewer_user_id, reviewer_position_id, approver_user_id, approver_position_id, review_status, approval_status`,
      );
      await writeSharing(tx, tenantId, id, dto, groupTypes);

      const [{ tracked: changed }] = await tx.query<{ tracked: Record<string, unknown> }>(TRACKED_SQL, [id]);
      const contentChanged = changesBetween(before, changed).some((c) => CONTENT_FIELDS.includes(c.field));
      const outcome = nextOversight(
        { reviewStatus: current.review_status, approvalStatus: current.approval_status },
        { hasReviewer: !!(after.reviewer_user_id || after.reviewer_position_id), hasApprover: !!(after.approver_user_id || after.approver_position_id) },
        {
          reviewerChanged: after.reviewer_user_id !== current.reviewer_user_id || after.reviewer_position_id !== current.reviewer_position_id,
          approverChanged: after.approver_user_id !== current.approver_user_id || after.approver_position_id !== current.approver_position_id,
          contentChanged,
        },
      );
      const cycles = await this.setOversight(tx, id, outcome, current);
      const [{ tracked: final }] = await tx.query<{ tracked: Record<string, unknown> }>(TRACKED_SQL, [id]);
      const changes = changesBetween(before, final);
      if (!changes.length) return null;
      const subject = status === 'DELETED' ? 'evt.document.document.deleted' : 'evt.document.document.updated';
      // A pending request that is no longer the open one (another person, a new review, a deleted document) is withdrawn.
      const withdrawn: Withdrawal[] = [];
      if (current.review_status === 'REVIEW_PENDING' && current.review_cycle_id && (status === 'DELETED' || cycles.review !== current.review_cycle_id))
        withdrawn.push({ step: 'review', cycleId: current.review_cycle_id, userId: current.reviewer_user_id, positionId: current.reviewer_position_id });
      if (current.approval_status === 'APPROVAL_PENDING' && current.approval_cycle_id && (status === 'DELETED' || cycles.approval !== current.approval_cycle_id))
        withdrawn.push({ step: 'approval', cycleId: current.approval_cycle_id, userId: current.approver_user_id, positionId: current.approver_position_id });
      return this.record(tx, caller, id, changeKindOf(current.document_status, status), changes, subject, outcome, cycles, withdrawn);
    });
    if (!result) return this.get(caller, id);
    // The document as the change left it, even when the caller no longer sees it (deleted, or shared away from them).
    const [favourite] = await this.db.query(`SELECT 1 FROM document.document_favourites WHERE document_id = $1 AND user_id = $2`, [id, caller.userId]);
    return this.view(result, caller, await documentAudience(this.db, caller), !!favourite && !result.isDeleted);
  }

  /** Deletes a document (softly); answers it as it was, now deleted. */
  remove(caller: Caller, id: string): Promise<DocumentView> {
    return this.update(caller, id, { documentStatus: 'DELETED' });
  }

  /** The reviewer's answer (or a holder of the reviewing position's): 403 for anyone else, 409 when no review is pending. */
  answerReview(caller: Caller, id: string, dto: ReviewAnswerDto): Promise<DocumentView> {
    return this.answer(caller, id, 'review', dto.decision, dto.comment ?? null);
  }

  /** The approver's answer: 403 for anyone else, 409 when no approval is pending. */
  answerApproval(caller: Caller, id: string, dto: ApprovalAnswerDto): Promise<DocumentView> {
    return this.answer(caller, id, 'approval', dto.decision, dto.comment ?? null);
  }

  async setFavourite(caller: Caller, id: string, favourite: boolean): Promise<DocumentView> {
    const a = await documentAudience(this.db, caller);
    const [row] = await this.db.query<{ id: string }>(sql`SELECT d.id FROM document.documents d WHERE d.id = ${id} AND d.tenant_id = ${caller.tenantId} AND NOT d.is_deleted ${and(visibleTo(a))}`);
    if (!row) throw notFound(`Document ${id} not found`);
    if (favourite)
      await this.db.query(`INSERT INTO document.document_favourites (document_id, user_id, tenant_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [id, caller.userId, caller.tenantId]);
    else await this.db.query(`DELETE FROM document.document_favourites WHERE document_id = $1 AND user_id = $2`, [id, caller.userId]);
    return this.get(caller, id);
  }

  /** The change log of a document the caller sees (§2.11), paged. */
  async changelog(caller: Caller, id: string, q: ChangelogQuery): Promise<Page<ChangelogEntryView>> {
    const a = await documentAudience(this.db, caller);
    const [row] = await this.db.query<{ id: string }>(sql`SELECT d.id FROM document.documents d WHERE d.id = ${id} AND d.tenant_id = ${caller.tenantId} AND NOT d.is_deleted ${and(visibleTo(a))}`);
    if (!row) throw notFound(`Document ${id} not found`);
    const keys = q.sortBy === 'revisionDate' ? ['r.revision_date', 'r.revision_id'] : ['r.revision_id'];
    return listPage(
      this.db,
      {
        from: raw('document.document_revisions r'),
        where: [sql`r.tenant_id = ${caller.tenantId}`, sql`r.document_id = ${id}`],
        id: 'r.id',
        sort: { keys, dir: q.sortOrder === 'desc' ? 'DESC' : 'ASC' },
        view: {
          columns: raw(`r.id, r.tenant_id, r.document_id, r.revision_id, to_char(r.revision_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS revision_date,
            r.revised_by, r.revised_by_name, r.revised_user_detail, r.change, r.changes`),
          from: raw('document.document_revisions r ON r.id = page.id'),
        },
        page: q.page,
        limit: q.limit,
      },
      (r: ChangelogRow) => ({
        id: r.id,
        tenantId: r.tenant_id,
        documentId: r.document_id,
        revisionId: String(r.revision_id),
        revisionDate: r.revision_date,
        revisedById: r.revised_by,
        revisedByName: r.revised_by_name,
        revisedUserDetail: r.revised_user_detail ?? {},
        change: r.change,
        changes: r.changes,
      }),
    );
  }

  private async answer(caller: Caller, id: string, step: Step, decision: 'APPROVED' | 'CHANGES_REQUESTED' | 'REJECTED', comment: string | null): Promise<DocumentView> {
    await this.db.transaction(async (tx) => {
      const a = await documentAudience(tx, caller);
      const current = await this.lock(tx, caller, id, a);
      const state: OversightState = {
        hasReviewer: !!(current.reviewer_user_id || current.reviewer_position_id),
        hasApprover: !!(current.approver_user_id || current.approver_position_id),
        reviewStatus: current.review_status,
        approvalStatus: current.approval_status,
      };
      const named =
        step === 'review'
          ? isNamed(caller.userId, a.positionIds, current.reviewer_user_id, current.reviewer_position_id)
          : isNamed(caller.userId, a.positionIds, current.approver_user_id, current.approver_position_id);
      if (!named) throw forbidden(`Only the document's ${step === 'review' ? 'reviewer' : 'approver'} may answer its ${step}`);
      const problem = answerProblem(step, state);
      if (problem) throw conflict(problem);
      const [{ tracked: before }] = await tx.query<{ tracked: Record<string, unknown> }>(TRACKED_SQL, [id]);
      const outcome = step === 'review' ? afterReview(state, decision as 'APPROVED' | 'CHANGES_REQUESTED') : afterApproval(state, decision as 'APPROVED' | 'REJECTED');
      const stamp = step === 'review' ? sql`reviewed_on = now()` : sql`approved_on = now()`;
      await tx.query(sql`UPDATE document.documents SET ${stamp}, version = version + 1 WHERE id = ${id}`);
      const cycles = await this.setOversight(tx, id, outcome, current);
      const [{ tracked: after }] = await tx.query<{ tracked: Record<string, unknown> }>(TRACKED_SQL, [id]);
      const changes = changesBetween(before, after);
      if (comment !== null) changes.push({ field: `${step}Comment`, from: null, to: comment });
      const kind = step === 'review' ? (decision === 'APPROVED' ? 'reviewed' : 'changes-requested') : decision === 'APPROVED' ? 'approved' : 'rejected';
      // The answer closes its cycle before the next step (if any) is requested.
      const [{ view }] = await tx.query<DocumentRow>(DOCUMENT_VIEW_SQL, [id, caller.tenantId]);
      const answered: DocumentOversightEvent = {
        ...(await this.oversightBase(tx, view, step, step === 'review' ? current.review_cycle_id! : current.approval_cycle_id!)),
        actedById: caller.userId,
        comment,
        status: step === 'review' ? outcome.reviewStatus! : outcome.approvalStatus!,
      };
      const subject = step === 'review' ? 'evt.document.oversight.reviewed' : decision === 'APPROVED' ? 'evt.document.oversight.approved' : 'evt.document.oversight.rejected';
      await tx.publish(subject, answered);
      await this.record(tx, caller, id, kind, changes, 'evt.document.document.updated', outcome, cycles);
    });
    return this.get(caller, id);
  }

  /** The live document locked for a change: 404 when unknown, deleted, another tenant's, or one the caller may not see. */
  private async lock(tx: Tx, caller: Caller, id: string, a: Audience): Promise<CurrentRow> {
    const [current] = await tx.query<CurrentRow>(sql`${LOCK_SQL(a)} WHERE d.id = ${id} AND d.tenant_id = ${caller.tenantId} AND NOT d.is_deleted FOR UPDATE`);
    if (!current || !current.visible) throw notFound(`Document ${id} not found`);
    return current;
  }

  /** Writes the oversight's statuses and opens a new cycle for each step requested; answers the open cycles. */
  private async setOversight(tx: Tx, id: string, o: OversightOutcome, current: Pick<CurrentRow, 'review_cycle_id' | 'approval_cycle_id'>): Promise<{ review: string | null; approval: string | null }> {
    const cycles = {
      review: o.requestReview ? uuidv7() : o.reviewStatus ? current.review_cycle_id : null,
      approval: o.requestApproval ? uuidv7() : o.approvalStatus ? current.approval_cycle_id : null,
    };
    await tx.query(
      `UPDATE document.documents SET review_status = $2::varchar, approval_status = $3::varchar, review_cycle_id = $4, approval_cycle_id = $5,
              reviewed_on = CASE WHEN $2::varchar IS NULL OR $2::varchar = 'REVIEW_PENDING' THEN NULL ELSE reviewed_on END,
              approved_on = CASE WHEN $3::varchar IS NULL OR $3::varchar = 'APPROVAL_PENDING' THEN NULL ELSE approved_on END
        WHERE id = $1`,
      [id, o.reviewStatus, o.approvalStatus, cycles.review, cycles.approval],
    );
    return cycles;
  }

  /**
   * A change of the document, as it is now in the transaction: its audience (who may see it, as
   * the change left its sharing, people and state), its change log entry (when something changed),
   * the document event, and the oversight requests the change opened.
   */
  private async record(
    tx: Tx,
    caller: Caller,
    id: string,
    kind: string,
    changes: unknown[],
    subject: 'evt.document.document.created' | 'evt.document.document.updated' | 'evt.document.document.deleted',
    outcome: OversightOutcome,
    cycles: { review: string | null; approval: string | null },
    withdrawn: readonly Withdrawal[] = [],
  ): Promise<StoredDocumentView> {
    await tx.query(DELETE_AUDIENCE_SQL, [caller.tenantId, [id]]);
    await tx.query(INSERT_AUDIENCE_SQL, [caller.tenantId, [id]]);
    await tx.query(ADD_REVISION_SQL, [id, caller.tenantId, caller.userId, kind, JSON.stringify(changes)]);
    const [row] = await tx.query<DocumentRow>(DOCUMENT_VIEW_SQL, [id, caller.tenantId]);
    await tx.publish(subject, { tenantId: caller.tenantId, document: toDocumentPayload(row.view, row.version) });
    for (const w of withdrawn)
      await tx.publish('evt.document.oversight.withdrawn', { ...(await this.oversightBase(tx, row.view, w.step, w.cycleId, w)), actedById: caller.userId, comment: null, status: 'WITHDRAWN' });
    if (outcome.requestReview && cycles.review)
      await tx.publish('evt.document.oversight.review-requested', { ...(await this.oversightBase(tx, row.view, 'review', cycles.review)), actedById: null, comment: null, status: 'REVIEW_PENDING' });
    if (outcome.requestApproval && cycles.approval)
      await tx.publish('evt.document.oversight.approval-requested', {
        ...(await this.oversightBase(tx, row.view, 'approval', cycles.approval)),
        actedById: null,
        comment: null,
        status: 'APPROVAL_PENDING',
      });
    return row.view;
  }

  /** What every oversight event carries: the document, the cycle, and who must act (the named user, and the holders of the named position). */
  private async oversightBase(
    q: Queryable,
    v: StoredDocumentView,
    step: Step,
    cycleId: string,
    people?: Pick<Withdrawal, 'userId' | 'positionId'>,
  ): Promise<Omit<DocumentOversightEvent, 'actedById' | 'comment' | 'status'>> {
    const o = v.documentOversight;
    const userId = people ? people.userId : step === 'review' ? o.reviewerUserId : o.approverUserId;
    const positionId = people ? people.positionId : step === 'review' ? o.reviewerPositionId : o.approverPositionId;
    const holders = positionId
      ? await q.query<{ id: string }>(
          `SELECT id FROM document.user_projection WHERE tenant_id = $1 AND position_ids @> ARRAY[$2::uuid] AND status = 'ACTIVE' ORDER BY id LIMIT 999`,
          [v.tenantId, positionId],
        )
      : [];
    const assignees = [...new Set([...(userId ? [userId] : []), ...holders.map((h) => h.id)])];
    return { tenantId: v.tenantId, documentId: v.id, documentDisplayId: v.documentDisplayId, documentName: v.documentName, cycleId, ownerId: v.documentOwnerId, assigneeUserIds: assignees };
  }

  private view(stored: StoredDocumentView, caller: Caller, a: Audience, favourite: boolean): DocumentView {
    return toDocumentView(stored, caller, a.positionIds, this.config.appUrl, favourite);
  }
}

interface ChangelogRow {
  id: string;
  tenant_id: string;
  document_id: string;
  revision_id: number;
  revision_date: string;
  revised_by: string | null;
  revised_by_name: string | null;
  revised_user_detail: Record<string, unknown> | null;
  change: string;
  changes: ChangelogEntryView['changes'];
}

/** ` AND <condition>` for each condition (none: nothing). */
function and(conditions: ReturnType<typeof visibleTo>) {
  return conditions.length ? sql` AND ${conditions[0]}` : sql``;
}

/** LINKED needs a documentUrl, UPLOADED a fileId (a 400 naming the field). */
function refuseMissingContent(uploadType: string, url: string | null, fileId: string | null): void {
  const errors: FieldError[] = [];
  if (uploadType === 'LINKED' && !url) errors.push({ field: 'documentUrl', message: 'is required for a LINKED document (an http or https URL)' });
  if (uploadType === 'UPLOADED' && !fileId) errors.push({ field: 'fileId', message: 'is required for an UPLOADED document (POST /document/v1/files first)' });
  if (errors.length) throw badRequest(`Invalid input: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, errors);
}

/** A name column is written only when no id of its kind is named (the projection names the id's record). */
function namesIdOf(field: string, o: Oversight): boolean {
  const idField = field.endsWith('Username') ? field.replace('Username', 'UserId') : field.endsWith('PositionName') ? field.replace('PositionName', 'PositionId') : null;
  return idField !== null && o[idField as keyof Oversight] !== undefined;
}

function oversightColumnValue(o: Oversight, field: keyof Oversight): string | null {
  if (field.endsWith('Username') || field.endsWith('PositionName')) {
    const idField = (field.endsWith('Username') ? field.replace('Username', 'UserId') : field.replace('PositionName', 'PositionId')) as keyof Oversight;
    if (o[idField]) return null;
  }
  return o[field] ?? null;
}

function namedRecordsOf(dto: CreateDocumentDto | UpdateDocumentDto, o: Oversight, ownerId: string | undefined) {
  return {
    ownerId,
    documentTypeId: dto.documentTypeId,
    fileId: dto.fileId,
    groupIds: dto.documentSharingGroups?.map((g) => g.groupId),
    userIds: dto.documentSharingUsers?.map((u) => u.userId),
    people: { responsibleUserId: o.responsibleUserId, reviewerUserId: o.reviewerUserId, approverUserId: o.approverUserId },
    positions: { responsiblePositionId: o.responsiblePositionId, reviewerPositionId: o.reviewerPositionId, approverPositionId: o.approverPositionId },
  };
}

/** Replaces the sharing lists the change names (set-based; a list left out stays as it is). */
async function writeSharing(tx: Tx, tenantId: string, id: string, dto: CreateDocumentDto | UpdateDocumentDto, groupTypes: Map<string, string | null>): Promise<void> {
  if (dto.documentSharingGroups) {
    const groups = [...new Set(dto.documentSharingGroups.map((g) => g.groupId.toLowerCase()))];
    await tx.query(`DELETE FROM document.document_sharing_groups WHERE document_id = $1`, [id]);
    await tx.query(
      `INSERT INTO document.document_sharing_groups (id, tenant_id, document_id, group_id, tenant_group_type_id, position)
       SELECT gen_random_uuid(), $1, $2, x.group_id, x.type_id, x.n FROM unnest($3::uuid[], $4::uuid[]) WITH ORDINALITY AS x(group_id, type_id, n)`,
      [tenantId, id, groups, groups.map((g) => groupTypes.get(g) ?? null)],
    );
  }
  if (dto.documentSharingUsers) {
    const users = [...new Set(dto.documentSharingUsers.map((u) => u.userId.toLowerCase()))];
    await tx.query(`DELETE FROM document.document_sharing_users WHERE document_id = $1`, [id]);
    await tx.query(
      `INSERT INTO document.document_sharing_users (id, tenant_id, document_id, user_id, position)
       SELECT gen_random_uuid(), $1, $2, x.user_id, x.n FROM unnest($3::uuid[]) WITH ORDINALITY AS x(user_id, n)`,
      [tenantId, id, users],
    );
  }
}
