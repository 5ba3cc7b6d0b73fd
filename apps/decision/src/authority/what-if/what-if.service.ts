import { Injectable } from '@nestjs/common';
import { Caller, FieldError, badRequest, capErrors, conflict, notFound } from '@ddm/contracts';
import { Db, Freshness, FreshnessRequirement, Tx } from '@ddm/platform';
import { authorityProblems } from '../../core/decision-limits';
import { authoritiesOf, replaceAuthorities } from '../../decisions/decision-refs';
import { withinGroups } from '../../core/delegation.rules';
import { loadOrg } from '../../core/delegation.sql';
import { ValidityChange } from '../../core/delegation.types';
import { revalidateChanges } from '../../core/invalidation';
import { UserColumns, applyGroupState, applyPositionState, applyUserState, membersOfGroup, projectedChildren, projectedGroup, projectedPosition, projectedUser, reachOfMembers, withDescendants } from '../../core/organisation';
import { DelegationHolding, holdingsByDelegation } from '../holders';
import { WhatIfChangeDto, WhatIfDto, WhatIfView } from './dto/what-if.dto';
import {
  ChangeInput,
  Holding,
  MAX_ANSWER_ITEMS,
  MAX_DECISIONS_EVALUATED,
  Within,
  changeFieldProblems,
  diffHoldings,
  holdingsOf,
  invalidatedBy,
  scopesWithoutHolder,
  unknownRecords,
} from './what-if.rules';
import { DELEGATIONS_SQL, KNOWN_RECORDS_SQL, REACHED_DECISIONS_SQL } from './what-if.sql';

/** A change with its ids in lower case (as the database answers them). */
type Change = ChangeInput;

interface ReachedDecision {
  id: string;
  decision_display_id: string;
  group_ids: string[];
}

/** Who holds what, at one state of the organisation: the holdings, and per decision the groups of each person's delegation in force. */
interface Standing {
  holdings: Holding[];
  scopes: Map<string, string[][]>;
  within: Within;
}

/** How long the evaluation waits for a row another transaction holds before answering 409. */
const LOCK_TIMEOUT = '5s';
/** Attempts when a concurrent change makes the snapshot's writes fail (serialization failure), before answering 409. */
const ATTEMPTS = 3;
const SERIALIZATION_FAILURE = '40001';
const LOCK_NOT_AVAILABLE = '55P03';

/** Carries the answer out of the transaction, which it thereby rolls back: a what-if never commits. */
class RolledBack extends Error {
  constructor(readonly answer: WhatIfView) {
    super('what-if: rolled back');
  }
}

/**
 * The reorg what-if: what proposed changes of people, positions, groups and decision limits would
 * do to delegations and authority, with nothing written. One transaction, always rolled back,
 * applies the changes exactly as the projections apply auth's and settings' events (and a limit as
 * a PATCH of the decision writes it), which runs the real invalidation; the authority engine reads
 * who holds each decision the changes reach before and after, at the same instant of the same
 * snapshot (REPEATABLE READ). No row, revision, history row or outbox event survives it: the
 * outbox relay only ever sees committed rows, and is woken only after a commit.
 */
@Injectable()
export class WhatIfService {
  constructor(
    private readonly db: Db,
    private readonly freshness: Freshness,
  ) {}

