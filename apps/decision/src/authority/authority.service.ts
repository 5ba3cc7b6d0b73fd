import { Injectable } from '@nestjs/common';
import { Caller, Page, badRequest, forbidden, notFound } from '@ddm/contracts';
import { Db, Freshness, FreshnessRequirement, prepared } from '@ddm/platform';
import { limitProblem } from '../core/delegation.rules';
import { NamedRef, requireLiveRefs } from '../core/live-refs';
import { ChainAnswer, Snapshot, coverage, evaluateChain, formatLimit, limitOf, mayAsk, needsConversion } from './authority.rules';
import { CHECKS_AT_SQL, GROUPS_AT_SQL, HELD_DECISIONS_AT_SQL } from './authority.sql';
import { holdersAt } from './holders';
import { RevisionLink, revisionLinks } from './revision-links';
import { converterOn, getRates, loadRates, putRates } from './currency-rates';
import {
  AuthorityCheckBatchDto,
  AuthorityCheckBatchView,
  AuthorityCheckDto,
  AuthorityCheckResultView,
  AuthorityCheckView,
  AuthorityDecisionsQuery,
  AuthorityHolderView,
  AuthorityHoldersQuery,
  ChainLinkView,
  HeldDecisionAuthorityView,
  HeldDecisionView,
} from './dto/authority-check.dto';
import { CurrencyRatesDto, CurrencyRatesView } from './dto/currency-rates.dto';

/** Reasons answered when nothing allows: the nearest misses, each once. */
const MAX_REASONS = 5;
/** What a check without a group reads of the hierarchy: nothing (the rules ask it only of a check with a group). */
const NO_GROUP = coverage([]);
/** Checks per statement: a batch of 1,000 is four statements at once. */
const CHUNK = 250;

/** The decision as it stood at the instant asked about (its revision in force then). */
interface DecisionState {
  decisionDisplayId: string;
  status: string;
  isDeleted: boolean;
  since: string;
  authorityTypeIds: string[];
}

interface CheckRow {
  n: string;
  decision_known: boolean | null;
  decision_display_id: string | null;
  decision_state: DecisionState | null;
  holder_id: string | null;
  up: number | null;
  delegation_id: string | null;
  revision: string | null;
}

/**
 * The checks' statement, prepared once per connection (its text is some 6 KB) with one plan for any
 * checks: every step is an index probe per check, fenced, so the plan made for the values is the
 * same one, and making it took longer than a check at depth 8 runs (0.75 ms a check instead of 1.5).
 */
const CHECKS_AT = prepared('authority.checks-at', CHECKS_AT_SQL, { genericPlan: true });

/** One check, validated: its subject, decision and question. */
interface Asked {
  dto: AuthorityCheckDto;
  userId: string | null;
  positionId: string | null;
  decisionId: string;
  at: Date;
}

/**
 * The authority engine: may this person (or position) decide this, for this value, here, at this
 * instant, and by which chain? Any number of checks are read in one statement (CHECKS_AT_SQL: the
 * decision, the holdings and every chain as they stood then, by index probes; prepared once per
 * connection), the snapshots of the links not read before (revision-links.ts), the group hierarchy
 * and the currency rates once when a check needs them; the rules (authority.rules.ts) decide.
 * Answers the chain with the highest limit that allows, or the reasons of the nearest misses.
 */
@Injectable()
export class AuthorityService {
  constructor(
    private readonly db: Db,
    private readonly freshness: Freshness,
  ) {}

  /** `fresh`: the changes the caller asks the answer to reflect (x-consistency-token), waited for first; so in every read below. */
  async holders(caller: Caller, q: AuthorityHoldersQuery, fresh: FreshnessRequirement = []): Promise<Page<AuthorityHolderView>> {
    const consistentAsOf = await this.freshness.ready(fresh);
    const page = await holdersAt(this.db, caller, q);
    return new Page(page.data, page.total, page.page, page.limit, { consistentAsOf });
  }

  async check(caller: Caller, dto: AuthorityCheckDto, fresh: FreshnessRequirement = []): Promise<AuthorityCheckView> {
    const consistentAsOf = await this.freshness.ready(fresh, dto.consistency);
    const [answer] = await this.checkMany(caller, [dto], '');
    return { ...answer, consistentAsOf };
  }

  async checkBatch(caller: Caller, dto: AuthorityCheckBatchDto, fresh: FreshnessRequirement = []): Promise<AuthorityCheckBatchView> {
    dto.checks.forEach((c, i) => {
      if (c.tenantId && c.tenantId.toLowerCase() !== caller.tenantId) {
        throw badRequest(`Check ${i} names another tenant`, [{ field: `checks.${i}.tenantId`, message: `must be the batch's tenant ${caller.tenantId}` }]);
      }
    });
    const consistentAsOf = await this.freshness.ready(fresh, dto.consistency, ...dto.checks.map((c) => c.consistency));
    return { consistentAsOf, results: await this.checkMany(caller, dto.checks, 'checks.') };
  }

