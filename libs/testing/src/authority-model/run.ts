/**
 * The model against the product: a run sets up an organisation of its own through the public API
 * (people of the seeded tenant given managers, positions and groups; groups, positions and decisions
 * made new), then applies random operations through the same doors (auth, settings, decision, via
 * the gateway), and after each one compares the product's answers with the model's: every
 * delegation's status and invalid fields, a batch of checks now, holders of every decision, what a
 * few people may decide, checks at earlier instants against the world as it stood then, and, before
 * each change of the organisation, what-if against the model's prediction. Every read carries the
 * consistency token of the writes before it (x-consistency-token): no sleeps, no polling.
 * A disagreement ends the run; `shrink` then looks for a shorter sequence that still disagrees.
 */
import { onceKnown, pastInstant } from '../events';
import { seededRandom } from '../random';
import type { HttpClient, HttpResult } from '../http';
import { INVALID_FIELDS, Subject, World, check, cloneWorld, decisionsHeld, emptyWorld, expiredBy, holdersOfDecision, invalidity, isLive, newlyInvalid } from './model';
import { EXPIRY_MARGIN_MS, Ids, ORG_KINDS, Op, Random, applicable, applyOp, describe, expiryOf, issueAccepted, issueRefusal, moveAccepted, randomOp, toRecipient } from './ops';
import { PATHWAYS, Pathway } from './model';

export const CONSISTENCY_HEADER = 'x-consistency-token';

/** What a run needs of the running system: a client of the gateway and the seeded tenant. */
export interface ModelTarget {
  http: HttpClient;
  admin: string;
  tenantId: string;
  /** Seeded members the run may reorganise (their tokens come from `tokenOf`). */
  people: { id: string; email: string }[];
  tokenOf(email: string): string;
}

export interface RunResult {
  seed: number;
  ops: Op[];
  /** Operations the product took (accepted or refused as the model said). */
  applied: number;
  comparisons: number;
  /** Delegations of the run that expired while it ran (their expiration passed), and of those the ones the sweep had moved to EXPIRED. */
  expired: number;
  swept: number;
  disagreement: { step: number; message: string } | null;
}

class Disagreement extends Error {}

/** A check to ask, with the world (and its invalid delegations) it is answered against. */
interface Question {
  subject: Subject;
  decisionId: string;
  value: string;
  groupId: string | null;
  at: string;
  world: World;
  invalid: ReturnType<typeof invalidity>;
  when: string;
}

const PEOPLE = 8;
const POSITIONS = 4;
const GROUPS = 5;
const DECISIONS = 2;

const sorted = (fields: readonly string[]) => INVALID_FIELDS.filter((f) => fields.includes(f));
const dollars = (value: string | null | undefined): string => {
  if (value === null || value === undefined) return 'none';
  const m = /^(\d+)(?:\.(\d+))?$/.exec(value);
  return m && /^0*$/.test(m[2] ?? '') ? String(BigInt(m[1])) : value;
};

/** One run: a set-up from `seed`, then `steps` random operations (or the given ones, when replaying). */
export class ModelRun {
  private world: World = emptyWorld();
  private readonly ids: Ids = { people: [], positions: [], groups: [], decisions: [], delegations: [] };
  /** The world after each step, with the instant from which it stood. */
  private readonly history: { at: string; world: World; invalid: ReturnType<typeof invalidity> }[] = [];
  private pending: string[] = [];
  private typeId = '';
  private groupTypeId = '';
  comparisons = 0;
  applied = 0;

  constructor(
    private readonly t: ModelTarget,
    private readonly random: Random,
    private readonly label: string,
  ) {}

  // -------------------------------------------------------------------------------------------
  // The doors.

  private async call(method: 'get' | 'post' | 'patch', path: string, body?: object, token = this.t.admin, headers?: Record<string, string>): Promise<HttpResult> {
    const res = await this.t.http[method](path, { token, ...(body ? { body } : {}), ...(headers ? { headers } : {}) });
    const consistency = res.headers.get(CONSISTENCY_HEADER);
    if (consistency && res.status < 300) this.pending.push(consistency);
    return res;
  }

