import { Inject, Injectable } from '@nestjs/common';
import { Caller, JobAcceptedView, Page, badRequest, conflict, forbidden, missingIdsError, notFound } from '@ddm/contracts';
import { Db, Freshness, FreshnessRequirement, Jobs, SERVICE_CONFIG, ServiceConfig, Tx, listPage } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { manageable, recordDelegationChange, requireMayManage } from '../core/delegation-changes';
import { cascadeEffects, checkChange, holds, refusal, toState } from '../core/delegation.rules';
import { decisionScope, decisionTreeOf, DELEGATION_AT_SQL, DELEGATION_BY_ID_SQL, delegationRules, loadOrg, readForIssue, requireRecipients, subtreeOf, tenantSettingsOf } from '../core/delegation.sql';
import { MOVE_NOTICES, stateSubjectOf, statusMove, statusOnReassign } from '../core/delegation.status';
import { DelegationAction, DelegationRow, DelegationRuleRow, DelegationState, HOLDING_STATUSES, LIVE_STATUSES, Violation } from '../core/delegation.types';
import { DelegationView, selectDelegationFields, toDelegationView } from '../core/delegation.view';
import { revalidate } from '../core/invalidation';
import { ReassignParams } from '../core/reassign';
import { refuseBadRecipients } from '../core/recipients';
import { refsOf, requireLiveRefs } from '../core/live-refs';
import { writeStatusMove } from '../core/status-move';
import { SodRefs } from '../authority/sod/sod-refs';
import { DelegationFilters, delegationList, deletionTree, liveWithDisplayId, markDeleted, replaceDocuments, revokeSubtree, statusOf, storeIssued, updateTerms } from './delegation.sql';
import { planIssue, SentIssuer } from './delegation.rules';
import { CascadingCheckView, CheckCascadingUpdatesDto, cascadeRefs, proposedCascade } from './dto/cascading.dto';
import {
  BulkReassignRecipientsDto,
  CreateDelegationDto,
  DelegationRequestActionDto,
  UpdateDelegationDto,
  proposedChange,
  proposedDelegation,
  recipientChange,
  recipientOf,
  termRefs,
  uniqueDocuments,
} from './dto/delegation-change.dto';
import { DelegationReadView, DelegationRequestView } from './dto/delegation.response';

/**
 * Delegations of a decision: issued from root authority or handed on (a redelegation), within the
 * rules of core/delegation.rules.ts; read, listed, and moved through their lifecycle. Every change
 * stores a revision and, once a delegation has left DRAFT, publishes its state (issued, updated,
 * revoked) and what people must hear (pending, accepted, ...), in its transaction (core/delegation-changes.ts).
 */
@Injectable()
export class DelegationsService {
  constructor(
    private readonly db: Db,
    private readonly jobs: Jobs,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    private readonly sod: SodRefs,
    private readonly freshness: Freshness,
  ) {}

  /** Accepts a bulk link of documents (every delegation and document named one of the tenant's, live, else a 404 naming it): the job row and its message in one transaction (the job does the work). */
  bulkLinkDocuments(caller: Caller, delegationIds: readonly string[], documentIds: readonly string[]): Promise<JobAcceptedView> {
    const documents = [...new Set(documentIds.map((d) => d.toLowerCase()))];
    return this.db.transaction(async (tx) => {
      await requireLiveRefs(tx, caller.tenantId, [...refsOf('delegation', 'delegationIds', delegationIds), ...refsOf('document', 'documentIds', documentIds)]);
      return this.jobs.start(tx, 'job.decision.bulk-link-documents', { tenantId: caller.tenantId, requestedBy: caller.userId, itemIds: delegationIds, params: { documentIds: documents } });
    });
  }

  /** The delegation as it stood at `at` (its revision then, without the action flags of now); 404 before it existed or once deleted. */
  async getAt(caller: Caller, id: string, at: string): Promise<DelegationView> {
    const status = await statusOf(this.db, caller.tenantId, id);
    if (!status || status === 'DELETED') throw notFound(`Delegation ${id} not found`);
    const [row] = await this.db.query<{ view: DelegationRow['view'] }>(DELEGATION_AT_SQL, [id, caller.tenantId, at]);
    if (!row) throw notFound(`Delegation ${id} did not exist at ${at}`);
    return toDelegationView(row.view, caller, this.config.appUrl);
  }