  /**
   * GET decisions ("my authority"): every decision the person (or position) may decide at `at`
   * (default now), each with the highest limit per authority type and the chain giving it, as the
   * check answers it (whatever the value) for each type the decision had then; a decision none of
   * whose types is held through a chain in force is left out. In display id order, paged. A person
   * may ask it of themselves; anyone else needs view:decisions.
   */
  async decisionsHeld(caller: Caller, q: AuthorityDecisionsQuery, fresh: FreshnessRequirement = []): Promise<Page<HeldDecisionView>> {
    const userId = q.userId?.toLowerCase() ?? null;
    const positionId = q.positionId?.toLowerCase() ?? null;
    if ((userId === null) === (positionId === null)) throw badRequest('Send exactly one of userId and positionId', [{ field: 'userId', message: 'or positionId is required (not both)' }]);
    if (!mayAsk(caller, userId)) throw forbidden('Missing permission "view:decisions" (without it a person may ask only of themselves)');
    const consistentAsOf = await this.freshness.ready(fresh);
    // Now, after the wait: an instant before it could predate the change waited for.
    const at = q.at ? new Date(q.at) : new Date();
    const held = await this.db.query<{ decision_id: string; decision_display_id: string; name: string; type_ids: string[] }>(HELD_DECISIONS_AT_SQL, [caller.tenantId, at.toISOString(), userId, positionId]);
    const asked = held.flatMap((d) =>
      d.type_ids.map((authorityTypeId) => Object.assign(new AuthorityCheckDto(), { decisionId: d.decision_id, authorityTypeId, userId, positionId, groupId: q.groupId ?? null, at: at.toISOString() })),
    );
    // The types asked are the decisions' own, not the caller's: the caller's ids are looked up below, once, and only when no decision is answered.
    const answers = asked.length ? await this.checkMany(caller, asked, '', { anyValue: true, requireKnown: false }) : [];
    // The answers by decision, in one pass (they come in the order asked: a decision's types together).
    const byDecision = new Map<string, HeldDecisionAuthorityView[]>();
    answers.forEach((a, i) => {
      if (!a.allowed) return;
      const last = a.chain[a.chain.length - 1];
      const list = byDecision.get(asked[i].decisionId) ?? [];
      list.push({
        authorityTypeId: a.authorityTypeId!,
        limit: a.limit,
        display: last.authority?.display ?? '',
        heldVia: a.heldVia!,
        chain: a.chain.map((l) => ({ delegationId: l.delegationId, delegationDisplayId: l.delegationDisplayId })),
      });
      byDecision.set(asked[i].decisionId, list);
    });
    const decisions: HeldDecisionView[] = held
      .filter((d) => byDecision.has(d.decision_id))
      .map((d) => ({ decisionId: d.decision_id, decisionDisplayId: d.decision_display_id, decisionName: d.name, authorities: byDecision.get(d.decision_id)! }));
    // A decision answered proves the ids are the tenant's (a delegation of it named the subject, a chain covered the group); none answered: each must be a record of the tenant (deleted or not).
    if (!decisions.length) await requireLiveRefs(this.db, caller.tenantId, subjectRefs({ userId, positionId, groupId: q.groupId }, (name) => name));
    const start = (q.page - 1) * q.limit;
    return new Page(decisions.slice(start, start + q.limit), decisions.length, q.page, q.limit, { consistentAsOf });
  }

