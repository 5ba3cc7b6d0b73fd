/**
 * An organisation and its delegations as plain data, and what follows from them, written from the
 * product's documented rules and nothing of its code (no rules module, SQL or views imported): who
 * may decide what up to which limit and through which chain, who holds a decision, what a person
 * may decide, and which live delegations are invalid and why. Brute force over small worlds: every
 * answer is recomputed from the whole state, so nothing is "kept up to date" that could be missed.
 *
 * The rules, as the API documents them:
 * - A person holds a delegation given to them (SPECIFIC_PERSONNEL), to them in a position they hold
 *   (PERSONNEL_IN_POSITION), or to a position they hold (POSITION_ONLY). An inactive person holds
 *   nothing and is reached by no pathway; an inactive position is held by no one.
 * - Pathways: Matrix reaches any active person (and an active position, even vacant); Direct Line
 *   a direct report of the issuer; Down-Line anyone below the issuer; Functional a person sharing a
 *   group with the issuer (their own groups plus their positions'). A position is reached through its
 *   active holders; a vacant position only along Matrix. A closed group joins no one.
 * - A live delegation is invalid for: Recipient (the person inactive, the position inactive, the
 *   person no longer in the position), Issuer (the issuer no longer holds the parent, or the position
 *   issued from), Pathway (a pathway outside the parent's or the decision's; the sound, occupied
 *   recipient of a redelegation no longer reachable from its issuer along any of its pathways),
 *   Authority (a limit above the parent's or the decision's, a type either lacks, the parent's not
 *   redelegable), Groups (a group closed, or not within the parent's or the decision's: one of them or
 *   below one), Parent (the parent not ISSUED/ACCEPTED, or invalid).
 * - A check allows when the decision is PUBLISHED and some chain ending in a delegation the subject
 *   holds has every link ISSUED or ACCEPTED and valid, covers the group asked (a link without groups
 *   covers any live group; with groups, one of them reaches the group through live groups), holds the
 *   type, and each limit admits the value, and none has expired by then. The answer's limit is the
 *   highest of the chains allowing. A redelegation expires no later than its parent.
 */

export const PATHWAYS = ['Matrix', 'Direct Line', 'Down-Line', 'Functional'] as const;
export type Pathway = (typeof PATHWAYS)[number];
export type RecipientType = 'SPECIFIC_PERSONNEL' | 'PERSONNEL_IN_POSITION' | 'POSITION_ONLY';
export type IssuerType = 'ROOT_AUTHORITY' | RecipientType;
export type Status = 'ISSUED' | 'ACCEPTED' | 'SUSPENDED' | 'REVOKED' | 'EXPIRED';
export const INVALID_FIELDS = ['Recipient', 'Issuer', 'Pathway', 'Authority', 'Groups', 'Parent'] as const;
export type InvalidField = (typeof INVALID_FIELDS)[number];

export interface Person {
  active: boolean;
  manager: string | null;
  positions: string[];
  /** Their own groups (those of the positions they hold come with the positions). */
  groups: string[];
}
export interface Position {
  active: boolean;
  groups: string[];
}
export interface Group {
  parents: string[];
  live: boolean;
}
/** A decision with one authority type, in USD, `<=` its limit (whole dollars). */
export interface Decision {
  id: string;
  displayId: string;
  published: boolean;
  pathways: Pathway[];
  groups: string[];
  limit: bigint;
}
export interface Delegation {
  id: string;
  displayId: string;
  decisionId: string;
  parentId: string | null;
  status: Status;
  /** It was accepted once (resumed, it is ACCEPTED again). */
  accepted: boolean;
  issuerType: IssuerType;
  issuerUserId: string | null;
  issuerPositionId: string | null;
  recipientType: RecipientType;
  recipientUserId: string | null;
  recipientPositionId: string | null;
  pathways: Pathway[];
  groups: string[];
  limit: bigint;
  redelegable: boolean;
  /** When it stops giving authority (epoch ms; null: never). Its status becomes EXPIRED when the product's sweep gets to it. */
  expiresAt: number | null;
}

