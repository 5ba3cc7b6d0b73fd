/**
 * What every change of a delegation shares, wherever it is made (the delegations service, its
 * conditions, the bulk jobs, invalidation): who may manage one, and recording a change (a revision,
 * the state event, a notice).
 */
import { Caller, DelegationEvent, DelegationNoticeSubject, DelegationRolePayload, forbidden } from '@ddm/contracts';
import { Tx } from '@ddm/platform';
import { holds, toState } from './delegation.rules';
import { ancestorsOf, approversOf, loadOrg, reviseDelegations } from './delegation.sql';
import { DelegationStateSubject } from './delegation.status';
import { DelegationRow, DelegationRuleRow, Manager } from './delegation.types';
import type { StoredDelegationView } from './delegation.view';

/**
 * Who may manage a delegation (issue, change, suspend, resume, revoke, archive, reassign, delete it;
 * change its conditions and roles): its issuer, anyone above the issuer in the chain (who holds or
 * issued an ancestor), a holder of approve:delegations, or, for a root delegation (or one below a
 * root), of create:root_delegations.
 */
export async function mayManage(tx: Tx, who: Manager, row: DelegationRuleRow): Promise<boolean> {
  return (await manageable(tx, who, [row])).has(row.id);
}

/**
 * The ids of `rows` that `who` may manage (see mayManage), for any number of rows in two
 * statements: every ancestor of the rows that need it in one recursive query, and the caller's
 * positions once.
 */
export async function manageable(tx: Tx, who: Manager, rows: readonly DelegationRuleRow[]): Promise<Set<string>> {
  const ok = new Set<string>();
  const open: DelegationRuleRow[] = [];
  for (const row of rows) {
    if (who.keys.has('approve:delegations') || row.issuer_user_id === who.userId) ok.add(row.id);
    else if (row.parent_delegation_id === null) {
      if (who.keys.has('create:root_delegations')) ok.add(row.id);
    } else open.push(row);
  }
  if (!open.length) return ok;
  const ancestors = await ancestorsOf(tx, who.tenantId, open.map((r) => r.id));
  const org = await loadOrg(tx, who.tenantId, [who.userId], []);
  for (const a of ancestors) {
    if (a.issuer_user_id === who.userId || holds(toState(a), who.userId, org) || (a.parent_delegation_id === null && who.keys.has('create:root_delegations'))) ok.add(a.below);
  }
  return ok;
}

/** mayManage, or a 403 saying who may. */
export async function requireMayManage(tx: Tx, caller: Caller, row: DelegationRuleRow, what: string): Promise<void> {
  if (await mayManage(tx, caller, row)) return;
  throw forbidden(`Only the issuer, someone above the issuer in the chain, or a holder of "approve:delegations" may ${what} delegation ${row.id}`);
}

/**
 * A change of the delegations named: a revision of each and, unless `subject` is null (a DRAFT),
 * its state published (with the roles set on it, read by the same statement as the revision);
 * `notice` too when the change tells people something. Answers the rows.
 */
export async function recordDelegationChange(
  tx: Tx,
  tenantId: string,
  ids: readonly string[],
  change: string,
  by: string | null,
  subject: DelegationStateSubject | null,
  notice?: DelegationNoticeSubject,
): Promise<DelegationRow[]> {
  const rows = await tx.query<DelegationRow>(reviseDelegations(tenantId, ids, change, by));
  if (subject) {
    const concerned = (r: DelegationRow) => [r.view.issuerUserId, r.view.recipientUserId].filter((x): x is string => !!x);
    const events = rows.map((r) => toDelegationEvent(r.view, r.version, concerned(r), r.roles));
    await tx.publishMany(subject, events);
    if (notice === 'evt.decision.delegation.pending' && rows.some((r) => r.view.pendingStage === 'APPROVAL')) {
      // Awaiting approval: the notice names the approvers (holders of approve:delegations) besides the issuer and recipient.
      const approvers = await approversOf(tx, tenantId);
      await tx.publishMany(notice, rows.map((r) => toDelegationEvent(r.view, r.version, r.view.pendingStage === 'APPROVAL' ? [...concerned(r), ...approvers] : concerned(r), r.roles)));
    } else if (notice) await tx.publishMany(notice, events);
  }
  return rows;
}

/** What evt.decision.delegation.* carry of a delegation (`roles`: those set on it, when read; see DelegationEvent.roles). */
export function toDelegationEvent(v: StoredDelegationView, version: number, notifyUserIds: readonly string[] = [], roles?: readonly DelegationRolePayload[]): DelegationEvent {
  return {
    tenantId: v.tenantId,
    delegationId: v.id,
    decisionId: v.decisionId,
    pathways: v.delegationPathway,
    groupIds: v.delegationGroups.map((g) => g.groupId),
    issuerType: v.issuerType as DelegationEvent['issuerType'],
    issuerUserId: v.issuerUserId,
    issuerPositionId: v.issuerPositionId,
    recipientType: v.recipientType as DelegationEvent['recipientType'],
    recipientUserId: v.recipientUserId,
    recipientPositionId: v.recipientPositionId,
    version,
    status: v.status,
    notifyUserIds: [...new Set(notifyUserIds)],
    delegationDisplayId: v.delegationDisplayId,
    documentIds: v.delegationDocuments.map((d) => d.documentId),
    pendingStage: v.status === 'PENDING' ? (v.pendingStage ?? null) : null,
    expirationDate: v.expirationDate,
    authorities: v.delegationAuthorities.map((a) => ({
      authorityTypeId: a.authorityTypeId,
      authorityTypeOrder: a.authorityTypeOrder,
      authorityLimit: a.authorityLimit,
      authorityLimitValueType: a.authorityLimitValueType,
      authorityLimitOperator: a.authorityLimitOperator,
      authorityLimitValue: a.authorityLimitValue,
      authorityLimitValueUnit: a.authorityLimitValueUnit,
    })),
    isInvalid: v.isInvalid,
    ...(roles ? { roles: roles.map((r) => ({ roleId: r.roleId, roleStatus: r.roleStatus, assignmentId: r.assignmentId ?? null })) } : {}),
  };
}