  /**
   * The checks, answered in order; `prefix` names a check's fields in errors ("checks.3.decisionId");
   * `anyValue`: whether each type is held at all, whatever the value (the highest limit).
   * `requireKnown`: a 404 naming each field of a refused check (`checks.3.userId`) whose person,
   * position, group or authority type is not a record of the tenant (deleted or not: the instant
   * asked about may precede the deletion). Looked up in one statement for every refused check, and
   * only when one is: an allowed answer already proves them (a chain of the tenant named the subject,
   * covered the group, held the type), so an allowed check costs no round trip more.
   */
  private async checkMany(
    caller: Caller,
    dtos: readonly AuthorityCheckDto[],
    prefix: string,
    { anyValue = false, requireKnown = true }: { anyValue?: boolean; requireKnown?: boolean } = {},
  ): Promise<AuthorityCheckResultView[]> {
    const tenantId = caller.tenantId;
    const evaluatedNow = new Date();
    const field = (i: number, name: string) => (prefix ? `${prefix}${i}.${name}` : name);
    const asked: Asked[] = dtos.map((dto, i) => {
      const userId = dto.userId?.toLowerCase() ?? null;
      const positionId = dto.positionId?.toLowerCase() ?? null;
      if ((userId === null) === (positionId === null)) throw badRequest('Send exactly one of userId and positionId', [{ field: field(i, 'userId'), message: 'or positionId is required (not both)' }]);
      return { dto, userId, positionId, decisionId: dto.decisionId.toLowerCase(), at: dto.at ? new Date(dto.at) : evaluatedNow };
    });

    // A large batch is read in chunks on several connections at once (the database works on them in parallel).
    const chunks: Asked[][] = [];
    for (let i = 0; i < asked.length; i += CHUNK) chunks.push(asked.slice(i, i + CHUNK));
    const read = await Promise.all(
      chunks.map((chunk) =>
        this.db.query<CheckRow>(CHECKS_AT, [tenantId, chunk.map((a) => a.decisionId), chunk.map((a) => a.at.toISOString()), chunk.map((a) => a.userId), chunk.map((a) => a.positionId)]),
      ),
    );
    const revisions: string[] = [];
    for (const chunkRows of read) for (const r of chunkRows) if (r.revision !== null) revisions.push(r.revision);
    const links = await revisionLinks(this.db, tenantId, revisions);
    // Per check: the decision's row, and each chain's links (by holder), placed root first (the root is the most links above the holder's).
    const byCheck = asked.map(() => ({ known: false, displayId: '', state: null as DecisionState | null, chains: new Map<string, RevisionLink[]>() }));
    read.forEach((chunkRows, chunk) => {
      for (const r of chunkRows) {
        const c = byCheck[Number(r.n) - 1 + chunk * CHUNK];
        if (r.holder_id === null) {
          c.known = !!r.decision_known;
          c.displayId = r.decision_display_id ?? '';
          c.state = r.decision_state;
        } else {
          let chain = c.chains.get(r.holder_id);
          if (!chain) c.chains.set(r.holder_id, (chain = []));
          // Placed `up` from the end; the chain is turned root first once whole.
          chain[r.up!] = links.get(r.revision!)!;
        }
      }
    });
    for (const c of byCheck) for (const chain of c.chains.values()) chain.reverse();
    byCheck.forEach((c, i) => {
      if (!c.known) throw notFound(`Decision ${asked[i].decisionId} not found`, [{ field: field(i, 'decisionId'), message: `Decision ${asked[i].decisionId} not found` }]);
    });

    // The group hierarchy at each instant some check names a group for; the rates once, when a currency differs.
    const groupInstants = [...new Set(asked.filter((a) => a.dto.groupId).map((a) => a.at.toISOString()))];
    const groups = groupInstants.length
      ? await this.db.query<{ at: Date; group_id: string; parent_group_ids: string[]; live: boolean }>(GROUPS_AT_SQL, [tenantId, groupInstants])
      : [];
    const needsRates = asked.some((a, i) => a.dto.unit && [...byCheck[i].chains.values()].some((chain) => chain.some((l) => l.snapshot.delegationAuthorities.some((x) => needsConversion(x, a.dto.unit!)))));
    const rates = needsRates ? await loadRates(this.db, tenantId, new Date(Math.max(...asked.map((a) => a.at.getTime())))) : null;

    const results = asked.map((a, i): AuthorityCheckResultView => {
      const { state, chains, displayId } = byCheck[i];
      const day = a.at.toISOString().slice(0, 10);
      const refused = (authorityTypeId: string | null, reasons: string[]): AuthorityCheckResultView => ({
        evaluatedAt: a.at.toISOString(),
        decisionId: a.decisionId,
        authorityTypeId,
        allowed: false,
        reasons,
        limit: null,
        chain: [],
        heldVia: null,
      });
      if (!state) return refused(a.dto.authorityTypeId?.toLowerCase() ?? null, [`decision ${displayId} did not exist on ${day}`]);
      if (state.isDeleted) return refused(a.dto.authorityTypeId?.toLowerCase() ?? null, [`decision ${state.decisionDisplayId} was deleted on ${day}`]);
      // Only a PUBLISHED decision is decided by its delegations: an ARCHIVED one (or one taken back to DRAFT) gives no authority while it is so.
      if (state.status !== 'PUBLISHED') return refused(a.dto.authorityTypeId?.toLowerCase() ?? null, [`decision ${state.decisionDisplayId} was ${state.status} on ${day}`]);
      const authorityTypeId = a.dto.authorityTypeId?.toLowerCase() ?? state.authorityTypeIds[0]?.toLowerCase() ?? null;
      if (!authorityTypeId) throw badRequest('The decision has no authority to check', [{ field: field(i, 'authorityTypeId'), message: 'the decision has no authorities' }]);
      const covers = a.dto.groupId ? coverage(groups.filter((g) => new Date(g.at).getTime() === a.at.getTime())) : NO_GROUP;
      const question = { authorityTypeId, value: a.dto.value ?? null, unit: a.dto.unit ?? null, groupId: a.dto.groupId?.toLowerCase() ?? null, at: a.at, anyValue };
      const convert = rates ? converterOn(day, rates.base, rates.rates) : undefined;
      // In the order of the held delegations (display ids), so that among equal limits the answer is always the same chain.
      const held = [...chains.values()].sort((x, y) => x[x.length - 1].order - y[y.length - 1].order);
      const answers = held.map((chain) => {
        const root = chain[0].snapshot;
        return {
          chain,
          // A chain reaches the decision's root, or it gives nothing (a parent without a revision then cannot happen with the data the service writes).
          answer: root.parentDelegationId
            ? ({ allowed: false, blockedBy: { delegationId: root.id, delegationDisplayId: root.delegationDisplayId }, reason: `delegation ${root.delegationDisplayId} had no parent on ${day}` } as const)
            : evaluateChain(chain.map((l) => l.link), question, covers, convert),
        };
      });
      const allowed = answers.filter((x): x is { chain: RevisionLink[]; answer: Extract<ChainAnswer, { allowed: true }> } => x.answer.allowed);
      if (!allowed.length) {
        const reasons = [...new Set(answers.map((x) => (x.answer.allowed ? '' : x.answer.reason)))].filter(Boolean).slice(0, MAX_REASONS);
        return refused(authorityTypeId, reasons.length ? reasons : [`no delegation of this decision was held by the ${a.userId ? 'person' : 'position'} at ${a.at.toISOString()}`]);
      }
      // The highest limit: one no other exceeds (a limit within another is the lower); the first such, in holder order.
      const best = allowed.reduce((x, y) => (limitProblem(x.answer.limit, y.answer.limit) === null && limitProblem(y.answer.limit, x.answer.limit) !== null ? y : x));
      return {
        evaluatedAt: a.at.toISOString(),
        decisionId: a.decisionId,
        authorityTypeId,
        allowed: true,
        reasons: [],
        limit: limitOf(best.answer.limit),
        chain: best.chain.map((l) => toChainLink(l.snapshot, authorityTypeId)),
        heldVia: best.chain[best.chain.length - 1].snapshot.recipientType,
      };
    });
    if (requireKnown) {
      const refused = results.flatMap((r, i) => (r.allowed ? [] : subjectRefs(dtos[i], (name) => field(i, name))));
      if (refused.length) await requireLiveRefs(this.db, tenantId, refused);
    }
    return results;
  }

