/**
 * The operations the model drives the product with, as replayable data (indices into the run's own
 * people, positions, groups, decisions and delegations, so a shortened sequence still means
 * something), how random ones are drawn from the model's state, and what each does to the model,
 * including whether the product must accept it.
 */
import { Delegation, Pathway, PATHWAYS, RecipientType, World, check, cloneWorld, holds, invalidity, isLive, reaches, within } from './model';

export type Recipient = { type: RecipientType; user: number | null; position: number | null };

export type Op =
  | { kind: 'manager'; user: number; manager: number | null }
  | { kind: 'positions'; user: number; positions: number[] }
  | { kind: 'groups'; user: number; groups: number[] }
  | { kind: 'status'; user: number; active: boolean }
  | { kind: 'positionStatus'; position: number; active: boolean }
  | { kind: 'groupParent'; group: number; parent: number | null }
  | { kind: 'groupDelete'; group: number }
  | { kind: 'limit'; decision: number; value: string }
  | { kind: 'publish'; decision: number; published: boolean }
  | {
      kind: 'issue';
      decision: number;
      parent: number | null;
      issuer: number | null;
      recipient: Recipient;
      pathways: Pathway[];
      groups: number[];
      limit: string;
      redelegable: boolean;
      /** Expires this long after it is sent (null: no expiration); a redelegation's is measured back from its parent's (`fromParent`). */
      expires: { inMs: number; fromParent: boolean } | null;
    }
  | { kind: 'move'; delegation: number; action: 'suspend' | 'resume' | 'revoke' | 'accept' };

/** The ids behind the indices of one run (made by its set-up, extended as delegations are issued). */
export interface Ids {
  people: string[];
  positions: string[];
  groups: string[];
  decisions: string[];
  delegations: string[];
}

/** An op that changes the organisation (what-if is asked about it first). */
export const ORG_KINDS: readonly Op['kind'][] = ['manager', 'positions', 'groups', 'status', 'positionStatus', 'groupParent', 'groupDelete', 'limit'];

export class Random {
  constructor(readonly next: () => number) {}
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  some<T>(xs: readonly T[], max = xs.length): T[] {
    return [...xs].sort(() => this.next() - 0.5).slice(0, this.int(Math.min(max, xs.length) + 1));
  }
}

const LIMITS = ['1000', '5000', '20000', '50000', '100000'];
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Whether `candidate` is `user` or below them (so making it their manager would close a loop). */
function belowOrSelf(w: World, ids: Ids, user: number, candidate: number): boolean {
  const target = ids.people[user];
  const seen = new Set<string>();
  for (let m: string | null = ids.people[candidate]; m !== null && !seen.has(m); m = w.people.get(m)?.manager ?? null) {
    if (m === target) return true;
    seen.add(m);
  }
  return false;
}

/** Whether group `parent` is `group` or below it (so making it its parent would close a loop). */
function groupBelowOrSelf(w: World, ids: Ids, group: number, parent: number): boolean {
  return within(w, ids.groups[parent], [ids.groups[group]]);
}

/** A random operation that makes sense in the model's state (most are accepted; some are meant to be refused). */
export function randomOp(r: Random, w: World, ids: Ids): Op {
  for (;;) {
    const op = drawOp(r, w, ids);
    if (applicable(op, w, ids)) return op;
  }
}

