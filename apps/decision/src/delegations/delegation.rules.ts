/**
 * The delegations resource's own rules (no I/O): whether a request to issue delegations may be made,
 * from the facts read for it, in the order a request hears of them. The delegation model's rules
 * themselves are core's (core/delegation.rules.ts); unit-tested in delegations.spec.ts.
 */
import { Caller, badRequest, conflict } from '@ddm/contracts';
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

/**
 * Whether `caller` may issue `proposed` (a root delegation, or a redelegation of the parent the
 * facts hold; the records exist, readForIssue saw to that), in the order a request hears of it: a
 * parent of another decision (400), the rules (a 403 when the caller may not, a 400 naming every
 * field out of bounds: checkRoot, or checkRedelegation and the holding issued from), then the status
 * it takes (DRAFT, or where `issue` takes it under the tenant's settings). Throws the answer, or
 * answers the plan.
 */
export function planIssue(
  facts: IssueFacts,
  request: { positionId: string | null; issue: boolean; proposed: ProposedDelegation },
  caller: Pick<Caller, 'userId' | 'keys'>,
  now: Date,
): IssuePlan {
  const { decision, parent, org } = facts;
  let issuer: { issuerType: DelegationState['issuerType']; issuerPositionId: string | null } = { issuerType: 'ROOT_AUTHORITY', issuerPositionId: null };
  if (parent) {
    if (parent.decision_id !== decision.id) throw badRequest('parentDelegationId: the parent delegates another decision', [{ field: 'parentDelegationId', message: 'delegates another decision than decisionId' }]);
    // Handing on is its holder's right (the rules refuse anyone else with a 403), whatever their role keys.
    const violations = checkRedelegation(toState(parent), decision, request.proposed, caller.userId, org, now);
    if (violations.length) throw refusal(violations);
    const from = issuerOf(parent, caller.userId, request.positionId, org);
    if ('rule' in from) throw refusal([from]);
    issuer = from;
  } else {
    const violations = checkRoot(decision, request.proposed, caller.keys.has('create:root_delegations'), org);
    if (violations.length) throw refusal(violations);
  }
  const moved = request.issue ? statusMove('DRAFT', null, 'issue', facts.settings ?? { approvalRequired: false, acceptanceRequired: false }, false) : { to: 'DRAFT' as DelegationStatus, stage: null };
  if ('problem' in moved) throw conflict(moved.problem);
  return { decision, parent, ...issuer, status: moved.to, stage: moved.stage };
}
