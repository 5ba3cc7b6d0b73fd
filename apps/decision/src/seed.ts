import { INestApplicationContext } from '@nestjs/common';
import { ALL_PERMISSION_KEYS, seedCaller } from '@ddm/contracts';
import { Db } from '@ddm/platform';
import { DecisionsService } from './decisions/decisions.service';
import { DelegationsService } from './delegations/delegations.service';
import { ExpirySweep } from './sweeps/expiry.sweep';
import { CreateDecisionDto } from './decisions/dto/decision-change.dto';

interface SeedDecision {
  name: string;
  description: string;
  section: string;
  category: string;
  /** Groups by name (settings seed). */
  groups: string[];
  /** Approval limit in USD ('Unlimited', a number, or null for none); a Signatory authority when `sign` is set. */
  approve: string | null;
  /** An approval limit of another value type instead (a percentage, a number, a time). */
  limit?: { type: 'Percentage' | 'Number' | 'Time'; value: string; unit?: 'Days' | 'Months' | 'Years' };
  sign?: boolean;
  status?: 'DRAFT' | 'PUBLISHED' | 'ARCHIVED';
  /** Whose decision it is (manager@demo.test, user@demo.test); admin@demo.test otherwise. */
  owner?: 'manager' | 'user';
}

/** Demo Co's decisions: 29, across every section and category, with drafts and one archived, and limits of each value type. */
const DECISIONS: SeedDecision[] = [
  { name: 'Approve purchase orders', description: 'Purchase orders against an approved budget line.', section: 'Finance', category: 'Procurement', groups: ['Finance'], approve: '500000', sign: true },
  { name: 'Select new suppliers', description: 'Adding a supplier to the approved list.', section: 'Finance', category: 'Procurement', groups: ['Operations', 'Finance'], approve: '250000' },
  { name: 'Sole-source purchases', description: 'Purchases without a competitive tender.', section: 'Finance', category: 'Procurement', groups: ['Finance'], approve: '25000', status: 'DRAFT' },
  { name: 'Approve capital expenditure', description: 'New capital projects within the annual plan.', section: 'Finance', category: 'Capital Expenditure', groups: ['Demo Co Holdings'], approve: '1000000', sign: true },
  { name: 'Unbudgeted capital expenditure', description: 'Capital spend outside the annual plan.', section: 'Finance', category: 'Capital Expenditure', groups: ['Demo Co Holdings'], approve: 'Unlimited' },
  { name: 'Open bank accounts', description: 'Opening or closing bank accounts of any entity.', section: 'Finance', category: 'Treasury', groups: ['Finance'], approve: null, sign: true },
  { name: 'Foreign exchange hedging', description: 'Hedging contracts within the treasury policy.', section: 'Finance', category: 'Treasury', groups: ['Finance'], approve: '5000000' },
  { name: 'Intercompany loans', description: 'Loans between group entities.', section: 'Finance', category: 'Treasury', groups: ['Demo Co North America', 'Demo Co Europe'], approve: '2000000', status: 'DRAFT' },
  { name: 'Approve travel', description: 'Travel booked outside the travel policy.', section: 'Finance', category: 'Travel & Expenses', groups: ['People'], approve: '10000', owner: 'manager' },
  { name: 'Expense claims', description: 'Expense claims of direct reports.', section: 'Finance', category: 'Travel & Expenses', groups: ['Finance', 'People'], approve: '2500', owner: 'manager' },
  { name: 'Sign customer contracts', description: 'Sales contracts on standard terms.', section: 'Commercial', category: 'Sales Contracts', groups: ['Demo Co North America'], approve: '500000', sign: true },
  { name: 'Non-standard contract terms', description: 'Deviations from the standard terms of sale.', section: 'Commercial', category: 'Sales Contracts', groups: ['Legal'], approve: '100000' },
  { name: 'Price list changes', description: 'Changes to the published price list.', section: 'Commercial', category: 'Pricing & Discounts', groups: ['Demo Co Holdings'], approve: null, sign: false },
  { name: 'Approve price discounts', description: 'Discounts off the price list.', section: 'Commercial', category: 'Pricing & Discounts', groups: ['Demo Co North America', 'Demo Co Europe'], approve: null, limit: { type: 'Percentage', value: '30' }, owner: 'manager' },
  { name: 'Strategic partnerships', description: 'Entering a partnership or joint venture.', section: 'Commercial', category: 'Partnerships', groups: ['Demo Co Holdings'], approve: 'Unlimited', sign: true },
  { name: 'Reseller agreements', description: 'Appointing resellers and distributors.', section: 'Commercial', category: 'Partnerships', groups: ['Demo Co Europe'], approve: '150000', status: 'DRAFT' },
  { name: 'Extend payment terms', description: 'Customer payment terms beyond the standard 30 days.', section: 'Commercial', category: 'Sales Contracts', groups: ['Finance'], approve: null, limit: { type: 'Time', value: '90', unit: 'Days' } },
  { name: 'Hire headcount', description: 'Hiring into an approved headcount plan.', section: 'People', category: 'Hiring', groups: ['People'], approve: null, limit: { type: 'Number', value: '5' }, owner: 'manager' },
  { name: 'Hire contractors', description: 'Engaging contractors and temporary staff.', section: 'People', category: 'Hiring', groups: ['People', 'Engineering'], approve: '75000', owner: 'user' },
  { name: 'Salary reviews', description: 'Annual salary increases within the budget.', section: 'People', category: 'Compensation', groups: ['People'], approve: '10000' },
  { name: 'Bonus payments', description: 'One-off bonus payments.', section: 'People', category: 'Compensation', groups: ['People', 'Finance'], approve: '25000', status: 'DRAFT' },
  { name: 'Office leases', description: 'Signing or renewing office leases.', section: 'Operations', category: 'Facilities', groups: ['New York HQ', 'London HQ'], approve: '750000', sign: true },
  { name: 'Office refurbishment', description: 'Works on offices the group occupies.', section: 'Operations', category: 'Facilities', groups: ['Toronto Office', 'Berlin Office'], approve: '100000', owner: 'user' },
  { name: 'Software purchases', description: 'New software subscriptions and licences.', section: 'Operations', category: 'IT & Security', groups: ['Engineering'], approve: '30000', owner: 'user' },
  { name: 'Security exceptions', description: 'Exceptions to the information security policy.', section: 'Operations', category: 'IT & Security', groups: ['Engineering', 'Legal'], approve: null },
  { name: 'Settle litigation', description: 'Settling claims against the group.', section: 'Legal & Compliance', category: 'Litigation', groups: ['Legal'], approve: '500000', sign: true },
  { name: 'Start legal proceedings', description: 'Bringing claims on behalf of the group.', section: 'Legal & Compliance', category: 'Litigation', groups: ['Legal'], approve: null },
  { name: 'Regulatory filings', description: 'Filings with regulators in any jurisdiction.', section: 'Legal & Compliance', category: 'Regulatory', groups: ['Legal', 'Finance'], approve: null, sign: true },
  { name: 'Paper-based approvals', description: 'Replaced by the purchase order workflow.', section: 'Finance', category: 'Procurement', groups: ['Finance'], approve: '10000', status: 'ARCHIVED' },
];

