import { Inject, Injectable } from '@nestjs/common';
import { ACTION_SUBJECTS, Caller, Page, badRequest, conflict, forbidden, missingIds, missingIdsError, notFound, relationshipsOf, requireAllowed } from '@ddm/contracts';
import { Db, SERVICE_CONFIG, ServiceConfig, SetClause, Tx, isoSql, listPage, raw, sql } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { ActionConfigRefs } from '../action-config/action-config-refs';
import { UNSETTLED_STATUS_KEYS, priorityIdOf, priorityRank, statusIdOf, statusRank } from '../core/configuration.rules';
import { unique } from '../core/ids';
import { attestationCauseOf } from '../core/system-actions.rules';
import { EDIT_ACTION, allCompleted, attestationAnswerProblem, changedCauseFields, statusByName } from './action.rules';
import { ACTION_BY_ID_SQL, ActionFilters, ActionRow, actionList } from './action.sql';
import { addAssignees, publishActions, publishAssigned, readViews, requireRefs, setAssignees } from './action-writes';
import { ACTION_UPDATE_FIELDS, ActionFileDto, AttestationResponseDto, CreateActionDto, UpdateActionDto, ValidateActionDto } from './dto/action-change.dto';
import { ActionView, StoredActionView, ValidateActionView, selectActionFields, toActionView } from './dto/action.response';

interface LockedAction {
  id: string;
  owner_id: string | null;
  is_system_generated: boolean;
  decision_id: string | null;
  delegation_id: string | null;
  document_id: string | null;
  status_key: string;
  system_kind: string | null;
  cause_key: string | null;
  due_date: Date | null;
  assignee_ids: string[];
}

/** Why an Attestation action is not completed like other actions: its answer is what completes it. */
const ANSWER_ATTESTATION = (id: string) => `Action ${id} is an Attestation: answer it with POST /actions/v1/actions/${id}/attestation-response (CONFIRMED or DISPUTED), which completes it`;

/** The live action of the tenant, locked for the change, with its people; null when unknown, deleted or another tenant's. */
async function lockAction(tx: Tx, tenantId: string, id: string): Promise<LockedAction | null> {
  const [row] = await tx.query<LockedAction>(
    `SELECT a.id, a.owner_id, a.is_system_generated, a.decision_id, a.delegation_id, a.document_id, a.status_key, a.system_kind, a.cause_key, a.due_date,
            ARRAY(SELECT aa.assignee_id FROM actions.action_assignees aa WHERE aa.action_id = a.id) AS assignee_ids
       FROM actions.actions a WHERE a.id = $1 AND a.tenant_id = $2 AND NOT a.is_deleted FOR UPDATE`,
    [id, tenantId],
  );
  return row ?? null;
}

/**
 * Actions of a tenant: read (one statement each), created, changed, deleted (softly), reassigned
 * and duplicated in bulk (set-based, all or nothing), and worked on by their assignees. Every change
 * publishes evt.actions.action.* in its transaction.
 */
@Injectable()
export class ActionsService {
  constructor(
    private readonly db: Db,
    private readonly config: ActionConfigRefs,
    @Inject(SERVICE_CONFIG) private readonly service: ServiceConfig,
  ) {}

  private view(stored: StoredActionView, caller: Caller): ActionView {
    return toActionView(stored, caller, this.service.appUrl);
  }

  async get(caller: Caller, id: string): Promise<ActionView> {
    const [row] = await this.db.query<ActionRow>(ACTION_BY_ID_SQL, [id, caller.tenantId]);
    if (!row) throw notFound(`Action ${id} not found`);
    return this.view(row.view, caller);
  }

  list(caller: Caller, filters: ActionFilters, select?: readonly string[]): Promise<Page<Partial<ActionView>>> {
    return listPage(this.db, actionList(caller.tenantId, caller.userId, filters), (row: ActionRow) => selectActionFields(this.view(row.view, caller), select));
  }