/** The whole state at one instant. */
export interface World {
  people: Map<string, Person>;
  positions: Map<string, Position>;
  groups: Map<string, Group>;
  decisions: Map<string, Decision>;
  delegations: Map<string, Delegation>;
}

export function emptyWorld(): World {
  return { people: new Map(), positions: new Map(), groups: new Map(), decisions: new Map(), delegations: new Map() };
}

/** A deep copy (the world at an instant is kept while the next one is made). */
export function cloneWorld(w: World): World {
  const copy = <T>(m: Map<string, T>) => new Map([...m].map(([k, v]) => [k, structuredClone(v)]));
  return { people: copy(w.people), positions: copy(w.positions), groups: copy(w.groups), decisions: copy(w.decisions), delegations: copy(w.delegations) };
}

const LIVE: readonly Status[] = ['ISSUED', 'ACCEPTED', 'SUSPENDED'];
const HOLDING: readonly Status[] = ['ISSUED', 'ACCEPTED'];

export const isLive = (d: Delegation) => LIVE.includes(d.status);

function activePerson(w: World, id: string | null): boolean {
  return id !== null && (w.people.get(id)?.active ?? false);
}

/** The active people holding a position. */
export function holdersOf(w: World, positionId: string): string[] {
  return [...w.people].filter(([, p]) => p.active && p.positions.includes(positionId)).map(([id]) => id);
}

/** Whether the person holds the position today: both active, and the position among theirs. */
export function holdsPosition(w: World, userId: string, positionId: string | null): boolean {
  const p = w.people.get(userId);
  return !!p && p.active && positionId !== null && p.positions.includes(positionId) && (w.positions.get(positionId)?.active ?? false);
}

/** Whether `userId` holds what the delegation names, today. */
export function holds(w: World, d: Delegation, userId: string): boolean {
  if (!activePerson(w, userId)) return false;
  switch (d.recipientType) {
    case 'SPECIFIC_PERSONNEL':
      return d.recipientUserId === userId;
    case 'PERSONNEL_IN_POSITION':
      return d.recipientUserId === userId && holdsPosition(w, userId, d.recipientPositionId);
    case 'POSITION_ONLY':
      return holdsPosition(w, userId, d.recipientPositionId);
  }
}

/** A person's live groups: their own and those of the positions they hold (a closed group joins no one). */
function groupsOfPerson(w: World, userId: string): Set<string> {
  const p = w.people.get(userId);
  if (!p) return new Set();
  return new Set([...p.groups, ...p.positions.flatMap((pos) => w.positions.get(pos)?.groups ?? [])].filter((g) => w.groups.get(g)?.live));
}

function below(w: World, userId: string, issuer: string): boolean {
  const seen = new Set([userId]);
  for (let m = w.people.get(userId)?.manager ?? null; m !== null; m = w.people.get(m)?.manager ?? null) {
    if (m === issuer) return true;
    if (seen.has(m)) return false;
    seen.add(m);
  }
  return false;
}

/** The people a delegation names (the person, or the active holders of the position). */
function named(w: World, d: Pick<Delegation, 'recipientType' | 'recipientUserId' | 'recipientPositionId'>): string[] {
  const people = d.recipientType === 'POSITION_ONLY' ? holdersOf(w, d.recipientPositionId!) : [d.recipientUserId!];
  return people.filter((u) => activePerson(w, u));
}

/** Whether the recipient is reachable from the issuer along the pathway. */
export function reaches(w: World, pathway: Pathway, issuer: string, d: Pick<Delegation, 'recipientType' | 'recipientUserId' | 'recipientPositionId'>): boolean {
  const people = named(w, d);
  const position = d.recipientType === 'SPECIFIC_PERSONNEL' ? null : d.recipientPositionId;
  switch (pathway) {
    case 'Matrix':
      return people.length > 0 || (d.recipientType === 'POSITION_ONLY' && (w.positions.get(position!)?.active ?? false));
    case 'Direct Line':
      return people.some((u) => w.people.get(u)!.manager === issuer);
    case 'Down-Line':
      return people.some((u) => below(w, u, issuer));
    case 'Functional': {
      if (!people.length) return false;
      const mine = groupsOfPerson(w, issuer);
      const meets = (gs: Iterable<string>) => [...gs].some((g) => mine.has(g));
      return people.some((u) => meets(groupsOfPerson(w, u))) || (position !== null && meets((w.positions.get(position)?.groups ?? []).filter((g) => w.groups.get(g)?.live)));
    }
  }
}

