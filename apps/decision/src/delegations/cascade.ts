/**
 * What a change of a delegation (or of its decision) does to the delegations below it, before it is
 * made: the check-cascading-updates dry run and PATCH (409 unless `cascade`) both ask it. The subtree
 * is read in one recursive statement; the rules (invalidFieldsOf) are applied top-down, in memory.
 */
import { Queryable } from '@ddm/platform';
import { DecisionScope, DelegationState, InvalidField, LIVE_SQL, OrgView, invalidFieldsOf } from './delegation.rules';
import { DelegationRuleRow, RULE_COLUMNS, toState } from './delegation.sql';

/** A delegation of the subtree, `rel` levels below the changed one (0: itself). */
export type SubtreeRow = DelegationRuleRow & { delegation_display_id: string; rel: number };

export interface AffectedDelegation {
  id: string;
  delegationDisplayId: string;
  depth: number;
  invalidFields: InvalidField[];
}

/** The delegation (any status but DELETED) and its live descendants, shallowest first. */
export function subtreeOf(q: Queryable, tenantId: string, id: string): Promise<SubtreeRow[]> {
  return q.query<SubtreeRow>(
    `WITH RECURSIVE tree AS (
       SELECT ${RULE_COLUMNS}, g.delegation_display_id, 0 AS rel FROM decision.delegations g WHERE g.id = $1 AND g.tenant_id = $2 AND g.status <> 'DELETED'
       UNION ALL
       SELECT ${RULE_COLUMNS}, g.delegation_display_id, t.rel + 1 FROM decision.delegations g JOIN tree t ON g.parent_delegation_id = t.id
        WHERE g.tenant_id = $2 AND g.status IN ${LIVE_SQL})
     SELECT * FROM tree ORDER BY rel`,
    [id, tenantId],
  );
}

/** Every live delegation of a decision, roots first (`rel` is its depth + 1: a root delegation is 1). */
export function decisionTreeOf(q: Queryable, tenantId: string, decisionId: string): Promise<SubtreeRow[]> {
  return q.query<SubtreeRow>(
    `SELECT ${RULE_COLUMNS}, g.delegation_display_id, g.depth + 1 AS rel FROM decision.delegations g
      WHERE g.tenant_id = $1 AND g.decision_id = $2 AND g.status IN ${LIVE_SQL} ORDER BY g.depth`,
    [tenantId, decisionId],
  );
}

/**
 * The delegations of `rows` that the proposal makes invalid, with the fields each newly breaks
 * (fields it breaks already are not news). `changed` is the delegation whose terms change (its own
 * row, rel 0, is not reported) or null when only the decision changes; a descendant made invalid
 * makes its own children break `Parent`, as invalidation would.
 */
export function cascadeEffects(
  rows: readonly SubtreeRow[],
  changed: { id: string; proposed: DelegationState } | null,
  decision: DecisionScope,
  proposedDecision: DecisionScope,
  org: OrgView,
): AffectedDelegation[] {
  const states = new Map<string, { current: DelegationState; proposed: DelegationState }>();
  const affected: AffectedDelegation[] = [];
  for (const r of rows) {
    const own = toState(r);
    if (changed && r.id === changed.id) {
      states.set(r.id, { current: own, proposed: changed.proposed });
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
  return affected;
}