function drawOp(r: Random, w: World, ids: Ids): Op {
  const people = range(ids.people.length);
  const liveGroups = range(ids.groups.length).filter((g) => w.groups.get(ids.groups[g])!.live);
  const delegations = range(ids.delegations.length);
  const live = delegations.filter((i) => ['ISSUED', 'ACCEPTED', 'SUSPENDED'].includes(w.delegations.get(ids.delegations[i])!.status) && !nearExpiry(w.delegations.get(ids.delegations[i])!));
  for (;;) {
    const roll = r.int(100);
    if (roll < 10) {
      const user = r.pick(people);
      const options = people.filter((m) => !belowOrSelf(w, ids, user, m));
      return { kind: 'manager', user, manager: r.chance(0.15) || !options.length ? null : r.pick(options) };
    }
    if (roll < 18) return { kind: 'positions', user: r.pick(people), positions: r.some(range(ids.positions.length), 2) };
    if (roll < 22) return { kind: 'groups', user: r.pick(people), groups: r.some(liveGroups, 2) };
    if (roll < 27) {
      const user = r.pick(people);
      return { kind: 'status', user, active: !w.people.get(ids.people[user])!.active };
    }
    if (roll < 29) {
      const position = r.int(ids.positions.length);
      return { kind: 'positionStatus', position, active: !w.positions.get(ids.positions[position])!.active };
    }
    if (roll < 33 && liveGroups.length > 1) {
      const group = r.pick(liveGroups.filter((g) => g !== 0));
      if (group === undefined) continue;
      const parents = liveGroups.filter((p) => !groupBelowOrSelf(w, ids, group, p));
      return { kind: 'groupParent', group, parent: r.chance(0.2) || !parents.length ? null : r.pick(parents) };
    }
    if (roll < 35 && liveGroups.length > 2) {
      const group = r.pick(liveGroups.filter((g) => g !== 0));
      if (group === undefined) continue;
      return { kind: 'groupDelete', group };
    }
    if (roll < 40) return { kind: 'limit', decision: r.int(ids.decisions.length), value: r.pick(LIMITS) };
    if (roll < 43) {
      const decision = r.int(ids.decisions.length);
      return { kind: 'publish', decision, published: !w.decisions.get(ids.decisions[decision])!.published };
    }
    if (roll < 80) {
      const op = randomIssue(r, w, ids, live);
      if (op) return op;
      continue;
    }
    if (!live.length) continue;
    const delegation = r.pick(live);
    const d = w.delegations.get(ids.delegations[delegation])!;
    const action = d.status === 'SUSPENDED' ? r.pick(['resume', 'revoke'] as const) : r.pick(['suspend', 'revoke', 'accept', 'accept'] as const);
    if (action === 'accept' && (d.status !== 'ISSUED' || d.recipientType !== 'SPECIFIC_PERSONNEL' || !w.people.get(d.recipientUserId!)!.active)) continue;
    return { kind: 'move', delegation, action };
  }
}