  async create(caller: Caller, dto: CreateActionDto): Promise<ActionView> {
    const tenantId = caller.tenantId;
    await this.config.ensureDefaults(tenantId);
    const assigneeIds = unique(dto.assigneeIds ?? []);
    const ownerId = dto.ownerId ?? caller.userId;
    const id = uuidv7();
    const stored = await this.db.transaction(async (tx) => {
      const known = await requireRefs(tx, tenantId, { ...dto, ownerId, assigneeIds: dto.assigneeIds });
      const status = known.status ?? { id: statusIdOf(tenantId, 'TODO'), key: 'TODO' };
      const priority = known.priority ?? { id: priorityIdOf(tenantId, 'MEDIUM'), key: 'MEDIUM' };
      const displayId = await tx.nextDisplayId(tenantId, 'action');
      await tx.query(
        `INSERT INTO actions.actions (id, tenant_id, action_display_id, action_name, description, action_type_id, action_template_id, action_priority_id,
                                      action_status_id, status_key, status_rank, priority_rank, decision_id, delegation_id, document_id, owner_id, due_date,
                                      created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18)`,
        [
          id, tenantId, displayId, dto.actionName, dto.description ?? null, dto.actionTypeId ?? null, dto.actionTemplateId ?? null, priority.id,
          status.id, status.key, statusRank(status.key), priorityRank(priority.key), dto.decisionId ?? null, dto.delegationId ?? null,
          dto.documentId ?? null, ownerId, dto.dueDate ?? null, caller.userId,
        ],
      );
      const added = await addAssignees(tx, tenantId, [id], assigneeIds);
      await writeFiles(tx, tenantId, id, dto.files ?? []);
      const views = await readViews(tx, tenantId, [id]);
      await publishActions(tx, tenantId, ACTION_SUBJECTS.created, views, caller.userId);
      await publishAssigned(tx, tenantId, views, added, caller.userId);
      return views[0];
    });
    return this.view(stored, caller);
  }

  /** Changes the fields given; lists (assignees, files) replace what the action has. Owner and assignees may change their action; edit:actions any. */
  async update(caller: Caller, id: string, dto: UpdateActionDto): Promise<ActionView> {
    const tenantId = caller.tenantId;
    if (!ACTION_UPDATE_FIELDS.some((f) => dto[f] !== undefined)) throw badRequest(`Nothing to change: send at least one of ${ACTION_UPDATE_FIELDS.join(', ')}`);
    await this.config.ensureDefaults(tenantId);
    const stored = await this.db.transaction(async (tx) => {
      const current = await lockAction(tx, tenantId, id);
      if (!current) throw notFound(`Action ${id} not found`);
      requireAllowed(caller, EDIT_ACTION, relationshipsOf(caller.userId, { owner: current.owner_id, assignee: current.assignee_ids }));
      if (current.is_system_generated) {
        const changed = changedCauseFields(
          { decisionId: current.decision_id, delegationId: current.delegation_id, documentId: current.document_id, ownerId: current.owner_id },
          dto,
        );
        if (changed.length) throw conflict(`The system opened action ${id} for its cause: ${changed.join(', ')} cannot be changed`);
      }
      const known = await requireRefs(tx, tenantId, dto);
      if (current.system_kind === 'ATTESTATION' && known.status?.key === 'COMPLETED' && current.status_key !== 'COMPLETED') throw conflict(ANSWER_ATTESTATION(id));

      const sets = new SetClause().raw(sql`updated_on = now()`, sql`updated_by = ${caller.userId}`, sql`version = version + 1`);
      const columns: Record<string, keyof UpdateActionDto> = {
        action_name: 'actionName',
        description: 'description',
        action_type_id: 'actionTypeId',
        action_template_id: 'actionTemplateId',
        decision_id: 'decisionId',
        delegation_id: 'delegationId',
        document_id: 'documentId',
        owner_id: 'ownerId',
        due_date: 'dueDate',
      };
      for (const [column, field] of Object.entries(columns)) if (dto[field] !== undefined) sets.set(column, dto[field]);
      if (known.status) sets.set('action_status_id', known.status.id).set('status_key', known.status.key).set('status_rank', statusRank(known.status.key));
      if (known.priority) sets.set('action_priority_id', known.priority.id).set('priority_rank', priorityRank(known.priority.key));
      await tx.query(sql`UPDATE actions.actions SET ${sets.sql} WHERE id = ${id} AND tenant_id = ${tenantId}`);
      const added = dto.assigneeIds ? await setAssignees(tx, tenantId, [id], unique(dto.assigneeIds)) : new Map<string, string[]>();
      if (dto.files) {
        await tx.query(`DELETE FROM actions.action_files WHERE action_id = $1 AND tenant_id = $2`, [id, tenantId]);
        await writeFiles(tx, tenantId, id, dto.files);
      }
      const views = await readViews(tx, tenantId, [id]);
      await publishActions(tx, tenantId, ACTION_SUBJECTS.updated, views, caller.userId);
      await publishAssigned(tx, tenantId, views, added, caller.userId);
      if (known.status?.key === 'COMPLETED' && current.status_key !== 'COMPLETED') await publishActions(tx, tenantId, ACTION_SUBJECTS.completed, views, caller.userId);
      return views[0];
    });
    return this.view(stored, caller);
  }

