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
  LIVE_SQL,
  Limit,
  OrgView,
  ProposedDelegation,
  Violation,
  checkRedelegation,
  checkRoot,
  holds,
  invalidFieldsOf,
  statusMove,
} from './delegation.rules';
import { DelegationRow, recordDelegationChange, requireMayManage } from './delegation-changes';
import { DELEGATION_BY_ID_SQL, DelegationFilters, DelegationRuleRow, RULE_COLUMNS, decisionScope, delegationList, loadOrg, toState } from './delegation.sql';
import { CascadeAuthorityDto, CascadeDelegationAuthorityDto, CascadingCheckView, CheckCascadingUpdatesDto } from './dto/cascading.dto';
import { CreateDelegationDto } from './dto/delegation-change.dto';
import { DelegationView, toDelegationView } from './dto/delegation.response';
import { revalidate } from './invalidation';

/** What a status move publishes beside the state subject (who is told is the move's business). */
const NOTICE: Partial<Record<DelegationStatus, DelegationNoticeSubject>> = {
  PENDING: 'evt.decision.delegation.pending',
  ACCEPTED: 'evt.decision.delegation.accepted',
  REJECTED: 'evt.decision.delegation.rejected',
  SUSPENDED: 'evt.decision.delegation.suspended',
  EXPIRED: 'evt.decision.delegation.expired',
};