/** A root delegation (a third of the time, or when nothing is held) or a redelegation by someone holding a live one. */
function randomIssue(r: Random, w: World, ids: Ids, live: number[]): Op | null {
  const recipient = (): Recipient => {
    const type = r.pick(['SPECIFIC_PERSONNEL', 'SPECIFIC_PERSONNEL', 'PERSONNEL_IN_POSITION', 'POSITION_ONLY'] as const);
    const user = r.int(ids.people.length);
    const held = w.people.get(ids.people[user])!.positions.map((p) => ids.positions.indexOf(p));
    if (type === 'SPECIFIC_PERSONNEL') return { type, user, position: null };
    if (type === 'PERSONNEL_IN_POSITION') return held.length ? { type, user, position: r.pick(held) } : { type: 'SPECIFIC_PERSONNEL', user, position: null };
    return { type, user: null, position: r.int(ids.positions.length) };
  };
  const groupsUnder = (scope: readonly string[]) =>
    range(ids.groups.length).filter((g) => w.groups.get(ids.groups[g])!.live && (scope.length === 0 || within(w, ids.groups[g], scope)));
  const parents = live.filter((i) => ['ISSUED', 'ACCEPTED'].includes(w.delegations.get(ids.delegations[i])!.status));
  if (!parents.length || r.chance(0.3)) {
    const decision = r.int(ids.decisions.length);
    const dec = w.decisions.get(ids.decisions[decision])!;
    const pathways = r.some(dec.pathways, 3);
    return {
      kind: 'issue',
      decision,
      parent: null,
      issuer: null,
      recipient: recipient(),
      pathways: pathways.length ? pathways : [dec.pathways[0]],
      groups: r.chance(0.5) ? [] : r.some(groupsUnder(dec.groups), 2),
      limit: r.pick(LIMITS),
      redelegable: r.chance(0.8),
      expires: r.chance(0.2) ? { inMs: 3_000 + r.int(12_000), fromParent: false } : null,
    };
  }
  const parent = r.pick(parents.filter((i) => !nearExpiry(w.delegations.get(ids.delegations[i])!)));
  if (parent === undefined) return null;
  const p = w.delegations.get(ids.delegations[parent])!;
  const holders = range(ids.people.length).filter((u) => holds(w, p, ids.people[u]));
  if (!holders.length) return null;
  const issuer = r.pick(holders);
  const dec = w.decisions.get(p.decisionId)!;
  const pathways = r.some(p.pathways, 2);
  // Mostly a recipient the issuer reaches (so most are accepted); sometimes anyone (so refusals are compared too).
  let to = recipient();
  for (let tries = 0; tries < 6 && !r.chance(0.15); tries++) {
    const candidate = recipient();
    const d = toRecipient(ids, candidate);
    if ((pathways.length ? pathways : p.pathways).some((pw) => reaches(w, pw, ids.people[issuer], d))) {
      to = candidate;
      break;
    }
  }
  const cap = [p.limit, dec.limit].reduce((a, b) => (a < b ? a : b));
  const limits = LIMITS.filter((l) => BigInt(l) <= cap);
  return {
    kind: 'issue',
    decision: ids.decisions.indexOf(p.decisionId),
    parent,
    issuer,
    recipient: to,
    pathways: pathways.length ? pathways : [p.pathways[0]],
    groups: p.groups.length && r.chance(0.6) ? r.some(groupsUnder(p.groups), 1) : p.groups.map((g) => ids.groups.indexOf(g)),
    limit: limits.length && !r.chance(0.1) ? r.pick(limits) : r.pick(LIMITS),
    redelegable: r.chance(0.7),
    // Under a parent that expires: no later than it (now and then none, or later, which is refused); else now and then an expiry of its own.
    expires:
      p.expiresAt !== null
        ? r.chance(0.1)
          ? r.pick([null, { inMs: -1_000, fromParent: true }])
          : { inMs: r.int(1_000), fromParent: true }
        : r.chance(0.15)
          ? { inMs: 3_000 + r.int(12_000), fromParent: false }
          : null,
  };
}

export function toRecipient(ids: Ids, r: Recipient): Pick<Delegation, 'recipientType' | 'recipientUserId' | 'recipientPositionId'> {
  return { recipientType: r.type, recipientUserId: r.user === null ? null : ids.people[r.user], recipientPositionId: r.position === null ? null : ids.positions[r.position] };
}

/**
 * A delegation that has expired or will within EXPIRY_MARGIN_MS: the product's clock and the model's
 * could fall on either side of it, so no move or redelegation is made of it (what it answers at an
 * instant is compared all the same).
 */
export const EXPIRY_MARGIN_MS = 1_500;
export function nearExpiry(d: Delegation, now = Date.now()): boolean {
  return d.expiresAt !== null && d.expiresAt <= now + EXPIRY_MARGIN_MS;
}

/** When an issue sent now would expire (epoch ms; null: never): its own span, or its parent's expiry less a margin. */
export function expiryOf(w: World, ids: Ids, op: Extract<Op, { kind: 'issue' }>, now = Date.now()): number | null {
  if (op.expires === null) return null;
  if (!op.expires.fromParent || op.parent === null) return now + op.expires.inMs;
  const parent = w.delegations.get(ids.delegations[op.parent])!;
  return parent.expiresAt === null ? now + op.expires.inMs : parent.expiresAt - op.expires.inMs;
}