  async get(caller: Caller, id: string): Promise<DelegationView> {
    const [row] = await this.db.query<DelegationRow>(DELEGATION_BY_ID_SQL, [id, caller.tenantId]);
    if (!row || row.view.status === 'DELETED') throw notFound(`Delegation ${id} not found`);
    return toDelegationView(row.view, caller, this.config.appUrl, true);
  }

  /**
   * GET one (now, or as it stood at `at`), once the changes the caller names (`fresh`,
   * x-consistency-token) are applied here, with the instant the answer is consistent as of.
   */
  async read(caller: Caller, id: string, at: string | undefined, fresh: FreshnessRequirement): Promise<DelegationReadView> {
    const consistentAsOf = await this.freshness.ready(fresh);
    const view = at ? await this.getAt(caller, id, at) : await this.get(caller, id);
    return { ...view, consistentAsOf };
  }

  /** The list (and the global search), once the changes the caller names (`fresh`) are applied here. */
  async list(caller: Caller, filters: DelegationFilters & { select?: string[] }, fresh: FreshnessRequirement = []): Promise<Page<DelegationView>> {
    await this.freshness.waitFor(fresh);
    return listPage(this.db, delegationList(caller.tenantId, caller.userId, filters), (row: DelegationRow) =>
      selectDelegationFields(toDelegationView(row.view, caller, this.config.appUrl), filters.select),
    ) as Promise<Page<DelegationView>>;
  }

  /**
   * One delegation per recipient, all or none: a root delegation or a redelegation of
   * `parentDelegationId`, checked by the rules (a 403 when the caller may not, a 400 naming each
   * field out of bounds), stored, recorded (revision, events) and, when it holds from now on,
   * checked for segregation-of-duties conflicts.
   */
  async create(caller: Caller, dto: CreateDelegationDto): Promise<DelegationView[]> {
    const tenantId = caller.tenantId;
    const { proposed, groups, documents } = proposedDelegation(dto);
    const recipientIds = proposed.recipients.map(() => uuidv7());

    const sent: SentIssuer = {
      issuerType: dto.issuerType ?? null,
      issuerUserId: dto.issuerUserId?.toLowerCase() ?? null,
      issuerPositionId: dto.issuerPositionId?.toLowerCase() ?? null,
      isRootDelegation: dto.isRootDelegation ?? null,
    };
    const copiedFrom = dto.copiedFrom?.toLowerCase() ?? null;
    const request = { decisionId: dto.decisionId, parentId: dto.parentDelegationId ?? null, sent, issue: dto.status === 'ISSUED', proposed };

    const rows = await this.db.transaction(async (tx) => {
      await requireLiveRefs(tx, tenantId, termRefs(dto));
      const facts = await readForIssue(tx, tenantId, {
        ...request,
        positionId: sent.issuerPositionId,
        copiedFrom,
        issuerId: caller.userId,
        recipients: proposed.recipients,
        issuing: request.issue,
      });
      const plan = planIssue(facts, request, caller, new Date());
      const displayIds = await tx.nextDisplayIds(tenantId, 'delegation', recipientIds.length);
      await storeIssued(
        tx,
        tenantId,
        {
          decisionId: plan.decision.id,
          parentId: plan.parent?.id ?? null,
          depth: plan.parent ? plan.parent.depth + 1 : 0,
          issuerType: plan.issuerType,
          issuerUserId: caller.userId,
          issuerPositionId: plan.issuerPositionId,
          recipientType: proposed.recipientType,
          recipientAutoIssue: dto.recipientAutoIssue ?? false,
          status: plan.status,
          stage: plan.stage,
          effectiveDate: proposed.effectiveDate,
          expirationDate: proposed.expirationDate,
          pathways: proposed.pathways,
          groupIds: proposed.groupIds,
          groups,
          authorities: proposed.authorities,
          copiedFrom,
        },
        proposed.recipients.map((r, i) => ({ id: recipientIds[i], displayId: displayIds[i], ...r })),
        documents,
      );
      const issued = plan.status !== 'DRAFT';
      const recorded = await recordDelegationChange(tx, tenantId, recipientIds, issued ? 'issued' : 'created', caller.userId, issued ? 'evt.decision.delegation.issued' : null, MOVE_NOTICES[plan.status]);
      if (!HOLDING_STATUSES.includes(plan.status)) return recorded;
      // Holding from now on: a segregation-of-duties conflict it creates is a 409, or acknowledged (a later revision of those delegations).
      const acknowledged = await this.sod.refuseConflicts(tx, caller, plan.decision.id, recipientIds, dto.acknowledgeSodConflict ?? false);
      return recorded.map((r) => acknowledged.find((a) => a.view.id === r.view.id) ?? r);
    });
    return rows.map((r) => toDelegationView(r.view, caller, this.config.appUrl));
  }

