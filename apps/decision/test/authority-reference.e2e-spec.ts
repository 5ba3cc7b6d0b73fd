import { expectErrorBody, startHarness } from '@ddm/testing';
import { REFERENCE, T, WrittenOrganisation, before as b, writeOrganisation } from './fixtures/authority-reference';
import { decisionApp, DecisionHarness } from './fixtures/decision-app';

const CHECK = '/decision/v1/authority/check';
const BATCH = '/decision/v1/authority/check-batch';
const { START, JAN1, LATE, FEB, EFF, EXP, SWEPT, SUS, REV, RES, REORG, D8NEW, REASSIGN, DEL, LATER } = T;
const SP = 'SPECIFIC_PERSONNEL';
const PIP = 'PERSONNEL_IN_POSITION';
const PO = 'POSITION_ONLY';
type Via = typeof SP | typeof PIP | typeof PO;

/**
 * What a check must answer. Allowed: the holder's limit ('<= 250000', '< 40', 'Unlimited'; null for
 * Authorized) in the decision's unit, the chain's display ids root first, how the subject held its
 * last delegation; the reasons are empty. Refused: the reasons, exactly (`reason` = the only one),
 * with `<Name>` standing for the id of that group or decision; no limit, chain or heldVia.
 */
type Expect = { allowed: true; limit: string | null; chain: number[]; heldVia: Via } | { allowed: false; reason: string | RegExp } | { allowed: false; reasons: (string | RegExp)[] };

interface Check {
  name: string;
  /** A person ('Eve') or a position ('@CONTROLLER'), by the reference organisation's names. */
  who: string;
  decision: string;
  value: string | null;
  /** Default: the decision's unit (USD; none for HEADCOUNT and FILINGS). */
  unit?: string | null;
  group?: string;
  /** The authority type asked about (default: the decision's). */
  type?: 'Approval' | 'Signatory';
  at: string;
  expect: Expect;
}

/*
 * The reference test set: every answer below was worked out by hand from the organisation in
 * fixtures/authority-reference.ts (its tree drawings, HOLDINGS and GROUPS, and T). The rules applied:
 * a revision (or holding, or group period) dated T is in force from T on; a chain is allowed when
 * every link, root first, is ISSUED or ACCEPTED, not invalid, effective (effectiveDate <= at), not
 * expired (at < expirationDate), covers the group asked (itself or an ancestor of it, both live, by
 * the hierarchy at `at`; a link without groups covers all) and admits the value (`<=` up to and
 * including the limit, `<` below it, exact decimals; Unlimited any value in the limit's unit;
 * Authorized only without a value); the first link failing is named. The answer is the highest
 * holder's limit among allowing chains (the first held delegation by display id among equals); when
 * none allows, the distinct reasons in the order of the held delegations' display ids.
 */