/**
 * Whether an op is to be made: its indices still name things of the run (a shortened sequence may
 * have fewer delegations), and a change of the organisation or a decision changes something (the
 * API refuses to propose what already is).
 */
export function applicable(op: Op, w: World, ids: Ids): boolean {
  const person = (i: number) => w.people.get(ids.people[i])!;
  const same = (a: readonly string[], b: readonly string[]) => [...a].sort().join() === [...b].sort().join();
  switch (op.kind) {
    case 'move':
      return op.delegation < ids.delegations.length && !nearExpiry(w.delegations.get(ids.delegations[op.delegation])!);
    case 'issue':
      return op.parent === null || (op.parent < ids.delegations.length && !nearExpiry(w.delegations.get(ids.delegations[op.parent])!));
    case 'manager':
      return person(op.user).manager !== (op.manager === null ? null : ids.people[op.manager]) && (op.manager === null || !belowOrSelf(w, ids, op.user, op.manager));
    case 'positions':
      return !same(person(op.user).positions, op.positions.map((p) => ids.positions[p]));
    case 'groups':
      return !same(person(op.user).groups, op.groups.map((g) => ids.groups[g])) && op.groups.every((g) => w.groups.get(ids.groups[g])!.live);
    case 'status':
      return person(op.user).active !== op.active;
    case 'positionStatus':
      return w.positions.get(ids.positions[op.position])!.active !== op.active;
    case 'groupParent': {
      const g = w.groups.get(ids.groups[op.group])!;
      const next = op.parent === null ? [] : [ids.groups[op.parent]];
      return g.live && !same(g.parents, next) && (op.parent === null || (w.groups.get(ids.groups[op.parent])!.live && !groupBelowOrSelf(w, ids, op.group, op.parent)));
    }
    case 'groupDelete':
      return w.groups.get(ids.groups[op.group])!.live;
    case 'limit':
      return w.decisions.get(ids.decisions[op.decision])!.limit !== BigInt(op.value);
    case 'publish':
      return w.decisions.get(ids.decisions[op.decision])!.published !== op.published;
  }
}

/**
 * Whether the product must accept an issue (the model's reading of the issuing rules): a root needs a
 * PUBLISHED decision, pathways and groups within the decision's, a limit within it and a sound
 * recipient; a redelegation also an issuer holding the parent, a parent ISSUED/ACCEPTED, valid and
 * redelegable, everything within the parent's, and the recipient reachable along one of the pathways.
 */
export function issueAccepted(w: World, ids: Ids, op: Extract<Op, { kind: 'issue' }>, expiresAt: number | null, now = Date.now()): boolean {
  const dec = w.decisions.get(ids.decisions[op.decision])!;
  const rec = toRecipient(ids, op.recipient);
  const groups = op.groups.map((g) => ids.groups[g]);
  const limit = BigInt(op.limit);
  const person = rec.recipientUserId ? w.people.get(rec.recipientUserId)! : null;
  const position = rec.recipientPositionId ? w.positions.get(rec.recipientPositionId)! : null;
  if (!dec.published) return false;
  if (op.pathways.some((p) => !dec.pathways.includes(p)) || limit > dec.limit) return false;
  if (groups.some((g) => !w.groups.get(g)!.live || !within(w, g, dec.groups))) return false;
  if (rec.recipientType !== 'POSITION_ONLY' && !person?.active) return false;
  if (rec.recipientType !== 'SPECIFIC_PERSONNEL' && !position?.active) return false;
  if (rec.recipientType === 'PERSONNEL_IN_POSITION' && !person!.positions.includes(rec.recipientPositionId!)) return false;
  if (expiresAt !== null && expiresAt <= now) return false;
  if (op.parent === null) return true;
  const parent = w.delegations.get(ids.delegations[op.parent])!;
  const issuer = ids.people[op.issuer!];
  if (!holds(w, parent, issuer)) return false;
  // Not outliving the parent: an expiry, no later than the parent's; the parent not expired.
  if (parent.expiresAt !== null && (parent.expiresAt <= now || expiresAt === null || expiresAt > parent.expiresAt)) return false;
  if (!['ISSUED', 'ACCEPTED'].includes(parent.status) || (invalidity(w).get(parent.id)?.length ?? 0) > 0 || !parent.redelegable) return false;
  if (op.pathways.some((p) => !parent.pathways.includes(p)) || limit > parent.limit) return false;
  if (groups.some((g) => !within(w, g, parent.groups))) return false;
  return op.pathways.some((p) => reaches(w, p, issuer, rec));
}