export interface DecisionSeedResult {
  decisions: number;
}

/** How long the seed waits for the records decisions name to arrive through the events. */
const PROJECTIONS_TIMEOUT_MS = 60_000;

/**
 * Demo Co's decisions (other tenants get none). Safe to run again: a decision already there by
 * name is kept. The sections, categories, groups, users and authority types they name come from
 * the other areas' events, so the seed first waits for the projections to hold them; everything
 * goes through the service (revisions and events as for any change).
 */
export async function seedDecisions(
  app: INestApplicationContext,
  tenant: { id: string; name: string; users: { id: string; email: string; role: string }[] },
  expected: { groups: number; decisionSections: number; decisionCategories: number; authorityTypes: number },
): Promise<DecisionSeedResult> {
  const db = app.get(Db);
  if (tenant.name !== 'Demo Co') return countOf(db, tenant.id);
  await waitForProjections(db, tenant.id, { ...expected, users: tenant.users.length });

  const idsOf = async (table: string, column: string) =>
    new Map((await db.query<{ id: string; name: string }>(`SELECT id, ${column} AS name FROM decision.${table} WHERE tenant_id = $1 AND NOT is_deleted`, [tenant.id])).map((r) => [r.name, r.id]));
  const sections = await idsOf('section_projection', 'section_name');
  const categories = await idsOf('category_projection', 'category_name');
  const groups = await idsOf('group_projection', 'group_name');
  const types = await idsOf('authority_type_projection', 'authority_type');
  const userOf = (name: string) => tenant.users.find((u) => u.email === `${name}@demo.test`)!;
  const admin = userOf('admin');
  const caller = seedCaller(tenant.id, admin, ALL_PERMISSION_KEYS);

  const decisions = app.get(DecisionsService);
  for (const d of DECISIONS) {
    const [existing] = await db.query(`SELECT 1 FROM decision.decisions WHERE tenant_id = $1 AND name_key = lower($2) AND NOT is_deleted`, [tenant.id, d.name]);
    if (existing) continue;
    const authorities: CreateDecisionDto['decisionAuthorities'] = [];
    if (d.approve !== null) {
      authorities.push({
        authorityTypeId: types.get('Approval')!,
        authorityLimit: 'Primary',
        authorityLimitValueType: 'Currency',
        authorityLimitOperator: '<=',
        authorityLimitValue: d.approve,
        authorityLimitValueUnit: 'USD',
      });
    }
    if (d.limit) {
      authorities.push({
        authorityTypeId: types.get('Approval')!,
        authorityLimit: 'Primary',
        authorityLimitValueType: d.limit.type,
        authorityLimitOperator: '<=',
        authorityLimitValue: d.limit.value,
        authorityLimitValueUnit: d.limit.unit ?? null,
      });
    }
    if (d.sign || (d.approve === null && !d.limit)) authorities.push({ authorityTypeId: types.get('Signatory')!, authorityLimit: 'Primary', authorityLimitValueType: 'Authorized' });
    const created = await decisions.create(caller, {
      name: d.name,
      description: d.description,
      sectionId: sections.get(d.section)!,
      categoryId: categories.get(d.category)!,
      ownerId: d.owner ? userOf(d.owner).id : admin.id,
      status: d.status === 'DRAFT' ? 'DRAFT' : 'PUBLISHED',
      delegationPathway: ['Direct Line', 'Functional'],
      decisionGroups: d.groups.map((name) => ({ groupId: groups.get(name)! })),
      decisionAuthorities: authorities,
    });
    if (d.status === 'ARCHIVED') await decisions.update(caller, created.id, { status: 'ARCHIVED' });
  }
  return countOf(db, tenant.id);
}