  private async ok(method: 'get' | 'post' | 'patch', path: string, body?: object, token?: string): Promise<any> {
    // Auth names settings' groups and positions from its own copy of them, which may not have caught up with one made a moment ago.
    const res = path.startsWith('/auth/') ? await onceKnown(() => this.call(method, path, body, token)) : await this.call(method, path, body, token);
    if (res.status !== 200) throw new Disagreement(`${method.toUpperCase()} ${path} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 400)}`);
    return res.body.data;
  }

  /** Waits until every write so far is applied where the answers are made (each token once, on a check that waits for it). */
  private async fresh(): Promise<void> {
    const tokens = this.pending;
    this.pending = [];
    for (const token of tokens) {
      const res = await this.t.http.post('/decision/v1/authority/check', {
        token: this.t.admin,
        body: { userId: this.ids.people[0], decisionId: this.ids.decisions[0] ?? '00000000-0000-4000-8000-000000000000', value: '1', unit: 'USD', consistency: { atLeastAsFresh: token } },
      });
      if (res.status !== 200 && res.status !== 404) throw new Disagreement(`the check with a consistency token answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    }
  }

  private limitBody(value: string) {
    return { authorityTypeId: this.typeId, authorityLimit: 'Primary', authorityLimitValueType: 'Currency', authorityLimitOperator: '<=', authorityLimitValue: value, authorityLimitValueUnit: 'USD' };
  }

  // -------------------------------------------------------------------------------------------
  // Set-up: an organisation of the run's own.

  async setUp(): Promise<void> {
    const r = this.random;
    const types = await this.ok('get', '/settings/v1/authority-types?limit=100');
    this.typeId = types.data.find((x: { authorityType: string }) => x.authorityType === 'Approval').id;
    this.groupTypeId = (await this.ok('get', '/settings/v1/group-types?limit=1')).data[0].id;
    const w = this.world;
    for (let i = 0; i < GROUPS; i++) {
      const parents = i === 0 ? [] : [this.ids.groups[r.int(i)]];
      const g = await this.ok('post', '/settings/v1/groups', { groupName: `${this.label} G${i}`, tenantGroupTypeId: this.groupTypeId, parentGroupIds: parents });
      this.ids.groups.push(g.id);
      w.groups.set(g.id, { parents, live: true });
    }
    for (let i = 0; i < POSITIONS; i++) {
      const groups = r.some(this.ids.groups, 2);
      const p = await this.ok('post', '/settings/v1/positions', { positionName: `${this.label} P${i}`, groupIds: groups });
      this.ids.positions.push(p.id);
      w.positions.set(p.id, { active: true, groups });
    }
    const people = this.t.people.slice(0, PEOPLE);
    await this.ok('patch', '/auth/v1/user/bulk-status-update', { tenantId: this.t.tenantId, userIds: people.map((p) => p.id), status: 'ACTIVE' });
    for (const [i, p] of people.entries()) {
      this.ids.people.push(p.id);
      const manager = i === 0 ? null : this.ids.people[r.int(i)];
      const positions = r.some(this.ids.positions, 1);
      await this.ok('patch', `/auth/v1/user/update-entities/${p.id}`, { managerId: manager, positionIds: positions, groups: [] });
      w.people.set(p.id, { active: true, manager, positions, groups: [] });
    }
    for (let i = 0; i < DECISIONS; i++) {
      const pathways = r.some(PATHWAYS, 4);
      const chosen: Pathway[] = pathways.length ? [...pathways] : ['Matrix'];
      const groups = r.chance(0.7) ? [this.ids.groups[0]] : [];
      const limit = r.pick(['50000', '100000']);
      const d = await this.ok('post', '/decision/v1/decisions', {
        name: `${this.label} decision ${i}`,
        status: 'PUBLISHED',
        delegationPathway: chosen,
        decisionAuthorities: [this.limitBody(limit)],
        decisionGroups: groups.map((groupId) => ({ groupId })),
      });
      this.ids.decisions.push(d.id);
      w.decisions.set(d.id, { id: d.id, displayId: d.decisionDisplayId, published: true, pathways: chosen, groups, limit: BigInt(limit) });
    }
    await this.fresh();
    this.record();
    await this.compare();
  }

  /** The world as it stands from now on (a write after this instant is later than it, by at least a millisecond). */
  private record(): void {
    const at = new Date().toISOString();
    const world = cloneWorld(this.world);
    this.history.push({ at, world, invalid: invalidity(world) });
  }

  /** The instant the latest comparisons are made at (the world as it stands since the last step). */
  private now(): number {
    return Date.parse(this.history[this.history.length - 1].at);
  }

  private async nextInstant(): Promise<void> {
    await pastInstant(this.history[this.history.length - 1]?.at ?? 0);
  }

  // -------------------------------------------------------------------------------------------
  // One step.

  async step(op: Op): Promise<void> {
    if (!applicable(op, this.world, this.ids)) return;
    await this.nextInstant();
    if (ORG_KINDS.includes(op.kind)) await this.compareWhatIf(op);
    const w = this.world;
    const path = (i: number) => this.ids.people[i];
    switch (op.kind) {
      case 'manager':
        await this.ok('patch', `/auth/v1/user/update-entities/${path(op.user)}`, { managerId: op.manager === null ? null : path(op.manager) });
        break;
      case 'positions':
        await this.ok('patch', `/auth/v1/user/update-entities/${path(op.user)}`, { positionIds: op.positions.map((p) => this.ids.positions[p]) });
        break;
      case 'groups':
        await this.ok('patch', `/auth/v1/user/update-entities/${path(op.user)}`, { groups: op.groups.map((g) => ({ groupId: this.ids.groups[g] })) });
        break;
      case 'status':
        await this.ok('patch', '/auth/v1/user/bulk-status-update', { tenantId: this.t.tenantId, userIds: [path(op.user)], status: op.active ? 'ACTIVE' : 'INACTIVE' });
        break;
      case 'positionStatus':
        await this.ok('patch', `/settings/v1/positions/${this.ids.positions[op.position]}`, { status: op.active ? 'ACTIVE' : 'INACTIVE' });
        break;
      case 'groupParent': {
        const id = this.ids.groups[op.group];
        const now = w.groups.get(id)!.parents;
        const next = op.parent === null ? [] : [this.ids.groups[op.parent]];
        const add = next.filter((p) => !now.includes(p));
        const remove = now.filter((p) => !next.includes(p));
        await this.ok('patch', `/settings/v1/groups/${id}`, { ...(add.length ? { addParentGroupIds: add } : {}), ...(remove.length ? { removeParentGroupIds: remove } : {}) });
        break;
      }
      case 'groupDelete':
        await this.ok('patch', `/settings/v1/groups/${this.ids.groups[op.group]}`, { isDeleted: true, disableOption: 'NA' });
        break;
      case 'limit':
        await this.ok('patch', `/decision/v1/decisions/${this.ids.decisions[op.decision]}`, { decisionAuthorities: [this.limitBody(op.value)] });
        break;
      case 'publish':
        await this.ok('patch', `/decision/v1/decisions/${this.ids.decisions[op.decision]}`, { status: op.published ? 'PUBLISHED' : 'ARCHIVED' });
        break;
      case 'issue':
        if (!(await this.issue(op))) return;
        break;
      case 'move':
        if (!(await this.move(op))) return;
        break;
    }
    if (op.kind !== 'issue') this.world = applyOp(w, this.ids, op);
    this.applied++;
    await this.fresh();
    this.record();
    await this.compare();
  }

  /** Issues as the op says; answers whether it was accepted (a refusal the model expected is compared, then skipped). */
  private async issue(op: Extract<Op, { kind: 'issue' }>): Promise<boolean> {
    const now = Date.now();
    const expiresAt = expiryOf(this.world, this.ids, op, now);
    const expected = issueAccepted(this.world, this.ids, op, expiresAt, now);
    const rec = toRecipient(this.ids, op.recipient);
    const token = op.issuer === null ? this.t.admin : this.t.tokenOf(this.t.people[op.issuer].email);
    const res = await this.call('post', '/decision/v1/delegations', {
      decisionId: this.ids.decisions[op.decision],
      ...(op.parent === null ? {} : { parentDelegationId: this.ids.delegations[op.parent] }),
      status: 'ISSUED',
      recipientType: rec.recipientType,
      delegationRecipients: [{ ...(rec.recipientUserId ? { recipientUserId: rec.recipientUserId } : {}), ...(rec.recipientPositionId ? { recipientPositionId: rec.recipientPositionId } : {}) }],
      delegationPathway: op.pathways,
      delegationGroups: op.groups.map((g) => ({ groupId: this.ids.groups[g] })),
      delegationAuthorities: [{ ...this.limitBody(op.limit), redelegable: op.redelegable }],
      ...(expiresAt === null ? { isNoExpiration: true } : { isNoExpiration: false, expirationDate: new Date(expiresAt).toISOString() }),
    }, token);
    this.comparisons++;
    if (expected && res.status !== 200) throw new Disagreement(`the model accepts ${describe(op)}; the product answered ${res.status}: ${JSON.stringify(res.body).slice(0, 400)}`);
    if (!expected && res.status === 200) throw new Disagreement(`the model refuses ${describe(op)}; the product issued it`);
    if (!expected) {
      const refusal = issueRefusal(this.world, this.ids, op);
      if (!refusal.includes(res.status)) throw new Disagreement(`${describe(op)} was refused with ${res.status} (${refusal.join(' or ')} expected): ${JSON.stringify(res.body).slice(0, 300)}`);
      return false;
    }
    const d = res.body.data[0];
    this.ids.delegations.push(d.id);
    this.world = applyOp(this.world, this.ids, op, { id: d.id, displayId: d.delegationDisplayId, status: d.status, expiresAt: d.expirationDate ? Date.parse(d.expirationDate) : null });
    if ((d.expirationDate ? Date.parse(d.expirationDate) : null) !== expiresAt) throw new Disagreement(`${describe(op)} came out expiring ${d.expirationDate}, not ${expiresAt === null ? 'never' : new Date(expiresAt).toISOString()}`);
    if (d.status !== 'ISSUED') throw new Disagreement(`${describe(op)} came out ${d.status}, not ISSUED`);
    return true;
  }

  private async move(op: Extract<Op, { kind: 'move' }>): Promise<boolean> {
    const d = this.world.delegations.get(this.ids.delegations[op.delegation])!;
    const expected = moveAccepted(d, op.action);
    const token = op.action === 'accept' ? this.t.tokenOf(this.t.people[this.ids.people.indexOf(d.recipientUserId!)].email) : this.t.admin;
    const res = await this.call('post', `/decision/v1/delegations/${d.id}/${op.action}`, {}, token);
    this.comparisons++;
    if (expected !== (res.status === 200)) throw new Disagreement(`${describe(op)} (delegation ${d.displayId}, ${d.status}): the model ${expected ? 'accepts' : 'refuses'} it, the product answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    return expected;
  }

  // -------------------------------------------------------------------------------------------
  // Comparisons.

  private async compare(): Promise<void> {
    const invalid = this.history[this.history.length - 1].invalid;
    await this.compareDelegations(invalid);
    await this.compareChecks([...this.checksNow(invalid), ...this.checksEarlier()]);
    for (const id of this.ids.decisions) await this.compareHolders(id, invalid);
    for (let k = 0; k < 2; k++) await this.compareHeld(this.random.int(this.ids.people.length), invalid);
  }

  /** A check of every person, and of some positions, for each decision now, with random values and groups. */
  private checksNow(invalid: ReturnType<typeof invalidity>): Question[] {
    const r = this.random;
    const now = this.history[this.history.length - 1];
    const asked: Question[] = [];
    for (const decisionId of this.ids.decisions) {
      const subjects: Subject[] = [...this.ids.people.map((userId) => ({ userId })), ...this.ids.positions.filter(() => r.chance(0.3)).map((positionId) => ({ positionId }))];
      for (const subject of subjects) {
        const value = r.pick(['1', '1000', '5000', '20000', '50000', '100000', '100001']);
        asked.push({ subject, decisionId, value, groupId: r.chance(0.3) ? r.pick(this.ids.groups) : null, at: now.at, world: now.world, invalid, when: 'now' });
      }
    }
    return asked;
  }

  /** One check at every earlier recorded instant (a random person, decision and value each), against the world as it stood then. */
  private checksEarlier(): Question[] {
    const r = this.random;
    return this.history.slice(0, -1).slice(-500).map((then) => ({
      subject: { userId: r.pick(this.ids.people) },
      decisionId: r.pick(this.ids.decisions),
      value: r.pick(['1', '5000', '50000']),
      groupId: null,
      at: then.at,
      world: then.world,
      invalid: then.invalid,
      when: `at ${then.at} (an earlier instant)`,
    }));
  }

  /** The questions in one batch, each answer against the model's at its instant. */
  private async compareChecks(asked: Question[]): Promise<void> {
    const res = await this.ok('post', '/decision/v1/authority/check-batch', {
      checks: asked.map((q) => ({ ...q.subject, decisionId: q.decisionId, value: q.value, unit: 'USD', ...(q.groupId ? { groupId: q.groupId } : {}), at: q.at })),
    });
    asked.forEach((q, i) => {
      this.comparisons++;
      const mine = check(q.world, Date.parse(q.at), q.subject, q.decisionId, BigInt(q.value), q.groupId, q.invalid);
      const theirs = res.results[i];
      if (theirs.allowed !== mine.allowed || (mine.allowed && dollars(theirs.limit?.value) !== String(mine.limit))) {
        const who = 'userId' in q.subject ? `person ${this.ids.people.indexOf(q.subject.userId)}` : `position ${this.ids.positions.indexOf(q.subject.positionId)}`;
        throw new Disagreement(
          `check ${q.when} of ${who}, decision ${this.ids.decisions.indexOf(q.decisionId)}, ${q.value} USD${q.groupId ? ` in group ${this.ids.groups.indexOf(q.groupId)}` : ''}: ` +
            `the product says ${theirs.allowed ? `allowed (${theirs.limit?.value})` : `refused (${theirs.reasons.join('; ')})`}, the model ${mine.allowed ? `allowed (${mine.limit})` : 'refused'}`,
        );
      }
    });
  }

  private async compareDelegations(invalid: ReturnType<typeof invalidity>): Promise<void> {
    const res = await this.ok('get', `/decision/v1/delegations?decisionIds=${this.ids.decisions.join(',')}&limit=100&page=1`);
    const product = new Map<string, { status: string; isInvalid: boolean; invalidFields: string[]; delegationDisplayId: string }>(res.data.map((d: any) => [d.id, d]));
    const now = this.now();
    for (const d of this.world.delegations.values()) {
      this.comparisons++;
      const p = product.get(d.id);
      if (!p) throw new Disagreement(`delegation ${d.displayId} is missing from the product's list`);
      // The expiry sweep moves a delegation past its expiration to EXPIRED when it gets to it (every 30 s): never before.
      // So also between the last comparison and a revoke of its parent: the revoke then finds it EXPIRED and leaves it so,
      // where the model, which had not seen the sweep yet, took it down with its parent.
      const before = this.history[this.history.length - 2]?.world.delegations.get(d.id);
      const sweptFirst = d.status === 'REVOKED' && (before?.status === 'ISSUED' || before?.status === 'ACCEPTED');
      if (p.status === 'EXPIRED' && (d.status === 'ISSUED' || d.status === 'ACCEPTED' || sweptFirst) && d.expiresAt !== null && d.expiresAt <= now) {
        d.status = 'EXPIRED';
        this.history[this.history.length - 1].world.delegations.get(d.id)!.status = 'EXPIRED';
      }
      if (p.status !== d.status) throw new Disagreement(`delegation ${d.displayId}: status ${p.status}, the model says ${d.status}`);
      // Past its expiration (or its parent's) what it is flagged with depends on when the sweep came: nothing to compare.
      if (!isLive(d) || expiredBy(this.world, d, now)) continue;
      const fields = invalid.get(d.id) ?? [];
      if (sorted(p.invalidFields).join() !== fields.join() || p.isInvalid !== fields.length > 0) {
        throw new Disagreement(`delegation ${d.displayId} (${describeDelegation(this.world, d.id)}): invalidFields [${p.invalidFields.join(', ')}], the model says [${fields.join(', ')}]`);
      }
    }
  }

  private async compareHolders(decisionId: string, invalid: ReturnType<typeof invalidity>): Promise<void> {
    const page = await this.ok('get', `/decision/v1/authority/holders?decisionId=${decisionId}&limit=100&at=${encodeURIComponent(new Date(this.now()).toISOString())}`);
    const theirs = new Map<string, string>(page.data.map((h: any) => [h.holderType === 'USER' ? h.userId : h.positionId, dollars(h.authorities[0]?.limit?.value)]));
    const mine = holdersOfDecision(this.world, this.now(), decisionId, null, invalid);
    this.comparisons++;
    const show = (m: Map<string, string | bigint>) =>
      [...m].map(([id, v]) => `${this.ids.people.includes(id) ? `person ${this.ids.people.indexOf(id)}` : `position ${this.ids.positions.indexOf(id)}`}: ${v}`).sort().join(', ');
    const mineShown = show(new Map([...mine].map(([k, v]) => [k, String(v)])));
    if (show(theirs) !== mineShown || page.total !== mine.size) {
      throw new Disagreement(`holders of decision ${this.ids.decisions.indexOf(decisionId)}: the product lists {${show(theirs)}} (total ${page.total}), the model {${mineShown}}`);
    }
  }

  private async compareHeld(person: number, invalid: ReturnType<typeof invalidity>): Promise<void> {
    const userId = this.ids.people[person];
    const page = await this.ok('get', `/decision/v1/authority/decisions?userId=${userId}&limit=100&at=${encodeURIComponent(new Date(this.now()).toISOString())}`);
    const theirs = page.data
      .filter((d: any) => this.ids.decisions.includes(d.decisionId))
      .map((d: any) => `decision ${this.ids.decisions.indexOf(d.decisionId)}: ${dollars(d.authorities[0]?.limit?.value)}`)
      .sort()
      .join(', ');
    const mine = [...decisionsHeld(this.world, this.now(), { userId }, invalid)].map(([id, v]) => `decision ${this.ids.decisions.indexOf(id)}: ${v}`).sort().join(', ');
    this.comparisons++;
    if (theirs !== mine) throw new Disagreement(`what person ${person} may decide: the product says {${theirs}}, the model {${mine}}`);
  }

  /** What-if of an organisation change against the model's prediction (the delegations it would leave invalid, and for what). */
  private async compareWhatIf(op: Op): Promise<void> {
    const change = this.whatIfChange(op);
    if (!change) return;
    const answer = await this.ok('post', '/decision/v1/authority/what-if', { changes: change });
    // Delegations at or near their expiry are left out (the sweep may or may not have come to them).
    const current = (id: string) => this.world.delegations.has(id) && !expiredBy(this.world, this.world.delegations.get(id)!, Date.now() + EXPIRY_MARGIN_MS);
    const theirs = new Map<string, string[]>(answer.invalidated.filter((x: any) => current(x.delegationId)).map((x: any) => [x.delegationId, sorted(x.invalidFields)]));
    const predicted = new Map([...newlyInvalid(this.world, applyOp(this.world, this.ids, op))].filter(([id]) => current(id)));
    this.comparisons++;
    const show = (m: Map<string, readonly string[]>) => [...m].map(([id, f]) => `${this.world.delegations.get(id)!.displayId}: ${f.join('+')}`).sort().join(', ');
    if (show(theirs) !== show(predicted)) throw new Disagreement(`what-if of ${describe(op)}: the product predicts {${show(theirs)}}, the model {${show(predicted)}}`);
  }

  private whatIfChange(op: Op): object[] | null {
    const user = (i: number) => this.ids.people[i];
    switch (op.kind) {
      case 'manager':
        return [{ type: 'manager-changed', userId: user(op.user), managerId: op.manager === null ? null : user(op.manager) }];
      case 'positions': {
        const now = this.world.people.get(user(op.user))!.positions;
        const next = op.positions.map((p) => this.ids.positions[p]);
        const changes = [
          ...now.filter((p) => !next.includes(p)).map((positionId) => ({ type: 'user-leaves-position', userId: user(op.user), positionId })),
          ...next.filter((p) => !now.includes(p)).map((positionId) => ({ type: 'user-joins-position', userId: user(op.user), positionId })),
        ];
        return changes.length ? changes : null;
      }
      case 'status':
        return op.active || !this.world.people.get(user(op.user))!.active ? null : [{ type: 'user-deactivated', userId: user(op.user) }];
      case 'groupParent': {
        const id = this.ids.groups[op.group];
        return [{ type: 'group-moved', groupId: id, parentGroupIds: op.parent === null ? [] : [this.ids.groups[op.parent]] }];
      }
      case 'groupDelete':
        return this.world.groups.get(this.ids.groups[op.group])!.live ? [{ type: 'group-deleted', groupId: this.ids.groups[op.group] }] : null;
      case 'limit':
        return [{ type: 'decision-limit-changed', decisionId: this.ids.decisions[op.decision], authorityTypeId: this.typeId, value: op.value }];
      default:
        return null;
    }
  }

  /** How many of the run's delegations had expired by its last step. */
  expired(): { expired: number; swept: number } {
    const past = [...this.world.delegations.values()].filter((d) => d.expiresAt !== null && d.expiresAt <= this.now());
    return { expired: past.length, swept: past.filter((d) => d.status === 'EXPIRED').length };
  }

  /** Draws the next op from the model's state. */
  nextOp(): Op {
    return randomOp(this.random, this.world, this.ids);
  }
}

function describeDelegation(w: World, id: string): string {
  const d = w.delegations.get(id)!;
  return `${d.parentId ? `under ${w.delegations.get(d.parentId)!.displayId}` : 'root'}, ${d.recipientType}, ${d.pathways.join('+')}, ${d.status}`;
}

/** Runs a seed: set-up, then `steps` random operations (or `ops`, replayed), comparing after each. */
export async function runModelSeed(t: ModelTarget, seed: number, steps: number, ops?: readonly Op[]): Promise<RunResult> {
  const random = new Random(seededRandom(seed));
  const run = new ModelRun(t, random, `m${seed}-${Date.now().toString(36)}`);
  const done: Op[] = [];
  try {
    await run.setUp();
    for (let i = 0; ops ? i < ops.length : i < steps; i++) {
      const op = ops ? ops[i] : run.nextOp();
      done.push(op);
      await run.step(op);
    }
    return { seed, ops: done, applied: run.applied, comparisons: run.comparisons, ...run.expired(), disagreement: null };
  } catch (err) {
    if (!(err instanceof Disagreement)) throw err;
    return { seed, ops: done, applied: run.applied, comparisons: run.comparisons, expired: 0, swept: 0, disagreement: { step: done.length, message: err.message } };
  }
}

/**
 * A shorter sequence that still disagrees (delta debugging: drop chunks, halving their size, while
 * one still fails), at most `budget` replays and none begun after `deadline` (epoch ms). The set-up is the seed's, so indices keep their meaning.
 */
export async function shrinkModelRun(t: ModelTarget, failed: RunResult, budget = 40, deadline = Infinity): Promise<RunResult> {
  let best = failed;
  let chunk = Math.max(1, Math.floor(best.ops.length / 2));
  let tries = 0;
  const more = () => tries < budget && Date.now() < deadline;
  while (chunk >= 1 && more()) {
    let progressed = false;
    for (let from = 0; from < best.ops.length && more(); ) {
      const candidate = [...best.ops.slice(0, from), ...best.ops.slice(from + chunk)];
      tries++;
      const replay = await runModelSeed(t, best.seed, 0, candidate);
      if (replay.disagreement) {
        best = { ...replay, ops: replay.ops };
        progressed = true;
      } else from += chunk;
    }
    if (!progressed) chunk = Math.floor(chunk / 2);
  }
  return best;
}

/** A run and its reproduction in words: the seed, the calls, and what disagreed. */
export function modelReport(result: RunResult): string {
  const lines = [`AUTHORITY_MODEL_SEED=${result.seed}: ${result.ops.length} operations`, ...result.ops.map((op, i) => `  ${i + 1}. ${describe(op)}`)];
  if (result.disagreement) lines.push(`  disagreement after step ${result.disagreement.step}: ${result.disagreement.message}`);
  return lines.join('\n');
}