  /** `fresh`: the changes the caller asks the evaluation to start from (x-consistency-token), waited for first, as the body's `consistency`. */
  async whatIf(caller: Caller, dto: WhatIfDto, fresh: FreshnessRequirement = []): Promise<WhatIfView> {
    const changes = dto.changes.map(normalized);
    refuse(changeFieldProblems(changes));
    await this.freshness.waitFor(fresh, dto.consistency);
    await this.requireKnown(caller.tenantId, changes);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.evaluate(caller, changes);
      } catch (err) {
        const code = pgCode(err);
        if (code === SERIALIZATION_FAILURE && attempt < ATTEMPTS) continue;
        if (code === SERIALIZATION_FAILURE || code === LOCK_NOT_AVAILABLE) {
          throw conflict('The organisation is being changed right now (the records the changes touch are locked or changed meanwhile); ask again');
        }
        throw err;
      }
    }
  }

  /**
   * Every record a change names is one of the tenant's, live (404 naming each that is not,
   * `changes.3.userId`); then a limit change names an authority type its decision holds (400).
   */
  private async requireKnown(tenantId: string, changes: readonly Change[]): Promise<void> {
    const all = (pick: (c: Change) => (string | null | undefined)[]) => [...new Set(changes.flatMap(pick).filter((x): x is string => !!x))];
    const rows = await this.db.query<{ kind: string; id: string }>(KNOWN_RECORDS_SQL, [
      tenantId,
      all((c) => [c.userId, c.managerId]),
      all((c) => [c.positionId]),
      all((c) => [c.groupId, ...(c.parentGroupIds ?? [])]),
      all((c) => [c.decisionId]),
      all((c) => [c.authorityTypeId]),
    ]);
    const { missing, notHeld } = unknownRecords(changes, new Set(rows.map((r) => `${r.kind} ${r.id}`)));
    if (missing.length) {
      const { shown, message } = capErrors(missing);
      throw notFound(`Not found: ${message}`, shown);
    }
    refuse(notHeld);
  }

  private async evaluate(caller: Caller, changes: readonly Change[]): Promise<WhatIfView> {
    const tenantId = caller.tenantId;
    try {
      // Before and after are read in one snapshot (REPEATABLE READ): another change committing meanwhile is in neither.
      await this.db.transaction(async (tx) => {
        await tx.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
        // The instant both states are read at: the transaction's start, to the millisecond (what the changes write is valid from then).
        const [{ at }] = await tx.query<{ at: Date }>(`SELECT date_trunc('milliseconds', now()) AS at`);

        const decisions = await reachedDecisions(tx, tenantId, changes);
        const before = await standing(tx, caller, decisions, at);
        const steps: ValidityChange[] = [];
        for (const [i, change] of changes.entries()) steps.push(...(await apply(tx, tenantId, change, i)));
        const after = await standing(tx, caller, decisions, at);
        throw new RolledBack(await answer(tx, tenantId, decisions, steps, before, after));
      }, { isolation: 'REPEATABLE READ' });
    } catch (err) {
      if (err instanceof RolledBack) return err.answer;
      throw err;
    }
    throw new Error('what-if: its transaction committed');
  }
}

function normalized(c: WhatIfChangeDto): Change {
  const lower = (id: string | null | undefined) => (id === undefined || id === null ? id : id.toLowerCase());
  return {
    type: c.type,
    userId: lower(c.userId) ?? undefined,
    positionId: lower(c.positionId) ?? undefined,
    groupId: lower(c.groupId) ?? undefined,
    parentGroupIds: c.parentGroupIds?.map((p) => p.toLowerCase()),
    managerId: lower(c.managerId),
    decisionId: lower(c.decisionId) ?? undefined,
    authorityTypeId: lower(c.authorityTypeId) ?? undefined,
    value: c.value,
  };
}

function refuse(problems: readonly FieldError[]): void {
  if (!problems.length) return;
  const { shown, message } = capErrors(problems);
  throw badRequest(`Invalid input: ${message}`, shown);
}

/**
 * The decisions whose holders the changes may change (see REACHED_DECISIONS_SQL), read before any
 * change: the people, positions and groups the invalidation will check delegations of (a deleted
 * group's children too: they lose it as a parent), and the decisions whose limits change.
 */
async function reachedDecisions(tx: Tx, tenantId: string, changes: readonly Change[]): Promise<ReachedDecision[]> {
  const ids = (pick: (c: Change) => (string | null | undefined)[]) => [...new Set(changes.flatMap(pick).filter((x): x is string => !!x))];
  const deleted = ids((c) => (c.type === 'group-deleted' ? [c.groupId] : []));
  // A group's change reaches as groupChanged's invalidation does: everything below it too (a deleted group's children lose it as a parent).
  const groups = await withDescendants(tx, tenantId, [...new Set([...ids((c) => [c.groupId]), ...(deleted.length ? await projectedChildren(tx, tenantId, deleted) : [])])]);
  // A member's change reaches as userChanged's invalidation does: the positions they hold, and everyone below one whose manager changes.
  const managerChanges = changes.filter((c) => c.type === 'manager-changed');
  const people = await reachOfMembers(tx, tenantId, {
    userIds: ids((c) => [c.userId]),
    below: managerChanges.map((c) => c.userId!),
    moves: managerChanges.map((c) => ({ userId: c.userId!, managerId: c.managerId ?? null })),
  });
  // A deleted group no longer joins its members (Functional): their delegations are reached too, as groupChanged's invalidation reaches them.
  const members = await Promise.all(deleted.map((g) => membersOfGroup(tx, tenantId, g)));
  const rows = await tx.query<ReachedDecision>(REACHED_DECISIONS_SQL, [
    tenantId,
    [...new Set([...people.userIds, ...members.flatMap((m) => m.userIds)])],
    [...new Set([...ids((c) => [c.positionId]), ...people.positionIds, ...members.flatMap((m) => m.positionIds)])],
    groups,
    ids((c) => [c.decisionId]),
    MAX_DECISIONS_EVALUATED,
  ]);
  if (rows.length > MAX_DECISIONS_EVALUATED) {
    throw badRequest(`The changes reach more than ${MAX_DECISIONS_EVALUATED} decisions, the most a what-if compares the holders of: send fewer changes at a time`, [
      { field: 'changes', message: `reach more than ${MAX_DECISIONS_EVALUATED} decisions` },
    ]);
  }
  return rows;
}