/**
 * How the product refuses an issue the model refuses: 404 naming the field when the body names a
 * group that is gone (every id in a body must name a live record, checked before the rules), else
 * 400 or 403 (a rule of the decision, the parent or the recipient).
 */
export function issueRefusal(w: World, ids: Ids, op: Extract<Op, { kind: 'issue' }>): number[] {
  return op.groups.some((g) => !w.groups.get(ids.groups[g])!.live) ? [404] : [400, 403];
}

/** Whether the product must accept a status move, by the status machine. */
export function moveAccepted(d: Delegation, action: Extract<Op, { kind: 'move' }>['action']): boolean {
  switch (action) {
    case 'suspend':
      return d.status === 'ISSUED' || d.status === 'ACCEPTED';
    case 'resume':
      return d.status === 'SUSPENDED';
    case 'revoke':
      return isLive(d);
    case 'accept':
      return d.status === 'ISSUED';
  }
}

/** The world after an accepted op (issue: `issued` names the new delegation's ids). */
export function applyOp(before: World, ids: Ids, op: Op, issued?: { id: string; displayId: string; status: Delegation['status']; expiresAt: number | null }): World {
  const w = cloneWorld(before);
  const person = (i: number) => w.people.get(ids.people[i])!;
  switch (op.kind) {
    case 'manager':
      person(op.user).manager = op.manager === null ? null : ids.people[op.manager];
      break;
    case 'positions':
      person(op.user).positions = op.positions.map((p) => ids.positions[p]);
      break;
    case 'groups':
      person(op.user).groups = op.groups.map((g) => ids.groups[g]);
      break;
    case 'status':
      person(op.user).active = op.active;
      break;
    case 'positionStatus':
      w.positions.get(ids.positions[op.position])!.active = op.active;
      break;
    case 'groupParent':
      w.groups.get(ids.groups[op.group])!.parents = op.parent === null ? [] : [ids.groups[op.parent]];
      break;
    case 'groupDelete': {
      const id = ids.groups[op.group];
      w.groups.get(id)!.live = false;
      // Its children lose it as a parent (settings republishes them); positions and people keep the link.
      for (const g of w.groups.values()) g.parents = g.parents.filter((p) => p !== id);
      break;
    }
    case 'limit':
      w.decisions.get(ids.decisions[op.decision])!.limit = BigInt(op.value);
      break;
    case 'publish':
      w.decisions.get(ids.decisions[op.decision])!.published = op.published;
      break;
    case 'issue': {
      const rec = toRecipient(ids, op.recipient);
      const parent = op.parent === null ? null : w.delegations.get(ids.delegations[op.parent])!;
      w.delegations.set(issued!.id, {
        id: issued!.id,
        displayId: issued!.displayId,
        decisionId: ids.decisions[op.decision],
        parentId: parent?.id ?? null,
        status: issued!.status,
        accepted: false,
        issuerType: parent ? parent.recipientType : 'ROOT_AUTHORITY',
        issuerUserId: parent ? ids.people[op.issuer!] : null,
        issuerPositionId: parent && parent.recipientType !== 'SPECIFIC_PERSONNEL' ? parent.recipientPositionId : null,
        ...rec,
        pathways: [...op.pathways],
        groups: op.groups.map((g) => ids.groups[g]),
        limit: BigInt(op.limit),
        redelegable: op.redelegable,
        expiresAt: issued!.expiresAt,
      });
      break;
    }
    case 'move': {
      const d = w.delegations.get(ids.delegations[op.delegation])!;
      if (op.action === 'suspend') d.status = 'SUSPENDED';
      else if (op.action === 'resume') d.status = d.accepted ? 'ACCEPTED' : 'ISSUED';
      else if (op.action === 'accept') {
        d.status = 'ACCEPTED';
        d.accepted = true;
      } else {
        // Revoking takes the whole subtree with it: whatever of it is live (an EXPIRED one stays EXPIRED, a live one below it is revoked).
        const tree = new Set([d.id]);
        for (let grew = true; grew; ) {
          grew = false;
          for (const x of w.delegations.values()) {
            if (x.parentId && tree.has(x.parentId) && !tree.has(x.id)) {
              tree.add(x.id);
              grew = true;
            }
          }
        }
        for (const id of tree) {
          const x = w.delegations.get(id)!;
          if (isLive(x)) x.status = 'REVOKED';
        }
      }
      break;
    }
  }
  return w;
}