  /**
   * PATCH check-cascading-updates: a dry run. The descendants of `parentDelegationId` (one recursive
   * statement; or every live delegation of `decisionId` when only the decision's fields are
   * proposed) are checked top-down by the rules against the proposed parent and decision: each one
   * the proposal makes invalid, with the fields it newly breaks (its own descendants then break
   * `Parent`). Nothing changes.
   */
  async checkCascading(caller: Caller, dto: CheckCascadingUpdatesDto): Promise<CascadingCheckView> {
    const tenantId = caller.tenantId;
    if (!dto.parentDelegationId && !dto.decisionId) throw badRequest('Send parentDelegationId or decisionId', [{ field: 'parentDelegationId', message: 'or decisionId is required' }]);
    await requireLiveRefs(this.db, tenantId, cascadeRefs(dto));
    const rows = dto.parentDelegationId ? await subtreeOf(this.db, tenantId, dto.parentDelegationId) : await decisionTreeOf(this.db, tenantId, dto.decisionId!);
    if (dto.parentDelegationId && !rows.length) throw notFound(`Delegation ${dto.parentDelegationId} not found`);
    const decisionId = dto.parentDelegationId ? rows[0].decision_id : dto.decisionId!;
    const decision = await decisionScope(this.db, tenantId, decisionId, false);
    if (!decision) throw notFound(`Decision ${decisionId} not found`);
    const org = await loadOrg(
      this.db,
      tenantId,
      rows.flatMap((r) => [r.issuer_user_id, r.recipient_user_id].filter((x): x is string => !!x)),
      rows.flatMap((r) => [r.issuer_position_id, r.recipient_position_id].filter((x): x is string => !!x)),
    );
    const proposal = proposedCascade(dto, decision, dto.parentDelegationId ? rows[0] : null);
    const affected = cascadeEffects(rows, proposal.changed, decision, proposal.decision, org);
    return { numberOfChildDelegationsInvalidated: affected.length, childDelegationsInvalidated: affected.length > 0, childDelegationsAffected: affected };
  }