/** Who holds what, at `at`, by the authority engine (holdingsByDelegation) reading through the transaction. */
async function standing(tx: Tx, caller: Caller, decisions: readonly ReachedDecision[], at: Date): Promise<Standing> {
  const holders = new Map<string, DelegationHolding[]>();
  for (const d of decisions) holders.set(d.id, await holdingsByDelegation(tx, caller.tenantId, d.id, at));
  const people = [...holders.values()].flat().filter((h) => h.holderType === 'USER');
  const delegations = people.length ? await tx.query<{ id: string; group_ids: string[] }>(DELEGATIONS_SQL, [caller.tenantId, [...new Set(people.map((h) => h.delegationId))]]) : [];
  const groupsOf = new Map(delegations.map((g) => [g.id, g.group_ids]));
  const org = await loadOrg(tx, caller.tenantId, [], []);
  return {
    holdings: decisions.flatMap((d) => holdingsOf(d.id, holders.get(d.id)!)),
    scopes: new Map(decisions.map((d) => [d.id, holders.get(d.id)!.filter((h) => h.holderType === 'USER').map((h) => groupsOf.get(h.delegationId) ?? [])])),
    within: (groupId, scope) => withinGroups(groupId, scope, org),
  };
}

/**
 * Applies one change as auth's or settings' events of it would be applied by the projections (a
 * limit as a PATCH of the decision writes it), to the organisation as the changes before it left
 * it; answers the delegations whose validity changed. A change that would change nothing is a 400.
 */
async function apply(tx: Tx, tenantId: string, c: Change, i: number): Promise<ValidityChange[]> {
  const fail = (field: string, message: string) => badRequest(`changes.${i}.${field} ${message}`, [{ field: `changes.${i}.${field}`, message }]);
  switch (c.type) {
    case 'user-leaves-position':
    case 'user-joins-position':
    case 'manager-changed':
    case 'user-deactivated': {
      const user = (await projectedUser(tx, tenantId, c.userId!))!;
      return applyUserState(tx, tenantId, c.userId!, userAfter(user, c, fail));
    }
    case 'position-deleted': {
      const position = (await projectedPosition(tx, tenantId, c.positionId!))!;
      if (position.is_deleted) throw fail('positionId', `position ${c.positionId} is deleted by an earlier change`);
      return applyPositionState(tx, tenantId, c.positionId!, { ...position, is_deleted: true });
    }
    case 'group-deleted': {
      // As settings deletes a group: the group, then each live child without it among its parents.
      const group = (await projectedGroup(tx, tenantId, c.groupId!))!;
      if (group.is_deleted) throw fail('groupId', `group ${c.groupId} is deleted by an earlier change`);
      const children = await projectedChildren(tx, tenantId, [c.groupId!]);
      const steps = await applyGroupState(tx, tenantId, c.groupId!, { ...group, is_deleted: true });
      for (const id of children) {
        const child = (await projectedGroup(tx, tenantId, id))!;
        steps.push(...(await applyGroupState(tx, tenantId, id, { ...child, parent_group_ids: child.parent_group_ids.filter((p) => p !== c.groupId) })));
      }
      return steps;
    }
    case 'group-moved': {
      const group = (await projectedGroup(tx, tenantId, c.groupId!))!;
      if (group.is_deleted) throw fail('groupId', `group ${c.groupId} is deleted by an earlier change`);
      const parents = c.parentGroupIds!;
      if ([...group.parent_group_ids].sort().join() === [...parents].sort().join()) throw fail('parentGroupIds', `are the parents group ${c.groupId} has already`);
      // As settings refuses it: a parent deleted, or below the group (the hierarchy would have a cycle).
      const org = await loadOrg(tx, tenantId, [], []);
      parents.forEach((p, j) => {
        if (!org.isLiveGroup(p)) throw fail(`parentGroupIds.${j}`, `group ${p} is deleted by an earlier change`);
        if (withinGroups(p, [c.groupId!], org)) throw fail(`parentGroupIds.${j}`, `group ${p} is below group ${c.groupId}: the hierarchy would have a cycle`);
      });
      return applyGroupState(tx, tenantId, c.groupId!, { ...group, parent_group_ids: parents });
    }
    case 'decision-limit-changed': {
      // As a PATCH of the decision's authorities with this one value changed: the limits written, then its delegations checked again.
      const authorities = await authoritiesOf(tx, tenantId, c.decisionId!);
      const k = authorities.findIndex((a) => a.authorityTypeId === c.authorityTypeId);
      if (k < 0) throw fail('authorityTypeId', `decision ${c.decisionId} has no authority of type ${c.authorityTypeId}`);
      const current = authorities[k];
      if (current.authorityLimitValueType === 'Authorized') throw fail('value', `decision ${c.decisionId}'s authority of type ${c.authorityTypeId} is Authorized: it has no value to change`);
      if (current.authorityLimitValue === c.value) throw fail('value', `is the decision's limit already`);
      const proposed = authorities.map((a, n) => (n === k ? { ...a, authorityLimitValue: c.value! } : a));
      const problems = authorityProblems(proposed).filter((p) => p.field.startsWith(`decisionAuthorities.${k}.`));
      if (problems.length) throw fail('value', problems.map((p) => p.message).join('; '));
      await replaceAuthorities(tx, tenantId, c.decisionId!, proposed);
      return revalidateChanges(tx, tenantId, { decisionIds: [c.decisionId!] });
    }
  }
}