  /** Deletes (softly); answers the action as it was, now deleted. A system action is the system's to close (409). */
  async remove(caller: Caller, id: string): Promise<ActionView> {
    const tenantId = caller.tenantId;
    const stored = await this.db.transaction(async (tx) => {
      const current = await lockAction(tx, tenantId, id);
      if (!current) throw notFound(`Action ${id} not found`);
      requireAllowed(caller, EDIT_ACTION, relationshipsOf(caller.userId, { owner: current.owner_id, assignee: current.assignee_ids }));
      if (current.is_system_generated) throw conflict(`The system opened action ${id} for its cause and closes it when the cause is settled: it cannot be deleted`);
      await tx.query(
        `UPDATE actions.actions SET is_deleted = true, deleted_on = now(), deleted_by = $3, updated_on = now(), updated_by = $3, version = version + 1
          WHERE id = $1 AND tenant_id = $2`,
        [id, tenantId, caller.userId],
      );
      const views = await readViews(tx, tenantId, [id]);
      await publishActions(tx, tenantId, ACTION_SUBJECTS.deleted, views, caller.userId);
      return views[0];
    });
    return this.view(stored, caller);
  }

  /**
   * Each action named ends up assigned to exactly `assigneeIds` (those kept keep their status and
   * dates). All or nothing: unknown, deleted or another tenant's actions are a 404 naming them,
   * actions the caller may not change a 403 naming them, people not of the tenant a 404.
   */
  async bulkReassign(caller: Caller, actionIds: readonly string[], assigneeIds: readonly string[]): Promise<ActionView[]> {
    const tenantId = caller.tenantId;
    await this.config.ensureDefaults(tenantId);
    const ids = unique(actionIds);
    const people = unique(assigneeIds);
    const stored = await this.db.transaction(async (tx) => {
      const rows = await tx.query<{ id: string; mine: boolean }>(
        `SELECT a.id, (a.owner_id = $3 OR EXISTS (SELECT 1 FROM actions.action_assignees aa WHERE aa.action_id = a.id AND aa.assignee_id = $3)) AS mine
           FROM actions.actions a WHERE a.tenant_id = $1 AND a.id = ANY($2::uuid[]) AND NOT a.is_deleted
          ORDER BY a.id FOR UPDATE`,
        [tenantId, ids, caller.userId],
      );
      const missing = missingIds(actionIds, rows.map((r) => r.id));
      if (missing.length) throw missingIdsError({ what: 'Action', field: 'actionIds', asked: actionIds, missing, suffix: '; nothing was reassigned' });
      if (!caller.keys.has(EDIT_ACTION.key)) {
        const denied = rows.filter((r) => !r.mine).map((r) => r.id);
        if (denied.length)
          throw forbidden(`Missing permission "${EDIT_ACTION.key}" for actions you neither own nor are assigned: ${denied.join(', ')}; nothing was reassigned`);
      }
      await requireRefs(tx, tenantId, { assigneeIds });
      const added = await setAssignees(tx, tenantId, ids, people);
      await tx.query(`UPDATE actions.actions SET updated_on = now(), updated_by = $3, version = version + 1 WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [
        tenantId,
        ids,
        caller.userId,
      ]);
      const views = await readViews(tx, tenantId, ids);
      await publishActions(tx, tenantId, ACTION_SUBJECTS.updated, views, caller.userId);
      await publishAssigned(tx, tenantId, views, added, caller.userId);
      return views;
    });
    return stored.map((v) => this.view(v, caller));
  }

  /**
   * Copies the actions named (synchronously, one statement per table): new ids and display ids,
   * copiedFrom the source, the same fields, assignees (back to To Do) and files; a copy is a manual
   * action at To Do, even of a system action. Unknown, deleted or another tenant's ids are a 404 naming them.
   */
  async bulkDuplicate(caller: Caller, actionIds: readonly string[]): Promise<ActionView[]> {
    const tenantId = caller.tenantId;
    await this.config.ensureDefaults(tenantId);
    const sources = unique(actionIds);
    const stored = await this.db.transaction(async (tx) => {
      const found = await tx.query<{ id: string }>(`SELECT id FROM actions.actions WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND NOT is_deleted`, [tenantId, sources]);
      const missing = missingIds(actionIds, found.map((r) => r.id));
      if (missing.length) throw missingIdsError({ what: 'Action', field: 'actionIds', asked: actionIds, missing, suffix: '; nothing was copied' });
      const copies = sources.map(() => uuidv7());
      const displayIds = await tx.nextDisplayIds(tenantId, 'action', sources.length);
      const todo = statusIdOf(tenantId, 'TODO');
      await tx.query(
        `INSERT INTO actions.actions (id, tenant_id, action_display_id, action_name, description, action_type_id, action_template_id, action_priority_id,
                                      action_status_id, status_key, status_rank, priority_rank, decision_id, delegation_id, document_id, role_id, owner_id,
                                      due_date, copied_from, created_by, updated_by)
         SELECT x.copy, s.tenant_id, x.display_id, s.action_name, s.description, s.action_type_id, s.action_template_id, s.action_priority_id,
                $4, 'TODO', $5, s.priority_rank, s.decision_id, s.delegation_id, s.document_id, s.role_id, s.owner_id, s.due_date, s.id, $6, $6
           FROM unnest($2::uuid[], $3::uuid[], $7::text[]) WITH ORDINALITY AS x(source, copy, display_id, n)
           JOIN actions.actions s ON s.id = x.source AND s.tenant_id = $1
          ORDER BY x.n`,
        [tenantId, sources, copies, todo, statusRank('TODO'), caller.userId, displayIds],
      );
      const assigned = await tx.query<{ action_id: string; assignee_id: string }>(
        `INSERT INTO actions.action_assignees (id, tenant_id, action_id, assignee_id, action_status_id, position)
         SELECT gen_random_uuid(), aa.tenant_id, x.copy, aa.assignee_id, $4, aa.position
           FROM unnest($2::uuid[], $3::uuid[]) AS x(source, copy) JOIN actions.action_assignees aa ON aa.action_id = x.source AND aa.tenant_id = $1
         RETURNING action_id, assignee_id`,
        [tenantId, sources, copies, todo],
      );
      await tx.query(
        `INSERT INTO actions.action_files (id, tenant_id, action_id, file_url, file_type, file_name, position)
         SELECT gen_random_uuid(), f.tenant_id, x.copy, f.file_url, f.file_type, f.file_name, f.position
           FROM unnest($2::uuid[], $3::uuid[]) AS x(source, copy) JOIN actions.action_files f ON f.action_id = x.source AND f.tenant_id = $1`,
        [tenantId, sources, copies],
      );
      const added = new Map<string, string[]>();
      for (const r of assigned) added.set(r.action_id, [...(added.get(r.action_id) ?? []), r.assignee_id]);
      const views = await readViews(tx, tenantId, copies);
      await publishActions(tx, tenantId, ACTION_SUBJECTS.created, views, caller.userId);
      await publishAssigned(tx, tenantId, views, added, caller.userId);
      return views;
    });
    return stored.map((v) => this.view(v, caller));
  }

  /**
   * The caller's own status on an action they are assigned: one of the tenant's status names;
   * sets actionTakenDate. When every assignee has completed, the action is Completed.
   */
  async setAssigneeStatus(caller: Caller, id: string, statusName: string): Promise<ActionView> {
    const tenantId = caller.tenantId;
    const statuses = await this.config.statuses(tenantId);
    const status = statusByName(statuses, statusName);
    if (!status) throw badRequest(`status must be one of ${statuses.map((s) => s.actionStatusName).join(', ')}`, [{ field: 'status', message: `must be one of ${statuses.map((s) => s.actionStatusName).join(', ')}` }]);
    const stored = await this.db.transaction(async (tx) => {
      const current = await lockAction(tx, tenantId, id);
      if (!current) throw notFound(`Action ${id} not found`);
      if (!current.assignee_ids.includes(caller.userId)) throw forbidden(`Only an assignee of action ${id} may set their status on it`);
      if (current.system_kind === 'ATTESTATION' && status.statusKey === 'COMPLETED') throw conflict(ANSWER_ATTESTATION(id));
      await tx.query(`UPDATE actions.action_assignees SET action_status_id = $3, action_taken_date = now() WHERE action_id = $1 AND assignee_id = $2 AND tenant_id = $4`, [
        id,
        caller.userId,
        status.id,
        tenantId,
      ]);
      const [{ keys }] = await tx.query<{ keys: string[] }>(
        `SELECT ARRAY(SELECT s.status_key FROM actions.action_assignees aa JOIN actions.action_statuses s ON s.id = aa.action_status_id WHERE aa.action_id = $1 AND aa.tenant_id = $2) AS keys`,
        [id, tenantId],
      );
      const completes = allCompleted(keys) && current.status_key !== 'COMPLETED';
      const sets = new SetClause().raw(sql`updated_on = now()`, sql`updated_by = ${caller.userId}`, sql`version = version + 1`);
      if (completes) sets.set('action_status_id', statusIdOf(tenantId, 'COMPLETED')).set('status_key', 'COMPLETED').set('status_rank', statusRank('COMPLETED'));
      await tx.query(sql`UPDATE actions.actions SET ${sets.sql} WHERE id = ${id} AND tenant_id = ${tenantId}`);
      const views = await readViews(tx, tenantId, [id]);
      await publishActions(tx, tenantId, ACTION_SUBJECTS.updated, views, caller.userId);
      if (completes) await publishActions(tx, tenantId, ACTION_SUBJECTS.completed, views, caller.userId);
      return views[0];
    });
    return this.view(stored, caller);
  }

  /**
   * The caller, an assignee of an open Attestation action, answers it: CONFIRMED or DISPUTED (with
   * a comment). Their own status and the action move to Completed (one answer settles the
   * delegation for every holder asked), and evt.actions.attestation.responded tells the decision
   * area, which records it. 404 unknown action; 403 not an assignee; 409 not an Attestation action,
   * settled already, or past its due date.
   */
  async answerAttestation(caller: Caller, id: string, dto: AttestationResponseDto): Promise<ActionView> {
    const tenantId = caller.tenantId;
    await this.config.ensureDefaults(tenantId);
    const stored = await this.db.transaction(async (tx) => {
      const current = await lockAction(tx, tenantId, id);
      if (!current) throw notFound(`Action ${id} not found`);
      const problem = attestationAnswerProblem(current, caller.userId, new Date());
      if (problem) throw problem.status === 403 ? forbidden(problem.message) : conflict(problem.message);
      const cause = attestationCauseOf(current.cause_key);
      if (!cause) throw conflict(`Action ${id} does not name the campaign it attests for`);
      const completed = statusIdOf(tenantId, 'COMPLETED');
      const [{ at }] = await tx.query<{ at: string }>(
        sql`UPDATE actions.action_assignees SET action_status_id = ${completed}, action_taken_date = CASE WHEN assignee_id = ${caller.userId} THEN now() ELSE action_taken_date END
             WHERE action_id = ${id} AND tenant_id = ${tenantId}
         RETURNING ${raw(isoSql('now()'))} AS at`,
      );
      await tx.query(sql`UPDATE actions.actions SET action_status_id = ${completed}, status_key = 'COMPLETED', status_rank = ${statusRank('COMPLETED')}, updated_on = now(),
                                 updated_by = ${caller.userId}, version = version + 1 WHERE id = ${id} AND tenant_id = ${tenantId}`);
      const views = await readViews(tx, tenantId, [id]);
      await publishActions(tx, tenantId, ACTION_SUBJECTS.updated, views, caller.userId);
      await publishActions(tx, tenantId, ACTION_SUBJECTS.completed, views, caller.userId);
      await tx.publish('evt.actions.attestation.responded', {
        tenantId, actionId: id, campaignId: cause.campaignId, delegationId: cause.delegationId, outcome: dto.outcome, comment: dto.comment || null,
        respondedById: caller.userId, respondedAt: at,
      });
      return views[0];
    });
    return this.view(stored, caller);
  }

  /**
   * Whether an open Delegation Request action the caller opened exists for the delegation (or the
   * decision): its name and the holder it was sent to. An unknown or other-tenant delegation or decision is a 404.
   */
  async validateAction(caller: Caller, dto: ValidateActionDto): Promise<ValidateActionView> {
    const tenantId = caller.tenantId;
    if (!dto.delegationId && !dto.decisionId)
      throw badRequest('Send delegationId or decisionId', [{ field: 'delegationId', message: 'delegationId or decisionId is required' }]);
    await requireRefs(this.db, tenantId, { delegationId: dto.delegationId, decisionId: dto.decisionId });
    const [row] = await this.db.query<{ action_name: string; holder: string | null }>(
      `SELECT a.action_name, (SELECT aa.assignee_id FROM actions.action_assignees aa WHERE aa.action_id = a.id ORDER BY aa.position, aa.id LIMIT 1) AS holder
         FROM actions.actions a
        WHERE a.tenant_id = $1 AND a.system_kind = 'DELEGATION_REQUEST' AND a.requested_by = $2 AND NOT a.is_deleted
          AND a.status_key = ANY($5::text[])
          AND ($3::uuid IS NULL OR a.delegation_id = $3) AND ($4::uuid IS NULL OR a.decision_id = $4)
        ORDER BY a.created_on DESC, a.id DESC LIMIT 1`,
      [tenantId, caller.userId, dto.delegationId ?? null, dto.decisionId ?? null, UNSETTLED_STATUS_KEYS],
    );
    return row ? { actionName: row.action_name, isExist: true, userId: row.holder } : { actionName: null, isExist: false, userId: null };
  }
}

/** The files of an action, in the order sent (one statement). */
async function writeFiles(tx: Tx, tenantId: string, actionId: string, files: readonly ActionFileDto[]): Promise<void> {
  if (!files.length) return;
  await tx.query(
    `INSERT INTO actions.action_files (id, tenant_id, action_id, file_url, file_type, file_name, position)
     SELECT gen_random_uuid(), $1, $2, x.url, x.type, x.name, x.n FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS x(url, type, name, n)`,
    [tenantId, actionId, files.map((f) => f.fileUrl), files.map((f) => f.fileType ?? null), files.map((f) => f.fileName ?? null)],
  );
}
