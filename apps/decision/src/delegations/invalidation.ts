/**
 * Invalidation, never silent rewriting: when the organisation (projections of auth and settings)
 * or this area (a decision narrowed, a parent suspended or narrowed) changes, every live delegation
 * the change touches is checked again by the rules (invalidFieldsOf) with its descendants, and those
 * whose `isInvalid`/`invalidFields` change are updated in one statement, each with a revision, its
 * `updated` event and, when it became invalid, the `invalidated` notice.
 */
import { Sql, Tx, join, raw, sql } from '@ddm/platform';
import { DecisionScope, DelegationState, LIVE_SQL, invalidFieldsOf } from './delegation.rules';
import { DelegationRuleRow, RULE_COLUMNS, decisionScope, loadOrg, toState } from './delegation.sql';
import { recordDelegationChange, stateSubjectOf } from './delegation-changes';

/** What changed: the delegations naming any of these (as issuer or recipient, in scope, of the decision), and their subtrees. */
export interface RevalidationScope {
  userIds?: readonly string[];
  positionIds?: readonly string[];
  groupIds?: readonly string[];
  decisionIds?: readonly string[];
  delegationIds?: readonly string[];
}

type Row = DelegationRuleRow & { invalid_fields: string[] };

/** A delegation whose invalid fields a check changed: what it had, and what it has now (none: valid). */
export interface ValidityChange {
  id: string;
  before: string[];
  after: string[];
}

/** Checks the delegations of `scope` again; answers the ids whose validity changed. */
export async function revalidate(tx: Tx, tenantId: string, scope: RevalidationScope, by: string | null = null): Promise<string[]> {
  return (await revalidateChanges(tx, tenantId, scope, by)).map((c) => c.id);
}

/** revalidate, answering each change with the fields before and after (what-if reads what a change would do from it). */
export async function revalidateChanges(tx: Tx, tenantId: string, scope: RevalidationScope, by: string | null = null): Promise<ValidityChange[]> {
  // The delegations the scope touches: only the conditions it names. Under row-level security an
  // OR holding a condition that is not leakproof (`group_ids && ...`) can use no index, and the
  // statement read every delegation of the tenant, for each person, position or decision changed.
  const touched: Sql[] = [];
  if (scope.userIds?.length) touched.push(sql`g.issuer_user_id = ANY(${[...scope.userIds]}::uuid[])`, sql`g.recipient_user_id = ANY(${[...scope.userIds]}::uuid[])`);
  if (scope.positionIds?.length) {
    touched.push(sql`g.issuer_position_id = ANY(${[...scope.positionIds]}::uuid[])`, sql`g.recipient_position_id = ANY(${[...scope.positionIds]}::uuid[])`);
  }
  if (scope.groupIds?.length) touched.push(sql`g.group_ids && ${[...scope.groupIds]}::uuid[]`);
  if (scope.decisionIds?.length) touched.push(sql`g.decision_id = ANY(${[...scope.decisionIds]}::uuid[])`);
  if (scope.delegationIds?.length) touched.push(sql`g.id = ANY(${[...scope.delegationIds]}::uuid[])`);
  if (!touched.length) return [];
  // The touched live delegations and every live descendant, in one recursive statement (shallowest first).
  const rows = await tx.query<Row>(sql`
    WITH RECURSIVE seeds AS (
      SELECT g.id FROM decision.delegations g
       WHERE g.tenant_id = ${tenantId} AND (${join(touched, ' OR ')})),
    tree AS (
      SELECT id FROM seeds
      UNION
      SELECT c.id FROM decision.delegations c JOIN tree t ON c.parent_delegation_id = t.id WHERE c.tenant_id = ${tenantId})
    SELECT ${raw(`${RULE_COLUMNS}, g.invalid_fields`)}
      FROM decision.delegations g JOIN tree ON tree.id = g.id
     WHERE g.status IN ${raw(LIVE_SQL)}
     ORDER BY g.depth, g.id`);
  if (!rows.length) return [];

  const inSet = new Set(rows.map((r) => r.id));
  const outsideParents = [...new Set(rows.map((r) => r.parent_delegation_id).filter((p): p is string => !!p && !inSet.has(p)))];
  const parents = outsideParents.length
    ? await tx.query<Row>(`SELECT ${RULE_COLUMNS}, g.invalid_fields FROM decision.delegations g WHERE g.tenant_id = $1 AND g.id = ANY($2::uuid[])`, [tenantId, outsideParents])
    : [];
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
  const changed: { id: string; before: string[]; fields: string[]; status: Row['status'] }[] = [];
  for (const r of rows) {
    const decision = decisions.get(r.decision_id);
    const parent = r.parent_delegation_id ? (state.get(r.parent_delegation_id) ?? null) : null;
    const fields: string[] = decision ? invalidFieldsOf(toState(r), parent, decision, org) : ['Parent'];
    state.set(r.id, { ...toState(r), isInvalid: fields.length > 0 });
    if (fields.join(',') !== (r.invalid_fields ?? []).join(',')) changed.push({ id: r.id, before: r.invalid_fields ?? [], fields, status: r.status });
  }
  if (!changed.length) return [];

  await tx.query(
    `UPDATE decision.delegations g SET is_invalid = cardinality(x.fields) > 0, invalid_fields = x.fields, updated_on = now(), version = version + 1
       FROM (SELECT u.id, coalesce(string_to_array(nullif(u.fields, ''), ','), '{}') AS fields FROM unnest($2::uuid[], $3::text[]) AS u(id, fields)) x
      WHERE g.id = x.id AND g.tenant_id = $1`,
    [tenantId, changed.map((c) => c.id), changed.map((c) => c.fields.join(','))],
  );
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