  /**
   * PATCH a live delegation's terms (what is left out stays). The change is checked by the rules
   * against its parent (or its decision), only for the parts it changes (a delegation invalid for
   * another reason can still be mended or narrowed); a change that would make descendants invalid
   * is a 409 listing them unless `cascade` is true; then the delegation and its subtree are checked
   * again (invalidation), in the same transaction.
   */
  async update(caller: Caller, id: string, dto: UpdateDelegationDto): Promise<DelegationView> {
    const tenantId = caller.tenantId;
    if (dto.recipientType !== undefined && dto.delegationRecipients === undefined) {
      throw badRequest('recipientType needs delegationRecipients (the new recipient)', [{ field: 'delegationRecipients', message: 'is required with recipientType' }]);
    }
    await this.db.transaction(async (tx) => {
      const [row] = await delegationRules(tx, tenantId, [id], { lock: 'update' });
      if (!row || row.status === 'DELETED') throw notFound(`Delegation ${id} not found`);
      await requireMayManage(tx, caller, row, 'change');
      if (!LIVE_STATUSES.includes(row.status)) throw conflict(`Delegation ${id} is ${row.status}; only a live delegation (${LIVE_STATUSES.join(', ')}) can be changed`);
      const linked = dto.delegationDocuments
        ? (await tx.query<{ document_id: string }>(`SELECT document_id FROM decision.delegation_documents WHERE tenant_id = $1 AND delegation_id = $2`, [tenantId, id])).map((d) => d.document_id)
        : [];
      await requireLiveRefs(tx, tenantId, termRefs(dto, linked));
      const to = recipientChange(dto, row);
      if (to.changed) await requireRecipients(tx, tenantId, [to.recipient]);
      const { proposed, groups, changed } = proposedChange(dto, toState(row), to);
      const recipient = to.recipient;
      const decision = await decisionScope(tx, tenantId, row.decision_id, true);
      if (!decision) throw notFound(`Decision ${row.decision_id} not found`);
      const [parent] = row.parent_delegation_id ? await delegationRules(tx, tenantId, [row.parent_delegation_id], { lock: 'share' }) : [];
      const subtree = await subtreeOf(tx, tenantId, id);
      const org = await loadOrg(
        tx,
        tenantId,
        [...subtree.flatMap((r) => [r.issuer_user_id, r.recipient_user_id]), parent?.recipient_user_id ?? null, recipient.recipientUserId].filter((x): x is string => !!x),
        [...subtree.flatMap((r) => [r.issuer_position_id, r.recipient_position_id]), parent?.recipient_position_id ?? null, recipient.recipientPositionId].filter((x): x is string => !!x),
      );
      const relevant = (v: Violation) =>
        (changed.authority && v.rule === 'authority') ||
        (changed.pathway && (v.rule === 'pathway' || v.rule === 'reach')) ||
        (changed.groups && v.rule === 'groups') ||
        (changed.expiration && v.rule === 'expiration') ||
        (changed.recipient && (v.rule === 'recipient' || v.rule === 'reach'));
      const violations = checkChange(parent ? toState(parent) : null, decision, proposed, row.issuer_user_id, org).filter(relevant);
      if (violations.length) throw refusal(violations);

      const next = changed.recipient ? statusOnReassign(row.status, row.pending_stage, (await tenantSettingsOf(tx, tenantId)).acceptanceRequired) : { status: row.status, stage: row.pending_stage };
      const after: DelegationState = {
        ...toState(row),
        ...recipient,
        recipientType: proposed.recipientType,
        status: next.status,
        pathways: proposed.pathways,
        groupIds: proposed.groupIds,
        authorities: proposed.authorities,
        effectiveDate: proposed.effectiveDate,
        expirationDate: proposed.expirationDate,
      };
      const affected = cascadeEffects(subtree, { id, proposed: after }, decision, decision, org);
      if (affected.length && !dto.cascade) {
        const shown = affected.slice(0, 10).map((a) => a.delegationDisplayId).join(', ');
        throw conflict(
          `The change would make ${affected.length} delegation(s) below ${id} invalid (${shown}${affected.length > 10 ? ', ...' : ''}); send cascade: true to make it and mark them invalid`,
          affected.slice(0, 50).map((a) => ({ field: `childDelegations.${a.id}`, message: `would break ${a.invalidFields.join(', ')} (depth ${a.depth})` })),
        );
      }

      await updateTerms(
        tx,
        tenantId,
        id,
        {
          recipientType: proposed.recipientType,
          ...recipient,
          recipientAutoIssue: dto.recipientAutoIssue ?? null,
          status: next.status,
          stage: next.stage,
          recipientChanged: changed.recipient,
          effectiveDate: proposed.effectiveDate,
          expirationDate: proposed.expirationDate,
          pathways: proposed.pathways,
          groupIds: proposed.groupIds,
          groups,
          authorities: proposed.authorities,
        },
        caller.userId,
      );
      if (dto.delegationDocuments) await replaceDocuments(tx, tenantId, id, uniqueDocuments(dto.delegationDocuments));
      const awaitsNewRecipient = changed.recipient && next.status === 'PENDING' && next.stage === 'ACCEPTANCE';
      await recordDelegationChange(tx, tenantId, [id], 'updated', caller.userId, stateSubjectOf(next.status), awaitsNewRecipient ? 'evt.decision.delegation.pending' : undefined);
      await revalidate(tx, tenantId, { delegationIds: [id] }, caller.userId);
      // A holding delegation given to someone else, or holding more (authorities, groups, dates): a segregation-of-duties conflict it creates is a 409, or acknowledged.
      if (HOLDING_STATUSES.includes(next.status) && (changed.recipient || changed.authority || changed.groups || changed.expiration)) {
        await this.sod.refuseConflicts(tx, caller, row.decision_id, [id], dto.acknowledgeSodConflict ?? false);
      }
    });
    return this.get(caller, id);
  }

