import { Inject, Injectable } from '@nestjs/common';
import { AppError, Caller, DelegationNoticeSubject, ErrorCode, FieldError, JobAcceptedView, Page, badRequest, conflict, forbidden, notFound } from '@ddm/contracts';
import { Db, Jobs, SERVICE_CONFIG, ServiceConfig, Tx, listPage } from '@ddm/platform';
import { v7 as uuidv7 } from 'uuid';
import { authorityProblems, authorityRows, isLimitValue } from '../decisions/decision.rules';
import {
  DecisionScope,
  DelegationAction,
  DelegationLimit,
  DelegationState,
  DelegationStatus,
  HOLDING_STATUSES,
  LIVE_SQL,
  LIVE_STATUSES,
  Limit,
  OrgView,
  ProposedDelegation,
  Violation,
  checkChange,
  checkRedelegation,
  checkRoot,
  holds,
  statusMove,
  statusOnReassign,
} from './delegation.rules';
import { DelegationRow, manageable, recordDelegationChange, requireMayManage, stateSubjectOf } from './delegation-changes';
import { DELEGATION_AT_SQL, DELEGATION_BY_ID_SQL, DelegationFilters, DelegationRuleRow, RULE_COLUMNS, decisionScope, delegationList, loadOrg, tenantSettingsOf, toState } from './delegation.sql';
import { CascadeAuthorityDto, CascadeDelegationAuthorityDto, CascadingCheckView, CheckCascadingUpdatesDto } from './dto/cascading.dto';
import { BulkReassignRecipientsDto, CreateDelegationDto, DelegationRequestActionDto, UpdateDelegationDto } from './dto/delegation-change.dto';
import { DelegationRequestView, DelegationView, selectDelegationFields, toDelegationView } from './dto/delegation.response';
import { ReassignParams } from '../jobs/bulk-reassign-recipients.job';
import { revalidate } from './invalidation';
import { refuseBadRecipients, requireRecipients } from './recipients';
import { cascadeEffects, decisionTreeOf, subtreeOf } from './cascade';
import { SodRefs } from '../authority/sod/sod-refs';
import { writeStatusMove } from './status-move';

/** What a status move publishes beside the state subject (who is told is the move's business). */
const NOTICE: Partial<Record<DelegationStatus, DelegationNoticeSubject>> = {
  PENDING: 'evt.decision.delegation.pending',
  ACCEPTED: 'evt.decision.delegation.accepted',
  REJECTED: 'evt.decision.delegation.rejected',
  SUSPENDED: 'evt.decision.delegation.suspended',
  EXPIRED: 'evt.decision.delegation.expired',
};

/** The first violation as the answer: a 403 when the caller may not, else a 400 naming every field. */
function refuse(violations: readonly Violation[]): never {
  const denied = violations.find((v) => v.status === 403);
  if (denied) throw forbidden(denied.message);
  const errors: FieldError[] = violations.map((v) => ({ field: v.field, message: v.message }));
  throw badRequest(`The delegation breaks ${violations.length === 1 ? 'a rule' : `${violations.length} rules`}: ${violations[0].message}`, errors);
}

/**
 * Delegations of a decision: issued from root authority or handed on (a redelegation), within the
 * rules of delegation.rules.ts; read, listed, and moved through their lifecycle. Every change stores a
 * revision and, once a delegation has left DRAFT, publishes its state (issued, updated, revoked) and
 * what people must hear (pending, accepted, ...), in its transaction.
 */
@Injectable()
export class DelegationsService {
  constructor(
    private readonly db: Db,
    private readonly jobs: Jobs,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    private readonly sod: SodRefs,
  ) {}

  /** Accepts a bulk link of documents: the job row and its message in one transaction (the job does the work). */
  bulkLinkDocuments(caller: Caller, delegationIds: readonly string[], documentIds: readonly string[]): Promise<JobAcceptedView> {
    const documents = [...new Set(documentIds.map((d) => d.toLowerCase()))];
    return this.db.transaction((tx) =>
      this.jobs.start(tx, 'job.decision.bulk-link-documents', { tenantId: caller.tenantId, requestedBy: caller.userId, itemIds: delegationIds, params: { documentIds: documents } }),
    );
  }