/** The tenant's delegation settings (auth's, projected); a tenant that never changed them requires neither approval nor acceptance. */
async function settingsOf(tx: Tx, tenantId: string): Promise<{ approvalRequired: boolean; acceptanceRequired: boolean }> {
  const [row] = await tx.query<{ approval_required: boolean; acceptance_required: boolean }>(
    `SELECT approval_required, acceptance_required FROM decision.tenant_settings_projection WHERE id = $1`,
    [tenantId],
  );
  return { approvalRequired: row?.approval_required ?? false, acceptanceRequired: row?.acceptance_required ?? false };
}

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
  ) {}

  /** Accepts a bulk link of documents: the job row and its message in one transaction (the job does the work). */
  bulkLinkDocuments(caller: Caller, delegationIds: readonly string[], documentIds: readonly string[]): Promise<JobAcceptedView> {
    const documents = [...new Set(documentIds.map((d) => d.toLowerCase()))];
    return this.db.transaction((tx) =>
      this.jobs.start(tx, 'job.decision.bulk-link-documents', { tenantId: caller.tenantId, requestedBy: caller.userId, itemIds: delegationIds, params: { documentIds: documents } }),
    );
  }

  async get(caller: Caller, id: string): Promise<DelegationView> {
    const [row] = await this.db.query<DelegationRow>(DELEGATION_BY_ID_SQL, [id, caller.tenantId]);
    if (!row) throw notFound(`Delegation ${id} not found`);
    return toDelegationView(row.view, caller, this.config.appUrl, true);
  }

  list(caller: Caller, filters: DelegationFilters): Promise<Page<DelegationView>> {
    return listPage(this.db, delegationList(caller.tenantId, caller.userId, filters), (row: DelegationRow) => toDelegationView(row.view, caller, this.config.appUrl));
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
      const moved = issue ? statusMove('DRAFT', null, 'issue', await settingsOf(tx, tenantId), false) : { to: 'DRAFT' as DelegationStatus, stage: null };
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
      return recordDelegationChange(tx, tenantId, ids, change, caller.userId, moved.to === 'DRAFT' ? null : 'evt.decision.delegation.issued', NOTICE[moved.to]);
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
    type TreeRow = DelegationRuleRow & { delegation_display_id: string; rel: number };
    const rows = dto.parentDelegationId
      ? await this.db.query<TreeRow>(
          `WITH RECURSIVE tree AS (
             SELECT ${RULE_COLUMNS}, g.delegation_display_id, 0 AS rel FROM decision.delegations g WHERE g.id = $1 AND g.tenant_id = $2 AND g.status <> 'DELETED'
             UNION ALL
             SELECT ${RULE_COLUMNS}, g.delegation_display_id, t.rel + 1 FROM decision.delegations g JOIN tree t ON g.parent_delegation_id = t.id
              WHERE g.tenant_id = $2 AND g.status IN ${LIVE_SQL})
           SELECT * FROM tree ORDER BY rel`,
          [dto.parentDelegationId, tenantId],
        )
      : await this.db.query<TreeRow>(
          `SELECT ${RULE_COLUMNS}, g.delegation_display_id, g.depth + 1 AS rel FROM decision.delegations g
            WHERE g.tenant_id = $1 AND g.decision_id = $2 AND g.status IN ${LIVE_SQL} ORDER BY g.depth`,
          [tenantId, dto.decisionId],
        );
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

    const states = new Map<string, { current: DelegationState; proposed: DelegationState }>();
    const affected: CascadingCheckView['childDelegationsAffected'] = [];
    for (const r of rows) {
      const own = toState(r);
      if (dto.parentDelegationId && r.rel === 0) {
        const proposed: DelegationState = {
          ...own,
          pathways: dto.updatedPathwayOptions ?? own.pathways,
          groupIds: dto.updatedDelegationGroups ? dto.updatedDelegationGroups.filter((g) => !g.isInvalid).map((g) => g.groupId.toLowerCase()) : own.groupIds,
          authorities: dto.updatedDelegationAuthorities ? dto.updatedDelegationAuthorities.filter((a) => !a.isInvalid).map(proposedDelegationLimit) : own.authorities,
        };
        states.set(r.id, { current: own, proposed });
        continue;
      }
      const parent = r.parent_delegation_id ? states.get(r.parent_delegation_id) : undefined;
      if (r.parent_delegation_id && !parent) continue; // below a delegation that is not live: not part of the check
      const before = invalidFieldsOf(own, parent?.current ?? null, decision, org);
      const after = invalidFieldsOf(own, parent?.proposed ?? null, proposedDecision, org);
      const added = after.filter((f) => !before.includes(f));
      states.set(r.id, { current: own, proposed: { ...own, isInvalid: own.isInvalid || after.length > 0 } });
      if (added.length) affected.push({ id: r.id, delegationDisplayId: r.delegation_display_id, depth: r.rel, invalidFields: added });
    }
    return { numberOfChildDelegationsInvalidated: affected.length, childDelegationsInvalidated: affected.length > 0, childDelegationsAffected: affected };
  }

  /** A status move (issue, approve, deny, accept, reject, suspend, resume, revoke, archive) by someone who may make it. */
  async move(caller: Caller, id: string, action: DelegationAction): Promise<DelegationView> {
    const tenantId = caller.tenantId;
    await this.db.transaction(async (tx) => {
      const [row] = await tx.query<DelegationRuleRow>(`SELECT ${RULE_COLUMNS} FROM decision.delegations g WHERE g.id = $1 AND g.tenant_id = $2 FOR UPDATE`, [id, tenantId]);
      if (!row || row.status === 'DELETED') throw notFound(`Delegation ${id} not found`);
      await this.requireMayMove(tx, caller, row, action);
      const moved = statusMove(row.status, row.pending_stage, action, await settingsOf(tx, tenantId), row.accepted_date !== null);
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
      await tx.query(
        `UPDATE decision.delegations SET status = $3::text, pending_stage = $4::text, updated_on = now(), updated_by = $5, version = version + 1,
                issued_date = CASE WHEN $3::text IN ('ISSUED', 'PENDING') AND issued_date IS NULL THEN now() ELSE issued_date END,
                accepted_date = CASE WHEN $3::text = 'ACCEPTED' AND accepted_date IS NULL THEN now() ELSE accepted_date END
          WHERE id = $1 AND tenant_id = $2`,
        [id, tenantId, moved.to, moved.stage, caller.userId],
      );
      const subject = row.status === 'DRAFT' ? 'evt.decision.delegation.issued' : 'evt.decision.delegation.updated';
      await recordDelegationChange(tx, tenantId, [id], action, caller.userId, subject, NOTICE[moved.to]);
      // A suspended parent makes its children invalid (Parent), a resumed one valid again; no other move here changes what its subtree holds.
      if (action === 'suspend' || action === 'resume') await revalidate(tx, tenantId, { delegationIds: [id] }, caller.userId);
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
function delegationLimits(dto: CreateDelegationDto): DelegationLimit[] {
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

/** Each recipient names what its type needs: a person, a position, or both. */
function refuseBadRecipients(type: string, recipients: readonly { recipientUserId: string | null; recipientPositionId: string | null }[]): void {
  const errors: FieldError[] = [];
  recipients.forEach((r, i) => {
    if (type !== 'POSITION_ONLY' && !r.recipientUserId) errors.push({ field: `delegationRecipients.${i}.recipientUserId`, message: `is required for ${type}` });
    if (type !== 'SPECIFIC_PERSONNEL' && !r.recipientPositionId) errors.push({ field: `delegationRecipients.${i}.recipientPositionId`, message: `is required for ${type}` });
    if (type === 'POSITION_ONLY' && r.recipientUserId) errors.push({ field: `delegationRecipients.${i}.recipientUserId`, message: 'must be empty for POSITION_ONLY' });
    if (type === 'SPECIFIC_PERSONNEL' && r.recipientPositionId) errors.push({ field: `delegationRecipients.${i}.recipientPositionId`, message: 'must be empty for SPECIFIC_PERSONNEL' });
  });
  const seen = new Set<string>();
  recipients.forEach((r, i) => {
    const key = `${r.recipientUserId}|${r.recipientPositionId}`;
    if (seen.has(key)) errors.push({ field: `delegationRecipients.${i}`, message: 'names the same recipient twice' });
    seen.add(key);
  });
  if (errors.length) throw badRequest(`Invalid recipients: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, errors);
}

/** Recipients are members and positions of the tenant (404 naming each unknown one). */
async function requireRecipients(tx: Tx, tenantId: string, recipients: readonly { recipientUserId: string | null; recipientPositionId: string | null }[]): Promise<void> {
  const userIds = [...new Set(recipients.flatMap((r) => (r.recipientUserId ? [r.recipientUserId] : [])))];
  const positionIds = [...new Set(recipients.flatMap((r) => (r.recipientPositionId ? [r.recipientPositionId] : [])))];
  const found = await tx.query<{ kind: string; id: string }>(
    `SELECT 'user' AS kind, id FROM decision.user_projection WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND status <> 'DELETED'
     UNION ALL SELECT 'position', id FROM decision.position_projection WHERE tenant_id = $1 AND id = ANY($3::uuid[]) AND NOT is_deleted`,
    [tenantId, userIds, positionIds],
  );
  const has = new Set(found.map((f) => `${f.kind}:${f.id}`));
  const errors: FieldError[] = [];
  recipients.forEach((r, i) => {
    if (r.recipientUserId && !has.has(`user:${r.recipientUserId}`)) errors.push({ field: `delegationRecipients.${i}.recipientUserId`, message: `User ${r.recipientUserId} is not a member of the tenant` });
    if (r.recipientPositionId && !has.has(`position:${r.recipientPositionId}`)) errors.push({ field: `delegationRecipients.${i}.recipientPositionId`, message: `Position ${r.recipientPositionId} not found` });
  });
  if (errors.length) throw new AppError(ErrorCode.NotFound, errors.map((e) => e.message).join('; '), errors);
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