// prettier-ignore
const CHECKS: Check[] = [
  // ---- CAPEX: the root, and before the decision or any delegation existed ----
  { name: 'the root holder at her limit', who: 'Ada', decision: 'CAPEX', value: '10000000', at: FEB, expect: { allowed: true, limit: '<= 10000000', chain: [50001], heldVia: SP } },
  { name: 'the root holder a cent above her limit', who: 'Ada', decision: 'CAPEX', value: '10000000.01', at: FEB, expect: { allowed: false, reason: 'limit <= USD 10,000,000 < USD 10,000,000.01 via 50001 (10000000.01 USD is more than the cap allows (<= 10000000 USD))' } },
  { name: 'the root holder, value 0', who: 'Ada', decision: 'CAPEX', value: '0', at: FEB, expect: { allowed: true, limit: '<= 10000000', chain: [50001], heldVia: SP } },
  { name: 'the root holder without a value', who: 'Ada', decision: 'CAPEX', value: null, at: FEB, expect: { allowed: false, reason: 'limit <= USD 10,000,000 via 50001 (a Currency value is needed)' } },
  { name: 'a lowercase currency code is the same currency (the engine converts "eur" as EUR)', who: 'Ada', decision: 'CAPEX', value: '1', unit: 'usd', at: FEB, expect: { allowed: true, limit: '<= 10000000', chain: [50001], heldVia: SP } },
  { name: 'asked about an authority type the decision does not have', who: 'Ada', decision: 'CAPEX', value: '1', type: 'Signatory', at: FEB, expect: { allowed: false, reason: 'delegation 50001 does not hold that authority type' } },
  { name: 'the root holder without a unit', who: 'Ada', decision: 'CAPEX', value: '5', unit: null, at: FEB, expect: { allowed: false, reason: 'limit <= USD 10,000,000 < 5 via 50001 (unit (none) is not the unit the cap allows (<= 10000000 USD))' } },
  { name: 'a millisecond before the decision was created', who: 'Ada', decision: 'CAPEX', value: '1', at: b(START), expect: { allowed: false, reason: 'decision 70001 did not exist on 2024-11-30' } },
  { name: 'the decision created, nothing delegated yet', who: 'Ada', decision: 'CAPEX', value: '1', at: START, expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2024-12-01T00:00:00.000Z' } },
  { name: 'a millisecond before the root was issued', who: 'Ada', decision: 'CAPEX', value: '1', at: b(JAN1), expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2024-12-31T23:59:59.999Z' } },
  { name: 'the instant the root was issued', who: 'Ada', decision: 'CAPEX', value: '1', at: JAN1, expect: { allowed: true, limit: '<= 10000000', chain: [50001], heldVia: SP } },
  { name: 'Zoe holds nothing', who: 'Zoe', decision: 'CAPEX', value: '1', at: FEB, expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-02-15T12:00:00.000Z' } },

  // ---- CAPEX: PERSONNEL_IN_POSITION (Ben as CFO) and POSITION_ONLY (the Controller's position) ----
  { name: 'Ben as CFO, at his limit', who: 'Ben', decision: 'CAPEX', value: '5000000', at: FEB, expect: { allowed: true, limit: '<= 5000000', chain: [50001, 50002], heldVia: PIP } },
  { name: 'Ben as CFO, after the reorg (still CFO)', who: 'Ben', decision: 'CAPEX', value: '5000000', at: LATER, expect: { allowed: true, limit: '<= 5000000', chain: [50001, 50002], heldVia: PIP } },
  { name: 'the CFO position does not hold what Ben holds in it', who: '@CFO', decision: 'CAPEX', value: '1', at: FEB, expect: { allowed: false, reason: 'no delegation of this decision was held by the position at 2025-02-15T12:00:00.000Z' } },
  { name: 'the Controller position at its limit', who: '@CONTROLLER', decision: 'CAPEX', value: '1000000', at: FEB, expect: { allowed: true, limit: '<= 1000000', chain: [50001, 50002, 50003], heldVia: PO } },
  { name: 'the Controller position after the reorg', who: '@CONTROLLER', decision: 'CAPEX', value: '1000000', at: LATER, expect: { allowed: true, limit: '<= 1000000', chain: [50001, 50002, 50003], heldVia: PO } },
  { name: 'Eve as Controller: the position (1M) allows what her own (750k) does not', who: 'Eve', decision: 'CAPEX', value: '800000', at: FEB, expect: { allowed: true, limit: '<= 1000000', chain: [50001, 50002, 50003], heldVia: PO } },
  { name: 'Eve: both chains allow, the highest answers', who: 'Eve', decision: 'CAPEX', value: '700000', at: FEB, expect: { allowed: true, limit: '<= 1000000', chain: [50001, 50002, 50003], heldVia: PO } },
  { name: 'Eve a millisecond before the reorg', who: 'Eve', decision: 'CAPEX', value: '700000', at: b(REORG), expect: { allowed: true, limit: '<= 1000000', chain: [50001, 50002, 50003], heldVia: PO } },
  { name: 'Eve at the reorg: Treasurer now, holds nothing of CAPEX', who: 'Eve', decision: 'CAPEX', value: '1', at: REORG, expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-06-01T00:00:00.000Z' } },
  { name: 'Nia exactly at her < limit', who: 'Nia', decision: 'CAPEX', value: '100000', at: b(REORG), expect: { allowed: false, reason: 'limit < USD 100,000 < USD 100,000 via 50005 (<= 100000 USD is wider than the cap allows (< 100000 USD))' } },
  { name: 'Nia a cent below her < limit', who: 'Nia', decision: 'CAPEX', value: '99999.99', at: b(REORG), expect: { allowed: true, limit: '< 100000', chain: [50001, 50002, 50003, 50005], heldVia: SP } },
  { name: 'Nia at the reorg: Controller now, the position allows 100,000', who: 'Nia', decision: 'CAPEX', value: '100000', at: REORG, expect: { allowed: true, limit: '<= 1000000', chain: [50001, 50002, 50003], heldVia: PO } },
  { name: 'Nia at the reorg: both allow, the position is higher', who: 'Nia', decision: 'CAPEX', value: '99999.99', at: REORG, expect: { allowed: true, limit: '<= 1000000', chain: [50001, 50002, 50003], heldVia: PO } },
  { name: 'Max at his limit, four links', who: 'Max', decision: 'CAPEX', value: '250000', at: FEB, expect: { allowed: true, limit: '<= 250000', chain: [50001, 50002, 50003, 50004], heldVia: SP } },
  { name: 'Max over his limit; his other delegation was rejected', who: 'Max', decision: 'CAPEX', value: '250000.01', at: FEB, expect: { allowed: false, reasons: ['limit <= USD 250,000 < USD 250,000.01 via 50004 (250000.01 USD is more than the cap allows (<= 250000 USD))', 'delegation 50025 was REJECTED on 2025-02-15'] } },
  { name: 'Max after the reorg also holds Plant South, under a revoked delegation', who: 'Max', decision: 'CAPEX', value: '250000.01', at: REORG, expect: { allowed: false, reasons: ['limit <= USD 250,000 < USD 250,000.01 via 50004 (250000.01 USD is more than the cap allows (<= 250000 USD))', 'delegation 50013 was REVOKED on 2025-06-01', 'delegation 50025 was REJECTED on 2025-06-01'] } },
  { name: 'Max after the reorg within his limit', who: 'Max', decision: 'CAPEX', value: '1', at: REORG, expect: { allowed: true, limit: '<= 250000', chain: [50001, 50002, 50003, 50004], heldVia: SP } },
  { name: 'Cal at the end of a five-link chain', who: 'Cal', decision: 'CAPEX', value: '25000', at: FEB, expect: { allowed: true, limit: '<= 25000', chain: [50001, 50002, 50003, 50004, 50028], heldVia: SP } },
  { name: 'Cal one dollar over', who: 'Cal', decision: 'CAPEX', value: '25001', at: FEB, expect: { allowed: false, reason: 'limit <= USD 25,000 < USD 25,001 via 50028 (25001 USD is more than the cap allows (<= 25000 USD))' } },

  // ---- CAPEX: under Eve's PERSONNEL_IN_POSITION delegation, invalid from the reorg ----
  { name: 'Pia under Eve as Controller', who: 'Pia', decision: 'CAPEX', value: '50000', at: FEB, expect: { allowed: true, limit: '<= 50000', chain: [50001, 50002, 50006, 50007], heldVia: SP } },
  { name: 'Pia a millisecond before the reorg', who: 'Pia', decision: 'CAPEX', value: '50000', at: b(REORG), expect: { allowed: true, limit: '<= 50000', chain: [50001, 50002, 50006, 50007], heldVia: SP } },
  { name: 'Pia at the reorg: the parent became invalid', who: 'Pia', decision: 'CAPEX', value: '50000', at: REORG, expect: { allowed: false, reason: 'delegation 50006 was invalid on 2025-06-01' } },
  { name: 'Pia later', who: 'Pia', decision: 'CAPEX', value: '1', at: LATER, expect: { allowed: false, reason: 'delegation 50006 was invalid on 2025-10-01' } },

  // ---- CAPEX: Finn as Treasurer, suspended SUS..RES, invalid from the reorg ----
  { name: 'Finn as Treasurer at his limit', who: 'Finn', decision: 'CAPEX', value: '2000000', at: FEB, expect: { allowed: true, limit: '<= 2000000', chain: [50001, 50002, 50008], heldVia: PIP } },
  { name: 'Finn a millisecond before the suspension', who: 'Finn', decision: 'CAPEX', value: '1500000', at: b(SUS), expect: { allowed: true, limit: '<= 2000000', chain: [50001, 50002, 50008], heldVia: PIP } },
  { name: 'Finn at the suspension', who: 'Finn', decision: 'CAPEX', value: '1500000', at: SUS, expect: { allowed: false, reason: 'delegation 50008 was SUSPENDED on 2025-04-01' } },
  { name: 'Finn a millisecond before the resumption', who: 'Finn', decision: 'CAPEX', value: '1', at: b(RES), expect: { allowed: false, reason: 'delegation 50008 was SUSPENDED on 2025-04-30' } },
  { name: 'Finn at the resumption', who: 'Finn', decision: 'CAPEX', value: '1500000', at: RES, expect: { allowed: true, limit: '<= 2000000', chain: [50001, 50002, 50008], heldVia: PIP } },
  { name: 'Finn a millisecond before the reorg', who: 'Finn', decision: 'CAPEX', value: '1500000', at: b(REORG), expect: { allowed: true, limit: '<= 2000000', chain: [50001, 50002, 50008], heldVia: PIP } },
  { name: 'Finn at the reorg: no longer Treasurer', who: 'Finn', decision: 'CAPEX', value: '1', at: REORG, expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-06-01T00:00:00.000Z' } },
  { name: 'the Treasurer position holds nothing given to Finn in it', who: '@TREASURER', decision: 'CAPEX', value: '1', at: FEB, expect: { allowed: false, reason: 'no delegation of this decision was held by the position at 2025-02-15T12:00:00.000Z' } },
  { name: 'Quin under Finn', who: 'Quin', decision: 'CAPEX', value: '500000', at: FEB, expect: { allowed: true, limit: '<= 500000', chain: [50001, 50002, 50008, 50009], heldVia: SP } },
  { name: 'Quin while Finn is suspended', who: 'Quin', decision: 'CAPEX', value: '1', at: SUS, expect: { allowed: false, reason: 'delegation 50008 was SUSPENDED on 2025-04-01' } },
  { name: 'Quin after the resumption', who: 'Quin', decision: 'CAPEX', value: '1', at: RES, expect: { allowed: true, limit: '<= 500000', chain: [50001, 50002, 50008, 50009], heldVia: SP } },
  { name: 'Ray at his limit, five links', who: 'Ray', decision: 'CAPEX', value: '100000', at: FEB, expect: { allowed: true, limit: '<= 100000', chain: [50001, 50002, 50008, 50009, 50010], heldVia: SP } },
  { name: 'Ray a cent over', who: 'Ray', decision: 'CAPEX', value: '100000.01', at: FEB, expect: { allowed: false, reason: 'limit <= USD 100,000 < USD 100,000.01 via 50010 (100000.01 USD is more than the cap allows (<= 100000 USD))' } },
  { name: 'Ray a millisecond before the suspension', who: 'Ray', decision: 'CAPEX', value: '100000', at: b(SUS), expect: { allowed: true, limit: '<= 100000', chain: [50001, 50002, 50008, 50009, 50010], heldVia: SP } },
  { name: 'Ray at the suspension: blocked two links up', who: 'Ray', decision: 'CAPEX', value: '100000', at: SUS, expect: { allowed: false, reason: 'delegation 50008 was SUSPENDED on 2025-04-01' } },
  { name: 'Ray a millisecond before the resumption', who: 'Ray', decision: 'CAPEX', value: '100', at: b(RES), expect: { allowed: false, reason: 'delegation 50008 was SUSPENDED on 2025-04-30' } },
  { name: 'Ray at the resumption', who: 'Ray', decision: 'CAPEX', value: '100', at: RES, expect: { allowed: true, limit: '<= 100000', chain: [50001, 50002, 50008, 50009, 50010], heldVia: SP } },
  { name: 'Ray at the reorg: Finn\'s delegation invalid', who: 'Ray', decision: 'CAPEX', value: '100', at: REORG, expect: { allowed: false, reason: 'delegation 50008 was invalid on 2025-06-01' } },

  // ---- CAPEX: the AP Lead position (Gia and Oto), and Gia's own delegation ----
  { name: 'the AP Lead position at its limit', who: '@AP_LEAD', decision: 'CAPEX', value: '300000', at: FEB, expect: { allowed: true, limit: '<= 300000', chain: [50001, 50002, 50008, 50011], heldVia: PO } },
  { name: 'Oto, one of two AP Leads', who: 'Oto', decision: 'CAPEX', value: '300000', at: FEB, expect: { allowed: true, limit: '<= 300000', chain: [50001, 50002, 50008, 50011], heldVia: PO } },
  { name: 'Gia: both chains allow, the position is higher', who: 'Gia', decision: 'CAPEX', value: '100000', at: FEB, expect: { allowed: true, limit: '<= 300000', chain: [50001, 50002, 50008, 50011], heldVia: PO } },
  { name: 'Gia: only the position allows', who: 'Gia', decision: 'CAPEX', value: '200000', at: FEB, expect: { allowed: true, limit: '<= 300000', chain: [50001, 50002, 50008, 50011], heldVia: PO } },
  { name: 'Gia over both limits', who: 'Gia', decision: 'CAPEX', value: '300000.01', at: FEB, expect: { allowed: false, reasons: ['limit <= USD 300,000 < USD 300,000.01 via 50011 (300000.01 USD is more than the cap allows (<= 300000 USD))', 'limit <= USD 150,000 < USD 300,000.01 via 50027 (300000.01 USD is more than the cap allows (<= 150000 USD))'] } },
  { name: 'Gia during the suspension: her own delegation answers', who: 'Gia', decision: 'CAPEX', value: '100000', at: SUS, expect: { allowed: true, limit: '<= 150000', chain: [50001, 50002, 50027], heldVia: SP } },
  { name: 'Gia during the suspension over her own limit', who: 'Gia', decision: 'CAPEX', value: '200000', at: SUS, expect: { allowed: false, reasons: ['delegation 50008 was SUSPENDED on 2025-04-01', 'limit <= USD 150,000 < USD 200,000 via 50027 (200000 USD is more than the cap allows (<= 150000 USD))'] } },
  { name: 'Oto during the suspension', who: 'Oto', decision: 'CAPEX', value: '1', at: SUS, expect: { allowed: false, reason: 'delegation 50008 was SUSPENDED on 2025-04-01' } },
  { name: 'the AP Lead position at the resumption', who: '@AP_LEAD', decision: 'CAPEX', value: '1', at: RES, expect: { allowed: true, limit: '<= 300000', chain: [50001, 50002, 50008, 50011], heldVia: PO } },
  { name: 'Gia at the reorg: the position is blocked, her own answers', who: 'Gia', decision: 'CAPEX', value: '100000', at: REORG, expect: { allowed: true, limit: '<= 150000', chain: [50001, 50002, 50027], heldVia: SP } },
  { name: 'Oto at the reorg', who: 'Oto', decision: 'CAPEX', value: '1', at: REORG, expect: { allowed: false, reason: 'delegation 50008 was invalid on 2025-06-01' } },
  { name: 'Tom\'s ACCEPTED delegation holds', who: 'Tom', decision: 'CAPEX', value: '400000', at: FEB, expect: { allowed: true, limit: '<= 400000', chain: [50001, 50002, 50012], heldVia: SP } },

  // ---- CAPEX: Cleo's branch, revoked at REV ----
  { name: 'Cleo at her limit', who: 'Cleo', decision: 'CAPEX', value: '3000000', at: FEB, expect: { allowed: true, limit: '<= 3000000', chain: [50001, 50013], heldVia: SP } },
  { name: 'Cleo a millisecond before the revocation', who: 'Cleo', decision: 'CAPEX', value: '3000000', at: b(REV), expect: { allowed: true, limit: '<= 3000000', chain: [50001, 50013], heldVia: SP } },
  { name: 'Cleo at the revocation', who: 'Cleo', decision: 'CAPEX', value: '1', at: REV, expect: { allowed: false, reason: 'delegation 50013 was REVOKED on 2025-04-15' } },
  { name: 'Cleo later', who: 'Cleo', decision: 'CAPEX', value: '1', at: LATER, expect: { allowed: false, reason: 'delegation 50013 was REVOKED on 2025-10-01' } },
  { name: 'Ivy as Plant Manager North', who: 'Ivy', decision: 'CAPEX', value: '1500000', at: FEB, expect: { allowed: true, limit: '<= 1500000', chain: [50001, 50013, 50014], heldVia: PIP } },
  { name: 'Ivy a millisecond before the revocation', who: 'Ivy', decision: 'CAPEX', value: '1', at: b(REV), expect: { allowed: true, limit: '<= 1500000', chain: [50001, 50013, 50014], heldVia: PIP } },
  { name: 'Ivy at the revocation of her parent', who: 'Ivy', decision: 'CAPEX', value: '1', at: REV, expect: { allowed: false, reason: 'delegation 50013 was REVOKED on 2025-04-15' } },
  { name: 'the Plant North position does not hold Ivy\'s', who: '@PLANT_N', decision: 'CAPEX', value: '1', at: FEB, expect: { allowed: false, reason: 'no delegation of this decision was held by the position at 2025-02-15T12:00:00.000Z' } },
  { name: 'the Plant South position', who: '@PLANT_S', decision: 'CAPEX', value: '1200000', at: FEB, expect: { allowed: true, limit: '<= 1200000', chain: [50001, 50013, 50015], heldVia: PO } },
  { name: 'Jon holds Plant South', who: 'Jon', decision: 'CAPEX', value: '1200000', at: FEB, expect: { allowed: true, limit: '<= 1200000', chain: [50001, 50013, 50015], heldVia: PO } },
  { name: 'Jon a cent over', who: 'Jon', decision: 'CAPEX', value: '1200000.01', at: b(REV), expect: { allowed: false, reason: 'limit <= USD 1,200,000 < USD 1,200,000.01 via 50015 (1200000.01 USD is more than the cap allows (<= 1200000 USD))' } },
  { name: 'Jon at the revocation', who: 'Jon', decision: 'CAPEX', value: '1', at: REV, expect: { allowed: false, reason: 'delegation 50013 was REVOKED on 2025-04-15' } },
  { name: 'Jon at the reorg: no position', who: 'Jon', decision: 'CAPEX', value: '1', at: REORG, expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-06-01T00:00:00.000Z' } },
  { name: 'the Plant South position after the reorg', who: '@PLANT_S', decision: 'CAPEX', value: '1', at: REORG, expect: { allowed: false, reason: 'delegation 50013 was REVOKED on 2025-06-01' } },
  { name: 'Sia under the Plant South position', who: 'Sia', decision: 'CAPEX', value: '80000', at: FEB, expect: { allowed: true, limit: '<= 80000', chain: [50001, 50013, 50015, 50016], heldVia: SP } },
  { name: 'Sia at the revocation, two links up', who: 'Sia', decision: 'CAPEX', value: '80000', at: REV, expect: { allowed: false, reason: 'delegation 50013 was REVOKED on 2025-04-15' } },

  // ---- CAPEX: PENDING then ISSUED (Dan), issued late (Uma), not yet effective (Kai) ----
  { name: 'Dan pending approval', who: 'Dan', decision: 'CAPEX', value: '1', at: JAN1, expect: { allowed: false, reason: 'delegation 50017 was PENDING on 2025-01-01' } },
  { name: 'Dan a millisecond before approval', who: 'Dan', decision: 'CAPEX', value: '1', at: b(LATE), expect: { allowed: false, reason: 'delegation 50017 was PENDING on 2025-01-31' } },
  { name: 'Dan at approval', who: 'Dan', decision: 'CAPEX', value: '2500000', at: LATE, expect: { allowed: true, limit: '<= 2500000', chain: [50001, 50017], heldVia: SP } },
  { name: 'Uma a millisecond before hers was issued', who: 'Uma', decision: 'CAPEX', value: '1', at: b(LATE), expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-01-31T23:59:59.999Z' } },
  { name: 'Uma the instant it was issued', who: 'Uma', decision: 'CAPEX', value: '600000', at: LATE, expect: { allowed: true, limit: '<= 600000', chain: [50001, 50017, 50018], heldVia: SP } },
  { name: 'Uma fifty cents over', who: 'Uma', decision: 'CAPEX', value: '600000.5', at: FEB, expect: { allowed: false, reason: 'limit <= USD 600,000 < USD 600,000.5 via 50018 (600000.5 USD is more than the cap allows (<= 600000 USD))' } },
  { name: 'Kai before his delegation is effective', who: 'Kai', decision: 'CAPEX', value: '1', at: FEB, expect: { allowed: false, reason: 'delegation 50019 was not effective until 2025-03-01' } },
  { name: 'Kai a millisecond before effective', who: 'Kai', decision: 'CAPEX', value: '1', at: b(EFF), expect: { allowed: false, reason: 'delegation 50019 was not effective until 2025-03-01' } },
  { name: 'Kai when it became effective', who: 'Kai', decision: 'CAPEX', value: '200000', at: EFF, expect: { allowed: true, limit: '<= 200000', chain: [50001, 50019], heldVia: PIP } },
  { name: 'the HR position does not hold Kai\'s', who: '@HR', decision: 'CAPEX', value: '1', at: EFF, expect: { allowed: false, reason: 'no delegation of this decision was held by the position at 2025-03-01T00:00:00.000Z' } },

  // ---- CAPEX: expiry (Lea), the sweep's EXPIRED revision, her child made invalid; the Legal position from the reorg ----
  { name: 'Lea at her limit', who: 'Lea', decision: 'CAPEX', value: '900000', at: FEB, expect: { allowed: true, limit: '<= 900000', chain: [50001, 50020], heldVia: SP } },
  { name: 'Lea a millisecond before expiry', who: 'Lea', decision: 'CAPEX', value: '900000', at: b(EXP), expect: { allowed: true, limit: '<= 900000', chain: [50001, 50020], heldVia: SP } },
  { name: 'Lea at expiry', who: 'Lea', decision: 'CAPEX', value: '1', at: EXP, expect: { allowed: false, reason: 'delegation 50020 expired on 2025-03-15' } },
  { name: 'Lea a millisecond before the sweep', who: 'Lea', decision: 'CAPEX', value: '1', at: b(SWEPT), expect: { allowed: false, reason: 'delegation 50020 expired on 2025-03-15' } },
  { name: 'Lea after the sweep marked it EXPIRED', who: 'Lea', decision: 'CAPEX', value: '1', at: SWEPT, expect: { allowed: false, reason: 'delegation 50020 was EXPIRED on 2025-03-15' } },
  { name: 'Vic a millisecond before his parent expired', who: 'Vic', decision: 'CAPEX', value: '90000', at: b(EXP), expect: { allowed: true, limit: '<= 90000', chain: [50001, 50020, 50021], heldVia: SP } },
  { name: 'Vic when his parent expired', who: 'Vic', decision: 'CAPEX', value: '1', at: EXP, expect: { allowed: false, reason: 'delegation 50020 expired on 2025-03-15' } },
  { name: 'Vic after the sweep: the parent is named, not his invalid one', who: 'Vic', decision: 'CAPEX', value: '1', at: SWEPT, expect: { allowed: false, reason: 'delegation 50020 was EXPIRED on 2025-03-15' } },
  { name: 'Lea before the reorg: only the expired one', who: 'Lea', decision: 'CAPEX', value: '1', at: b(REORG), expect: { allowed: false, reason: 'delegation 50020 was EXPIRED on 2025-05-31' } },
  { name: 'Lea at the reorg holds the Legal position\'s new delegation', who: 'Lea', decision: 'CAPEX', value: '350000', at: REORG, expect: { allowed: true, limit: '<= 350000', chain: [50001, 50030], heldVia: PO } },
  { name: 'Lea at the reorg over the Legal limit', who: 'Lea', decision: 'CAPEX', value: '350001', at: REORG, expect: { allowed: false, reasons: ['delegation 50020 was EXPIRED on 2025-06-01', 'limit <= USD 350,000 < USD 350,001 via 50030 (350001 USD is more than the cap allows (<= 350000 USD))'] } },
  { name: 'the Legal position a millisecond before its delegation', who: '@LEGAL', decision: 'CAPEX', value: '1', at: b(REORG), expect: { allowed: false, reason: 'no delegation of this decision was held by the position at 2025-05-31T23:59:59.999Z' } },
  { name: 'the Legal position at the reorg', who: '@LEGAL', decision: 'CAPEX', value: '1', at: REORG, expect: { allowed: true, limit: '<= 350000', chain: [50001, 50030], heldVia: PO } },
  { name: 'Dee was given Legal, which she never held', who: 'Dee', decision: 'CAPEX', value: '1', at: FEB, expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-02-15T12:00:00.000Z' } },

  // ---- CAPEX: group scopes (Wes: France, invalid at the reorg; Abe: Europe), DRAFT ----
  { name: 'Wes without a group asked', who: 'Wes', decision: 'CAPEX', value: '700000', at: FEB, expect: { allowed: true, limit: '<= 700000', chain: [50001, 50022], heldVia: SP } },
  { name: 'Wes in France', who: 'Wes', decision: 'CAPEX', value: '1', group: 'France', at: FEB, expect: { allowed: true, limit: '<= 700000', chain: [50001, 50022], heldVia: SP } },
  { name: 'Wes in the UK', who: 'Wes', decision: 'CAPEX', value: '1', group: 'UK', at: FEB, expect: { allowed: false, reason: 'delegation 50022 does not cover group <UK>' } },
  { name: 'Wes in Europe (France\'s parent)', who: 'Wes', decision: 'CAPEX', value: '1', group: 'Europe', at: FEB, expect: { allowed: false, reason: 'delegation 50022 does not cover group <Europe>' } },
  { name: 'Xia in France before the reorg', who: 'Xia', decision: 'CAPEX', value: '70000', group: 'France', at: b(REORG), expect: { allowed: true, limit: '<= 70000', chain: [50001, 50022, 50023], heldVia: SP } },
  { name: 'Xia at the reorg', who: 'Xia', decision: 'CAPEX', value: '1', at: REORG, expect: { allowed: false, reason: 'delegation 50022 was invalid on 2025-06-01' } },
  { name: 'Wes at the reorg', who: 'Wes', decision: 'CAPEX', value: '1', at: REORG, expect: { allowed: false, reason: 'delegation 50022 was invalid on 2025-06-01' } },
  { name: 'Yan\'s DRAFT', who: 'Yan', decision: 'CAPEX', value: '1', at: FEB, expect: { allowed: false, reason: 'delegation 50024 was DRAFT on 2025-02-15' } },
  { name: 'Abe (Europe) without a group asked', who: 'Abe', decision: 'CAPEX', value: '400000', at: FEB, expect: { allowed: true, limit: '<= 400000', chain: [50001, 50026], heldVia: SP } },
  { name: 'Abe in the UK', who: 'Abe', decision: 'CAPEX', value: '1', group: 'UK', at: FEB, expect: { allowed: true, limit: '<= 400000', chain: [50001, 50026], heldVia: SP } },
  { name: 'Abe in France before it closed', who: 'Abe', decision: 'CAPEX', value: '1', group: 'France', at: FEB, expect: { allowed: true, limit: '<= 400000', chain: [50001, 50026], heldVia: SP } },
  { name: 'Abe in France after it closed: nothing covers a closed group, the root (no groups) named first', who: 'Abe', decision: 'CAPEX', value: '1', group: 'France', at: REORG, expect: { allowed: false, reason: 'delegation 50001 does not cover group <France>' } },
  { name: 'Abe in the US', who: 'Abe', decision: 'CAPEX', value: '1', group: 'US', at: FEB, expect: { allowed: false, reason: 'delegation 50026 does not cover group <US>' } },
  { name: 'Abe at Corp (above Europe)', who: 'Abe', decision: 'CAPEX', value: '1', group: 'Corp', at: FEB, expect: { allowed: false, reason: 'delegation 50026 does not cover group <Corp>' } },
  { name: 'Abe in the UK after the reorg', who: 'Abe', decision: 'CAPEX', value: '1', group: 'UK', at: REORG, expect: { allowed: true, limit: '<= 400000', chain: [50001, 50026], heldVia: SP } },

  // ---- CONTRACTS: group scopes by the hierarchy as it stood (Mexico moves to LatAm, France closes at the reorg) ----
  { name: 'Ada at Corp', who: 'Ada', decision: 'CONTRACTS', value: '5000000', group: 'Corp', at: FEB, expect: { allowed: true, limit: '<= 5000000', chain: [50031], heldVia: SP } },
  { name: 'Ada (Corp) in Mexico', who: 'Ada', decision: 'CONTRACTS', value: '1', group: 'Mexico', at: FEB, expect: { allowed: true, limit: '<= 5000000', chain: [50031], heldVia: SP } },
  { name: 'Ada without a group', who: 'Ada', decision: 'CONTRACTS', value: '1', at: FEB, expect: { allowed: true, limit: '<= 5000000', chain: [50031], heldVia: SP } },
  { name: 'Ada in France a millisecond before it closed', who: 'Ada', decision: 'CONTRACTS', value: '1', group: 'France', at: b(REORG), expect: { allowed: true, limit: '<= 5000000', chain: [50031], heldVia: SP } },
  { name: 'Ada in France when it closed: the root no longer covers it', who: 'Ada', decision: 'CONTRACTS', value: '1', group: 'France', at: REORG, expect: { allowed: false, reason: 'delegation 50031 does not cover group <France>' } },
  // (A group the tenant does not have is no question to answer: a 404 naming groupId, below.)
  { name: 'Bea (Europe) in the UK', who: 'Bea', decision: 'CONTRACTS', value: '1000000', group: 'UK', at: FEB, expect: { allowed: true, limit: '<= 1000000', chain: [50031, 50032], heldVia: SP } },
  { name: 'Bea in Europe itself', who: 'Bea', decision: 'CONTRACTS', value: '1', group: 'Europe', at: FEB, expect: { allowed: true, limit: '<= 1000000', chain: [50031, 50032], heldVia: SP } },
  { name: 'Bea at Corp', who: 'Bea', decision: 'CONTRACTS', value: '1', group: 'Corp', at: FEB, expect: { allowed: false, reason: 'delegation 50032 does not cover group <Corp>' } },
  { name: 'Bea in the US', who: 'Bea', decision: 'CONTRACTS', value: '1', group: 'US', at: FEB, expect: { allowed: false, reason: 'delegation 50032 does not cover group <US>' } },
  { name: 'Bea in France before it closed', who: 'Bea', decision: 'CONTRACTS', value: '1', group: 'France', at: b(REORG), expect: { allowed: true, limit: '<= 1000000', chain: [50031, 50032], heldVia: SP } },
  { name: 'Bea in France after it closed: the root is named first', who: 'Bea', decision: 'CONTRACTS', value: '1', group: 'France', at: REORG, expect: { allowed: false, reason: 'delegation 50031 does not cover group <France>' } },
  { name: 'Cal (UK)', who: 'Cal', decision: 'CONTRACTS', value: '200000', group: 'UK', at: FEB, expect: { allowed: true, limit: '<= 200000', chain: [50031, 50032, 50033], heldVia: SP } },
  { name: 'Cal (UK) in France', who: 'Cal', decision: 'CONTRACTS', value: '1', group: 'France', at: FEB, expect: { allowed: false, reason: 'delegation 50033 does not cover group <France>' } },
  { name: 'Dee (France) before it closed', who: 'Dee', decision: 'CONTRACTS', value: '200000', group: 'France', at: b(REORG), expect: { allowed: true, limit: '<= 200000', chain: [50031, 50032, 50034], heldVia: SP } },
  { name: 'Dee (France) after it closed', who: 'Dee', decision: 'CONTRACTS', value: '1', group: 'France', at: REORG, expect: { allowed: false, reason: 'delegation 50031 does not cover group <France>' } },
  { name: 'Dee after France closed, no group asked', who: 'Dee', decision: 'CONTRACTS', value: '1', at: REORG, expect: { allowed: true, limit: '<= 200000', chain: [50031, 50032, 50034], heldVia: SP } },
  { name: 'Nia (NorthAm) in Mexico', who: 'Nia', decision: 'CONTRACTS', value: '1', group: 'Mexico', at: FEB, expect: { allowed: true, limit: '<= 1000000', chain: [50031, 50035], heldVia: SP } },
  { name: 'Nia in Mexico a millisecond before it moved', who: 'Nia', decision: 'CONTRACTS', value: '1000000', group: 'Mexico', at: b(REORG), expect: { allowed: true, limit: '<= 1000000', chain: [50031, 50035], heldVia: SP } },
  { name: 'Nia in Mexico when it moved to LatAm', who: 'Nia', decision: 'CONTRACTS', value: '1', group: 'Mexico', at: REORG, expect: { allowed: false, reason: 'delegation 50035 does not cover group <Mexico>' } },
  { name: 'Nia in the US after the reorg', who: 'Nia', decision: 'CONTRACTS', value: '1', group: 'US', at: REORG, expect: { allowed: true, limit: '<= 1000000', chain: [50031, 50035], heldVia: SP } },
  { name: 'Oto (Mexico) before the move', who: 'Oto', decision: 'CONTRACTS', value: '300000', group: 'Mexico', at: b(REORG), expect: { allowed: true, limit: '<= 300000', chain: [50031, 50035, 50036], heldVia: SP } },
  { name: 'Oto (Mexico) after the move: his parent (NorthAm) no longer covers it', who: 'Oto', decision: 'CONTRACTS', value: '1', group: 'Mexico', at: REORG, expect: { allowed: false, reason: 'delegation 50035 does not cover group <Mexico>' } },
  { name: 'Oto after the move, no group asked', who: 'Oto', decision: 'CONTRACTS', value: '1', at: LATER, expect: { allowed: true, limit: '<= 300000', chain: [50031, 50035, 50036], heldVia: SP } },
  { name: 'Pia (US)', who: 'Pia', decision: 'CONTRACTS', value: '300000', group: 'US', at: FEB, expect: { allowed: true, limit: '<= 300000', chain: [50031, 50035, 50037], heldVia: SP } },
  { name: 'Pia (US) in Mexico', who: 'Pia', decision: 'CONTRACTS', value: '1', group: 'Mexico', at: FEB, expect: { allowed: false, reason: 'delegation 50037 does not cover group <Mexico>' } },
  { name: 'Quin (LatAm) in Mexico before the move', who: 'Quin', decision: 'CONTRACTS', value: '1', group: 'Mexico', at: b(REORG), expect: { allowed: false, reason: 'delegation 50038 does not cover group <Mexico>' } },
  { name: 'Quin (LatAm) in Mexico after the move', who: 'Quin', decision: 'CONTRACTS', value: '800000', group: 'Mexico', at: REORG, expect: { allowed: true, limit: '<= 800000', chain: [50031, 50038], heldVia: SP } },
  { name: 'Quin in Brazil', who: 'Quin', decision: 'CONTRACTS', value: '1', group: 'Brazil', at: REORG, expect: { allowed: true, limit: '<= 800000', chain: [50031, 50038], heldVia: SP } },
  { name: 'Ray (Brazil)', who: 'Ray', decision: 'CONTRACTS', value: '150000', group: 'Brazil', at: FEB, expect: { allowed: true, limit: '<= 150000', chain: [50031, 50038, 50039], heldVia: SP } },
  { name: 'Ray (Brazil) in Mexico after the move', who: 'Ray', decision: 'CONTRACTS', value: '1', group: 'Mexico', at: REORG, expect: { allowed: false, reason: 'delegation 50039 does not cover group <Mexico>' } },
  { name: 'Sia (no groups) in Brazil', who: 'Sia', decision: 'CONTRACTS', value: '500000', group: 'Brazil', at: FEB, expect: { allowed: true, limit: '<= 500000', chain: [50031, 50040], heldVia: SP } },
  { name: 'Sia in France after it closed', who: 'Sia', decision: 'CONTRACTS', value: '1', group: 'France', at: REORG, expect: { allowed: false, reason: 'delegation 50031 does not cover group <France>' } },
  { name: 'Tom (US, Brazil) in Brazil', who: 'Tom', decision: 'CONTRACTS', value: '100000', group: 'Brazil', at: FEB, expect: { allowed: true, limit: '<= 100000', chain: [50031, 50040, 50041], heldVia: SP } },
  { name: 'Tom in the US', who: 'Tom', decision: 'CONTRACTS', value: '1', group: 'US', at: FEB, expect: { allowed: true, limit: '<= 100000', chain: [50031, 50040, 50041], heldVia: SP } },
  { name: 'Tom in Mexico before the move', who: 'Tom', decision: 'CONTRACTS', value: '1', group: 'Mexico', at: b(REORG), expect: { allowed: false, reason: 'delegation 50041 does not cover group <Mexico>' } },
  { name: 'Tom in Mexico after the move', who: 'Tom', decision: 'CONTRACTS', value: '1', group: 'Mexico', at: REORG, expect: { allowed: false, reason: 'delegation 50041 does not cover group <Mexico>' } },
  { name: 'Tom in NorthAm (above the US)', who: 'Tom', decision: 'CONTRACTS', value: '1', group: 'NorthAm', at: FEB, expect: { allowed: false, reason: 'delegation 50041 does not cover group <NorthAm>' } },
  { name: 'Uma (Europe, LatAm) in Mexico before the move', who: 'Uma', decision: 'CONTRACTS', value: '1', group: 'Mexico', at: b(REORG), expect: { allowed: false, reason: 'delegation 50042 does not cover group <Mexico>' } },
  { name: 'Uma in Mexico after the move', who: 'Uma', decision: 'CONTRACTS', value: '600000', group: 'Mexico', at: REORG, expect: { allowed: true, limit: '<= 600000', chain: [50031, 50042], heldVia: SP } },
  { name: 'Uma in the UK', who: 'Uma', decision: 'CONTRACTS', value: '1', group: 'UK', at: FEB, expect: { allowed: true, limit: '<= 600000', chain: [50031, 50042], heldVia: SP } },
  { name: 'Uma in France after it closed', who: 'Uma', decision: 'CONTRACTS', value: '1', group: 'France', at: REORG, expect: { allowed: false, reason: 'delegation 50031 does not cover group <France>' } },
  { name: 'the Procurement position (NorthAm) in the US', who: '@PROCUREMENT', decision: 'CONTRACTS', value: '2000000', group: 'US', at: FEB, expect: { allowed: true, limit: '<= 2000000', chain: [50031, 50043], heldVia: PO } },
  { name: 'the Procurement position in Mexico before the move', who: '@PROCUREMENT', decision: 'CONTRACTS', value: '1', group: 'Mexico', at: b(REORG), expect: { allowed: true, limit: '<= 2000000', chain: [50031, 50043], heldVia: PO } },
  { name: 'the Procurement position in Mexico after the move', who: '@PROCUREMENT', decision: 'CONTRACTS', value: '1', group: 'Mexico', at: REORG, expect: { allowed: false, reason: 'delegation 50043 does not cover group <Mexico>' } },
  { name: 'Hal (Procurement): the position above his own', who: 'Hal', decision: 'CONTRACTS', value: '1500000', group: 'US', at: FEB, expect: { allowed: true, limit: '<= 2000000', chain: [50031, 50043], heldVia: PO } },
  { name: 'Hal: both allow, the position is higher', who: 'Hal', decision: 'CONTRACTS', value: '400000', group: 'US', at: FEB, expect: { allowed: true, limit: '<= 2000000', chain: [50031, 50043], heldVia: PO } },
  { name: 'Hal over the position\'s limit: one reason for both chains', who: 'Hal', decision: 'CONTRACTS', value: '2000000.01', group: 'US', at: FEB, expect: { allowed: false, reason: 'limit <= USD 2,000,000 < USD 2,000,000.01 via 50043 (2000000.01 USD is more than the cap allows (<= 2000000 USD))' } },
  { name: 'Hal in Mexico: only the position covers it', who: 'Hal', decision: 'CONTRACTS', value: '400000', group: 'Mexico', at: FEB, expect: { allowed: true, limit: '<= 2000000', chain: [50031, 50043], heldVia: PO } },
  { name: 'Hal in Brazil: one reason for both chains', who: 'Hal', decision: 'CONTRACTS', value: '1', group: 'Brazil', at: FEB, expect: { allowed: false, reason: 'delegation 50043 does not cover group <Brazil>' } },
  { name: 'Hal after leaving Procurement', who: 'Hal', decision: 'CONTRACTS', value: '1', group: 'US', at: REORG, expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-06-01T00:00:00.000Z' } },
  { name: 'Finn before he joined Procurement', who: 'Finn', decision: 'CONTRACTS', value: '1', group: 'US', at: b(REORG), expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-05-31T23:59:59.999Z' } },
  { name: 'Finn as Procurement Lead after the reorg', who: 'Finn', decision: 'CONTRACTS', value: '2000000', group: 'US', at: REORG, expect: { allowed: true, limit: '<= 2000000', chain: [50031, 50043], heldVia: PO } },
  { name: 'Vic (Mexico) in Mexico before the move', who: 'Vic', decision: 'CONTRACTS', value: '250000', group: 'Mexico', at: b(REORG), expect: { allowed: true, limit: '<= 250000', chain: [50031, 50045], heldVia: SP } },
  { name: 'Vic (Mexico) in Mexico after the move', who: 'Vic', decision: 'CONTRACTS', value: '250000', group: 'Mexico', at: REORG, expect: { allowed: true, limit: '<= 250000', chain: [50031, 50045], heldVia: SP } },
  { name: 'Vic (Mexico) in the US', who: 'Vic', decision: 'CONTRACTS', value: '1', group: 'US', at: FEB, expect: { allowed: false, reason: 'delegation 50045 does not cover group <US>' } },

  // ---- PAYMENTS: positions and the people in them through the reorg ----
  { name: 'the CFO position, the root', who: '@CFO', decision: 'PAYMENTS', value: '2000000', at: FEB, expect: { allowed: true, limit: '<= 2000000', chain: [50046], heldVia: PO } },
  { name: 'Ben holds the CFO position', who: 'Ben', decision: 'PAYMENTS', value: '2000000', at: FEB, expect: { allowed: true, limit: '<= 2000000', chain: [50046], heldVia: PO } },
  { name: 'Ben a cent over', who: 'Ben', decision: 'PAYMENTS', value: '2000000.01', at: FEB, expect: { allowed: false, reason: 'limit <= USD 2,000,000 < USD 2,000,000.01 via 50046 (2000000.01 USD is more than the cap allows (<= 2000000 USD))' } },
  { name: 'the Treasurer position', who: '@TREASURER', decision: 'PAYMENTS', value: '1000000', at: FEB, expect: { allowed: true, limit: '<= 1000000', chain: [50046, 50047], heldVia: PO } },
  { name: 'the Treasurer position after the reorg', who: '@TREASURER', decision: 'PAYMENTS', value: '1000000', at: LATER, expect: { allowed: true, limit: '<= 1000000', chain: [50046, 50047], heldVia: PO } },
  { name: 'Finn as Treasurer before the reorg', who: 'Finn', decision: 'PAYMENTS', value: '1000000', at: b(REORG), expect: { allowed: true, limit: '<= 1000000', chain: [50046, 50047], heldVia: PO } },
  { name: 'Finn as Procurement Lead: that position\'s limit', who: 'Finn', decision: 'PAYMENTS', value: '1000000', at: REORG, expect: { allowed: false, reason: 'limit <= USD 350,000 < USD 1,000,000 via 50054 (1000000 USD is more than the cap allows (<= 350000 USD))' } },
  { name: 'Finn as Procurement Lead within it', who: 'Finn', decision: 'PAYMENTS', value: '350000', at: REORG, expect: { allowed: true, limit: '<= 350000', chain: [50046, 50054], heldVia: PO } },
  { name: 'Eve as Controller: her own (500k) above the position\'s (400k)', who: 'Eve', decision: 'PAYMENTS', value: '450000', at: b(REORG), expect: { allowed: true, limit: '<= 500000', chain: [50046, 50050], heldVia: PIP } },
  { name: 'Eve as Controller: both allow, her own is higher', who: 'Eve', decision: 'PAYMENTS', value: '300000', at: b(REORG), expect: { allowed: true, limit: '<= 500000', chain: [50046, 50050], heldVia: PIP } },
  { name: 'Eve as Controller over both', who: 'Eve', decision: 'PAYMENTS', value: '500001', at: b(REORG), expect: { allowed: false, reasons: ['limit <= USD 500,000 < USD 500,001 via 50050 (500001 USD is more than the cap allows (<= 500000 USD))', 'limit <= USD 400,000 < USD 500,001 via 50052 (500001 USD is more than the cap allows (<= 400000 USD))'] } },
  { name: 'Eve as Treasurer after the reorg', who: 'Eve', decision: 'PAYMENTS', value: '450000', at: REORG, expect: { allowed: true, limit: '<= 1000000', chain: [50046, 50047], heldVia: PO } },
  { name: 'Pia under Eve as Controller', who: 'Pia', decision: 'PAYMENTS', value: '20000', at: b(REORG), expect: { allowed: true, limit: '<= 20000', chain: [50046, 50050, 50051], heldVia: SP } },
  { name: 'Pia at the reorg', who: 'Pia', decision: 'PAYMENTS', value: '1', at: REORG, expect: { allowed: false, reason: 'delegation 50050 was invalid on 2025-06-01' } },
  { name: 'Nia before she was Controller', who: 'Nia', decision: 'PAYMENTS', value: '1', at: b(REORG), expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-05-31T23:59:59.999Z' } },
  { name: 'Nia as Controller', who: 'Nia', decision: 'PAYMENTS', value: '400000', at: REORG, expect: { allowed: true, limit: '<= 400000', chain: [50046, 50052], heldVia: PO } },
  { name: 'the Controller position', who: '@CONTROLLER', decision: 'PAYMENTS', value: '400000', at: FEB, expect: { allowed: true, limit: '<= 400000', chain: [50046, 50052], heldVia: PO } },
  { name: 'Gia: the AP Lead position above her own', who: 'Gia', decision: 'PAYMENTS', value: '250000', at: FEB, expect: { allowed: true, limit: '<= 250000', chain: [50046, 50047, 50048], heldVia: PO } },
  { name: 'Gia: both allow', who: 'Gia', decision: 'PAYMENTS', value: '50000', at: FEB, expect: { allowed: true, limit: '<= 250000', chain: [50046, 50047, 50048], heldVia: PO } },
  { name: 'Gia a cent over the position: one reason for both chains', who: 'Gia', decision: 'PAYMENTS', value: '250000.01', at: FEB, expect: { allowed: false, reason: 'limit <= USD 250,000 < USD 250,000.01 via 50048 (250000.01 USD is more than the cap allows (<= 250000 USD))' } },
  { name: 'Oto, the other AP Lead', who: 'Oto', decision: 'PAYMENTS', value: '250000', at: FEB, expect: { allowed: true, limit: '<= 250000', chain: [50046, 50047, 50048], heldVia: PO } },
  { name: 'the AP Lead position', who: '@AP_LEAD', decision: 'PAYMENTS', value: '100000', at: FEB, expect: { allowed: true, limit: '<= 250000', chain: [50046, 50047, 50048], heldVia: PO } },
  { name: 'Hal: the position allows what his own does not', who: 'Hal', decision: 'PAYMENTS', value: '320000', at: FEB, expect: { allowed: true, limit: '<= 350000', chain: [50046, 50054], heldVia: PO } },
  { name: 'Hal: both allow, the position is higher', who: 'Hal', decision: 'PAYMENTS', value: '300000', at: FEB, expect: { allowed: true, limit: '<= 350000', chain: [50046, 50054], heldVia: PO } },
  { name: 'Hal after leaving', who: 'Hal', decision: 'PAYMENTS', value: '1', at: REORG, expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-06-01T00:00:00.000Z' } },
  { name: 'Jon: his own (150k) above the position\'s (120k)', who: 'Jon', decision: 'PAYMENTS', value: '150000', at: FEB, expect: { allowed: true, limit: '<= 150000', chain: [50046, 50055], heldVia: PIP } },
  { name: 'Jon: both allow, his own is higher', who: 'Jon', decision: 'PAYMENTS', value: '100000', at: FEB, expect: { allowed: true, limit: '<= 150000', chain: [50046, 50055], heldVia: PIP } },
  { name: 'Jon after leaving Plant South', who: 'Jon', decision: 'PAYMENTS', value: '1', at: REORG, expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-06-01T00:00:00.000Z' } },
  { name: 'Max before he took Plant South', who: 'Max', decision: 'PAYMENTS', value: '1', at: b(REORG), expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-05-31T23:59:59.999Z' } },
  { name: 'Max as Plant Manager South', who: 'Max', decision: 'PAYMENTS', value: '120000', at: REORG, expect: { allowed: true, limit: '<= 120000', chain: [50046, 50056], heldVia: PO } },
  { name: 'Max over the position\'s limit', who: 'Max', decision: 'PAYMENTS', value: '150000', at: REORG, expect: { allowed: false, reason: 'limit <= USD 120,000 < USD 150,000 via 50056 (150000 USD is more than the cap allows (<= 120000 USD))' } },
  { name: 'Ivy as Plant Manager North', who: 'Ivy', decision: 'PAYMENTS', value: '150000', at: FEB, expect: { allowed: true, limit: '<= 150000', chain: [50046, 50057], heldVia: PIP } },
  { name: 'Ivy after the reorg (still there)', who: 'Ivy', decision: 'PAYMENTS', value: '150000', at: LATER, expect: { allowed: true, limit: '<= 150000', chain: [50046, 50057], heldVia: PIP } },
  { name: 'Wes under Ivy', who: 'Wes', decision: 'PAYMENTS', value: '10000', at: FEB, expect: { allowed: true, limit: '<= 10000', chain: [50046, 50057, 50058], heldVia: SP } },
  { name: 'Kai: equal limits, the first delegation answers', who: 'Kai', decision: 'PAYMENTS', value: '40000', at: FEB, expect: { allowed: true, limit: '<= 50000', chain: [50046, 50059], heldVia: SP } },
  { name: 'the HR position', who: '@HR', decision: 'PAYMENTS', value: '50000', at: FEB, expect: { allowed: true, limit: '<= 50000', chain: [50046, 50061], heldVia: PO } },
  { name: 'Kai over both equal limits: two reasons', who: 'Kai', decision: 'PAYMENTS', value: '50000.01', at: FEB, expect: { allowed: false, reasons: ['limit <= USD 50,000 < USD 50,000.01 via 50059 (50000.01 USD is more than the cap allows (<= 50000 USD))', 'limit <= USD 50,000 < USD 50,000.01 via 50061 (50000.01 USD is more than the cap allows (<= 50000 USD))'] } },
  { name: 'Lea as Legal Counsel under Kai', who: 'Lea', decision: 'PAYMENTS', value: '30000', at: FEB, expect: { allowed: true, limit: '<= 30000', chain: [50046, 50059, 50060], heldVia: PIP } },
  { name: 'Abe: <= 75,000 is higher than < 75,000', who: 'Abe', decision: 'PAYMENTS', value: '50000', at: FEB, expect: { allowed: true, limit: '<= 75000', chain: [50046, 50063], heldVia: SP } },
  { name: 'Abe exactly at 75,000: only <= allows', who: 'Abe', decision: 'PAYMENTS', value: '75000', at: FEB, expect: { allowed: true, limit: '<= 75000', chain: [50046, 50063], heldVia: SP } },
  { name: 'Abe a millionth below 75,000', who: 'Abe', decision: 'PAYMENTS', value: '74999.999999', at: FEB, expect: { allowed: true, limit: '<= 75000', chain: [50046, 50063], heldVia: SP } },
  { name: 'Abe a millionth above 75,000', who: 'Abe', decision: 'PAYMENTS', value: '75000.000001', at: FEB, expect: { allowed: false, reasons: ['limit < USD 75,000 < USD 75,000.000001 via 50062 (75000.000001 USD is more than the cap allows (< 75000 USD))', 'limit <= USD 75,000 < USD 75,000.000001 via 50063 (75000.000001 USD is more than the cap allows (<= 75000 USD))'] } },
  { name: 'Cal\'s is PENDING', who: 'Cal', decision: 'PAYMENTS', value: '1', at: FEB, expect: { allowed: false, reason: 'delegation 50064 was PENDING on 2025-02-15' } },
  { name: 'Dee a millisecond before the revocation', who: 'Dee', decision: 'PAYMENTS', value: '10000', at: b(REV), expect: { allowed: true, limit: '<= 10000', chain: [50046, 50065], heldVia: SP } },
  { name: 'Dee at the revocation', who: 'Dee', decision: 'PAYMENTS', value: '1', at: REV, expect: { allowed: false, reason: 'delegation 50065 was REVOKED on 2025-04-15' } },

  // ---- WRITEOFFS: Unlimited, limit boundaries to the millionth, the highest of two chains ----
  { name: 'Ada Unlimited, the largest value', who: 'Ada', decision: 'WRITEOFFS', value: '999999999999999.999999', at: FEB, expect: { allowed: true, limit: 'Unlimited', chain: [50066], heldVia: SP } },
  { name: 'Ada Unlimited, value 0', who: 'Ada', decision: 'WRITEOFFS', value: '0', at: FEB, expect: { allowed: true, limit: 'Unlimited', chain: [50066], heldVia: SP } },
  { name: 'Unlimited without a unit', who: 'Ada', decision: 'WRITEOFFS', value: '5', unit: null, at: FEB, expect: { allowed: false, reason: 'limit Unlimited < 5 via 50066 (the unit none is not USD)' } },
  { name: 'Ben Unlimited under Unlimited', who: 'Ben', decision: 'WRITEOFFS', value: '1000000000000', at: FEB, expect: { allowed: true, limit: 'Unlimited', chain: [50066, 50067], heldVia: SP } },
  { name: 'Cleo exactly at <= 1,000,000', who: 'Cleo', decision: 'WRITEOFFS', value: '1000000', at: FEB, expect: { allowed: true, limit: '<= 1000000', chain: [50066, 50067, 50068], heldVia: SP } },
  { name: 'Cleo a millionth over', who: 'Cleo', decision: 'WRITEOFFS', value: '1000000.000001', at: FEB, expect: { allowed: false, reason: /^limit <= USD 1,000,000 < USD 1,000,000(\.000001)? via 50068 \(1000000\.000001 USD is more than the cap allows \(<= 1000000 USD\)\)$/ } },
  { name: 'Dan a millionth under < 1,000,000', who: 'Dan', decision: 'WRITEOFFS', value: '999999.999999', at: FEB, expect: { allowed: true, limit: '< 1000000', chain: [50066, 50067, 50069], heldVia: SP } },
  { name: 'Dan exactly at < 1,000,000', who: 'Dan', decision: 'WRITEOFFS', value: '1000000', at: FEB, expect: { allowed: false, reason: 'limit < USD 1,000,000 < USD 1,000,000 via 50069 (<= 1000000 USD is wider than the cap allows (< 1000000 USD))' } },
  { name: 'Eve exactly at 999,999.99', who: 'Eve', decision: 'WRITEOFFS', value: '999999.99', at: FEB, expect: { allowed: true, limit: '<= 999999.99', chain: [50066, 50067, 50069, 50070], heldVia: SP } },
  { name: 'Eve a thousandth over', who: 'Eve', decision: 'WRITEOFFS', value: '999999.991', at: FEB, expect: { allowed: false, reason: 'limit <= USD 999,999.99 < USD 999,999.991 via 50070 (999999.991 USD is more than the cap allows (<= 999999.99 USD))' } },
  { name: 'Eve above her parent\'s limit: the parent is named', who: 'Eve', decision: 'WRITEOFFS', value: '1500000', at: b(REORG), expect: { allowed: false, reason: 'limit < USD 1,000,000 < USD 1,500,000 via 50069 (1500000 USD is more than the cap allows (< 1000000 USD))' } },
  { name: 'Eve as Treasurer after the reorg', who: 'Eve', decision: 'WRITEOFFS', value: '1500000', at: REORG, expect: { allowed: true, limit: '<= 2000000', chain: [50066, 50073], heldVia: PO } },
  { name: 'Eve as Treasurer: both allow, the position is higher', who: 'Eve', decision: 'WRITEOFFS', value: '500000', at: REORG, expect: { allowed: true, limit: '<= 2000000', chain: [50066, 50073], heldVia: PO } },
  { name: 'Gia: < 1,000,000 is higher than <= 500,000', who: 'Gia', decision: 'WRITEOFFS', value: '400000', at: FEB, expect: { allowed: true, limit: '< 1000000', chain: [50066, 50067, 50072], heldVia: SP } },
  { name: 'Gia a millionth under 1,000,000', who: 'Gia', decision: 'WRITEOFFS', value: '999999.999999', at: FEB, expect: { allowed: true, limit: '< 1000000', chain: [50066, 50067, 50072], heldVia: SP } },
  { name: 'Gia at 1,000,000: both refuse', who: 'Gia', decision: 'WRITEOFFS', value: '1000000', at: FEB, expect: { allowed: false, reasons: ['limit <= USD 500,000 < USD 1,000,000 via 50071 (1000000 USD is more than the cap allows (<= 500000 USD))', 'limit < USD 1,000,000 < USD 1,000,000 via 50072 (<= 1000000 USD is wider than the cap allows (< 1000000 USD))'] } },
  { name: 'Finn as Treasurer', who: 'Finn', decision: 'WRITEOFFS', value: '2000000', at: FEB, expect: { allowed: true, limit: '<= 2000000', chain: [50066, 50073], heldVia: PO } },
  { name: 'Finn after the reorg', who: 'Finn', decision: 'WRITEOFFS', value: '1', at: REORG, expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-06-01T00:00:00.000Z' } },
  { name: 'Ivy exactly at one cent', who: 'Ivy', decision: 'WRITEOFFS', value: '0.01', at: FEB, expect: { allowed: true, limit: '<= 0.01', chain: [50066, 50074], heldVia: SP } },
  { name: 'Ivy a millionth over one cent', who: 'Ivy', decision: 'WRITEOFFS', value: '0.010001', at: FEB, expect: { allowed: false, reason: 'limit <= USD 0.01 < USD 0.010001 via 50074 (0.010001 USD is more than the cap allows (<= 0.01 USD))' } },
  { name: 'Ivy, value 0', who: 'Ivy', decision: 'WRITEOFFS', value: '0', at: FEB, expect: { allowed: true, limit: '<= 0.01', chain: [50066, 50074], heldVia: SP } },
  { name: 'Jon Unlimited, ACCEPTED', who: 'Jon', decision: 'WRITEOFFS', value: '100000000000000', at: FEB, expect: { allowed: true, limit: 'Unlimited', chain: [50066, 50075], heldVia: SP } },
  { name: 'Kai exactly at 250,000.5: only the second allows', who: 'Kai', decision: 'WRITEOFFS', value: '250000.5', at: FEB, expect: { allowed: true, limit: '<= 250000.5', chain: [50066, 50075, 50077], heldVia: SP } },
  { name: 'Kai: both allow, fifty cents higher wins', who: 'Kai', decision: 'WRITEOFFS', value: '100', at: FEB, expect: { allowed: true, limit: '<= 250000.5', chain: [50066, 50075, 50077], heldVia: SP } },
  { name: 'Kai a millionth over both', who: 'Kai', decision: 'WRITEOFFS', value: '250000.500001', at: FEB, expect: { allowed: false, reasons: ['limit <= USD 250,000 < USD 250,000.500001 via 50076 (250000.500001 USD is more than the cap allows (<= 250000 USD))', 'limit <= USD 250,000.5 < USD 250,000.500001 via 50077 (250000.500001 USD is more than the cap allows (<= 250000.5 USD))'] } },
  { name: 'Lea a millisecond before her suspension', who: 'Lea', decision: 'WRITEOFFS', value: '100', at: b(SUS), expect: { allowed: true, limit: '<= 100', chain: [50066, 50078], heldVia: SP } },
  { name: 'Lea at her suspension', who: 'Lea', decision: 'WRITEOFFS', value: '100', at: SUS, expect: { allowed: false, reason: 'delegation 50078 was SUSPENDED on 2025-04-01' } },
  { name: 'Lea still suspended later', who: 'Lea', decision: 'WRITEOFFS', value: '1', at: LATER, expect: { allowed: false, reason: 'delegation 50078 was SUSPENDED on 2025-10-01' } },
  { name: 'Max before effective', who: 'Max', decision: 'WRITEOFFS', value: '1', at: FEB, expect: { allowed: false, reason: 'delegation 50079 was not effective until 2025-03-01' } },
  { name: 'Max at effective', who: 'Max', decision: 'WRITEOFFS', value: '3000000', at: EFF, expect: { allowed: true, limit: '<= 3000000', chain: [50066, 50079], heldVia: SP } },
  { name: 'Max a millisecond before expiry', who: 'Max', decision: 'WRITEOFFS', value: '3000000', at: b(REORG), expect: { allowed: true, limit: '<= 3000000', chain: [50066, 50079], heldVia: SP } },
  { name: 'Max at expiry (no EXPIRED revision: by the date)', who: 'Max', decision: 'WRITEOFFS', value: '1', at: REORG, expect: { allowed: false, reason: 'delegation 50079 expired on 2025-06-01' } },
  { name: 'Nia a millionth under < 100', who: 'Nia', decision: 'WRITEOFFS', value: '99.999999', at: FEB, expect: { allowed: true, limit: '< 100', chain: [50066, 50080], heldVia: SP } },
  { name: 'Nia exactly at < 100', who: 'Nia', decision: 'WRITEOFFS', value: '100', at: FEB, expect: { allowed: false, reason: 'limit < USD 100 < USD 100 via 50080 (<= 100 USD is wider than the cap allows (< 100 USD))' } },

  // ---- HIRES: effective and expiration dates, statuses; the decision deleted at DEL ----
  { name: 'Kai as HR Director, the root', who: 'Kai', decision: 'HIRES', value: '1000000', at: FEB, expect: { allowed: true, limit: '<= 1000000', chain: [50081], heldVia: PIP } },
  { name: 'Kai a millisecond before the decision was deleted', who: 'Kai', decision: 'HIRES', value: '1', at: b(DEL), expect: { allowed: true, limit: '<= 1000000', chain: [50081], heldVia: PIP } },
  { name: 'Kai when the decision was deleted', who: 'Kai', decision: 'HIRES', value: '1', at: DEL, expect: { allowed: false, reason: 'decision 70005 was deleted on 2025-09-01' } },
  { name: 'Kai after the deletion', who: 'Kai', decision: 'HIRES', value: '1', at: LATER, expect: { allowed: false, reason: 'decision 70005 was deleted on 2025-10-01' } },
  { name: 'the HR position does not hold Kai\'s root', who: '@HR', decision: 'HIRES', value: '1', at: FEB, expect: { allowed: false, reason: 'no delegation of this decision was held by the position at 2025-02-15T12:00:00.000Z' } },
  { name: 'Abe a millisecond before expiry', who: 'Abe', decision: 'HIRES', value: '100000', at: b(EXP), expect: { allowed: true, limit: '<= 100000', chain: [50081, 50082], heldVia: SP } },
  { name: 'Abe at expiry', who: 'Abe', decision: 'HIRES', value: '1', at: EXP, expect: { allowed: false, reason: 'delegation 50082 expired on 2025-03-15' } },
  { name: 'Bea before effective', who: 'Bea', decision: 'HIRES', value: '1', at: FEB, expect: { allowed: false, reason: 'delegation 50083 was not effective until 2025-03-01' } },
  { name: 'Bea at effective', who: 'Bea', decision: 'HIRES', value: '100000', at: EFF, expect: { allowed: true, limit: '<= 100000', chain: [50081, 50083], heldVia: SP } },
  { name: 'Bea a millisecond before expiry', who: 'Bea', decision: 'HIRES', value: '1', at: b(REORG), expect: { allowed: true, limit: '<= 100000', chain: [50081, 50083], heldVia: SP } },
  { name: 'Bea at expiry', who: 'Bea', decision: 'HIRES', value: '1', at: REORG, expect: { allowed: false, reason: 'delegation 50083 expired on 2025-06-01' } },
  { name: 'Cal before the decision was deleted', who: 'Cal', decision: 'HIRES', value: '100000', at: b(DEL), expect: { allowed: true, limit: '<= 100000', chain: [50081, 50084], heldVia: SP } },
  { name: 'Cal when the decision was deleted', who: 'Cal', decision: 'HIRES', value: '1', at: DEL, expect: { allowed: false, reason: 'decision 70005 was deleted on 2025-09-01' } },
  { name: 'Oto a millisecond before his expiry', who: 'Oto', decision: 'HIRES', value: '50000', at: b(EFF), expect: { allowed: true, limit: '<= 50000', chain: [50081, 50085, 50086], heldVia: SP } },
  { name: 'Oto at his expiry', who: 'Oto', decision: 'HIRES', value: '1', at: EFF, expect: { allowed: false, reason: 'delegation 50086 expired on 2025-03-01' } },
  { name: 'Pia under Dee', who: 'Pia', decision: 'HIRES', value: '50000', at: FEB, expect: { allowed: true, limit: '<= 50000', chain: [50081, 50085, 50087], heldVia: SP } },
  { name: 'Lea holds the Legal position\'s', who: 'Lea', decision: 'HIRES', value: '200000', at: FEB, expect: { allowed: true, limit: '<= 200000', chain: [50081, 50088], heldVia: PO } },
  { name: 'the Legal position a cent over', who: '@LEGAL', decision: 'HIRES', value: '200000.01', at: FEB, expect: { allowed: false, reason: 'limit <= USD 200,000 < USD 200,000.01 via 50088 (200000.01 USD is more than the cap allows (<= 200000 USD))' } },
  { name: 'Quin\'s ACCEPTED', who: 'Quin', decision: 'HIRES', value: '100000', at: FEB, expect: { allowed: true, limit: '<= 100000', chain: [50081, 50089], heldVia: SP } },
  { name: 'Ray a millisecond before the revocation', who: 'Ray', decision: 'HIRES', value: '1', at: b(REV), expect: { allowed: true, limit: '<= 100000', chain: [50081, 50090], heldVia: SP } },
  { name: 'Ray at the revocation', who: 'Ray', decision: 'HIRES', value: '1', at: REV, expect: { allowed: false, reason: 'delegation 50090 was REVOKED on 2025-04-15' } },
  { name: 'Sia\'s DRAFT a millisecond before it was issued', who: 'Sia', decision: 'HIRES', value: '1', at: b(RES), expect: { allowed: false, reason: 'delegation 50091 was DRAFT on 2025-04-30' } },
  { name: 'Sia when it was issued', who: 'Sia', decision: 'HIRES', value: '100000', at: RES, expect: { allowed: true, limit: '<= 100000', chain: [50081, 50091], heldVia: SP } },
  { name: 'Tom\'s REJECTED', who: 'Tom', decision: 'HIRES', value: '1', at: FEB, expect: { allowed: false, reason: 'delegation 50092 was REJECTED on 2025-02-15' } },

  // ---- FILINGS: Authorized, with and without a value ----
  { name: 'Lea as Legal Counsel, Authorized', who: 'Lea', decision: 'FILINGS', value: null, at: FEB, expect: { allowed: true, limit: null, chain: [50093], heldVia: PIP } },
  { name: 'Lea, asked by the type explicitly', who: 'Lea', decision: 'FILINGS', value: null, type: 'Signatory', at: FEB, expect: { allowed: true, limit: null, chain: [50093], heldVia: PIP } },
  { name: 'Lea, Authorized asked with a value: any value is within it', who: 'Lea', decision: 'FILINGS', value: '1', at: FEB, expect: { allowed: true, limit: null, chain: [50093], heldVia: PIP } },
  { name: 'Abe, Authorized', who: 'Abe', decision: 'FILINGS', value: null, at: FEB, expect: { allowed: true, limit: null, chain: [50093, 50094], heldVia: SP } },
  { name: 'Abe with a USD value: Authorized answers it', who: 'Abe', decision: 'FILINGS', value: '250000', unit: 'USD', at: FEB, expect: { allowed: true, limit: null, chain: [50093, 50094], heldVia: SP } },
  { name: 'the CFO position, Authorized', who: '@CFO', decision: 'FILINGS', value: null, at: FEB, expect: { allowed: true, limit: null, chain: [50093, 50095], heldVia: PO } },
  { name: 'Ben holds it as CFO', who: 'Ben', decision: 'FILINGS', value: null, at: FEB, expect: { allowed: true, limit: null, chain: [50093, 50095], heldVia: PO } },
  { name: 'Gia a millisecond before her suspension', who: 'Gia', decision: 'FILINGS', value: null, at: b(SUS), expect: { allowed: true, limit: null, chain: [50093, 50095, 50096], heldVia: SP } },
  { name: 'Gia at her suspension', who: 'Gia', decision: 'FILINGS', value: null, at: SUS, expect: { allowed: false, reason: 'delegation 50096 was SUSPENDED on 2025-04-01' } },
  { name: 'Gia at the resumption', who: 'Gia', decision: 'FILINGS', value: null, at: RES, expect: { allowed: true, limit: null, chain: [50093, 50095, 50096], heldVia: SP } },
  { name: 'Bea a millisecond before the reorg', who: 'Bea', decision: 'FILINGS', value: null, at: b(REORG), expect: { allowed: true, limit: null, chain: [50093, 50097], heldVia: SP } },
  { name: 'Bea at the reorg: invalid', who: 'Bea', decision: 'FILINGS', value: null, at: REORG, expect: { allowed: false, reason: 'delegation 50097 was invalid on 2025-06-01' } },
  { name: 'Cal under Bea', who: 'Cal', decision: 'FILINGS', value: null, at: FEB, expect: { allowed: true, limit: null, chain: [50093, 50097, 50098], heldVia: SP } },
  { name: 'Cal at the reorg', who: 'Cal', decision: 'FILINGS', value: null, at: REORG, expect: { allowed: false, reason: 'delegation 50097 was invalid on 2025-06-01' } },
  { name: 'Dee a millisecond before expiry', who: 'Dee', decision: 'FILINGS', value: null, at: b(REORG), expect: { allowed: true, limit: null, chain: [50093, 50099], heldVia: SP } },
  { name: 'Dee at expiry', who: 'Dee', decision: 'FILINGS', value: null, at: REORG, expect: { allowed: false, reason: 'delegation 50099 expired on 2025-06-01' } },
  { name: 'Yan a millisecond before the revocation', who: 'Yan', decision: 'FILINGS', value: null, at: b(REV), expect: { allowed: true, limit: null, chain: [50093, 50100], heldVia: SP } },
  { name: 'Yan at the revocation', who: 'Yan', decision: 'FILINGS', value: null, at: REV, expect: { allowed: false, reason: 'delegation 50100 was REVOKED on 2025-04-15' } },
  { name: 'Zoe holds no filing authority', who: 'Zoe', decision: 'FILINGS', value: null, at: FEB, expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-02-15T12:00:00.000Z' } },

  // ---- HEADCOUNT: a Number without a unit ----
  { name: 'Cleo as COO at 500', who: 'Cleo', decision: 'HEADCOUNT', value: '500', at: FEB, expect: { allowed: true, limit: '<= 500', chain: [50101], heldVia: PIP } },
  { name: 'Cleo at 500.5', who: 'Cleo', decision: 'HEADCOUNT', value: '500.5', at: FEB, expect: { allowed: false, reason: 'limit <= 500 < 500.5 via 50101 (500.5 is more than the cap allows (<= 500))' } },
  { name: 'Cleo without a value', who: 'Cleo', decision: 'HEADCOUNT', value: null, at: FEB, expect: { allowed: false, reason: 'limit <= 500 via 50101 (a Number value is needed)' } },
  { name: 'Ivy as Plant Manager North at 120', who: 'Ivy', decision: 'HEADCOUNT', value: '120', at: FEB, expect: { allowed: true, limit: '<= 120', chain: [50101, 50102], heldVia: PIP } },
  { name: 'Wes a millionth under < 40', who: 'Wes', decision: 'HEADCOUNT', value: '39.999999', at: FEB, expect: { allowed: true, limit: '< 40', chain: [50101, 50102, 50103], heldVia: SP } },
  { name: 'Wes exactly at < 40', who: 'Wes', decision: 'HEADCOUNT', value: '40', at: FEB, expect: { allowed: false, reason: 'limit < 40 < 40 via 50103 (<= 40 is wider than the cap allows (< 40))' } },
  { name: 'Wes asking in USD', who: 'Wes', decision: 'HEADCOUNT', value: '10', unit: 'USD', at: FEB, expect: { allowed: false, reason: 'limit <= 500 < USD 10 via 50101 (unit USD is not the unit the cap allows (<= 500))' } },
  { name: 'the Plant South position at 120', who: '@PLANT_S', decision: 'HEADCOUNT', value: '120', at: FEB, expect: { allowed: true, limit: '<= 120', chain: [50101, 50104], heldVia: PO } },
  { name: 'Jon in Plant South before the reorg', who: 'Jon', decision: 'HEADCOUNT', value: '100', at: b(REORG), expect: { allowed: true, limit: '<= 120', chain: [50101, 50104], heldVia: PO } },
  { name: 'Jon after the reorg', who: 'Jon', decision: 'HEADCOUNT', value: '100', at: REORG, expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-06-01T00:00:00.000Z' } },
  { name: 'Max in Plant South after the reorg', who: 'Max', decision: 'HEADCOUNT', value: '120', at: REORG, expect: { allowed: true, limit: '<= 120', chain: [50101, 50104], heldVia: PO } },
  { name: 'Xia exactly at 10.5', who: 'Xia', decision: 'HEADCOUNT', value: '10.5', at: FEB, expect: { allowed: true, limit: '<= 10.5', chain: [50101, 50104, 50105], heldVia: SP } },
  { name: 'Xia a millionth over 10.5', who: 'Xia', decision: 'HEADCOUNT', value: '10.500001', at: FEB, expect: { allowed: false, reason: 'limit <= 10.5 < 10.500001 via 50105 (10.500001 is more than the cap allows (<= 10.5))' } },
  { name: 'Dan at 200', who: 'Dan', decision: 'HEADCOUNT', value: '200', at: FEB, expect: { allowed: true, limit: '<= 200', chain: [50101, 50106], heldVia: SP } },
  { name: 'Uma (UK) in the UK', who: 'Uma', decision: 'HEADCOUNT', value: '60', group: 'UK', at: FEB, expect: { allowed: true, limit: '<= 60', chain: [50101, 50107], heldVia: SP } },
  { name: 'Uma (UK) in the US', who: 'Uma', decision: 'HEADCOUNT', value: '60', group: 'US', at: FEB, expect: { allowed: false, reason: 'delegation 50107 does not cover group <US>' } },
  { name: 'Vic a millisecond before the reorg', who: 'Vic', decision: 'HEADCOUNT', value: '60', at: b(REORG), expect: { allowed: true, limit: '<= 60', chain: [50101, 50108], heldVia: SP } },
  { name: 'Vic at the reorg: invalid', who: 'Vic', decision: 'HEADCOUNT', value: '1', at: REORG, expect: { allowed: false, reason: 'delegation 50108 was invalid on 2025-06-01' } },

  // ---- HEDGES: created at D8NEW; recipients reassigned at REASSIGN ----
  { name: 'Ben a millisecond before the decision existed', who: 'Ben', decision: 'HEDGES', value: '1', at: b(D8NEW), expect: { allowed: false, reason: 'decision 70008 did not exist on 2025-06-30' } },
  { name: 'the CEO position before the decision existed', who: '@CEO', decision: 'HEDGES', value: '1', at: b(D8NEW), expect: { allowed: false, reason: 'decision 70008 did not exist on 2025-06-30' } },
  { name: 'Ben as CFO when it was created', who: 'Ben', decision: 'HEDGES', value: '50000000', at: D8NEW, expect: { allowed: true, limit: '<= 50000000', chain: [50109], heldVia: PIP } },
  { name: 'the Treasurer position', who: '@TREASURER', decision: 'HEDGES', value: '20000000', at: D8NEW, expect: { allowed: true, limit: '<= 20000000', chain: [50109, 50110], heldVia: PO } },
  { name: 'Eve, Treasurer since the reorg', who: 'Eve', decision: 'HEDGES', value: '20000000', at: D8NEW, expect: { allowed: true, limit: '<= 20000000', chain: [50109, 50110], heldVia: PO } },
  { name: 'Finn, Treasurer no more', who: 'Finn', decision: 'HEDGES', value: '1', at: D8NEW, expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-07-01T00:00:00.000Z' } },
  { name: 'Abe under the Treasurer position', who: 'Abe', decision: 'HEDGES', value: '1000000', at: D8NEW, expect: { allowed: true, limit: '<= 1000000', chain: [50109, 50110, 50111], heldVia: SP } },
  { name: 'Bea a millisecond before hers was reassigned', who: 'Bea', decision: 'HEDGES', value: '5000000', at: b(REASSIGN), expect: { allowed: true, limit: '<= 5000000', chain: [50109, 50112], heldVia: SP } },
  { name: 'Bea once it was reassigned to Cal', who: 'Bea', decision: 'HEDGES', value: '1', at: REASSIGN, expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-08-01T00:00:00.000Z' } },
  { name: 'Cal a millisecond before it was reassigned to him', who: 'Cal', decision: 'HEDGES', value: '1', at: b(REASSIGN), expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-07-31T23:59:59.999Z' } },
  { name: 'Cal once it was reassigned to him', who: 'Cal', decision: 'HEDGES', value: '5000000', at: REASSIGN, expect: { allowed: true, limit: '<= 5000000', chain: [50109, 50112], heldVia: SP } },
  { name: 'Dee below it, before', who: 'Dee', decision: 'HEDGES', value: '500000', at: b(REASSIGN), expect: { allowed: true, limit: '<= 500000', chain: [50109, 50112, 50113], heldVia: SP } },
  { name: 'Dee below it, after', who: 'Dee', decision: 'HEDGES', value: '500000', at: REASSIGN, expect: { allowed: true, limit: '<= 500000', chain: [50109, 50112, 50113], heldVia: SP } },
  { name: 'Gia as AP Lead before hers was reassigned', who: 'Gia', decision: 'HEDGES', value: '2000000', at: b(REASSIGN), expect: { allowed: true, limit: '<= 2000000', chain: [50109, 50114], heldVia: PIP } },
  { name: 'Gia after it was reassigned to Oto', who: 'Gia', decision: 'HEDGES', value: '1', at: REASSIGN, expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-08-01T00:00:00.000Z' } },
  { name: 'Oto before it was reassigned to him', who: 'Oto', decision: 'HEDGES', value: '1', at: b(REASSIGN), expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-07-31T23:59:59.999Z' } },
  { name: 'Oto as AP Lead after', who: 'Oto', decision: 'HEDGES', value: '2000000', at: REASSIGN, expect: { allowed: true, limit: '<= 2000000', chain: [50109, 50114], heldVia: PIP } },
  { name: 'the AP Lead position does not hold it', who: '@AP_LEAD', decision: 'HEDGES', value: '1', at: REASSIGN, expect: { allowed: false, reason: 'no delegation of this decision was held by the position at 2025-08-01T00:00:00.000Z' } },
  { name: 'Quin before his was issued', who: 'Quin', decision: 'HEDGES', value: '1', at: b(REASSIGN), expect: { allowed: false, reason: 'no delegation of this decision was held by the person at 2025-07-31T23:59:59.999Z' } },
  { name: 'Quin when it was issued', who: 'Quin', decision: 'HEDGES', value: '3000000', at: REASSIGN, expect: { allowed: true, limit: '<= 3000000', chain: [50109, 50115], heldVia: SP } },
  { name: 'Ray (Europe) in the UK', who: 'Ray', decision: 'HEDGES', value: '1', group: 'UK', at: LATER, expect: { allowed: true, limit: '<= 3000000', chain: [50109, 50116], heldVia: SP } },
  { name: 'Ray (Europe) in Brazil', who: 'Ray', decision: 'HEDGES', value: '1', group: 'Brazil', at: LATER, expect: { allowed: false, reason: 'delegation 50116 does not cover group <Brazil>' } },
  { name: 'Sia a millisecond before her suspension', who: 'Sia', decision: 'HEDGES', value: '3000000', at: b(REASSIGN), expect: { allowed: true, limit: '<= 3000000', chain: [50109, 50117], heldVia: SP } },
  { name: 'Sia at her suspension', who: 'Sia', decision: 'HEDGES', value: '1', at: REASSIGN, expect: { allowed: false, reason: 'delegation 50117 was SUSPENDED on 2025-08-01' } },
  { name: 'Tom under Sia, before', who: 'Tom', decision: 'HEDGES', value: '300000', at: b(REASSIGN), expect: { allowed: true, limit: '<= 300000', chain: [50109, 50117, 50118], heldVia: SP } },
  { name: 'Tom under Sia, after her suspension', who: 'Tom', decision: 'HEDGES', value: '1', at: REASSIGN, expect: { allowed: false, reason: 'delegation 50117 was SUSPENDED on 2025-08-01' } },
  { name: 'Uma a millisecond before expiry', who: 'Uma', decision: 'HEDGES', value: '3000000', at: b(REASSIGN), expect: { allowed: true, limit: '<= 3000000', chain: [50109, 50119], heldVia: SP } },
  { name: 'Uma at expiry', who: 'Uma', decision: 'HEDGES', value: '1', at: REASSIGN, expect: { allowed: false, reason: 'delegation 50119 expired on 2025-08-01' } },
  { name: 'the CEO position', who: '@CEO', decision: 'HEDGES', value: '10000000', at: D8NEW, expect: { allowed: true, limit: '<= 10000000', chain: [50109, 50120], heldVia: PO } },
  { name: 'Ada as CEO a cent over', who: 'Ada', decision: 'HEDGES', value: '10000000.01', at: D8NEW, expect: { allowed: false, reason: 'limit <= USD 10,000,000 < USD 10,000,000.01 via 50120 (10000000.01 USD is more than the cap allows (<= 10000000 USD))' } },
];

/** A check's test title: its decision and name (unique). */
const title = (c: Check) => `${c.decision}: ${c.name}`;

interface Answer {
  allowed: boolean;
  reasons: string[];
  limit: { value: string; unit: string | null; operator: string | null } | null;
  chain: { delegationId: string; delegationDisplayId: string; status: string; recipient: { recipientType: string } }[];
  heldVia: string | null;
  evaluatedAt: string;
  decisionId: string;
  authorityTypeId: string | null;
}

/**
 * The reference organisation (fixtures/authority-reference.ts) and the expected answers above, run
 * through check-batch (all, in chunks of at most 1,000) and, every third, through check; then the
 * 400 and 404 answers.
 */
describe(`authority engine: the reference test set (${CHECKS.length} checks)`, () => {
  let h: DecisionHarness;
  let org: WrittenOrganisation;
  const NOWHERE = '7f3e2d1c-0b9a-4876-9543-210fedcba987';
  const decisionOf = (key: string) => REFERENCE.decisions.find((d) => d.key === key)!;

  /** The id `<Name>` stands for: a group or a decision. */
  const fill = (text: string) =>
    text.replace(/<(\w+)>/g, (_, name: string) => {
      const id = org.groups.get(name) ?? org.decisions.get(name);
      if (!id) throw new Error(`no group or decision ${name}`);
      return id;
    });
  const body = (c: Check): { decisionId: string; userId?: string; positionId?: string; value: string | null; unit: string | null; groupId?: string; authorityTypeId?: string; at: string } => ({
    decisionId: org.decisions.get(c.decision)!,
    ...(c.who.startsWith('@') ? { positionId: org.positions.get(c.who.slice(1))! } : { userId: org.people.get(c.who)! }),
    value: c.value,
    unit: c.unit === undefined ? decisionOf(c.decision).limit.unit : c.unit,
    ...(c.group ? { groupId: org.groups.get(c.group)! } : {}),
    ...(c.type ? { authorityTypeId: h.refs.authorityTypes.get(c.type)! } : {}),
    at: c.at,
  });
  /** The expected answer, in the shape `seen` puts an answer. */
  const expected = (c: Check) => {
    const d = decisionOf(c.decision);
    const existed = d.created <= c.at && (d.deleted === null || c.at < d.deleted);
    const authorityTypeId = c.type ? h.refs.authorityTypes.get(c.type) : existed ? org.authorityTypes.get(c.decision) : null;
    const common = { evaluatedAt: c.at, decisionId: org.decisions.get(c.decision), authorityTypeId };
    const e = c.expect;
    if (e.allowed) {
      const limit =
        e.limit === null ? null : e.limit === 'Unlimited' ? { value: 'Unlimited', unit: d.limit.unit, operator: null } : { value: e.limit.split(' ')[1], unit: d.limit.unit, operator: e.limit.split(' ')[0] };
      const ids = e.chain.map((x) => [String(x), org.delegations.get(String(x))]);
      return { ...common, allowed: true, reasons: [], limit, chain: ids, heldVia: e.heldVia, lastRecipientType: e.heldVia, statuses: e.chain.map(() => expect.stringMatching(/^(ISSUED|ACCEPTED)$/)) };
    }
    const reasons = 'reason' in e ? [e.reason] : e.reasons;
    return { ...common, allowed: false, reasons: reasons.map((r) => (typeof r === 'string' ? fill(r) : expect.stringMatching(r))), limit: null, chain: [], heldVia: null, lastRecipientType: null, statuses: [] };
  };
  const seen = (a: Answer) => ({
    evaluatedAt: a.evaluatedAt,
    decisionId: a.decisionId,
    authorityTypeId: a.authorityTypeId,
    allowed: a.allowed,
    reasons: a.reasons,
    limit: a.limit,
    chain: a.chain.map((l) => [l.delegationDisplayId, l.delegationId]),
    heldVia: a.heldVia,
    lastRecipientType: a.chain.length ? a.chain[a.chain.length - 1].recipient.recipientType : null,
    statuses: a.chain.map((l) => l.status),
  });
  const batchAnswers: Answer[] = [];

  beforeAll(async () => {
    h = await startHarness(decisionApp);
    org = await writeOrganisation((text, params) => h.db.query(text, params), h.demo.id, { Approval: h.refs.authorityTypes.get('Approval')!, Signatory: h.refs.authorityTypes.get('Signatory')! }, REFERENCE);
    for (let i = 0; i < CHECKS.length; i += 1000) {
      const res = await h.svc.http.post(BATCH, { token: h.tokens.auditor, body: { checks: CHECKS.slice(i, i + 1000).map(body) } });
      if (res.status !== 200) throw new Error(`check-batch answered ${res.status}: ${JSON.stringify(res.body).slice(0, 500)}`);
      batchAnswers.push(...(res.body.data.results as Answer[]));
    }
  });
  afterAll(() => h?.close());

  it('the organisation is written as the table says: 30 people, 12 positions, 9 groups in 3 levels, 8 decisions, 120 delegations, a revision per state', async () => {
    expect(CHECKS.length).toBeGreaterThanOrEqual(200);
    expect(new Set(CHECKS.map(title)).size).toBe(CHECKS.length);
    const [counts] = await h.db.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM decision.user_projection WHERE id = ANY($1::uuid[])) AS people,
              (SELECT count(*)::int FROM decision.position_projection WHERE id = ANY($2::uuid[])) AS positions,
              (SELECT count(*)::int FROM decision.group_history WHERE group_id = ANY($3::uuid[])) AS group_periods,
              (SELECT count(*)::int FROM decision.decision_revisions WHERE decision_id = ANY($4::uuid[])) AS decision_revisions,
              (SELECT count(*)::int FROM decision.delegations WHERE id = ANY($5::uuid[])) AS delegations,
              (SELECT count(*)::int FROM decision.delegation_revisions WHERE delegation_id = ANY($5::uuid[])) AS revisions,
              (SELECT count(*)::int FROM decision.delegation_revisions WHERE delegation_id = ANY($5::uuid[]) AND valid_to IS NULL) AS open_revisions,
              (SELECT count(DISTINCT recipient_type)::int FROM decision.delegation_revisions WHERE delegation_id = ANY($5::uuid[])) AS recipient_types,
              (SELECT count(DISTINCT p)::int FROM decision.delegations, unnest(delegation_pathway) p WHERE id = ANY($5::uuid[])) AS pathways`,
      [[...org.people.values()], [...org.positions.values()], [...org.groups.values()], [...org.decisions.values()], [...org.delegations.values()]],
    );
    expect(counts).toEqual({
      people: 30,
      positions: 12,
      group_periods: 11,
      decision_revisions: 9,
      delegations: 120,
      revisions: REFERENCE.delegations.reduce((n, d) => n + d.states.length, 0),
      open_revisions: 120,
      recipient_types: 3,
      pathways: 4,
    });
    // A revision's snapshot is the service's own view: what the delegation read answers as of its date.
    const finn = org.delegations.get('50008')!;
    const res = await h.svc.http.get(`/decision/v1/delegations/${finn}?at=${encodeURIComponent(T.SUS)}`, { token: h.tokens.auditor });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: finn, delegationDisplayId: '50008', status: 'SUSPENDED', recipientType: PIP, recipientUserId: org.people.get('Finn'), recipientPositionId: org.positions.get('TREASURER') });
  });

  describe('through check-batch', () => {
    it.each(CHECKS.map((c, i) => [`${i + 1}. ${title(c)}`, c, i] as const))('%s', (_, c, i) => {
      expect(seen(batchAnswers[i])).toEqual(expected(c));
    });
  });

  describe('through check, every third, answering as check-batch did', () => {
    const sample = CHECKS.map((c, i) => [`${i + 1}. ${title(c)}`, c, i] as const).filter(([, , i]) => i % 3 === 0);
    it.each(sample)('%s', async (_, c, i) => {
      const res = await h.svc.http.post(CHECK, { token: h.tokens.auditor, body: body(c) });
      expect(res.status).toBe(200);
      expect(seen(res.body.data)).toEqual(expected(c));
      // The check alone says how fresh it is (the batch says it once, beside its results); the rest is the batch's answer.
      const { consistentAsOf, ...answer } = res.body.data;
      expect(consistentAsOf).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(answer).toEqual(batchAnswers[i]);
    });
  });

  it('ids in capitals and an instant with an offset answer as their lowercase and UTC forms do', async () => {
    const c = CHECKS.find((x) => x.name === 'Abe in the UK')!;
    const plain = body(c);
    const shouted = { ...plain, decisionId: plain.decisionId.toUpperCase(), userId: plain.userId!.toUpperCase(), groupId: plain.groupId!.toUpperCase(), at: '2025-02-15T13:00:00.000+01:00' };
    const [a, b] = await Promise.all([plain, shouted].map((x) => h.svc.http.post(CHECK, { token: h.tokens.auditor, body: x })));
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    // Asked at once, each may say another consistentAsOf (a later one known by then); the answers are the same.
    expect({ ...b.body.data, consistentAsOf: undefined }).toEqual({ ...a.body.data, consistentAsOf: undefined });
    expect(seen(b.body.data)).toEqual(expected(c));
  });

  it("400 without a subject or with both; 404 for an unknown decision or another tenant's, or a group the tenant does not have; a batch names the check", async () => {
    const good = body(CHECKS[0]);
    const { userId: _userId, ...noSubject } = good;
    const both = { ...good, positionId: org.positions.get('CEO') };
    const unknown = { ...good, decisionId: '0190a000-0000-7000-8000-00000000dead' };
    const post = (b: object, token = h.tokens.auditor) => h.svc.http.post(CHECK, { token, body: b });

    const none = await post(noSubject);
    expectErrorBody(none, 400);
    expect(none.body.errors[0].field).toBe('userId');
    const twice = await post(both);
    expectErrorBody(twice, 400);
    expect(twice.body.errors[0].field).toBe('userId');
    const missing = await post(unknown);
    expectErrorBody(missing, 404);
    expect(missing.body.errors[0].field).toBe('decisionId');
    expectErrorBody(await post(good, h.tokens.otherAdmin), 404);

    const batch = (checks: object[]) => h.svc.http.post(BATCH, { token: h.tokens.auditor, body: { checks } });
    const inBatch404 = await batch([good, good, unknown]);
    expectErrorBody(inBatch404, 404);
    expect(inBatch404.body.errors[0].field).toBe('checks.2.decisionId');
    const inBatch400 = await batch([good, both]);
    expectErrorBody(inBatch400, 400);
    expect(inBatch400.body.errors[0].field).toBe('checks.1.userId');
    const noneInBatch = await batch([noSubject]);
    expectErrorBody(noneInBatch, 400);
    expect(noneInBatch.body.errors[0].field).toBe('checks.0.userId');

    // A group the tenant does not have: Ada's root covers every live group of CONTRACTS, but NOWHERE is none of them.
    const ada = body(CHECKS.find((x) => x.name === 'Ada (Corp) in Mexico')!);
    const nowhere = await post({ ...ada, groupId: NOWHERE });
    expectErrorBody(nowhere, 404);
    expect(nowhere.body.errors).toEqual([{ field: 'groupId', message: `Group ${NOWHERE} not found` }]);
    const nowhereInBatch = await batch([ada, { ...ada, groupId: NOWHERE }]);
    expectErrorBody(nowhereInBatch, 404);
    expect(nowhereInBatch.body.errors.map((e: { field: string }) => e.field)).toEqual(['checks.1.groupId']);
    // France closed at the reorg: still the tenant's group, so asking about it then is a refusal, not a 404 (as the table says).
    const france = CHECKS.find((x) => x.name === 'Ada in France when it closed: the root no longer covers it')!;
    expect((await post(body(france))).status).toBe(200);
  });
});