  /** The delegation as it stood at `at` (its revision then, without the action flags of now); 404 before it existed or once deleted. */
  async getAt(caller: Caller, id: string, at: string): Promise<DelegationView> {
    const [now] = await this.db.query<{ status: string }>(`SELECT status FROM decision.delegations WHERE id = $1 AND tenant_id = $2`, [id, caller.tenantId]);
    if (!now || now.status === 'DELETED') throw notFound(`Delegation ${id} not found`);
    const [row] = await this.db.query<{ view: DelegationRow['view'] }>(DELEGATION_AT_SQL, [id, caller.tenantId, at]);
    if (!row) throw notFound(`Delegation ${id} did not exist at ${at}`);
    return toDelegationView(row.view, caller, this.config.appUrl);
  }

  async get(caller: Caller, id: string): Promise<DelegationView> {
    const [row] = await this.db.query<DelegationRow>(DELEGATION_BY_ID_SQL, [id, caller.tenantId]);
    if (!row || row.view.status === 'DELETED') throw notFound(`Delegation ${id} not found`);
    return toDelegationView(row.view, caller, this.config.appUrl, true);
  }

  list(caller: Caller, filters: DelegationFilters & { select?: string[] }): Promise<Page<DelegationView>> {
    return listPage(this.db, delegationList(caller.tenantId, caller.userId, filters), (row: DelegationRow) =>
      selectDelegationFields(toDelegationView(row.view, caller, this.config.appUrl), filters.select),
    ) as Promise<Page<DelegationView>>;
  }

