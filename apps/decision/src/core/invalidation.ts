/**
 * Invalidation, never silent rewriting: when the organisation (projections of auth and settings)
 * or this area (a decision narrowed, a parent suspended or narrowed) changes, every live delegation
 * the change touches is checked again by the rules (invalidFieldsOf) with its descendants, and those
 * whose `isInvalid`/`invalidFields` change are updated in one statement, each with a revision, its
 * `updated` event and, when it became invalid, the `invalidated` notice.
 */
import { Tx } from '@ddm/platform';
import { recordDelegationChange } from './delegation-changes';
import { invalidFieldsOf, toState } from './delegation.rules';
import { decisionScope, loadOrg, touchedTrees, withInvalidFields, writeValidity } from './delegation.sql';
import { stateSubjectOf } from './delegation.status';
import { DecisionScope, DelegationState, RevalidationScope, ValidityChange } from './delegation.types';

/** Checks the delegations of `scope` again; answers the ids whose validity changed. */
export async function revalidate(tx: Tx, tenantId: string, scope: RevalidationScope, by: string | null = null): Promise<string[]> {
  return (await revalidateChanges(tx, tenantId, scope, by)).map((c) => c.id);
}

/** revalidate, answering each change with the fields before and after (what-if reads what a change would do from it). */
export async function revalidateChanges(tx: Tx, tenantId: string, scope: RevalidationScope, by: string | null = null): Promise<ValidityChange[]> {
  const rows = await touchedTrees(tx, tenantId, scope);
  if (!rows.length) return [];

  const inSet = new Set(rows.map((r) => r.id));
  const outsideParents = [...new Set(rows.map((r) => r.parent_delegation_id).filter((p): p is string => !!p && !inSet.has(p)))];
  const parents = outsideParents.length ? await withInvalidFields(tx, tenantId, outsideParents) : [];
  const decisions = new Map<string, DecisionScope | null>();
  for (const decisionId of new Set(rows.map((r) => r.decision_id))) decisions.set(decisionId, await decisionScope(tx, tenantId, decisionId, false));
  const everyone = [...rows, ...parents];
  const org = await loadOrg(
    tx,
    tenantId,
    everyone.flatMap((r) => [r.issuer_user_id, r.recipient_user_id].filter((x): x is string => !!x)),
    everyone.flatMap((r) => [r.issuer_position_id, r.recipient_position_id].filter((x): x is string => !!x)),
  );

  // Top-down: a parent's new validity is what its children are checked against.
  const state = new Map<string, DelegationState>(parents.map((p) => [p.id, toState(p)]));
  const changed: { id: string; before: string[]; fields: string[]; status: DelegationState['status'] }[] = [];
  for (const r of rows) {
    const decision = decisions.get(r.decision_id);
    const parent = r.parent_delegation_id ? (state.get(r.parent_delegation_id) ?? null) : null;
    const fields: string[] = decision ? invalidFieldsOf(toState(r), parent, decision, org) : ['Parent'];
    state.set(r.id, { ...toState(r), isInvalid: fields.length > 0 });
    if (fields.join(',') !== (r.invalid_fields ?? []).join(',')) changed.push({ id: r.id, before: r.invalid_fields ?? [], fields, status: r.status });
  }
  if (!changed.length) return [];

  await writeValidity(tx, tenantId, changed);
  // A revision and the state event for each; the notice for those that became invalid (drafts publish nothing).
  for (const becameInvalid of [true, false]) {
    const group = changed.filter((c) => c.fields.length > 0 === becameInvalid);
    for (const status of new Set(group.map((c) => c.status))) {
      const same = group.filter((c) => c.status === status).map((c) => c.id);
      await recordDelegationChange(tx, tenantId, same, becameInvalid ? 'invalidated' : 'revalidated', by, stateSubjectOf(status), becameInvalid ? 'evt.decision.delegation.invalidated' : undefined);
    }
  }
  return changed.map((c) => ({ id: c.id, before: c.before, after: c.fields }));
}