  getRates(caller: Caller): Promise<CurrencyRatesView> {
    return getRates(this.db, caller);
  }

  putRates(caller: Caller, dto: CurrencyRatesDto): Promise<CurrencyRatesView> {
    return putRates(this.db, caller, dto);
  }
}

/**
 * The ids a check names besides its decision, as refs of the tenant's records in any state (the
 * person, position, group and authority type asked about may have been deleted since the instant);
 * `field` names each in errors.
 */
function subjectRefs(
  ids: { userId?: string | null; positionId?: string | null; groupId?: string | null; authorityTypeId?: string | null },
  field: (name: string) => string,
): NamedRef[] {
  return [
    { kind: 'anyUser', id: ids.userId, field: field('userId') },
    { kind: 'anyPosition', id: ids.positionId, field: field('positionId') },
    { kind: 'anyGroup', id: ids.groupId, field: field('groupId') },
    { kind: 'anyAuthorityType', id: ids.authorityTypeId, field: field('authorityTypeId') },
  ];
}

function toChainLink(s: Snapshot, authorityTypeId: string): ChainLinkView {
  const limit = s.delegationAuthorities.find((a) => a.authorityTypeId.toLowerCase() === authorityTypeId);
  return {
    delegationId: s.id,
    delegationDisplayId: s.delegationDisplayId,
    issuerType: s.issuerType,
    issuer: { userId: s.issuerUserId, userName: s.issuerUser?.name ?? null, positionId: s.issuerPositionId, positionName: s.issuerPositionName },
    recipient: { recipientType: s.recipientType, userId: s.recipientUserId, userName: s.recipientUser?.name ?? null, positionId: s.recipientPositionId, positionName: s.recipientPositionName },
    status: s.status,
    authority: limit
      ? {
          authorityTypeId: limit.authorityTypeId,
          authorityLimitValueType: limit.authorityLimitValueType,
          authorityLimitOperator: limit.authorityLimitOperator,
          authorityLimitValue: limit.authorityLimitValue,
          authorityLimitValueUnit: limit.authorityLimitValueUnit,
          display: formatLimit(limit),
        }
      : null,
  };
}
