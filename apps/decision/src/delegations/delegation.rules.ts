/**
 * The delegations resource's own rules (no I/O): whether a request to issue delegations may be made,
 * from the facts read for it, in the order a request hears of them. The delegation model's rules
 * themselves are core's (core/delegation.rules.ts); unit-tested in delegations.spec.ts.
 */
import { AppError, Caller, ErrorCode, FieldError, badRequest, conflict } from '@ddm/contracts';
import { IssueFacts } from '../core/delegation.sql';
import { checkRedelegation, checkRoot, issuerOf, refusal, toState } from '../core/delegation.rules';
import { statusMove } from '../core/delegation.status';
import { DecisionScope, DelegationRuleRow, DelegationState, DelegationStatus, PendingStage, ProposedDelegation } from '../core/delegation.types';

/** How delegations are issued when the rules allow it: from which holding, below which parent, in which status. */
export interface IssuePlan {
  decision: DecisionScope & { id: string; name: string };
  parent: DelegationRuleRow | null;
  issuerType: DelegationState['issuerType'];
  issuerPositionId: string | null;
  status: DelegationStatus;
  stage: PendingStage | null;
}

/** What a request sent of its issuer (the product's fields; null or left out: derived), ids in lower case. */
export interface SentIssuer {
  issuerType: string | null;
  issuerUserId: string | null;
  issuerPositionId: string | null;
  isRootDelegation: boolean | null;
}

/**
 * Whether `caller` may issue `proposed` (a root delegation, or a redelegation of the parent the
 * facts hold; the records exist, readForIssue saw to that), in the order a request hears of it: an
 * issuerUserId other than the caller (403), a parent of another decision (400), the rules (a 403
 * when the caller may not, a 400 naming every field out of bounds: checkRoot, or checkRedelegation
 * and the holding issued from), what was sent of the issuer against what it is (a 400 naming the
 * field: ROOT_AUTHORITY and isRootDelegation only without a parent; on a redelegation issuerType and
 * issuerPositionId as the caller holds the parent; on a root one issuerPositionId a position the
 * caller holds), then the status it takes (DRAFT, or where `issue` takes it under the tenant's
 * settings). Throws the answer, or answers the plan.
 */
export function planIssue(
  facts: IssueFacts,
  request: { sent: SentIssuer; issue: boolean; proposed: ProposedDelegation },
  caller: Pick<Caller, 'userId' | 'keys'>,
  now: Date,
): IssuePlan {
  const { decision, parent, org } = facts;
  const { sent } = request;
  if (sent.issuerUserId && sent.issuerUserId !== caller.userId.toLowerCase()) {
    throw new AppError(ErrorCode.Forbidden, 'issuerUserId: delegations are issued by the caller only', [{ field: 'issuerUserId', message: 'must be your own user id' }]);
  }
  let issuer: { issuerType: DelegationState['issuerType']; issuerPositionId: string | null } = { issuerType: 'ROOT_AUTHORITY', issuerPositionId: null };
  if (parent) {
    if (parent.decision_id !== decision.id) throw badRequest('parentDelegationId: the parent delegates another decision', [{ field: 'parentDelegationId', message: 'delegates another decision than decisionId' }]);
    const wrong: FieldError[] = [];
    if (sent.issuerType === 'ROOT_AUTHORITY') {
      wrong.push({ field: 'issuerType', message: 'ROOT_AUTHORITY issues a root delegation, without parentDelegationId' }, { field: 'parentDelegationId', message: 'must be left out with issuerType ROOT_AUTHORITY' });
    }
    if (sent.isRootDelegation === true) wrong.push({ field: 'isRootDelegation', message: 'must be false with parentDelegationId (a redelegation)' });
    if (wrong.length) throw badRequest(`A redelegation is not a root delegation: ${wrong.map((w) => `${w.field} ${w.message}`).join('; ')}`, wrong);
    // Handing on is its holder's right (the rules refuse anyone else with a 403), whatever their role keys.
    const violations = checkRedelegation(toState(parent), decision, request.proposed, caller.userId, org, now);
    if (violations.length) throw refusal(violations);
    const from = issuerOf(parent, caller.userId, sent, org);
    if ('rule' in from) throw refusal([from]);
    issuer = from;
  } else {
    const wrong: FieldError[] = [];
    if (sent.issuerType && sent.issuerType !== 'ROOT_AUTHORITY') wrong.push({ field: 'issuerType', message: 'must be ROOT_AUTHORITY without parentDelegationId (a redelegation names its parent)' });
    if (sent.isRootDelegation === false) wrong.push({ field: 'isRootDelegation', message: 'must be true without parentDelegationId (a redelegation names its parent)' });
    if (wrong.length) throw badRequest(`A delegation without a parent is a root delegation: ${wrong.map((w) => `${w.field} ${w.message}`).join('; ')}`, wrong);
    const violations = checkRoot(decision, request.proposed, caller.keys.has('create:root_delegations'), org);
    if (violations.length) throw refusal(violations);
    if (sent.issuerPositionId) {
      if (!org.positionsOf(caller.userId).some((p) => p.toLowerCase() === sent.issuerPositionId)) {
        throw badRequest(`issuerPositionId: you do not hold position ${sent.issuerPositionId}`, [{ field: 'issuerPositionId', message: 'must be a position you hold (or be left out)' }]);
      }
      issuer = { issuerType: 'ROOT_AUTHORITY', issuerPositionId: sent.issuerPositionId };
    }
  }
  const moved = request.issue ? statusMove('DRAFT', null, 'issue', facts.settings ?? { approvalRequired: false, acceptanceRequired: false }, false) : { to: 'DRAFT' as DelegationStatus, stage: null };
  if ('problem' in moved) throw conflict(moved.problem);
  return { decision, parent, ...issuer, status: moved.to, stage: moved.stage };
}
