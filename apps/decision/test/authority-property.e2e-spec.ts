import {
  Decision,
  Delegation,
  DelegationState,
  DelegationStatus,
  Group,
  Holding,
  Limit,
  Organisation,
  PATHWAYS,
  Recipient,
  ValueType,
  WrittenOrganisation,
  writeOrganisation,
} from './fixtures/authority-reference';
import { seededRandom, startHarness } from '@ddm/testing';
import { decisionApp, DecisionHarness } from './fixtures/decision-app';

/** The seed of the random organisations and checks: a failure names it, and AUTHORITY_PROPERTY_SEED replays them. */
const SEED = Number(process.env.AUTHORITY_PROPERTY_SEED ?? Date.now() % 1_000_000_000);
const ORGANISATIONS = 4;
const CHECKS_PER_ORGANISATION = 600;
const DELEGATIONS_PER_ORGANISATION = 70;
const MAX_DEPTH = 6;

const START = Date.parse('2024-12-01T00:00:00.000Z');
const FROM = Date.parse('2025-01-01T00:00:00.000Z');
const UNTIL = Date.parse('2025-12-31T00:00:00.000Z');
/** Checks look a little before and after the organisation's year too (all of it in the past). */
const CHECK_FROM = Date.parse('2024-11-15T00:00:00.000Z');
const CHECK_UNTIL = Date.parse('2026-01-31T00:00:00.000Z');

// ---------------------------------------------------------------------------------------------
// Exact decimals (millionths), written here, not borrowed from the engine.
// ---------------------------------------------------------------------------------------------

const MICRO = 1_000_000n;
function micros(value: string): bigint {
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(value);
  if (!m) throw new Error(`not a decimal: ${value}`);
  return BigInt(m[1]) * MICRO + BigInt((m[2] ?? '').padEnd(6, '0'));
}
function decimal(n: bigint): string {
  const whole = n / MICRO;
  const fraction = (n % MICRO).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}
const MAX_VALUE = 999_999_999_999_999_999_999n; // 15 digits before the point, 6 after

// ---------------------------------------------------------------------------------------------
// Random organisations.
// ---------------------------------------------------------------------------------------------

interface Subject {
  person: string | null;
  position: string | null;
  /** A person the organisation does not have (their record id). */
  strangerId: string | null;
}

interface RandomCheck {
  subject: Subject;
  decision: string;
  value: string | null;
  unit: string | null;
  group: string | null;
  /** A group id the tenant does not have. */
  strangeGroupId: string | null;
  at: string;
}