/** A member's row as a user change would leave it, as auth would publish the person. */
function userAfter(user: UserColumns, c: Change, fail: (field: string, message: string) => Error): UserColumns {
  const holds = user.position_ids.includes(c.positionId!);
  switch (c.type) {
    case 'user-leaves-position':
      if (!holds) throw fail('positionId', `user ${c.userId} does not hold position ${c.positionId}`);
      return { ...user, position_ids: user.position_ids.filter((p) => p !== c.positionId) };
    case 'user-joins-position':
      if (holds) throw fail('positionId', `user ${c.userId} holds position ${c.positionId} already`);
      return { ...user, position_ids: [...user.position_ids, c.positionId!] };
    case 'manager-changed':
      if (user.manager_id === c.managerId) throw fail('managerId', `is user ${c.userId}'s manager already`);
      return { ...user, manager_id: c.managerId ?? null };
    default:
      if (user.status === 'INACTIVE') throw fail('userId', `user ${c.userId} is INACTIVE already`);
      return { ...user, status: 'INACTIVE' };
  }
}

/** The answer: delegations invalidated, holdings lost and gained, scopes left without a holder; each list ordered and bounded. */
async function answer(tx: Tx, tenantId: string, decisions: readonly ReachedDecision[], steps: readonly ValidityChange[], before: Standing, after: Standing): Promise<WhatIfView> {
  const invalid = invalidatedBy(steps);
  const changed = [...new Set(steps.map((s) => s.id))];
  const rows = changed.length ? await tx.query<{ id: string; delegation_display_id: string; decision_id: string }>(DELEGATIONS_SQL, [tenantId, changed]) : [];
  const delegation = new Map(rows.map((r) => [r.id, r]));
  // The decisions were read before the changes: a delegation changing outside them would be a change of holders left uncompared.
  const reached = new Set(decisions.map((d) => d.id));
  const outside = rows.find((r) => !reached.has(r.decision_id));
  if (outside) throw new Error(`what-if: delegation ${outside.id} of decision ${outside.decision_id} changed outside the decisions compared`);

  const invalidated = invalid
    .map((x) => ({ delegationId: x.id, delegationDisplayId: delegation.get(x.id)!.delegation_display_id, invalidFields: x.invalidFields }))
    .sort((a, b) => Number(a.delegationDisplayId) - Number(b.delegationDisplayId));
  const order = new Map(decisions.map((d) => [d.id, Number(d.decision_display_id)]));
  const { lost, gained } = diffHoldings(before.holdings, after.holdings, order);
  const decisionsWithoutHolder = decisions.flatMap((d) =>
    scopesWithoutHolder(d.group_ids, before.scopes.get(d.id)!, after.scopes.get(d.id)!, before.within, after.within).map((groupId) => ({ decisionId: d.id, groupId })),
  );
  const lists = { invalidated, authorityLost: lost, authorityGained: gained, decisionsWithoutHolder };
  for (const [name, list] of Object.entries(lists)) {
    if (list.length > MAX_ANSWER_ITEMS) {
      throw badRequest(`The answer would list ${list.length} ${name} (at most ${MAX_ANSWER_ITEMS} are answered, never cut short): send fewer changes at a time`, [
        { field: 'changes', message: `would answer ${list.length} ${name}` },
      ]);
    }
  }
  return lists;
}

function pgCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; driverError?: { code?: unknown } } | undefined;
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}