/** Whether group `g` is one of `scope` or below one of them (any parents, cycle-safe). */
export function within(w: World, g: string, scope: readonly string[]): boolean {
  const seen = new Set<string>();
  for (const todo = [g]; todo.length; ) {
    const x = todo.pop()!;
    if (scope.includes(x)) return true;
    if (seen.has(x)) continue;
    seen.add(x);
    todo.push(...(w.groups.get(x)?.parents ?? []));
  }
  return false;
}

function recipientUnsound(w: World, d: Delegation): boolean {
  if (d.recipientType !== 'POSITION_ONLY' && !activePerson(w, d.recipientUserId)) return true;
  if (d.recipientType !== 'SPECIFIC_PERSONNEL' && !(w.positions.get(d.recipientPositionId!)?.active ?? false)) return true;
  return d.recipientType === 'PERSONNEL_IN_POSITION' && !w.people.get(d.recipientUserId!)!.positions.includes(d.recipientPositionId!);
}

/**
 * The invalid fields of every live delegation, parents before children (a parent's invalidity is
 * its children's `Parent`). Delegations that are no longer live are not in the answer.
 */
export function invalidity(w: World): Map<string, InvalidField[]> {
  const out = new Map<string, InvalidField[]>();
  const depth = (d: Delegation): number => (d.parentId ? 1 + depth(w.delegations.get(d.parentId)!) : 0);
  const live = [...w.delegations.values()].filter(isLive).sort((a, b) => depth(a) - depth(b));
  for (const d of live) {
    const decision = w.decisions.get(d.decisionId)!;
    const parent = d.parentId ? w.delegations.get(d.parentId)! : null;
    const found = new Set<InvalidField>();
    if (recipientUnsound(w, d)) found.add('Recipient');
    if ((d.issuerType === 'PERSONNEL_IN_POSITION' || d.issuerType === 'POSITION_ONLY') && !(d.issuerUserId && holdsPosition(w, d.issuerUserId, d.issuerPositionId))) found.add('Issuer');
    if (parent && d.issuerUserId && !holds(w, parent, d.issuerUserId)) found.add('Issuer');
    if (d.pathways.some((p) => !decision.pathways.includes(p) || (parent !== null && !parent.pathways.includes(p)))) found.add('Pathway');
    const vacant = d.recipientType === 'POSITION_ONLY' && holdersOf(w, d.recipientPositionId!).length === 0;
    if (parent && d.issuerUserId && !recipientUnsound(w, d) && !vacant && !d.pathways.some((p) => reaches(w, p, d.issuerUserId!, d))) found.add('Pathway');
    if (d.limit > decision.limit || (parent !== null && (!parent.redelegable || d.limit > parent.limit))) found.add('Authority');
    if (d.groups.some((g) => !(w.groups.get(g)?.live ?? false) || !within(w, g, decision.groups) || (parent !== null && !within(w, g, parent.groups)))) found.add('Groups');
    if (parent && (!HOLDING.includes(parent.status) || (out.get(parent.id)?.length ?? 0) > 0)) found.add('Parent');
    out.set(d.id, INVALID_FIELDS.filter((f) => found.has(f)));
  }
  return out;
}

/** Who is asked about: a person, or a position (POSITION_ONLY delegations only). */
export type Subject = { userId: string } | { positionId: string };

export interface CheckAnswer {
  allowed: boolean;
  /** The highest limit of the chains that allow (null when none does). */
  limit: bigint | null;
}

/** Whether link group `from` reaches `target` through live groups (a link without groups: any live group). */
function covers(w: World, linkGroups: readonly string[], target: string): boolean {
  const live = (g: string) => w.groups.get(g)?.live ?? false;
  if (!live(target)) return false;
  if (!linkGroups.length) return true;
  const seen = new Set<string>();
  for (const todo = [target]; todo.length; ) {
    const g = todo.pop()!;
    if (linkGroups.includes(g)) return true;
    if (seen.has(g)) continue;
    seen.add(g);
    todo.push(...(w.groups.get(g)?.parents ?? []).filter(live));
  }
  return false;
}