  /** One delegation per recipient, all or none: a root delegation or a redelegation of `parentDelegationId`. */
  async create(caller: Caller, dto: CreateDelegationDto): Promise<DelegationView[]> {
    const tenantId = caller.tenantId;
    const authorities = delegationLimits(dto);
    const recipients = dto.delegationRecipients.map((r) => ({ recipientUserId: r.recipientUserId?.toLowerCase() ?? null, recipientPositionId: r.recipientPositionId?.toLowerCase() ?? null }));
    refuseBadRecipients(dto.recipientType, recipients);
    const effectiveDate = dto.effectiveDate ? new Date(dto.effectiveDate) : new Date();
    const expirationDate = dto.isNoExpiration || !dto.expirationDate ? null : new Date(dto.expirationDate);
    if (expirationDate && expirationDate <= effectiveDate) throw badRequest('expirationDate must be after effectiveDate', [{ field: 'expirationDate', message: 'must be after effectiveDate' }]);
    const groups = uniqueGroups(dto.delegationGroups ?? []);
    const proposed: ProposedDelegation = {
      recipientType: dto.recipientType as ProposedDelegation['recipientType'],
      recipients,
      pathways: dto.delegationPathway ?? [],
      groupIds: groups.map((g) => g.groupId),
      authorities,
      effectiveDate,
      expirationDate,
    };
    const ids = recipients.map(() => uuidv7());

    const rows = await this.db.transaction(async (tx) => {
      const decision = await decisionScope(tx, tenantId, dto.decisionId, true);
      if (!decision) throw notFound(`Decision ${dto.decisionId} not found`, [{ field: 'decisionId', message: `Decision ${dto.decisionId} not found` }]);
      await requireRecipients(tx, tenantId, recipients);
      let parent: DelegationRuleRow | null = null;
      let issuerType: string;
      let issuerPositionId: string | null = dto.issuerPositionId?.toLowerCase() ?? null;
      const org = await loadOrg(
        tx,
        tenantId,
        [caller.userId, ...recipients.flatMap((r) => (r.recipientUserId ? [r.recipientUserId] : []))],
        [...recipients.flatMap((r) => (r.recipientPositionId ? [r.recipientPositionId] : [])), ...(issuerPositionId ? [issuerPositionId] : [])],
      );
      if (dto.parentDelegationId) {
        [parent] = await tx.query<DelegationRuleRow>(`SELECT ${RULE_COLUMNS} FROM decision.delegations g WHERE g.id = $1 AND g.tenant_id = $2 FOR SHARE`, [dto.parentDelegationId, tenantId]);
        if (!parent || parent.status === 'DELETED') throw notFound(`Delegation ${dto.parentDelegationId} not found`, [{ field: 'parentDelegationId', message: `Delegation ${dto.parentDelegationId} not found` }]);
        if (parent.decision_id !== decision.id) throw badRequest('parentDelegationId: the parent delegates another decision', [{ field: 'parentDelegationId', message: 'delegates another decision than decisionId' }]);
        // Handing on is its holder's right (the rules refuse anyone else with a 403), whatever their role keys.
        const violations = checkRedelegation(toState(parent), decision, proposed, caller.userId, org, new Date());
        if (violations.length) refuse(violations);
        issuerType = issuerTypeOf(parent, caller.userId, issuerPositionId, org);
        if (issuerType === 'SPECIFIC_PERSONNEL') issuerPositionId = null;
        else issuerPositionId = issuerPositionId ?? parent.recipient_position_id;
      } else {
        const violations = checkRoot(decision, proposed, caller.keys.has('create:root_delegations'), org);
        if (violations.length) refuse(violations);
        issuerType = 'ROOT_AUTHORITY';
      }

      const issue = (dto.status ?? 'DRAFT') === 'ISSUED';
      const moved = issue ? statusMove('DRAFT', null, 'issue', await tenantSettingsOf(tx, tenantId), false) : { to: 'DRAFT' as DelegationStatus, stage: null };
      if ('problem' in moved) throw conflict(moved.problem);
      const displayIds = await tx.nextDisplayIds(tenantId, 'delegation', ids.length);
      await tx.query(
        `INSERT INTO decision.delegations (id, tenant_id, delegation_display_id, decision_id, parent_delegation_id, depth, issuer_type, issuer_user_id, issuer_position_id,
                                           recipient_type, recipient_user_id, recipient_position_id, recipient_auto_issue, status, pending_stage,
                                           effective_date, expiration_date, is_no_expiration, issued_date, delegation_pathway, group_ids,
                                           delegation_groups, delegation_authorities, created_by, updated_by)
         SELECT x.id, $1, x.display_id, $2, $3, $4, $5, $6, $7, $8, x.user_id, x.position_id, $9, $10::text, $11::text, $12, $13, $14,
                CASE WHEN $10::text IN ('ISSUED', 'PENDING') THEN now() END, $15, $16, $17, $18, $6, $6
           FROM unnest($19::uuid[], $20::text[], $21::uuid[], $22::uuid[]) AS x(id, display_id, user_id, position_id)`,
        [
          tenantId,
          decision.id,
          parent?.id ?? null,
          parent ? parent.depth + 1 : 0,
          issuerType,
          caller.userId,
          issuerType === 'ROOT_AUTHORITY' ? null : issuerPositionId,
          dto.recipientType,
          dto.recipientAutoIssue ?? false,
          moved.to,
          moved.stage,
          effectiveDate,
          expirationDate,
          expirationDate === null,
          proposed.pathways,
          proposed.groupIds,
          JSON.stringify(groups),
          JSON.stringify(authorities),
          ids,
          displayIds,
          recipients.map((r) => r.recipientUserId),
          recipients.map((r) => r.recipientPositionId),
        ],
      );
      await linkDocuments(tx, tenantId, ids, dto.delegationDocuments ?? []);
      const change = moved.to === 'DRAFT' ? 'created' : 'issued';
      const recorded = await recordDelegationChange(tx, tenantId, ids, change, caller.userId, moved.to === 'DRAFT' ? null : 'evt.decision.delegation.issued', NOTICE[moved.to]);
      if (!HOLDING_STATUSES.includes(moved.to)) return recorded;
      // Holding from now on: a segregation-of-duties conflict it creates is a 409, or acknowledged (a later revision of those delegations).
      const acknowledged = await this.sod.refuseConflicts(tx, caller, decision.id, ids, dto.acknowledgeSodConflict ?? false);
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
    const rows = dto.parentDelegationId ? await subtreeOf(this.db, tenantId, dto.parentDelegationId) : await decisionTreeOf(this.db, tenantId, dto.decisionId!);
    if (dto.parentDelegationId && !rows.length) throw notFound(`Delegation ${dto.parentDelegationId} not found`);
    const decisionId = dto.parentDelegationId ? rows[0].decision_id : dto.decisionId!;
    const decision = await decisionScope(this.db, tenantId, decisionId, false);
    if (!decision) throw notFound(`Decision ${decisionId} not found`);
    const proposedDecision: DecisionScope = {
      ...decision,
      pathways: !dto.parentDelegationId && dto.updatedPathwayOptions ? dto.updatedPathwayOptions : decision.pathways,
      groupIds: dto.updatedDecisionGroups ? dto.updatedDecisionGroups.map((g) => g.groupId.toLowerCase()) : decision.groupIds,
      authorities: dto.updatedDecisionAuthorities ? dto.updatedDecisionAuthorities.map(proposedLimit) : decision.authorities,
    };
    const org = await loadOrg(
      this.db,
      tenantId,
      rows.flatMap((r) => [r.issuer_user_id, r.recipient_user_id].filter((x): x is string => !!x)),
      rows.flatMap((r) => [r.issuer_position_id, r.recipient_position_id].filter((x): x is string => !!x)),
    );

    const root = dto.parentDelegationId ? rows[0] : null;
    const changed = root && {
      id: root.id,
      proposed: {
        ...toState(root),
        pathways: dto.updatedPathwayOptions ?? root.delegation_pathway,
        groupIds: dto.updatedDelegationGroups ? dto.updatedDelegationGroups.filter((g) => !g.isInvalid).map((g) => g.groupId.toLowerCase()) : root.group_ids,
        authorities: dto.updatedDelegationAuthorities ? dto.updatedDelegationAuthorities.filter((a) => !a.isInvalid).map(proposedDelegationLimit) : root.delegation_authorities,
      },
    };
    const affected = cascadeEffects(rows, changed, decision, proposedDecision, org);
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
      const [row] = await tx.query<DelegationRuleRow>(`SELECT ${RULE_COLUMNS} FROM decision.delegations g WHERE g.id = $1 AND g.tenant_id = $2 FOR UPDATE`, [id, tenantId]);
      if (!row || row.status === 'DELETED') throw notFound(`Delegation ${id} not found`);
      await requireMayManage(tx, caller, row, 'change');
      if (!LIVE_STATUSES.includes(row.status)) throw conflict(`Delegation ${id} is ${row.status}; only a live delegation (${LIVE_STATUSES.join(', ')}) can be changed`);
      const current = toState(row);
      const recipientType = (dto.recipientType ?? row.recipient_type) as ProposedDelegation['recipientType'];
      const recipient = dto.delegationRecipients
        ? { recipientUserId: dto.delegationRecipients[0].recipientUserId?.toLowerCase() ?? null, recipientPositionId: dto.delegationRecipients[0].recipientPositionId?.toLowerCase() ?? null }
        : { recipientUserId: row.recipient_user_id, recipientPositionId: row.recipient_position_id };
      refuseBadRecipients(recipientType, [recipient]);
      const recipientChanged = recipientType !== row.recipient_type || recipient.recipientUserId !== row.recipient_user_id || recipient.recipientPositionId !== row.recipient_position_id;
      if (recipientChanged) await requireRecipients(tx, tenantId, [recipient]);
      const groups = dto.delegationGroups ? uniqueGroups(dto.delegationGroups) : null;
      const proposed: ProposedDelegation = {
        recipientType,
        recipients: [recipient],
        pathways: dto.delegationPathway ?? current.pathways,
        groupIds: groups ? groups.map((g) => g.groupId) : current.groupIds,
        authorities: dto.delegationAuthorities ? delegationLimits({ delegationAuthorities: dto.delegationAuthorities }) : current.authorities,
        effectiveDate: dto.effectiveDate ? new Date(dto.effectiveDate) : current.effectiveDate,
        expirationDate: dto.isNoExpiration ? null : dto.expirationDate !== undefined ? (dto.expirationDate === null ? null : new Date(dto.expirationDate)) : current.expirationDate,
      };
      const changed = {
        authority: dto.delegationAuthorities !== undefined,
        pathway: dto.delegationPathway !== undefined,
        groups: groups !== null,
        expiration: dto.effectiveDate !== undefined || dto.expirationDate !== undefined || dto.isNoExpiration !== undefined,
        recipient: recipientChanged,
      };
      const decision = await decisionScope(tx, tenantId, row.decision_id, true);
      if (!decision) throw notFound(`Decision ${row.decision_id} not found`);
      const [parent] = row.parent_delegation_id
        ? await tx.query<DelegationRuleRow>(`SELECT ${RULE_COLUMNS} FROM decision.delegations g WHERE g.id = $1 AND g.tenant_id = $2 FOR SHARE`, [row.parent_delegation_id, tenantId])
        : [];
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
      if (violations.length) refuse(violations);

      const next = recipientChanged ? statusOnReassign(row.status, row.pending_stage, (await tenantSettingsOf(tx, tenantId)).acceptanceRequired) : { status: row.status, stage: row.pending_stage };
      const after: DelegationState = { ...current, ...recipient, recipientType, status: next.status, pathways: proposed.pathways, groupIds: proposed.groupIds, authorities: proposed.authorities, effectiveDate: proposed.effectiveDate, expirationDate: proposed.expirationDate };
      const affected = cascadeEffects(subtree, { id, proposed: after }, decision, decision, org);
      if (affected.length && !dto.cascade) {
        const shown = affected.slice(0, 10).map((a) => a.delegationDisplayId).join(', ');
        throw conflict(
          `The change would make ${affected.length} delegation(s) below ${id} invalid (${shown}${affected.length > 10 ? ', ...' : ''}); send cascade: true to make it and mark them invalid`,
          affected.slice(0, 50).map((a) => ({ field: `childDelegations.${a.id}`, message: `would break ${a.invalidFields.join(', ')} (depth ${a.depth})` })),
        );
      }

      await tx.query(
        `UPDATE decision.delegations
            SET recipient_type = $3, recipient_user_id = $4, recipient_position_id = $5, recipient_auto_issue = coalesce($6, recipient_auto_issue),
                status = $7::text, pending_stage = $8::text, accepted_date = CASE WHEN $9::boolean AND status = 'ACCEPTED' THEN NULL ELSE accepted_date END,
                effective_date = $10, expiration_date = $11, is_no_expiration = $11::timestamptz IS NULL,
                delegation_pathway = $12, group_ids = $13, delegation_groups = coalesce($14::jsonb, delegation_groups), delegation_authorities = $15,
                updated_on = now(), updated_by = $16, version = version + 1
          WHERE id = $1 AND tenant_id = $2`,
        [
          id, tenantId, recipientType, recipient.recipientUserId, recipient.recipientPositionId, dto.recipientAutoIssue ?? null,
          next.status, next.stage, recipientChanged, proposed.effectiveDate, proposed.expirationDate,
          proposed.pathways, proposed.groupIds, groups ? JSON.stringify(groups) : null, JSON.stringify(proposed.authorities), caller.userId,
        ],
      );
      if (dto.delegationDocuments) await replaceDocuments(tx, tenantId, id, dto.delegationDocuments);
      const awaitsNewRecipient = recipientChanged && next.status === 'PENDING' && next.stage === 'ACCEPTANCE';
      await recordDelegationChange(tx, tenantId, [id], 'updated', caller.userId, stateSubjectOf(next.status), awaitsNewRecipient ? 'evt.decision.delegation.pending' : undefined);
      await revalidate(tx, tenantId, { delegationIds: [id] }, caller.userId);
      // A holding delegation given to someone else, or holding more (authorities, groups, dates): a segregation-of-duties conflict it creates is a 409, or acknowledged.
      if (HOLDING_STATUSES.includes(next.status) && (recipientChanged || changed.authority || changed.groups || changed.expiration)) {
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
      const rows = await tx.query<DelegationRuleRow>(
        `SELECT ${RULE_COLUMNS} FROM decision.delegations g WHERE g.tenant_id = $1 AND g.id = ANY($2::uuid[]) AND g.status <> 'DELETED' ORDER BY g.id FOR UPDATE`,
        [tenantId, wanted],
      );
      const found = new Set(rows.map((r) => r.id));
      const missing = wanted.filter((x) => !found.has(x));
      if (missing.length) throw new AppError(ErrorCode.NotFound, `Delegations not found: ${missing.slice(0, 20).join(', ')}`, missing.slice(0, 50).map((m) => ({ field: 'delegationIds', message: `Delegation ${m} not found` })));
      const denied: string[] = [];
      const allowed = await manageable(tx, caller, rows);
      for (const r of rows) if (!allowed.has(r.id)) denied.push(r.id);
      if (denied.length) throw forbidden(`You may not delete delegations ${denied.slice(0, 20).join(', ')} (only the issuer, someone above the issuer in the chain, or a holder of "approve:delegations" may)`);
      const tree = await tx.query<{ id: string; status: DelegationStatus; named: boolean }>(
        `WITH RECURSIVE tree AS (
           SELECT g.id, true AS named FROM decision.delegations g WHERE g.tenant_id = $1 AND g.id = ANY($2::uuid[])
           UNION
           SELECT c.id, false FROM decision.delegations c JOIN tree t ON c.parent_delegation_id = t.id WHERE c.tenant_id = $1 AND c.status <> 'DELETED')
         SELECT g.id, g.status, bool_or(t.named) AS named FROM tree t JOIN decision.delegations g ON g.id = t.id GROUP BY g.id, g.status`,
        [tenantId, wanted],
      );
      // Only live descendants hold anything: ended ones (revoked, expired, ...) go with their parent without asking.
      const below = tree.filter((t) => !t.named && LIVE_STATUSES.includes(t.status));
      if (below.length && !cascade) {
        throw conflict(`${below.length} delegation(s) below the named ones would be left without their parent; send cascadeToChildDelegations: true to delete them too`, below.slice(0, 50).map((b) => ({ field: `childDelegations.${b.id}`, message: 'is a descendant of a named delegation' })));
      }
      // Without cascade only the named ones go (their ended descendants stay, as history); with it, the whole subtrees.
      const doomed = cascade ? tree : tree.filter((t) => t.named);
      const deleted = await tx.query<{ id: string; was: DelegationStatus }>(
        `UPDATE decision.delegations g SET status = 'DELETED', pending_stage = NULL, updated_on = now(), updated_by = $3, version = g.version + 1
           FROM unnest($2::uuid[], $4::text[]) AS x(id, was) WHERE g.id = x.id AND g.tenant_id = $1 RETURNING g.id, x.was`,
        [tenantId, doomed.map((t) => t.id), caller.userId, doomed.map((t) => t.status)],
      );
      // Drafts were never announced; every other deleted delegation tells its projections it has ended.
      const announced = deleted.filter((d) => d.was !== 'DRAFT').map((d) => d.id);
      const drafts = deleted.filter((d) => d.was === 'DRAFT').map((d) => d.id);
      if (announced.length) await recordDelegationChange(tx, tenantId, announced, 'deleted', caller.userId, 'evt.decision.delegation.updated');
      if (drafts.length) await recordDelegationChange(tx, tenantId, drafts, 'deleted', caller.userId, null);
      return { deleteCount: deleted.length };
    });
  }

  /** Accepts a bulk reassignment: the job row and its message in one transaction (the job checks and reassigns each delegation). */
  async bulkReassign(caller: Caller, dto: BulkReassignRecipientsDto): Promise<JobAcceptedView> {
    const to = { recipientUserId: dto.delegationRecipients[0].recipientUserId?.toLowerCase() ?? null, recipientPositionId: dto.delegationRecipients[0].recipientPositionId?.toLowerCase() ?? null };
    refuseBadRecipients(dto.recipientType, [to]);
    const params: ReassignParams = {
      to: { recipientType: dto.recipientType as ReassignParams['to']['recipientType'], ...to, recipientAutoIssue: dto.recipientAutoIssue },
      keys: ['approve:delegations', 'create:root_delegations'].filter((k) => caller.keys.has(k)),
    };
    return this.db.transaction(async (tx) => {
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
      const [row] = await tx.query<DelegationRuleRow & { delegation_display_id: string }>(
        `SELECT ${RULE_COLUMNS}, g.delegation_display_id FROM decision.delegations g WHERE g.id = $1 AND g.tenant_id = $2 AND g.status <> 'DELETED'`,
        [dto.delegationId, tenantId],
      );
      if (!row) throw notFound(`Delegation ${dto.delegationId} not found`, [{ field: 'delegationId', message: `Delegation ${dto.delegationId} not found` }]);
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
      const [row] = await tx.query<DelegationRuleRow>(`SELECT ${RULE_COLUMNS} FROM decision.delegations g WHERE g.id = $1 AND g.tenant_id = $2 FOR UPDATE`, [id, tenantId]);
      if (!row || row.status === 'DELETED') throw notFound(`Delegation ${id} not found`);
      await this.requireMayMove(tx, caller, row, action);
      const moved = statusMove(row.status, row.pending_stage, action, await tenantSettingsOf(tx, tenantId), row.accepted_date !== null);
      if ('problem' in moved) throw conflict(moved.problem);
      if (action === 'revoke') {
        // The whole subtree, in one statement: every live descendant is revoked with it.
        const revoked = await tx.query<{ id: string }>(
          `WITH RECURSIVE tree AS (
             SELECT id FROM decision.delegations WHERE id = $1
             UNION ALL
             SELECT c.id FROM decision.delegations c JOIN tree t ON c.parent_delegation_id = t.id WHERE c.tenant_id = $2)
           UPDATE decision.delegations g SET status = 'REVOKED', pending_stage = NULL, updated_on = now(), updated_by = $3, version = version + 1
             FROM tree WHERE g.id = tree.id AND g.status IN ${LIVE_SQL}
           RETURNING g.id`,
          [id, tenantId, caller.userId],
        );
        const ordered = [id, ...revoked.map((r) => r.id).filter((x) => x !== id)];
        await recordDelegationChange(tx, tenantId, ordered, 'revoked', caller.userId, 'evt.decision.delegation.revoked');
        return;
      }
      const subject = row.status === 'DRAFT' ? 'evt.decision.delegation.issued' : 'evt.decision.delegation.updated';
      await writeStatusMove(tx, tenantId, [id], action, moved, caller.userId, subject, NOTICE[moved.to]);
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

/** A limit as check-cascading-updates proposes it. */
function proposedLimit(a: CascadeAuthorityDto): Limit {
  return {
    authorityTypeId: a.authorityTypeId.toLowerCase(),
    authorityLimitValueType: a.authorityLimitValueType as Limit['authorityLimitValueType'],
    authorityLimitOperator: (a.authorityLimitOperator as Limit['authorityLimitOperator']) ?? null,
    authorityLimitValue: a.authorityLimitValueType === 'Authorized' ? null : (a.authorityLimitValue ?? null),
    authorityLimitValueUnit: a.authorityLimitValueUnit ?? null,
  };
}

function proposedDelegationLimit(a: CascadeDelegationAuthorityDto): DelegationLimit {
  return {
    ...proposedLimit(a),
    redelegable: a.redelegable ?? false,
    redelegationLimitValue: a.redelegationLimitValue ?? null,
    redelegationLimitValueUnit: a.redelegationLimitValueUnit ?? null,
    isLimitOverridden: a.isLimitOverridden ?? false,
  };
}

/** The issuer type of a redelegation: issuing from the position the parent gave (PERSONNEL_IN_POSITION / POSITION_ONLY) or as the person. */
function issuerTypeOf(parent: DelegationRuleRow, userId: string, issuerPositionId: string | null, org: OrgView): string {
  if (parent.recipient_type === 'SPECIFIC_PERSONNEL') return 'SPECIFIC_PERSONNEL';
  const position = issuerPositionId ?? parent.recipient_position_id;
  if (position && !org.positionsOf(userId).includes(position)) throw forbidden(`You do not hold position ${position}`);
  return parent.recipient_type;
}

/** The limits as sent, checked like a decision's (value, operator, unit per value type) plus the redelegation cap. */
function delegationLimits(dto: { delegationAuthorities: CreateDelegationDto['delegationAuthorities'] }): DelegationLimit[] {
  const problems = authorityProblems(dto.delegationAuthorities).map((p) => ({ ...p, field: p.field.replace(/^decisionAuthorities/, 'delegationAuthorities') }));
  dto.delegationAuthorities.forEach((a, i) => {
    const cap = a.redelegationLimitValue ?? null;
    if (cap !== null && !isLimitValue(cap)) problems.push({ field: `delegationAuthorities.${i}.redelegationLimitValue`, message: 'must be a non-negative decimal or "Unlimited"' });
  });
  if (problems.length) throw badRequest(`Invalid delegation authorities: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`, problems);
  const rows = authorityRows(dto.delegationAuthorities);
  return dto.delegationAuthorities.map((a, i) => ({
    authorityTypeId: rows[i].authorityTypeId,
    authorityTypeOrder: rows[i].authorityTypeOrder,
    authorityLimit: rows[i].authorityLimit,
    authorityLimitValueType: rows[i].valueType,
    authorityLimitOperator: (rows[i].operator as '<' | '<=' | null) ?? null,
    authorityLimitValue: rows[i].valueText,
    authorityLimitValueUnit: rows[i].unit,
    redelegable: a.redelegable ?? false,
    redelegationLimitValue: a.redelegationLimitValue ?? null,
    redelegationLimitValueUnit: a.redelegationLimitValueUnit ?? (a.redelegationLimitValue ? rows[i].unit : null),
    isLimitOverridden: a.isLimitOverridden ?? false,
  }));
}

function uniqueGroups(items: readonly { groupId: string; tenantGroupTypeId?: string | null }[]): { groupId: string; tenantGroupTypeId: string | null }[] {
  const byId = new Map<string, string | null>();
  for (const g of items) if (!byId.has(g.groupId.toLowerCase())) byId.set(g.groupId.toLowerCase(), g.tenantGroupTypeId?.toLowerCase() ?? null);
  return [...byId].map(([groupId, tenantGroupTypeId]) => ({ groupId, tenantGroupTypeId }));
}

async function linkDocuments(tx: Tx, tenantId: string, ids: readonly string[], documents: readonly { documentId: string; isPinned?: boolean }[]): Promise<void> {
  if (!documents.length) return;
  const unique = [...new Map(documents.map((d) => [d.documentId.toLowerCase(), d.isPinned === true])).entries()];
  await tx.query(
    `INSERT INTO decision.delegation_documents (id, tenant_id, delegation_id, document_id, is_pinned, position)
     SELECT gen_random_uuid(), $1, g.id, d.document_id, d.is_pinned, d.n FROM unnest($2::uuid[]) AS g(id)
       CROSS JOIN unnest($3::uuid[], $4::boolean[]) WITH ORDINALITY AS d(document_id, is_pinned, n)
     ON CONFLICT (delegation_id, document_id) DO NOTHING`,
    [tenantId, ids, unique.map(([id]) => id), unique.map(([, pinned]) => pinned)],
  );
}

/** The linked documents as they should be: those left out are unlinked, the rest linked (or their pin changed), in order. */
async function replaceDocuments(tx: Tx, tenantId: string, id: string, documents: readonly { documentId: string; isPinned?: boolean }[]): Promise<void> {
  const unique = [...new Map(documents.map((d) => [d.documentId.toLowerCase(), d.isPinned === true])).entries()];
  await tx.query(`DELETE FROM decision.delegation_documents WHERE tenant_id = $1 AND delegation_id = $2 AND NOT (document_id = ANY($3::uuid[]))`, [tenantId, id, unique.map(([d]) => d)]);
  if (!unique.length) return;
  await tx.query(
    `INSERT INTO decision.delegation_documents (id, tenant_id, delegation_id, document_id, is_pinned, position)
     SELECT gen_random_uuid(), $1, $2, d.document_id, d.is_pinned, d.n FROM unnest($3::uuid[], $4::boolean[]) WITH ORDINALITY AS d(document_id, is_pinned, n)
     ON CONFLICT (delegation_id, document_id) DO UPDATE SET is_pinned = excluded.is_pinned, position = excluded.position`,
    [tenantId, id, unique.map(([d]) => d), unique.map(([, p]) => p)],
  );
}