/** One op in words, as the API call it is (the shrunk reproduction is printed as these). */
export function describe(op: Op): string {
  switch (op.kind) {
    case 'manager':
      return `PATCH /auth/v1/user/update-entities/{person ${op.user}} {managerId: ${op.manager === null ? 'null' : `person ${op.manager}`}}`;
    case 'positions':
      return `PATCH /auth/v1/user/update-entities/{person ${op.user}} {positionIds: [${op.positions.map((p) => `position ${p}`).join(', ')}]}`;
    case 'groups':
      return `PATCH /auth/v1/user/update-entities/{person ${op.user}} {groups: [${op.groups.map((g) => `group ${g}`).join(', ')}]}`;
    case 'status':
      return `PATCH /auth/v1/user/bulk-status-update {userIds: [person ${op.user}], status: ${op.active ? 'ACTIVE' : 'INACTIVE'}}`;
    case 'positionStatus':
      return `PATCH /settings/v1/positions/{position ${op.position}} {status: ${op.active ? 'ACTIVE' : 'INACTIVE'}}`;
    case 'groupParent':
      return `PATCH /settings/v1/groups/{group ${op.group}} {parent: ${op.parent === null ? 'none' : `group ${op.parent}`}}`;
    case 'groupDelete':
      return `PATCH /settings/v1/groups/{group ${op.group}} {isDeleted: true}`;
    case 'limit':
      return `PATCH /decision/v1/decisions/{decision ${op.decision}} {limit: <= ${op.value} USD}`;
    case 'publish':
      return `PATCH /decision/v1/decisions/{decision ${op.decision}} {status: ${op.published ? 'PUBLISHED' : 'ARCHIVED'}}`;
    case 'issue':
      return (
        `POST /decision/v1/delegations {decision ${op.decision}, parent: ${op.parent === null ? 'root' : `delegation ${op.parent}`}, by: ${op.issuer === null ? 'admin' : `person ${op.issuer}`}, ` +
        `${op.recipient.type} ${op.recipient.user === null ? '' : `person ${op.recipient.user}`}${op.recipient.position === null ? '' : ` position ${op.recipient.position}`}, ` +
        `pathways [${op.pathways.join(', ')}], groups [${op.groups.map((g) => `group ${g}`).join(', ')}], <= ${op.limit} USD${op.redelegable ? ', redelegable' : ''}` +
        `${op.expires === null ? '' : op.expires.fromParent ? `, expiring ${op.expires.inMs} ms before its parent` : `, expiring in ${op.expires.inMs} ms`}}`
      );
    case 'move':
      return `POST /decision/v1/delegations/{delegation ${op.delegation}}/${op.action}`;
  }
}

/** The model's own answers, re-exported for the runner. */
export { check, PATHWAYS };