/** The delegations of a decision the subject holds (an inactive person holds none). */
function heldBy(w: World, decisionId: string, subject: Subject): Delegation[] {
  const all = [...w.delegations.values()].filter((d) => d.decisionId === decisionId);
  if ('positionId' in subject) return all.filter((d) => d.recipientType === 'POSITION_ONLY' && d.recipientPositionId === subject.positionId);
  const p = w.people.get(subject.userId);
  if (!p || !p.active) return [];
  return all.filter((d) => holds(w, d, subject.userId));
}

/** Whether the delegation or one above it has expired by `at` (epoch ms). */
export function expiredBy(w: World, d: Delegation, at: number): boolean {
  for (let link: Delegation | null = d; link; link = link.parentId ? w.delegations.get(link.parentId)! : null) {
    if (link.expiresAt !== null && link.expiresAt <= at) return true;
  }
  return false;
}

/** The limit a chain ending in `d` holds for the question at `at` (null: it does not allow). */
function chainLimit(w: World, d: Delegation, invalid: Map<string, InvalidField[]>, at: number, value: bigint | null, groupId: string | null): bigint | null {
  for (let link: Delegation | null = d; link; link = link.parentId ? w.delegations.get(link.parentId)! : null) {
    if (!HOLDING.includes(link.status) || (invalid.get(link.id)?.length ?? 0) > 0) return null;
    if (link.expiresAt !== null && link.expiresAt <= at) return null;
    if (groupId !== null && !covers(w, link.groups, groupId)) return null;
    if (value !== null && value > link.limit) return null;
  }
  return d.limit;
}

/** May the subject decide `value` (null: any value) of the decision, in the group (null: anywhere), at `at` (epoch ms; the world is as it stood then)? */
export function check(w: World, at: number, subject: Subject, decisionId: string, value: bigint | null, groupId: string | null, invalid = invalidity(w)): CheckAnswer {
  const decision = w.decisions.get(decisionId);
  if (!decision || !decision.published) return { allowed: false, limit: null };
  let best: bigint | null = null;
  for (const d of heldBy(w, decisionId, subject)) {
    const limit = chainLimit(w, d, invalid, at, value, groupId);
    if (limit !== null && (best === null || limit > best)) best = limit;
  }
  return { allowed: best !== null, limit: best };
}

/** Who holds the decision: each person (and each POSITION_ONLY position) once, with the highest limit. */
export function holdersOfDecision(w: World, at: number, decisionId: string, groupId: string | null = null, invalid = invalidity(w)): Map<string, bigint> {
  const out = new Map<string, bigint>();
  const decision = w.decisions.get(decisionId);
  if (!decision || !decision.published) return out;
  const subjects: Subject[] = [
    ...[...w.people.keys()].map((userId) => ({ userId })),
    ...[...w.positions.keys()].filter((id) => [...w.delegations.values()].some((d) => d.recipientType === 'POSITION_ONLY' && d.recipientPositionId === id)).map((positionId) => ({ positionId })),
  ];
  for (const s of subjects) {
    const a = check(w, at, s, decisionId, null, groupId, invalid);
    if (a.allowed) out.set('userId' in s ? s.userId : s.positionId, a.limit!);
  }
  return out;
}

/** What a person may decide: the highest limit per decision. */
export function decisionsHeld(w: World, at: number, subject: Subject, invalid = invalidity(w)): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const id of w.decisions.keys()) {
    const a = check(w, at, subject, id, null, null, invalid);
    if (a.allowed) out.set(id, a.limit!);
  }
  return out;
}

/** The live delegations a change leaves invalid for other fields than now, with all the fields they would have (what-if's `invalidated`). */
export function newlyInvalid(before: World, after: World): Map<string, InvalidField[]> {
  const was = invalidity(before);
  const now = invalidity(after);
  const out = new Map<string, InvalidField[]>();
  for (const [id, fields] of now) {
    if (fields.length && fields.join() !== (was.get(id) ?? []).join()) out.set(id, fields);
  }
  return out;
}