function randomOrganisation(random: () => number, index: number): Organisation {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const chance = (p: number) => random() < p;
  const iso = (ms: number) => new Date(ms).toISOString();
  /** An instant in [from, until): whole seconds half of the time, else to the millisecond. */
  const instant = (from: number, until: number) => {
    const ms = from + Math.floor(random() * Math.max(1, until - from));
    return chance(0.5) ? Math.max(from, ms - (ms % 1000)) : ms;
  };
  const people = Array.from({ length: 10 }, (_, i) => `P${i + 1}`);
  const positions = Array.from({ length: 6 }, (_, i) => `S${i + 1}`);

  // Holdings: one or two positions a person; per position one or two periods, one after the other.
  const holdings: Holding[] = [];
  for (const person of people) {
    const mine = [...positions].sort(() => random() - 0.5).slice(0, 1 + Math.floor(random() * 2));
    for (const position of mine) {
      let from = chance(0.5) ? START : instant(FROM, UNTIL);
      for (let k = 0; k < 2 && from < UNTIL; k++) {
        const to = chance(0.5) ? null : instant(from + 1, UNTIL);
        holdings.push({ person, position, from: iso(from), to: to === null ? null : iso(to) });
        if (to === null || chance(0.5)) break;
        from = instant(to, UNTIL);
      }
    }
  }

  // Groups: a forest whose parents always come earlier in the list (so no move makes a cycle); moves and closings over time.
  const groups: Group[] = [];
  for (let i = 0; i < 7; i++) {
    const earlier = groups.map((g) => g.name);
    const parentsOf = () => (i === 0 || chance(0.15) ? [] : chance(0.1) && earlier.length > 1 ? [...new Set([pick(earlier), pick(earlier)])] : [pick(earlier)]);
    const periods = [{ from: iso(START), to: null as string | null, parents: parentsOf(), live: true }];
    const changes = Math.floor(random() * 3);
    let at = START;
    for (let k = 0; k < changes; k++) {
      at = instant(Math.max(at + 1, FROM), UNTIL);
      const last = periods[periods.length - 1];
      last.to = iso(at);
      periods.push(chance(0.5) ? { from: iso(at), to: null, parents: parentsOf(), live: last.live } : { from: iso(at), to: null, parents: last.parents, live: !last.live });
    }
    groups.push({ name: `G${i + 1}`, periods });
  }

  // Decisions: one in USD from the start; two of any value type, created during the year, one perhaps deleted later.
  const valueTypes: ValueType[] = ['Currency', 'Currency', 'Number', 'Authorized'];
  const decisions: Decision[] = [0, 1, 2].map((k) => {
    const valueType: ValueType = k === 0 ? 'Currency' : pick(valueTypes);
    const created = k === 0 ? START : instant(START, Date.parse('2025-07-01T00:00:00.000Z'));
    const unit = valueType === 'Currency' ? 'USD' : null;
    const limit: Limit =
      valueType === 'Authorized' ? { valueType, operator: null, value: null, unit } : { valueType, operator: '<=', value: chance(0.3) ? 'Unlimited' : '1000000', unit };
    return {
      key: `K${k + 1}`,
      displayId: String(80_000 + index * 100 + k + 1),
      name: `Decide ${k + 1}`,
      authorityType: valueType === 'Authorized' ? 'Signatory' : 'Approval',
      limit,
      created: iso(created),
      deleted: k === 2 && chance(0.4) ? iso(instant(created + 1, UNTIL)) : null,
    };
  });

  // Delegations: trees up to MAX_DEPTH links; limits around the parent's; states over time.
  const delegations: Delegation[] = [];
  const depth = new Map<string, number>();
  const positionsOf = (person: string) => [...new Set(holdings.filter((h) => h.person === person).map((h) => h.position))];
  const recipient = (): Recipient => {
    const r = random();
    if (r < 0.45) return { type: 'SPECIFIC_PERSONNEL', person: pick(people), position: null };
    if (r < 0.7) {
      const person = pick(people);
      const held = positionsOf(person);
      return { type: 'PERSONNEL_IN_POSITION', person, position: held.length && chance(0.75) ? pick(held) : pick(positions) };
    }
    return { type: 'POSITION_ONLY', person: null, position: pick(positions) };
  };
  const statuses: [DelegationStatus, number][] = [
    ['ISSUED', 0.62],
    ['ACCEPTED', 0.18],
    ['PENDING', 0.04],
    ['DRAFT', 0.02],
    ['SUSPENDED', 0.05],
    ['REJECTED', 0.02],
    ['REVOKED', 0.04],
    ['EXPIRED', 0.03],
  ];
  const status = (): DelegationStatus => {
    let r = random();
    for (const [s, p] of statuses) if ((r -= p) < 0) return s;
    return 'ISSUED';
  };
  const limitUnder = (decision: Decision, parent: Delegation | null): Limit => {
    const { valueType, unit } = decision.limit;
    if (valueType === 'Authorized') return { valueType, operator: null, value: null, unit };
    const operator = chance(0.5) ? '<' : '<=';
    const cap = parent ? parent.limit.value! : decision.limit.value!;
    if (cap === 'Unlimited' && chance(0.3)) return { valueType, operator: '<=', value: 'Unlimited', unit };
    const base = cap === 'Unlimited' ? 5_000_000n * MICRO : micros(cap);
    const r = random();
    let value: bigint;
    if (r < 0.25) value = base;
    else if (r < 0.35) value = base + BigInt(1 + Math.floor(random() * 100)) * (chance(0.5) ? 1n : MICRO); // above its parent: the chain still caps it
    else {
      const scaled = (base * BigInt(Math.floor(random() * 1_000_000))) / MICRO;
      const decimals = Math.floor(random() * 7); // keep 0..6 decimals
      const step = 10n ** BigInt(6 - decimals);
      value = scaled - (scaled % step);
    }
    return { valueType, operator, value: decimal(value < 0n ? 0n : value > MAX_VALUE ? MAX_VALUE : value), unit };
  };
  for (let n = 0; n < DELEGATIONS_PER_ORGANISATION; n++) {
    const decision = pick(decisions);
    const candidates = delegations.filter((d) => d.decision === decision.key && depth.get(d.displayId)! < MAX_DEPTH - 1);
    // Half the hand-ons go to the deepest delegations there are, so that long chains are common.
    const deepest = Math.max(...candidates.map((d) => depth.get(d.displayId)!));
    const parent = candidates.length && !chance(0.2) ? pick(chance(0.5) ? candidates.filter((d) => depth.get(d.displayId) === deepest) : candidates) : null;
    const after = Math.max(Date.parse(decision.created), parent ? Date.parse(parent.states[0].at) : FROM);
    const issued = instant(after, Math.min(UNTIL, after + 120 * 86_400_000));
    const states: DelegationState[] = [{ at: new Date(issued).toISOString(), status: status(), isInvalid: false, invalidFields: [], recipient: recipient(), change: 'created' }];
    let at = issued;
    for (let k = Math.floor(random() * 3.5); k > 0; k--) {
      at = instant(at + 1, Math.min(UNTIL + 60 * 86_400_000, at + 150 * 86_400_000));
      const prev = states[states.length - 1];
      const r = random();
      const when = new Date(at).toISOString();
      if (r < 0.6) states.push({ ...prev, at: when, status: status(), change: 'status' });
      else if (r < 0.8) states.push({ ...prev, at: when, isInvalid: !prev.isInvalid, invalidFields: prev.isInvalid ? [] : ['Recipient'], change: prev.isInvalid ? 'revalidated' : 'invalidated' });
      else states.push({ ...prev, at: when, recipient: recipient(), change: 'recipient reassigned' });
    }
    const effective = chance(0.75) ? issued : instant(issued, issued + 90 * 86_400_000);
    const displayId = String(900_000 + index * 1000 + n + 1);
    depth.set(displayId, parent ? depth.get(parent.displayId)! + 1 : 0);
    delegations.push({
      displayId,
      decision: decision.key,
      parent: parent?.displayId ?? null,
      pathway: pick(PATHWAYS),
      effective: new Date(effective).toISOString(),
      expires: chance(0.6) ? null : new Date(instant(effective + 1, Math.min(effective + 300 * 86_400_000, UNTIL + 120 * 86_400_000))).toISOString(),
      groups: chance(0.7) ? [] : [...new Set([pick(groups).name, ...(chance(0.3) ? [pick(groups).name] : [])])],
      limit: limitUnder(decision, parent),
      states,
    });
  }
  return { label: `Random ${SEED}-${index + 1}`, people, positions, holdings, groups, decisions, delegations };
}