  /**
   * PATCH bulk-delete: the named delegations (and, with cascadeToChildDelegations, every descendant)
   * become DELETED in one recursive statement, each with a revision and its state event. All or
   * nothing: an unknown id is a 404 naming it, one the caller may not manage a 403, and a delegation
   * with descendants that are not deleted with it a 409 (send cascadeToChildDelegations).
   */
  async bulkDelete(caller: Caller, ids: readonly string[], cascade: boolean): Promise<{ deleteCount: number }> {
    const tenantId = caller.tenantId;
    const wanted = [...new Set(ids.map((x) => x.toLowerCase()))];
    return this.db.transaction(async (tx) => {
      const rows = await delegationRules(tx, tenantId, wanted, { lock: 'update', live: true });
      const found = new Set(rows.map((r) => r.id));
      const missing = wanted.filter((x) => !found.has(x));
      if (missing.length) throw missingIdsError({ what: 'Delegation', field: 'delegationIds', asked: ids, missing: missing.slice(0, 50), suffix: '; nothing was deleted' });
      const allowed = await manageable(tx, caller, rows);
      const denied = rows.filter((r) => !allowed.has(r.id)).map((r) => r.id);
      if (denied.length) throw forbidden(`You may not delete delegations ${denied.slice(0, 20).join(', ')} (only the issuer, someone above the issuer in the chain, or a holder of "approve:delegations" may)`);
      const tree = await deletionTree(tx, tenantId, wanted);
      // Only live descendants hold anything: ended ones (revoked, expired, ...) go with their parent without asking.
      const below = tree.filter((t) => !t.named && LIVE_STATUSES.includes(t.status));
      if (below.length && !cascade) {
        throw conflict(`${below.length} delegation(s) below the named ones would be left without their parent; send cascadeToChildDelegations: true to delete them too`, below.slice(0, 50).map((b) => ({ field: `childDelegations.${b.id}`, message: 'is a descendant of a named delegation' })));
      }
      // Without cascade only the named ones go (their ended descendants stay, as history); with it, the whole subtrees.
      const deleted = await markDeleted(tx, tenantId, cascade ? tree : tree.filter((t) => t.named), caller.userId);
      // Drafts were never announced; every other deleted delegation tells its projections it has ended.
      const announced = deleted.filter((d) => d.was !== 'DRAFT').map((d) => d.id);
      const drafts = deleted.filter((d) => d.was === 'DRAFT').map((d) => d.id);
      if (announced.length) await recordDelegationChange(tx, tenantId, announced, 'deleted', caller.userId, 'evt.decision.delegation.updated');
      if (drafts.length) await recordDelegationChange(tx, tenantId, drafts, 'deleted', caller.userId, null);
      return { deleteCount: deleted.length };
    });
  }

  /** Accepts a bulk reassignment (every delegation named one of the tenant's, else a 404 naming it): the job row and its message in one transaction (the job checks and reassigns each delegation). */
  async bulkReassign(caller: Caller, dto: BulkReassignRecipientsDto): Promise<JobAcceptedView> {
    const to = recipientOf(dto.delegationRecipients[0]);
    refuseBadRecipients(dto.recipientType, [to]);
    const params: ReassignParams = {
      to: { recipientType: dto.recipientType as ReassignParams['to']['recipientType'], ...to, recipientAutoIssue: dto.recipientAutoIssue },
      keys: ['approve:delegations', 'create:root_delegations'].filter((k) => caller.keys.has(k)),
    };
    return this.db.transaction(async (tx) => {
      await requireLiveRefs(tx, caller.tenantId, refsOf('delegation', 'delegationIds', dto.delegationIds));
      await requireRecipients(tx, caller.tenantId, [to]);
      return this.jobs.start(tx, 'job.decision.bulk-reassign-recipients', { tenantId: caller.tenantId, requestedBy: caller.userId, itemIds: dto.delegationIds, params: params as unknown as Record<string, unknown> });
    });
  }