async function waitForProjections(db: Db, tenantId: string, expected: Record<string, number>): Promise<void> {
  const deadline = Date.now() + PROJECTIONS_TIMEOUT_MS;
  for (;;) {
    const [have] = await db.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM decision.group_projection WHERE tenant_id = $1 AND NOT is_deleted) AS groups,
              (SELECT count(*)::int FROM decision.section_projection WHERE tenant_id = $1 AND NOT is_deleted) AS "decisionSections",
              (SELECT count(*)::int FROM decision.category_projection WHERE tenant_id = $1 AND NOT is_deleted) AS "decisionCategories",
              (SELECT count(*)::int FROM decision.authority_type_projection WHERE tenant_id = $1 AND NOT is_deleted) AS "authorityTypes",
              (SELECT count(*)::int FROM decision.user_projection WHERE tenant_id = $1 AND status <> 'DELETED') AS users`,
      [tenantId],
    );
    const missing = Object.keys(expected).filter((k) => have[k] < expected[k]);
    if (!missing.length) return;
    if (Date.now() > deadline) {
      throw new Error(`decision seed: the projections still lack records after ${PROJECTIONS_TIMEOUT_MS} ms (${missing.map((k) => `${k} ${have[k]}/${expected[k]}`).join(', ')})`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function countOf(db: Db, tenantId: string): Promise<DecisionSeedResult> {
  const [row] = await db.query<DecisionSeedResult>(`SELECT count(*)::int AS decisions FROM decision.decisions WHERE tenant_id = $1 AND NOT is_deleted`, [tenantId]);
  return row;
}

export interface DelegationSeedResult {
  delegations: number;
}

/** The Finance decisions whose authority the seed hands down from the CFO's position, with how far (share of the limit at each level). */
const FINANCE_TREE = ['Approve purchase orders', 'Select new suppliers', 'Approve capital expenditure'];

/**
 * Demo Co's delegation tree (other tenants get none; run after the decisions and after auth's seed
 * gave the finance positions their holders). Root delegations of the published Finance decisions
 * to the CFO's position; for three of them, handed down by the CFO (manager) to the financial
 * controllers along Direct Line, by the North America controller (user) to the Treasurer (staff02)
 * along Functional, and by the Europe controller (staff01) to the Accounts Payable Lead (staff07)
 * along Direct Line; one of those suspended, and a hedging delegation that expired. Everything goes
 * through the service (rules, revisions, events). Safe to run again: a tenant with delegations is
 * left alone. The invalid one follows from the organisation: the seed moves the Treasurer out of the
 * position in auth afterwards (tools/seed.ts), and invalidation marks the delegation.
 */
export async function seedDelegations(app: INestApplicationContext, tenant: { id: string; name: string; users: { id: string; email: string }[] }): Promise<DelegationSeedResult> {
  const db = app.get(Db);
  const count = async () => (await db.query<DelegationSeedResult>(`SELECT count(*)::int AS delegations FROM decision.delegations WHERE tenant_id = $1 AND status <> 'DELETED'`, [tenant.id]))[0];
  if (tenant.name !== 'Demo Co' || (await count()).delegations > 0) return count();
  const userOf = (name: string) => tenant.users.find((u) => u.email === `${name}@demo.test`)!;
  const holders: [string, string][] = [
    ['manager', 'Chief Financial Officer'],
    ['user', 'Financial Controller North America'],
    ['staff01', 'Financial Controller Europe'],
    ['staff02', 'Treasurer'],
    ['staff07', 'Accounts Payable Lead'],
  ];
  const positions = await waitForHolders(db, tenant.id, holders.map(([name, position]) => [userOf(name).id, position]));
  const as = (name: string) => seedCaller(tenant.id, userOf(name), ALL_PERMISSION_KEYS);
  const delegations = app.get(DelegationsService);

  const decisions = await db.query<{ id: string; name: string; pathways: string[]; groups: { groupId: string }[]; authorities: { authorityTypeId: string; authorityLimit: string; authorityLimitValueType: string; authorityLimitOperator: string | null; authorityLimitValue: string | null; authorityLimitValueUnit: string | null }[] }>(
    `SELECT d.id, d.name, d.delegation_pathway AS pathways,
            (SELECT coalesce(jsonb_agg(jsonb_build_object('groupId', g.group_id) ORDER BY g.position), '[]') FROM decision.decision_groups g WHERE g.decision_id = d.id) AS groups,
            (SELECT coalesce(jsonb_agg(jsonb_build_object('authorityTypeId', a.authority_type_id, 'authorityLimit', a.authority_limit, 'authorityLimitValueType', a.value_type,
                     'authorityLimitOperator', a.operator, 'authorityLimitValue', a.value_text, 'authorityLimitValueUnit', a.unit) ORDER BY a.position), '[]')
               FROM decision.decision_authorities a WHERE a.decision_id = d.id) AS authorities
       FROM decision.decisions d JOIN decision.section_projection s ON s.id = d.section_id
      WHERE d.tenant_id = $1 AND NOT d.is_deleted AND d.status = 'PUBLISHED' AND d.delegable AND s.section_name = 'Finance'
      ORDER BY d.decision_display_id::bigint`,
    [tenant.id],
  );
  /** The decision's limits at `share` of their value (Unlimited and Authorized stay), redelegable while `handOn`. */
  const limits = (d: (typeof decisions)[number], share: number, handOn: boolean) =>
    d.authorities.map((a) => ({
      ...a,
      authorityLimitValue: a.authorityLimitValue && a.authorityLimitValue !== 'Unlimited' ? String(Math.floor(Number(a.authorityLimitValue) * share)) : a.authorityLimitValue,
      redelegable: handOn,
    }));
  const cfo = positions.get('Chief Financial Officer')!;
  const issue = async (name: string, body: Omit<Parameters<DelegationsService['create']>[1], 'status'>) => (await delegations.create(as(name), { ...body, status: 'ISSUED' }))[0];
  const inPosition = (userName: string, position: string) => ({ recipientType: 'PERSONNEL_IN_POSITION', delegationRecipients: [{ recipientUserId: userOf(userName).id, recipientPositionId: positions.get(position)! }] });

  for (const d of decisions) {
    const hedging = d.name === 'Foreign exchange hedging';
    const day = 24 * 3600_000;
    const root = await issue('admin', {
      decisionId: d.id,
      recipientType: 'POSITION_ONLY',
      delegationRecipients: [{ recipientPositionId: cfo }],
      delegationPathway: d.pathways,
      delegationGroups: d.groups,
      delegationAuthorities: limits(d, 1, true),
      // One that has run its course: issued for the last quarter, expired yesterday (the sweep below moves it to EXPIRED).
      ...(hedging ? { effectiveDate: new Date(Date.now() - 90 * day).toISOString(), expirationDate: new Date(Date.now() - day).toISOString() } : { isNoExpiration: true }),
    });
    if (!FINANCE_TREE.includes(d.name)) continue;
    const along = (...pathways: string[]) => ({ decisionId: d.id, delegationPathway: pathways, delegationGroups: d.groups, isNoExpiration: true });
    const na = await issue('manager', { ...along('Direct Line', 'Functional'), parentDelegationId: root.id, ...inPosition('user', 'Financial Controller North America'), delegationAuthorities: limits(d, 0.5, true) });
    const eu = await issue('manager', { ...along('Direct Line'), parentDelegationId: root.id, ...inPosition('staff01', 'Financial Controller Europe'), delegationAuthorities: limits(d, 0.4, true) });
    const ap = await issue('staff01', { ...along('Direct Line'), parentDelegationId: eu.id, ...inPosition('staff07', 'Accounts Payable Lead'), delegationAuthorities: limits(d, 0.1, false) });
    if (d.name === FINANCE_TREE[0]) {
      // The treasurer's, along Functional (North America's controller and the Treasurer share the Finance group): it turns invalid when the Treasurer leaves.
      await issue('user', { ...along('Functional'), parentDelegationId: na.id, ...inPosition('staff02', 'Treasurer'), delegationAuthorities: limits(d, 0.2, false) });
    }
    if (d.name === FINANCE_TREE[1]) await delegations.move(as('staff01'), ap.id, 'suspend');
  }
  await app.get(ExpirySweep).sweep();
  return count();
}

/** Waits until the decision area's projections show each user in their position (auth's events); answers the position ids by name. */
async function waitForHolders(db: Db, tenantId: string, holders: [string, string][]): Promise<Map<string, string>> {
  const deadline = Date.now() + PROJECTIONS_TIMEOUT_MS;
  for (;;) {
    const rows = await db.query<{ user_id: string; position: string; position_id: string }>(
      `SELECT u.id AS user_id, p.position_name AS position, p.id AS position_id
         FROM decision.user_projection u JOIN decision.position_projection p ON p.tenant_id = u.tenant_id AND p.id = ANY(u.position_ids) AND NOT p.is_deleted
        WHERE u.tenant_id = $1 AND u.id = ANY($2::uuid[])`,
      [tenantId, holders.map(([u]) => u)],
    );
    const held = new Set(rows.map((r) => `${r.user_id}|${r.position}`));
    const missing = holders.filter(([u, p]) => !held.has(`${u}|${p}`));
    if (!missing.length) return new Map(rows.map((r) => [r.position, r.position_id]));
    if (Date.now() > deadline) throw new Error(`decision seed: ${missing.map(([, p]) => p).join(', ')} still without their holders after ${PROJECTIONS_TIMEOUT_MS} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Waits until the delegation given to the Treasurer in person shows the move (invalid, Recipient): invalidation runs on auth's event. */
export async function waitForSeedInvalidation(app: INestApplicationContext, tenant: { id: string; name: string }): Promise<void> {
  if (tenant.name !== 'Demo Co') return;
  await untilFound(
    app.get(Db),
    `SELECT 1 FROM decision.delegations WHERE tenant_id = $1 AND is_invalid AND 'Recipient' = ANY(invalid_fields) LIMIT 1`,
    [tenant.id],
    "no delegation was invalidated by the Treasurer's move",
  );
}

/** Waits until `text` answers a row (what the seed waits for arrives by events); an error saying `missing` after PROJECTIONS_TIMEOUT_MS. */
async function untilFound(db: Db, text: string, params: unknown[], missing: string): Promise<void> {
  const deadline = Date.now() + PROJECTIONS_TIMEOUT_MS;
  for (;;) {
    if ((await db.query(text, params)).length) return;
    if (Date.now() > deadline) throw new Error(`decision seed: ${missing} after ${PROJECTIONS_TIMEOUT_MS} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The decisions of the Finance section link the delegation-of-authority policy (pinned), once; through the service (a revision and an event each). */
export async function linkFinanceDecisions(app: INestApplicationContext, tenant: { id: string; users: { id: string; email: string }[] }, documentId: string): Promise<void> {
  const db = app.get(Db);
  // The document reaches the decision area by its event: a decision links only a document it knows.
  await untilFound(db, `SELECT 1 FROM decision.document_projection WHERE tenant_id = $1 AND id = $2`, [tenant.id, documentId], `document ${documentId} did not reach the decision area`);
  const rows = await db.query<{ id: string }>(
    `SELECT d.id FROM decision.decisions d JOIN decision.section_projection s ON s.id = d.section_id AND s.tenant_id = d.tenant_id
      WHERE d.tenant_id = $1 AND s.section_name = 'Finance' AND NOT d.is_deleted
        AND NOT EXISTS (SELECT 1 FROM decision.decision_documents dd WHERE dd.decision_id = d.id AND dd.document_id = $2)`,
    [tenant.id, documentId],
  );
  const caller = seedCaller(tenant.id, tenant.users.find((u) => u.email === 'admin@demo.test')!, ALL_PERMISSION_KEYS);
  const decisions = app.get(DecisionsService);
  for (const r of rows) {
    const current = await decisions.get(caller, r.id);
    const documents = [...current.decisionDocuments.map((x) => ({ documentId: x.documentId, isPinned: x.isPinned })), { documentId, isPinned: true }];
    await decisions.update(caller, r.id, { decisionDocuments: documents });
  }
}