function randomChecks(random: () => number, org: Organisation, n: number): RandomCheck[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const chance = (p: number) => random() < p;
  /** A version-4 UUID from the seeded generator (a person or group nobody has). */
  const randomUUID = () => {
    const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
    hex[12] = '4';
    hex[16] = '8';
    return `${hex.slice(0, 8).join('')}-${hex.slice(8, 12).join('')}-${hex.slice(12, 16).join('')}-${hex.slice(16, 20).join('')}-${hex.slice(20).join('')}`;
  };
  // Every instant something changed: checks land on them, a millisecond before and after, as often as elsewhere.
  const changes = [
    ...org.delegations.flatMap((d) => [...d.states.map((s) => s.at), d.effective, ...(d.expires ? [d.expires] : [])]),
    ...org.holdings.flatMap((h) => [h.from, ...(h.to ? [h.to] : [])]),
    ...org.groups.flatMap((g) => g.periods.map((p) => p.from)),
    ...org.decisions.flatMap((d) => [d.created, ...(d.deleted ? [d.deleted] : [])]),
  ].map((x) => Date.parse(x));
  const now = Date.now();
  const byId = new Map(org.delegations.map((d) => [d.displayId, d]));
  const depthOf = (d: Delegation): number => (d.parent === null ? 0 : 1 + depthOf(byId.get(d.parent)!));
  const holdersAt = (position: string, t: number) =>
    org.holdings.filter((x) => x.position === position && Date.parse(x.from) <= t && (x.to === null || t < Date.parse(x.to))).map((x) => x.person);
  return Array.from({ length: n }, (): RandomCheck => {
    const r = random();
    let subject: Subject =
      r < 0.75 ? { person: pick(org.people), position: null, strangerId: null } : r < 0.95 ? { person: null, position: pick(org.positions), strangerId: null } : { person: null, position: null, strangerId: randomUUID() };
    let decision = pick(org.decisions);
    let target: bigint | null = null;
    let at = chance(0.5) ? pick(changes) + pick([-1, 0, 0, 1]) : CHECK_FROM + Math.floor(random() * (CHECK_UNTIL - CHECK_FROM));
    // Most checks ask about someone who did receive a delegation (a deep one half of the time), while
    // one of its states was in force, or exactly when something along its chain changed or a millisecond before.
    if (chance(0.6)) {
      const deep = org.delegations.filter((x) => depthOf(x) >= 3);
      const d = deep.length && chance(0.5) ? pick(deep) : pick(org.delegations);
      if (chance(0.5)) {
        const k = Math.floor(random() * d.states.length);
        const from = Date.parse(d.states[k].at);
        const until = k + 1 < d.states.length ? Date.parse(d.states[k + 1].at) : Math.min(CHECK_UNTIL, from + 200 * 86_400_000);
        at = from + Math.floor(random() * Math.max(1, until - from));
      } else {
        const chain: Delegation[] = [];
        for (let x: Delegation | undefined = d; x; x = x.parent === null ? undefined : byId.get(x.parent)) chain.push(x);
        at = pick(chain.flatMap((x) => [...x.states.map((st) => st.at), x.effective, ...(x.expires ? [x.expires] : [])]).map((x) => Date.parse(x))) + pick([-1, 0, 0]);
      }
      const to = ([...d.states].reverse().find((st) => Date.parse(st.at) <= at) ?? d.states[0]).recipient;
      const holders = to.position === null ? [] : holdersAt(to.position, at);
      subject =
        to.type === 'POSITION_ONLY' && (chance(0.4) || !holders.length)
          ? { person: null, position: to.position, strangerId: null }
          : { person: to.type === 'POSITION_ONLY' ? pick(holders) : to.person, position: null, strangerId: null };
      decision = org.decisions.find((x) => x.key === d.decision)!;
      if (d.limit.value !== null && d.limit.value !== 'Unlimited' && chance(0.5)) target = micros(d.limit.value);
    }
    if (at >= now) throw new Error('a check in the future: the organisation must lie in the past');
    const limits = org.delegations.filter((d) => d.decision === decision.key && d.limit.value !== null && d.limit.value !== 'Unlimited').map((d) => micros(d.limit.value!));
    let value: string | null;
    if (decision.limit.valueType === 'Authorized') value = chance(0.85) ? null : '5';
    else if (chance(0.05)) value = null;
    else {
      let v = target ?? (limits.length && chance(0.8) ? pick(limits) : BigInt(Math.floor(random() * 2_000_000)) * MICRO);
      const p = random();
      if (p < 0.2) v += 1n;
      else if (p < 0.35) v -= 1n;
      else if (p < 0.5) v = (v * BigInt(Math.floor(random() * 1_000_000))) / MICRO;
      else if (p < 0.6) v += MICRO;
      value = decimal(v < 0n ? 0n : v > MAX_VALUE ? MAX_VALUE : v);
    }
    // Now and then a unit the limits do not have (none for a Currency: another currency would want the tenant's rates).
    const unit = chance(0.03) ? (decision.limit.valueType === 'Currency' ? null : 'Days') : decision.limit.unit;
    const g = random();
    return {
      subject,
      decision: decision.key,
      value,
      unit,
      group: g < 0.35 ? pick(org.groups).name : null,
      strangeGroupId: g >= 0.35 && g < 0.38 ? randomUUID() : null,
      at: new Date(at).toISOString(),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// The brute-force evaluator: every delegation, every chain, by scanning the organisation.
// ---------------------------------------------------------------------------------------------

interface BruteAnswer {
  allowed: boolean;
  limit: { value: string; unit: string | null; operator: string | null } | null;
  /** Why, chain by chain: for a reader of a failure. */
  trace: string[];
  /** The most links of a chain walked. */
  longest: number;
}

const HOLDING: readonly DelegationStatus[] = ['ISSUED', 'ACCEPTED'];

/**
 * The fields of a check naming what the tenant does not have (a stranger, a group nobody has): no
 * question the engine answers, but a 404 naming each (`userId`, `groupId`). A stranger never holds
 * anything and a group nobody has is covered by no chain, so such a check is always one the engine
 * refuses, the only kind whose ids it looks up. Empty for a check of the organisation's own records,
 * which bruteForce answers.
 */
function notFoundFields(c: RandomCheck): string[] {
  return [...(c.subject.strangerId !== null ? ['userId'] : []), ...(c.strangeGroupId !== null ? ['groupId'] : [])];
}

function bruteForce(org: Organisation, c: RandomCheck): BruteAnswer {
  const t = Date.parse(c.at);
  const during = (from: string, to: string | null) => Date.parse(from) <= t && (to === null || t < Date.parse(to));
  const decision = org.decisions.find((d) => d.key === c.decision)!;
  if (!(Date.parse(decision.created) <= t)) return { allowed: false, limit: null, trace: ['the decision did not exist'], longest: 0 };
  if (decision.deleted !== null && Date.parse(decision.deleted) <= t) return { allowed: false, limit: null, trace: ['the decision was deleted'], longest: 0 };

  /** The state in force at t: the latest that began at or before t (each lasts until the next). */
  const stateAt = (d: Delegation): DelegationState | null => {
    let found: DelegationState | null = null;
    for (const s of d.states) if (Date.parse(s.at) <= t) found = s;
    return found;
  };
  const holds = (person: string, position: string) => org.holdings.some((h) => h.person === person && h.position === position && during(h.from, h.to));
  const period = (group: string) => org.groups.find((g) => g.name === group)?.periods.find((p) => during(p.from, p.to)) ?? null;
  /** Whether `scope` is `group` or above it in the hierarchy as it stood at t, every group on the way (both ends too) live then. */
  const covers = (scope: string, group: string): boolean => {
    if (!period(scope)?.live || !period(group)?.live) return false;
    const seen = new Set<string>();
    const up = (g: string): boolean => {
      if (g === scope) return true;
      if (seen.has(g)) return false;
      seen.add(g);
      return (period(g)?.parents ?? []).filter((p) => period(p)?.live).some(up);
    };
    return up(group);
  };
  /** Whether a delegation covers the group asked: one of its groups covers it, or (no groups: the decision's whole scope) the group was live then. */
  const coversAsked = (d: Delegation): boolean => {
    if (c.group === null) return true;
    return d.groups.length > 0 ? d.groups.some((g) => covers(g, c.group!)) : !!period(c.group)?.live;
  };
  const admits = (l: Limit): boolean => {
    if (l.valueType === 'Authorized') return true; // no amount: any value (or none) is within it
    if (c.value === null || c.unit !== l.unit) return false;
    if (l.value === 'Unlimited') return true;
    return l.operator === '<=' ? micros(c.value) <= micros(l.value!) : micros(c.value) < micros(l.value!);
  };
  const isHolder = (r: Recipient) => {
    if (r.type === 'SPECIFIC_PERSONNEL') return c.subject.person !== null && r.person === c.subject.person;
    if (r.type === 'PERSONNEL_IN_POSITION') return c.subject.person !== null && r.person === c.subject.person && holds(c.subject.person, r.position!);
    return c.subject.position === r.position || (c.subject.person !== null && holds(c.subject.person, r.position!));
  };
  const byId = new Map(org.delegations.map((d) => [d.displayId, d]));

  const allowedLimits: Limit[] = [];
  const trace: string[] = [];
  let longest = 0;
  for (const held of org.delegations.filter((d) => d.decision === c.decision)) {
    const own = stateAt(held);
    if (!own || !isHolder(own.recipient)) continue;
    const chain: { d: Delegation; s: DelegationState | null }[] = [];
    for (let d: Delegation | undefined = held; d; d = d.parent === null ? undefined : byId.get(d.parent)) chain.unshift({ d, s: stateAt(d) });
    longest = Math.max(longest, chain.length);
    const blocked = chain.find(({ d, s }) => {
      if (!s || !HOLDING.includes(s.status) || s.isInvalid) return true;
      if (Date.parse(d.effective) > t || (d.expires !== null && Date.parse(d.expires) <= t)) return true;
      if (!coversAsked(d)) return true;
      return !admits(d.limit);
    });
    trace.push(`${chain.map((x) => x.d.displayId).join(' > ')}: ${blocked ? `blocked at ${blocked.d.displayId}` : `allows ${held.limit.operator ?? ''} ${held.limit.value ?? 'Authorized'}`}`);
    if (!blocked) allowedLimits.push(held.limit);
  }
  if (!allowedLimits.length) return { allowed: false, limit: null, trace, longest };
  // Authorized limits are all alike; Unlimited is above any value; of one value, <= is above <.
  const rank = (l: Limit): [bigint, number] => (l.value === null ? [0n, 0] : l.value === 'Unlimited' ? [MAX_VALUE + 1n, 1] : [micros(l.value), l.operator === '<=' ? 1 : 0]);
  const best = allowedLimits.reduce((x, y) => {
    const [a, b] = [rank(x), rank(y)];
    return b[0] > a[0] || (b[0] === a[0] && b[1] > a[1]) ? y : x;
  });
  if (best.valueType === 'Authorized') return { allowed: true, limit: null, trace, longest };
  return { allowed: true, limit: { value: best.value!, unit: best.unit, operator: best.value === 'Unlimited' ? null : best.operator }, trace, longest };
}

// ---------------------------------------------------------------------------------------------
// The property.
// ---------------------------------------------------------------------------------------------

interface Answer {
  allowed: boolean;
  reasons: string[];
  limit: { value: string; unit: string | null; operator: string | null } | null;
  chain: { delegationDisplayId: string }[];
  heldVia: string | null;
}

/**
 * For random organisations (people holding positions over periods, groups moving and closing,
 * decisions created and deleted during the year, delegation trees up to six links whose states,
 * recipients, dates, groups and limits vary) written as the reference organisation is, and random
 * checks (a person, a position or a stranger; a value around the limits, to the millionth; a group or
 * none; an instant, often exactly at a change or a millisecond either side), check-batch answers
 * `allowed` as a brute-force evaluator written here does, and for an allowed check the highest
 * holder's limit among the chains that allow. A batch with a check naming a stranger or a group the
 * tenant does not have answers 404 naming exactly those fields (notFoundFields); its other checks are
 * then asked alone and compared.
 */
describe(`authority engine: check-batch agrees with a brute-force evaluator (property, seed ${SEED})`, () => {
  let h: DecisionHarness;

  beforeAll(async () => {
    console.log(`authority property: seed ${SEED} (replay with AUTHORITY_PROPERTY_SEED=${SEED})`);
    h = await startHarness(decisionApp);
  });
  afterAll(() => h?.close());

  it(`${ORGANISATIONS} random organisations, ${ORGANISATIONS * CHECKS_PER_ORGANISATION} random checks`, async () => {
    const random = seededRandom(SEED);
    const types = { Approval: h.refs.authorityTypes.get('Approval')!, Signatory: h.refs.authorityTypes.get('Signatory')! };
    const mismatches: string[] = [];
    let allowed = 0;
    let total = 0;
    /** What the allowed answers went through, so that a reader sees the property was not about trivial cases. */
    const seen = { longestAllowed: 0, longestWalked: 0, withGroup: 0, byPosition: 0, inPosition: 0, unlimited: 0, notFound: 0 };
    for (let o = 0; o < ORGANISATIONS; o++) {
      const org = randomOrganisation(random, o);
      const w: WrittenOrganisation = await writeOrganisation((text, params) => h.db.query(text, params), h.demo.id, types, org);
      const checks = randomChecks(random, org, CHECKS_PER_ORGANISATION);
      const bodyOf = (c: RandomCheck) => ({
        decisionId: w.decisions.get(c.decision),
        ...(c.subject.position !== null ? { positionId: w.positions.get(c.subject.position) } : { userId: c.subject.strangerId ?? w.people.get(c.subject.person!) }),
        value: c.value,
        unit: c.unit,
        groupId: c.strangeGroupId ?? (c.group === null ? null : w.groups.get(c.group)),
        at: c.at,
      });
      const batch = (asked: RandomCheck[]) => h.svc.http.post('/decision/v1/authority/check-batch', { token: h.tokens.auditor, body: { checks: asked.map(bodyOf) } });
      /** Per check, the engine's answer; null for one naming what the tenant does not have (its 404 is compared instead). */
      const answers: (Answer | null)[] = [];
      for (let i = 0; i < checks.length; i += 1000) {
        const chunk = checks.slice(i, i + 1000);
        // The batch as drawn: a 404 naming, in order, each field of a check that names what the tenant does not have (at most 50 listed), else every answer.
        const predicted = chunk.flatMap((c, k) => notFoundFields(c).map((f) => `checks.${k}.${f}`));
        const res = await batch(chunk);
        if (!predicted.length) {
          expect(res.status).toBe(200);
          answers.push(...(res.body.data.results as Answer[]));
          continue;
        }
        expect(res.status).toBe(404);
        const fields = (res.body.errors as { field: string }[]).map((e) => e.field);
        if (fields.join() !== predicted.slice(0, 50).join()) mismatches.push(`${org.label} checks ${i}..: the batch's 404 names [${fields.join(', ')}], the model [${predicted.slice(0, 50).join(', ')}]`);
        seen.notFound += chunk.filter((c) => notFoundFields(c).length).length;
        // Then the checks of the organisation's own records alone, answered in their order.
        const known = chunk.filter((c) => !notFoundFields(c).length);
        const rest = await batch(known);
        expect(rest.status).toBe(200);
        const results = [...(rest.body.data.results as Answer[])];
        for (const c of chunk) answers.push(notFoundFields(c).length ? null : results.shift()!);
      }
      checks.forEach((c, i) => {
        const got = answers[i];
        total += 1;
        if (got === null) return;
        const want = bruteForce(org, c);
        seen.longestWalked = Math.max(seen.longestWalked, want.longest);
        if (want.allowed) {
          allowed += 1;
          seen.longestAllowed = Math.max(seen.longestAllowed, got.chain.length);
          if (c.group !== null) seen.withGroup += 1;
          if (got.heldVia === 'POSITION_ONLY') seen.byPosition += 1;
          if (got.heldVia === 'PERSONNEL_IN_POSITION') seen.inPosition += 1;
          if (want.limit?.value === 'Unlimited') seen.unlimited += 1;
        }
        const sameLimit = got.limit === null || want.limit === null ? got.limit === want.limit : got.limit.value === want.limit.value && got.limit.unit === want.limit.unit && got.limit.operator === want.limit.operator;
        const same = got.allowed === want.allowed && (!want.allowed || sameLimit);
        if (!same) {
          mismatches.push(
            `${org.label} check ${i}: ${JSON.stringify(c)}\n  engine: allowed ${got.allowed}, limit ${JSON.stringify(got.limit)}, chain ${got.chain.map((l) => l.delegationDisplayId).join(' > ')}, reasons ${JSON.stringify(got.reasons)}\n` +
              `  brute force: allowed ${want.allowed}, limit ${JSON.stringify(want.limit)}; ${want.trace.join('; ') || 'nothing held'}`,
          );
        }
      });
    }
    console.log(
      `authority property: seed ${SEED}, ${total} checks, ${allowed} allowed by the brute force (${JSON.stringify(seen)}), ${mismatches.length} answered otherwise by the engine`,
    );
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(total).toBeGreaterThanOrEqual(2000);
    // Not a property about nothing: both answers are common.
    expect(allowed / total).toBeGreaterThan(0.05);
    expect(allowed / total).toBeLessThan(0.95);
    expect(seen.longestAllowed).toBeGreaterThanOrEqual(3);
    expect(seen.longestWalked).toBeGreaterThanOrEqual(MAX_DEPTH - 1);
    // Strangers and groups nobody has were asked about, and answered 404 as predicted.
    expect(seen.notFound).toBeGreaterThan(0);
  });
});