  /**
   * POST delegation-request-action: the caller asks whoever holds a delegation for a redelegation of
   * its decision. Answers who is asked (the holder: its recipient, or the holders of its position);
   * the actions area opens the "Delegation Request" action from the requested event.
   */
  async requestAction(caller: Caller, dto: DelegationRequestActionDto): Promise<DelegationRequestView> {
    const tenantId = caller.tenantId;
    return this.db.transaction(async (tx) => {
      const row = await liveWithDisplayId(tx, tenantId, dto.delegationId);
      if (!row) throw notFound(`Delegation ${dto.delegationId} not found`, [{ field: 'delegationId', message: `Delegation ${dto.delegationId} not found` }]);
      if (row.decision_id !== dto.decisionId.toLowerCase()) await requireLiveRefs(tx, tenantId, [{ kind: 'decision', id: dto.decisionId, field: 'decisionId' }]);
      if (row.decision_id !== dto.decisionId.toLowerCase()) throw badRequest(`Delegation ${dto.delegationId} delegates another decision`, [{ field: 'decisionId', message: `is not the decision of delegation ${dto.delegationId}` }]);
      if (!HOLDING_STATUSES.includes(row.status)) throw conflict(`Delegation ${dto.delegationId} is ${row.status}; only an ISSUED or ACCEPTED delegation can be asked for a redelegation`);
      const org = await loadOrg(tx, tenantId, row.recipient_user_id ? [row.recipient_user_id] : [], row.recipient_position_id ? [row.recipient_position_id] : []);
      const holders = row.recipient_type === 'POSITION_ONLY'
        ? org.holdersOf(row.recipient_position_id!).filter((u) => holds(toState(row), u, org))
        : row.recipient_user_id && holds(toState(row), row.recipient_user_id, org) ? [row.recipient_user_id] : [];
      if (!holders.length) throw conflict(`Nobody holds delegation ${dto.delegationId} today, so nobody can be asked`);
      const answer: DelegationRequestView = { delegationId: row.id, decisionId: row.decision_id, actionName: 'Delegation Request', actionOwnerId: caller.userId, actionAssigneeIds: holders.slice(0, 100) };
      await tx.publish('evt.decision.delegation.requested', {
        tenantId,
        requestId: uuidv7(),
        delegationId: row.id,
        delegationDisplayId: row.delegation_display_id,
        decisionId: row.decision_id,
        actionName: answer.actionName,
        actionOwnerId: answer.actionOwnerId,
        actionAssigneeIds: answer.actionAssigneeIds,
        requestedById: caller.userId,
      });
      return answer;
    });
  }

  /** A status move (issue, approve, deny, accept, reject, suspend, resume, revoke, archive) by someone who may make it. */
  async move(caller: Caller, id: string, action: DelegationAction, acknowledgeSodConflict = false): Promise<DelegationView> {
    const tenantId = caller.tenantId;
    await this.db.transaction(async (tx) => {
      const [row] = await delegationRules(tx, tenantId, [id], { lock: 'update' });
      if (!row || row.status === 'DELETED') throw notFound(`Delegation ${id} not found`);
      await this.requireMayMove(tx, caller, row, action);
      const moved = statusMove(row.status, row.pending_stage, action, await tenantSettingsOf(tx, tenantId), row.accepted_date !== null);
      if ('problem' in moved) throw conflict(moved.problem);
      if (action === 'revoke') {
        // The whole subtree, in one statement: every live descendant is revoked with it.
        const revoked = await revokeSubtree(tx, tenantId, id, caller.userId);
        await recordDelegationChange(tx, tenantId, [id, ...revoked.filter((x) => x !== id)], 'revoked', caller.userId, 'evt.decision.delegation.revoked');
        return;
      }
      const subject = row.status === 'DRAFT' ? 'evt.decision.delegation.issued' : 'evt.decision.delegation.updated';
      await writeStatusMove(tx, tenantId, [id], action, moved, caller.userId, subject, MOVE_NOTICES[moved.to]);
      // Holding from now on (issued, approved, accepted, resumed with its subtree): a segregation-of-duties conflict it creates is a 409, or acknowledged.
      if (!HOLDING_STATUSES.includes(row.status) && HOLDING_STATUSES.includes(moved.to)) await this.sod.refuseConflicts(tx, caller, row.decision_id, [id], acknowledgeSodConflict);
    });
    return this.get(caller, id);
  }

  /**
   * Who may make a move: accept and reject, the recipient (who holds it); approve and deny, a holder
   * of approve:delegations; the others, whoever may manage it (requireMayManage).
   */
  private async requireMayMove(tx: Tx, caller: Caller, row: DelegationRuleRow, action: DelegationAction): Promise<void> {
    if (action === 'accept' || action === 'reject') {
      const org = await loadOrg(tx, caller.tenantId, [caller.userId], row.recipient_position_id ? [row.recipient_position_id] : []);
      if (!holds(toState(row), caller.userId, org)) throw forbidden(`Only the recipient may ${action} delegation ${row.id}`);
      return;
    }
    if (action === 'approve' || action === 'deny') {
      if (!caller.keys.has('approve:delegations')) throw forbidden('Missing permission "approve:delegations"');
      return;
    }
    await requireMayManage(tx, caller, row, action);
  }
}
