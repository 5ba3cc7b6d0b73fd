/**
 * npm run bench -- decisions [--duration 10] [--connections 16] [--warmup 3] [--term supplier] [--keep] [--explain]
 *
 * What the decision service costs over the SQL it runs, whether its lists hold up as a tenant
 * grows, how many statements its requests run, and how long its bulk changes take. In a scratch
 * database (ddm_bench_decisions, dropped at the end unless --keep) two tenants get 1,000 and
 * 100,000 live decisions (and 1 % more deleted ones), set-based (generate_series): every decision
 * with 1 to 3 groups, 1 to 3 authorities (numeric limits in Currency, Number, Percentage and Time,
 * some Unlimited, some Authorized), every fourth with documents; the sections, categories, users,
 * groups and authority types they name are in the decision area's projection tables. The built
 * auth and decision services run as child processes (NATS namespace "benchdecisions"); a BARE
 * handler, plain Fastify + a pg pool of 10 with no auth and no envelope, runs in a worker thread of
 * this process and serves the very same statements (decisionById, decisionList through
 * listSql, imported from apps/decision/src/decisions/decision.sql.ts and libs/platform), mapped by
 * the same toDecisionView.
 *
 * Measured in one run, service and bare alternating, twice, the better run of each counting:
 *   get      GET /decision/v1/decisions/{id}                                                (100,000 decisions)
 *   list     GET /decision/v1/decisions?status=PUBLISHED&sortBy=name&limit=20                (100,000 and 1,000)
 *   search   GET /decision/v1/decisions?search=<term>&sortBy=name&limit=20                  (100,000 and 1,000)
 *   section  GET /decision/v1/decisions?sectionIds=<id>&sortBy=decisionDisplayId&sortOrder=desc&limit=20 (100,000 and 1,000)
 * Then, on the same service: PATCH /decision/v1/decisions/bulk-duplicate of 1,000 decisions, timed
 * until GET /decision/v1/jobs/{jobId} answers COMPLETED (polled every 20 ms; the copies counted in
 * SQL), and PATCH /decision/v1/decisions/bulk-delete of 1,000 other ones.
 *
 * Statements per request: the decision service is then started again with OpenTelemetry on,
 * exporting to a receiver in this process (pg_stat_statements needs a server restart to load, so
 * the service's own pg instrumentation counts instead: one client span per statement). Each probe
 * request carries its own traceparent; the statements counted are the decision service's under
 * that request's server span (what the outbox relay and a job do afterwards is counted apart). The
 * reads must run exactly one statement, the one the bare handler runs (same text); the bulk delete
 * and the duplicate job are listed statement by statement. It takes about eight minutes.
 *
 * Prints a table, the ratios service/bare of requests per second (targets: get >= 0.6, lists
 * >= 0.8), each list's p95 at 100,000 / p95 at 1,000 (target <= 1.5), the statements, the bulk
 * timings (duplicate target <= 2 s), whether each target is met, and one JSON line. A missed target
 * is reported, not an error (a loaded machine misses them). Exits 1 if a response was not a 200, the
 * service and the bare handler disagree, or a bulk change did not do what it answered. --explain
 * prints EXPLAIN (ANALYZE, BUFFERS) of the read statements at 100,000 decisions to stderr.
 * Children, worker, database and streams are removed in every case.
 */
import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import { plainToInstance } from 'class-transformer';
import type { FastifyInstance } from 'fastify';
import { Client, Pool, PoolClient } from 'pg';
import { Caller, DEFAULT_ROLES } from '@ddm/contracts';
import { Sql, listSql, pageRows, withLiterals } from '@ddm/platform';
import { DecisionRow, decisionById, decisionList } from '../../apps/decision/src/decisions/decision.sql';
import { selectDecisionFields, toDecisionView } from '../../apps/decision/src/decisions/dto/decision.response';
import { SearchDecisionsDto } from '../../apps/decision/src/decisions/dto/search-decisions.dto';
import { until } from '../../libs/testing/src/events';
import { OTLP_KIND, OtlpReceiver, ReceivedSpan, startOtlpReceiver } from '../../libs/testing/src/otlp';
import { BenchContext, bearer, best, call, checkSame, failUnlessAll200, Impl, log, measureRounds, pageOf, printReport, round2, Run, runsNote, runsTable, secondsSince, seedCaller, seedTenantWithRoles, serviceBench, ServiceBenchOptions, sleep, startService, stopChild, Target, uuidV7, versus, warmUp } from './lib';

const SIZES = { small: 1_000, large: 100_000 } as const;
type Size = keyof typeof SIZES;
const SIZE_LABEL: Record<Size, string> = { small: '1k', large: '100k' };
/** The app URL the service answers links with (its default; the bare handler uses the same). */
const APP_URL = 'http://localhost:8080';
const TARGETS = { get: 0.6, list: 0.8, p95Ratio: 1.5, duplicateMs: 2_000 } as const;
const BULK = 1_000;
/** How often the job is polled while a bulk duplicate runs. */
const JOB_POLL_MS = 20;
const JOB_TIMEOUT_MS = 120_000;
/** Probe requests per read (the first may resolve the caller through auth: no decision statement). */
const PROBE_REPEAT = 3;
/** After a span arrives, how long the spans that ended before it may still take (another export batch). */
const SPAN_SETTLE_MS = 400;
const SPAN_TIMEOUT_MS = 30_000;
/** No request of the checks may hang the benchmark. */
const REQUEST_TIMEOUT_MS = 30_000;

type Variant = 'get' | 'list' | 'search' | 'section';
const LIST_VARIANTS = ['list', 'search', 'section'] as const;
type ListVariant = (typeof LIST_VARIANTS)[number];
type Key = { variant: Variant; size: Size; impl: Impl };
interface Options extends ServiceBenchOptions {
  term: string;
  explain: boolean;
}

// ---------------------------------------------------------------------------------------------
// The bare handler (worker thread): same SQL, same mapping, no auth, no envelope, no validation.
// ---------------------------------------------------------------------------------------------

interface BareConfig {
  /** The caller's user id in each tenant (the permissions of a view depend on who asks). */
  callers: Record<string, string>;
}

function bareRoutes(app: FastifyInstance, pool: Pool, { callers }: BareConfig): void {
  const tenantOf = new WeakMap<PoolClient, string>();
  // The caller the service resolves: a System Admin (every key) of the tenant.
  const keys = new Set(DEFAULT_ROLES.find((r) => r.key === 'SYSTEM_ADMIN')!.keys);
  const callerCache = new Map<string, Caller>();
  const callerOf = (tenantId: string): Caller => {
    let caller = callerCache.get(tenantId);
    if (!caller) {
      caller = { userId: callers[tenantId], tenantId, email: '', name: '', roleIds: [], keys, claims: {} as Caller['claims'] };
      callerCache.set(tenantId, caller);
    }
    return caller;
  };
  app.get<{ Params: { id: string }; Querystring: { tenantId: string } }>('/bare/decisions/:id', async (req, reply) => {
    const get = decisionById(req.params.id, req.query.tenantId);
    const { rows } = await pool.query<DecisionRow>(get.text, get.values as unknown[]);
    if (!rows.length) return reply.code(404).send({ message: 'not found' });
    return toDecisionView(rows[0].view, callerOf(req.query.tenantId), APP_URL);
  });
  app.get<{ Querystring: Record<string, string> }>('/bare/decisions', async (req) => {
    // The query object the service's ValidationPipe builds (class-transformer: same defaults and comma lists).
    const q = plainToInstance(SearchDecisionsDto, { ...req.query });
    const caller = callerOf(req.query.tenantId);
    const { text, values } = listSql(decisionList(caller.tenantId, q));
    // The search's function reads the request's tenant from app.tenant_id, as the service's Db sets it: on a pooled
    // connection only when it last served another tenant (within one measured round, once per connection).
    const client = await pool.connect();
    let rows: (DecisionRow & { total: number; ord: unknown })[];
    try {
      if (tenantOf.get(client) !== caller.tenantId) {
        await client.query(`SELECT set_config('app.tenant_id', $1, false)`, [caller.tenantId]);
        tenantOf.set(client, caller.tenantId);
      }
      rows = (await client.query<DecisionRow & { total: number; ord: unknown }>(text, values as unknown[])).rows;
    } finally {
      client.release();
    }
    const { items, total } = pageRows(rows, (r: DecisionRow) => selectDecisionFields(toDecisionView(r.view, caller, APP_URL), q.select));
    return { page: q.page, limit: q.limit, total, data: items };
  });
}

// ---------------------------------------------------------------------------------------------
// Seed (set-based SQL).
// ---------------------------------------------------------------------------------------------

const SECTIONS = ['Finance', 'Commercial', 'People', 'Operations', 'Legal & Compliance', 'Technology', 'Risk', 'Procurement'];
const CATEGORY_KINDS = ['Approvals', 'Contracts', 'Spending', 'Policy', 'Reporting'];
const REGIONS = ['North America', 'Europe', 'Asia Pacific', 'Latin America', 'Middle East'];
const DEPARTMENTS = ['Finance', 'Engineering', 'Sales', 'Marketing', 'Legal', 'People', 'Operations', 'Procurement', 'IT', 'Risk', 'Audit', 'Treasury'];
const AUTHORITY_TYPES = [
  { name: 'Approval', icon: 'check-circle' },
  { name: 'Signatory', icon: 'pen' },
  { name: 'Review', icon: 'eye' },
  { name: 'Recommend', icon: 'thumbs-up' },
  { name: 'Consult', icon: 'chat' },
];
const VERBS = ['Approve', 'Sign', 'Authorize', 'Review', 'Select', 'Negotiate', 'Renew', 'Terminate', 'Settle', 'Issue', 'Waive', 'Write off', 'Open', 'Close', 'Amend'];
const OBJECTS = [
  'purchase orders', 'supplier contracts', 'capital projects', 'bank accounts', 'customer discounts', 'office leases', 'software licences',
  'expense claims', 'salary reviews', 'intercompany loans', 'price changes', 'legal claims', 'regulatory filings', 'marketing campaigns',
  'travel bookings', 'bonus payments', 'hedging contracts', 'reseller agreements', 'security exceptions', 'data requests',
];
const DESCRIPTIONS = [
  'Within the approved annual budget and the delegation policy.',
  'Outside the annual plan; needs a business case.',
  'For any entity of the group, in any currency.',
  'Subject to the procurement policy and a competitive tender.',
  'After review by the legal department.',
  'For the region named in the groups of this decision.',
  'Limited to the amounts below, per transaction.',
  'Renewals on unchanged terms only.',
  'Including amendments that change the value by more than ten percent.',
  'Reported to the audit committee every quarter.',
];
const FIRST = ['Ada', 'Alan', 'Barbara', 'Claude', 'Donald', 'Edsger', 'Frances', 'Grace', 'Hedy', 'Ivan', 'John', 'Katherine', 'Leslie', 'Margaret', 'Niklaus', 'Radia'];
const LAST = ['Lovelace', 'Turing', 'Liskov', 'Shannon', 'Knuth', 'Dijkstra', 'Allen', 'Hopper', 'Lamarr', 'Sutherland', 'Backus', 'Johnson', 'Lamport', 'Hamilton', 'Wirth', 'Perlman'];
const GUIDANCE = `Check the request against the limits of this decision and the policy it refers to. Ask for the supporting documents
(quotes, business case, legal opinion) before approving, and record the outcome in the decision log. Escalate anything above
the limit to the next level of the delegation.`;

interface SeededTenant {
  tenantId: string;
  callerUserId: string;
  callerSub: string;
  /** The "Finance" section (the section filter's). */
  sectionId: string;
  /** Decision ids by their number i (display id 9999 + i), live ones only: 1..count. */
  idOf: (i: number) => Promise<string>;
}

/**
 * The decision area's copies of a tenant's records, as their events would have written them:
 * 8 sections with 5 categories each, 60 groups (12 departments in 5 regions, of 3 group types),
 * 5 authority types, and `users` users (the caller first).
 */
async function seedProjections(db: Client, tenantId: string, caller: { id: string; email: string }, users: number) {
  const sections = SECTIONS.map(() => randomUUID());
  await db.query(`INSERT INTO decision.section_projection (id, tenant_id, section_name, version) SELECT x.id, $1, x.name, 1 FROM unnest($2::uuid[], $3::text[]) AS x(id, name)`, [
    tenantId,
    sections,
    SECTIONS,
  ]);
  const categories = sections.flatMap(() => CATEGORY_KINDS.map(() => randomUUID()));
  await db.query(
    `INSERT INTO decision.category_projection (id, tenant_id, category_name, section_id, version)
     SELECT x.id, $1, x.name, x.section, 1 FROM unnest($2::uuid[], $3::text[], $4::uuid[]) AS x(id, name, section)`,
    [tenantId, categories, SECTIONS.flatMap((s) => CATEGORY_KINDS.map((k) => `${s} ${k}`)), sections.flatMap((s) => CATEGORY_KINDS.map(() => s))],
  );
  const groupTypes = [randomUUID(), randomUUID(), randomUUID()];
  const groupNames = REGIONS.flatMap((r) => DEPARTMENTS.map((d) => `${d} ${r}`));
  const groups = groupNames.map(() => randomUUID());
  const groupTypeOf = groups.map((_, n) => groupTypes[n % groupTypes.length]);
  await db.query(
    `INSERT INTO decision.group_projection (id, tenant_id, group_name, display_name, tenant_group_type_id, version)
     SELECT x.id, $1, x.name, x.name, x.type, 1 FROM unnest($2::uuid[], $3::text[], $4::uuid[]) AS x(id, name, type)`,
    [tenantId, groups, groupNames, groupTypeOf],
  );
  const authorityTypes = AUTHORITY_TYPES.map(() => randomUUID());
  await db.query(
    `INSERT INTO decision.authority_type_projection (id, tenant_id, authority_type, authority_type_icon, authority_type_order, status, version)
     SELECT x.id, $1, x.name, x.icon, x.n, 'ACTIVE', 1 FROM unnest($2::uuid[], $3::text[], $4::text[]) WITH ORDINALITY AS x(id, name, icon, n)`,
    [tenantId, authorityTypes, AUTHORITY_TYPES.map((t) => t.name), AUTHORITY_TYPES.map((t) => t.icon)],
  );
  const userIds = [caller.id, ...Array.from({ length: users - 1 }, () => randomUUID())];
  await db.query(
    `INSERT INTO decision.user_projection (tenant_id, id, email, name, display_name, profile_image_url, status, version)
     VALUES ($1, $2, $3, 'Bench Admin', 'Bench Admin', NULL, 'ACTIVE', 1)`,
    [tenantId, caller.id, caller.email],
  );
  await db.query(
    `INSERT INTO decision.user_projection (tenant_id, id, email, name, display_name, profile_image_url, status, version)
     SELECT $1, x.id, 'user' || x.n || '@' || $2, n.f || ' ' || n.l, n.f || ' ' || n.l,
            CASE WHEN x.n % 2 = 0 THEN 'https://cdn.example.test/avatars/' || x.id || '.png' END, CASE WHEN x.n % 50 = 0 THEN 'INACTIVE' ELSE 'ACTIVE' END, 1
       FROM unnest($3::uuid[]) WITH ORDINALITY AS x(id, n),
            LATERAL (SELECT ($4::text[])[1 + x.n % array_length($4::text[], 1)] AS f, ($5::text[])[1 + (x.n / 16) % array_length($5::text[], 1)] AS l) n`,
    [tenantId, caller.email.split('@')[1], userIds.slice(1), FIRST, LAST],
  );
  return { sections, categories, groups, groupTypeOf, authorityTypes, userIds };
}

/**
 * `count` live decisions numbered i = 1..count (display id 9999 + i), then count / 100 deleted
 * ones, created over three years: names "<verb> <object> <i>" (every object in 5 % of them),
 * 60 % PUBLISHED, 30 % DRAFT, 10 % ARCHIVED; 90 % in a section, 70 % in a category of it;
 * owners, creators and editors among the users. Children: 1 + i % 3 groups, 1 + (i / 5) % 3
 * authorities (value types Currency 55 %, Number 15 %, Percentage, Time and Authorized 10 % each;
 * Currency limits 1,000..500,000, every 29th Unlimited), 1 + (i / 4) % 2 documents when i % 4 = 0.
 */
async function seedDecisions(db: Client, tenantId: string, count: number, refs: Awaited<ReturnType<typeof seedProjections>>): Promise<void> {
  const deleted = Math.floor(count / 100);
  const total = count + deleted;
  await db.query(
    `INSERT INTO decision.decisions (id, tenant_id, decision_display_id, name, description, guidance, section_id, category_id, owner_id, status,
                                     delegable, condition_enabled, role_enabled, delegation_pathway, version, is_deleted, deleted_on, deleted_by,
                                     created_on, created_by, updated_on, updated_by)
     SELECT ${uuidV7('x.created')}, $1, (9999 + x.i)::text,
            ($2::text[])[1 + x.i % array_length($2::text[], 1)] || ' ' || ($3::text[])[1 + (x.i / array_length($2::text[], 1)) % array_length($3::text[], 1)] || ' ' || x.i,
            ($4::text[])[1 + x.i % array_length($4::text[], 1)], CASE WHEN x.i % 4 = 0 THEN $5 END,
            CASE WHEN x.i % 10 <> 3 THEN ($6::uuid[])[1 + x.s] END,
            CASE WHEN x.i % 10 <> 3 AND x.i % 5 <> 1 THEN ($7::uuid[])[1 + x.s * 5 + (x.i / 7) % 5] END,
            x.owner, CASE WHEN x.i % 10 < 6 THEN 'PUBLISHED' WHEN x.i % 10 < 9 THEN 'DRAFT' ELSE 'ARCHIVED' END,
            x.i % 7 <> 0, x.i % 11 = 0, x.i % 13 = 0,
            CASE x.i % 4 WHEN 0 THEN ARRAY['Direct Line', 'Functional'] WHEN 1 THEN ARRAY['Matrix'] WHEN 2 THEN '{}'::text[] ELSE ARRAY['Direct Line', 'Functional', 'Down-Line'] END,
            1 + x.i % 5, x.i > $9::int, CASE WHEN x.i > $9::int THEN x.updated END, CASE WHEN x.i > $9::int THEN x.owner END,
            x.created, x.creator, x.updated, CASE WHEN x.i % 4 = 0 THEN x.creator ELSE ($8::uuid[])[1 + (x.i * 13) % array_length($8::uuid[], 1)] END
       FROM (SELECT i, (i * 7) % 8 AS s, c.created, least(now(), c.created + (i % 90) * interval '1 day') AS updated,
                    ($8::uuid[])[1 + (i * 31) % array_length($8::uuid[], 1)] AS owner, ($8::uuid[])[1 + (i * 17) % array_length($8::uuid[], 1)] AS creator
               FROM generate_series(1, $10::int) AS i,
                    LATERAL (SELECT now() - (($10::int - i)::float8 / $10::int) * interval '1095 days' AS created) c) x`,
    [tenantId, VERBS, OBJECTS, DESCRIPTIONS, GUIDANCE, refs.sections, refs.categories, refs.userIds, count, total],
  );
  const numbered = `FROM decision.decisions d CROSS JOIN LATERAL (SELECT d.decision_display_id::int - 9999 AS i) n WHERE d.tenant_id = $1`;
  await db.query(
    `INSERT INTO decision.decision_groups (id, tenant_id, decision_id, group_id, tenant_group_type_id, position)
     SELECT gen_random_uuid(), $1, d.id, ($2::uuid[])[1 + (n.i + k * 17) % array_length($2::uuid[], 1)], ($3::uuid[])[1 + (n.i + k * 17) % array_length($2::uuid[], 1)], k + 1
       FROM decision.decisions d CROSS JOIN LATERAL (SELECT d.decision_display_id::int - 9999 AS i) n CROSS JOIN LATERAL generate_series(0, n.i % 3) AS k
      WHERE d.tenant_id = $1`,
    [tenantId, refs.groups, refs.groupTypeOf],
  );
  await db.query(
    `INSERT INTO decision.decision_authorities (id, tenant_id, decision_id, authority_type_id, authority_type_order, authority_limit, value_type, operator,
                                                value_text, value_number, unit, position)
     SELECT gen_random_uuid(), $1, a.decision_id, a.type_id, a.k + 1, 'Primary', a.value_type, CASE WHEN a.value_type <> 'Authorized' THEN a.operator END,
            a.value_text, CASE WHEN a.value_text IS NOT NULL AND a.value_text <> 'Unlimited' THEN a.value_text::numeric END, a.unit, a.k + 1
       FROM (SELECT d.id AS decision_id, k, ($2::uuid[])[1 + (n.i + k) % array_length($2::uuid[], 1)] AS type_id, v.value_type,
                    CASE WHEN (n.i + k) % 3 = 0 THEN '<' ELSE '<=' END AS operator,
                    CASE v.value_type
                      WHEN 'Currency' THEN CASE WHEN (n.i + k) % 29 = 0 THEN 'Unlimited' ELSE ((1 + (n.i * 13 + k * 7) % 500) * 1000)::text END
                      WHEN 'Number' THEN (1 + (n.i + k) % 250)::text
                      WHEN 'Percentage' THEN (1 + (n.i + k) % 100)::text
                      WHEN 'Time' THEN (1 + (n.i + k) % 24)::text
                    END AS value_text,
                    CASE v.value_type WHEN 'Currency' THEN (ARRAY['USD', 'EUR', 'GBP'])[1 + (n.i + k) % 3] WHEN 'Time' THEN 'Months' END AS unit
               ${numbered.replace('WHERE', `CROSS JOIN LATERAL generate_series(0, (n.i / 5) % 3) AS k
               CROSS JOIN LATERAL (SELECT CASE WHEN z.code < 11 THEN 'Currency' WHEN z.code < 14 THEN 'Number' WHEN z.code < 16 THEN 'Percentage' WHEN z.code < 18 THEN 'Time' ELSE 'Authorized' END AS value_type
                                     FROM (SELECT (n.i * 7 + k * 3) % 20 AS code) z) v
              WHERE`)}) a`,
    [tenantId, refs.authorityTypes],
  );
  await db.query(
    `INSERT INTO decision.decision_documents (id, tenant_id, decision_id, document_id, is_pinned, position)
     SELECT gen_random_uuid(), $1, d.id, gen_random_uuid(), k = 0 AND n.i % 12 = 0, k + 1
       ${numbered.replace('WHERE', 'CROSS JOIN LATERAL generate_series(0, (n.i / 4) % 2) AS k WHERE n.i % 4 = 0 AND')}`,
    [tenantId],
  );
  await db.query(`INSERT INTO decision.display_id_counters (tenant_id, kind, last_value) VALUES ($1, 'decision', $2)`, [tenantId, 9999 + total]);
}

async function seedTenant(db: Client, size: Size): Promise<SeededTenant> {
  const { tenantId, roleIds } = await seedTenantWithRoles(db, `Bench ${size}`);
  const email = `admin@${size}.bench.test`;
  const caller = await seedCaller(db, tenantId, roleIds.SYSTEM_ADMIN, email);
  const refs = await seedProjections(db, tenantId, { id: caller.userId, email }, Math.max(50, SIZES[size] / 20));
  await seedDecisions(db, tenantId, SIZES[size], refs);
  const idOf = async (i: number) =>
    (await db.query<{ id: string }>(`SELECT id FROM decision.decisions WHERE tenant_id = $1 AND decision_display_id = $2`, [tenantId, String(9999 + i)])).rows[0].id;
  return { tenantId, callerUserId: caller.userId, callerSub: caller.sub, sectionId: refs.sections[0], idOf };
}

/** Live decisions of the large tenant numbered i with i % 100 = `residue` (1,000 of them). */
async function idsWithResidue(db: Client, tenantId: string, residue: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM decision.decisions WHERE tenant_id = $1 AND NOT is_deleted AND decision_display_id::int - 9999 <= $3 AND (decision_display_id::int - 9999) % 100 = $2
      ORDER BY decision_display_id::int`,
    [tenantId, residue, SIZES.large],
  );
  return rows.map((r) => r.id);
}

/** The residues of the bulk sets (i % 100): timed duplicate, timed delete, probed delete, probed duplicate. */
const BULK_SETS = { duplicate: 7, delete: 13, probeDelete: 17, probeDuplicate: 19 } as const;

/** The decision of the get: PUBLISHED, in a section and a category, with 3 groups, 3 authorities and 2 documents, and none of the bulk sets. */
function getTargetNumber(): number {
  for (let i = SIZES.large / 2; i <= SIZES.large; i++) {
    const bulk = (Object.values(BULK_SETS) as number[]).includes(i % 100);
    if (i % 10 < 6 && i % 10 !== 3 && i % 5 !== 1 && i % 3 === 2 && Math.floor(i / 5) % 3 === 2 && i % 4 === 0 && Math.floor(i / 4) % 2 === 1 && !bulk) return i;
  }
  throw new Error('no decision number fits the get');
}

// ---------------------------------------------------------------------------------------------
// Bulk changes.
// ---------------------------------------------------------------------------------------------

interface JobState {
  status: string;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

interface DuplicateResult {
  /** PATCH sent -> the job's COMPLETED seen by a poll. */
  endToEndMs: number;
  /** PATCH sent -> its answer (the job accepted). */
  acceptMs: number;
  /** The job's own createdAt -> finishedAt (server clock). */
  jobMs: number;
  /** The job's createdAt -> startedAt: its message through the outbox relay and JetStream to the consumer. */
  queuedMs: number;
  status: string;
  succeeded: number;
  copies: number;
  polls: number;
  jobId: string;
}

/** PATCH bulk-duplicate, then GET the job every JOB_POLL_MS until it ends; counts the copies in SQL. */
async function bulkDuplicate(db: Client, base: string, headers: Record<string, string>, tenantId: string, ids: string[], traceparent?: string): Promise<DuplicateResult> {
  const started = performance.now();
  const accepted = await call('PATCH', `${base}/decision/v1/decisions/bulk-duplicate`, traceparent ? { ...headers, traceparent } : headers, { decisionIds: ids });
  if (accepted.status !== 200) throw new Error(`bulk-duplicate answered ${accepted.status}: ${JSON.stringify(accepted.body).slice(0, 300)}`);
  const { jobId } = accepted.body.data as { jobId: string };
  let polls = 0;
  const job = await until(
    async () => {
      polls++;
      const res = await call('GET', `${base}/decision/v1/jobs/${jobId}`, headers);
      if (res.status !== 200) throw new Error(`GET /decision/v1/jobs/${jobId} answered ${res.status}`);
      const j = res.body.data as JobState;
      return ['COMPLETED', 'COMPLETED_WITH_ERRORS', 'FAILED'].includes(j.status) && j;
    },
    `bulk-duplicate job ${jobId} to end`,
    JOB_TIMEOUT_MS,
    JOB_POLL_MS,
  );
  const endToEndMs = performance.now() - started;
  const [{ n }] = (
    await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM decision.decisions WHERE tenant_id = $1 AND copied_from = ANY($2::uuid[]) AND NOT is_deleted`, [tenantId, ids])
  ).rows;
  return {
    endToEndMs,
    acceptMs: accepted.ms,
    jobMs: Date.parse(job.finishedAt!) - Date.parse(job.createdAt),
    queuedMs: Date.parse(job.startedAt!) - Date.parse(job.createdAt),
    status: job.status,
    succeeded: job.succeeded,
    copies: n,
    polls,
    jobId,
  };
}

/** Waits until the outbox relay has published every event written so far (a bulk change's 1,000 events), so the next timing does not overlap it. */
async function outboxDrained(db: Client): Promise<void> {
  await until(
    async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM decision.outbox WHERE published_at IS NULL`)).rows[0].n === 0,
    'the outbox relay to publish the events written',
    JOB_TIMEOUT_MS,
    100,
  );
}

interface DeleteResult {
  ms: number;
  deleteCount: number;
  /** Of the ids, how many are deleted now (SQL). */
  deleted: number;
}

async function bulkDelete(db: Client, base: string, headers: Record<string, string>, tenantId: string, ids: string[], traceparent?: string): Promise<DeleteResult> {
  const res = await call('PATCH', `${base}/decision/v1/decisions/bulk-delete`, traceparent ? { ...headers, traceparent } : headers, { decisionIds: ids });
  if (res.status !== 200) throw new Error(`bulk-delete answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  const [{ n }] = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM decision.decisions WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND is_deleted`, [tenantId, ids])).rows;
  return { ms: res.ms, deleteCount: (res.body.data as { deleteCount: number }).deleteCount, deleted: n };
}

// ---------------------------------------------------------------------------------------------
// Statements per request (OpenTelemetry pg spans of the decision service).
// ---------------------------------------------------------------------------------------------

const SERVICE_NAME = 'ddm-decision';
const statementOf = (s: ReceivedSpan) => String(s.attributes['db.statement'] ?? s.attributes['db.query.text'] ?? '');

/** A short name of a statement: its verb and its top-level table ("SELECT decision.decisions", "INSERT decision.outbox", "COMMIT"). */
function statementLabel(text: string): string {
  let t = text.replace(/\s+/g, ' ').trim();
  if (/^WITH page AS/i.test(t)) return 'SELECT (the list: WITH page ...)';
  // Subqueries and argument lists out, so the FROM found is the statement's own.
  for (let prev = ''; prev !== t; ) [prev, t] = [t, t.replace(/\([^()]*\)/g, '~')];
  const table = (re: RegExp) => (t.match(re)?.[1] ?? '?').replace(/"/g, '');
  if (/^INSERT/i.test(t)) return `INSERT ${table(/^INSERT INTO ([\w."]+)/i)}`;
  if (/^UPDATE/i.test(t)) return `UPDATE ${table(/^UPDATE ([\w."]+)/i)}`;
  if (/^DELETE/i.test(t)) return `DELETE ${table(/^DELETE FROM ([\w."]+)/i)}`;
  if (/^(SELECT|WITH)/i.test(t)) return `${/^WITH/i.test(t) ? 'WITH' : 'SELECT'} ${table(/\bFROM .*?([\w"]+\.[\w"]+)/i)}${/FOR UPDATE\s*$/i.test(t) ? ' FOR UPDATE' : ''}`;
  return t.split(' ').slice(0, 2).join(' ').toUpperCase();
}

interface Traced {
  traceId: string;
  parentSpanId: string;
  header: string;
}

function newTrace(): Traced {
  const traceId = randomBytes(16).toString('hex');
  const parentSpanId = randomBytes(8).toString('hex');
  return { traceId, parentSpanId, header: `00-${traceId}-${parentSpanId}-01` };
}

/**
 * The decision service's statements in a traced request: under its server span (the one whose
 * parent is the client's span), split into those of the request itself and those of work it set
 * off (below a producer or consumer span: the outbox relay, a job).
 */
async function statementsOf(otlp: OtlpReceiver, trace: Traced): Promise<{ request: string[]; later: ReceivedSpan[] }> {
  const server = await until(
    () => otlp.spans.find((s) => s.traceId === trace.traceId && s.service === SERVICE_NAME && s.kind === OTLP_KIND.server && s.parentSpanId === trace.parentSpanId),
    `the server span of trace ${trace.traceId}`,
    SPAN_TIMEOUT_MS,
  );
  await sleep(SPAN_SETTLE_MS);
  const spans = otlp.spans.filter((s) => s.traceId === trace.traceId && s.service === SERVICE_NAME);
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const request: string[] = [];
  const later: ReceivedSpan[] = [];
  for (const s of spans) {
    if (s.kind !== OTLP_KIND.client || !statementOf(s)) continue;
    let async = false;
    let p = s.parentSpanId ? byId.get(s.parentSpanId) : undefined;
    for (; p && p !== server; p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined) if (p.kind === OTLP_KIND.producer || p.kind === OTLP_KIND.consumer) async = true;
    if (p !== server || async) later.push(s);
    else request.push(statementOf(s));
  }
  return { request, later };
}

/** Counts of each statement label, in order of first appearance: "START TRANSACTION x1, UPDATE decision.decisions x1, ...". */
/** Statements by label, in order of first appearance: how many, and (given each one's duration) their total ms. */
function tally(statements: readonly string[], ms?: readonly number[]): { label: string; n: number; ms?: number }[] {
  const counts = new Map<string, { label: string; n: number; ms?: number }>();
  statements.forEach((s, i) => {
    const label = statementLabel(s);
    const t = counts.get(label) ?? { label, n: 0, ...(ms ? { ms: 0 } : {}) };
    t.n++;
    if (ms) t.ms = round2(t.ms! + ms[i]);
    counts.set(label, t);
  });
  return [...counts.values()];
}
const tallyText = (t: { label: string; n: number; ms?: number }[]) =>
  t.map((x) => `${x.label}${x.n > 1 ? ` x${x.n}` : ''}${x.ms === undefined ? '' : ` ${Math.round(x.ms)} ms`}`).join(', ');

interface ReadStatements {
  /** Statements of each probe request. */
  counts: number[];
  /** Each request's one statement is the bare handler's text. */
  sameAsBare: boolean;
  labels: string[];
}

interface StatementProbe {
  reads: Record<string, ReadStatements>;
  jobPoll: number;
  bulkDelete: { total: number; decisionUpdates: number; statements: { label: string; n: number }[]; ms: number; deleteCount: number; later: number };
  bulkDuplicate: { request: number; job: number; perBatch: number; statements: { label: string; n: number; ms?: number }[]; endToEndMs: number; copies: number };
}

// ---------------------------------------------------------------------------------------------
// Main.
// ---------------------------------------------------------------------------------------------

/** The measured targets, in the order of each round. */
const MEASURED: { variant: Variant; size: Size }[] = [
  { variant: 'get', size: 'large' },
  ...LIST_VARIANTS.flatMap((variant) => [
    { variant, size: 'large' as Size },
    { variant, size: 'small' as Size },
  ]),
];

let otlp: OtlpReceiver | undefined;

async function main({ opts, env, db, svc: measured, service, startBare }: BenchContext<Options, BareConfig>): Promise<void> {
  let [decision, svc] = [service, measured];
  const tenants = {} as Record<Size, SeededTenant>;
  for (const size of ['small', 'large'] as const) {
    const started = Date.now();
    tenants[size] = await seedTenant(db, size);
    log(`${size} tenant: ${SIZES[size].toLocaleString('en')} decisions (and ${SIZES[size] / 100} deleted) with their children seeded in ${secondsSince(started)} s`);
  }
  const children = (
    await db.query<{ t: string; n: string }>(
      `SELECT 'decisions' AS t, count(*) AS n FROM decision.decisions UNION ALL SELECT 'groups', count(*) FROM decision.decision_groups
       UNION ALL SELECT 'authorities', count(*) FROM decision.decision_authorities UNION ALL SELECT 'documents', count(*) FROM decision.decision_documents`,
    )
  ).rows;
  log(`rows: ${children.map((r) => `${r.t} ${Number(r.n).toLocaleString('en')}`).join(', ')}`);
  // Vacuumed as tables in use would be (visibility map set for index-only scans), so autovacuum does not start mid-run.
  await db.query('VACUUM (ANALYZE)');
  // pgstatginindex, to see the search index's pending list (optional: contrib may be missing).
  await db.query('CREATE EXTENSION IF NOT EXISTS pgstattuple').catch(() => log('no pgstattuple: the GIN pending list is not reported'));

  const getId = await tenants.large.idOf(getTargetNumber());
  const bare = await startBare({ callers: { [tenants.small.tenantId]: tenants.small.callerUserId, [tenants.large.tenantId]: tenants.large.callerUserId } });

  const tokens = {} as Record<Size, Record<string, string>>;
  for (const size of ['small', 'large'] as const) tokens[size] = bearer(tenants[size].callerSub);
  const query = (variant: Variant, size: Size): string => {
    if (variant === 'list') return 'status=PUBLISHED&sortBy=name&limit=20';
    if (variant === 'search') return `search=${encodeURIComponent(opts.term)}&sortBy=name&limit=20`;
    return `sectionIds=${tenants[size].sectionId}&sortBy=decisionDisplayId&sortOrder=desc&limit=20`;
  };
  const pathOf = (variant: Variant, size: Size) => (variant === 'get' ? `/decisions/${getId}` : `/decisions?${query(variant, size)}`);
  const targetOf = (variant: Variant, size: Size, impl: Impl, base: string): Target<Key> => {
    const path = pathOf(variant, size);
    const key = { variant, size, impl };
    const label = `${variant} ${SIZE_LABEL[size]} ${impl}`;
    return impl === 'service'
      ? { key, label, url: `${base}/decision/v1${path}`, headers: tokens[size] }
      : { key, label, url: `${bare}/bare${path}${path.includes('?') ? '&' : '?'}tenantId=${tenants[size].tenantId}`, headers: {} };
  };
  const key = (variant: Variant, size: Size) => `${variant}/${size}`;
  const matches: Record<string, number> = {};
  for (const { variant, size } of MEASURED) {
    const what = `${variant} ${size}`;
    const body = (await checkSame(what, targetOf(variant, size, 'service', svc), targetOf(variant, size, 'bare', svc), variant === 'get' ? undefined : pageOf, REQUEST_TIMEOUT_MS)) as {
      total?: number;
      data?: unknown[];
    };
    if (variant !== 'get' && !body.data!.length) throw new Error(`${what}: the list answers no decisions (${targetOf(variant, size, 'service', svc).url})`);
    matches[key(variant, size)] = body.total ?? 1;
  }
  log(
    `service and bare answer the same data; matches at 1,000 / 100,000: ` +
      LIST_VARIANTS.map((v) => `${v} ${matches[key(v, 'small')]} / ${matches[key(v, 'large')]}`).join(', '),
  );

  const targets = MEASURED.flatMap((m) => (['service', 'bare'] as const).map((impl) => targetOf(m.variant, m.size, impl, svc)));
  const warmups = await warmUp(targets, opts);
  const runs = await measureRounds(targets, opts);

  const dtoOf = (v: ListVariant) => plainToInstance(SearchDecisionsDto, Object.fromEntries(new URLSearchParams(query(v, 'large'))));
  if (opts.explain) await explain(db, tenants.large.tenantId, getId, dtoOf);
  const searchStatement = listSql(decisionList(tenants.large.tenantId, dtoOf('search')));
  const searchBefore = await searchPlan(db, searchStatement);

  // Bulk changes, timed, on the service as measured (tracing off).
  const large = tenants.large.tenantId;
  log(`bulk duplicate of ${BULK} decisions (polling the job every ${JOB_POLL_MS} ms)`);
  const duplicate = await bulkDuplicate(db, svc, tokens.large, large, await idsWithResidue(db, large, BULK_SETS.duplicate));
  await outboxDrained(db);
  log(`bulk delete of ${BULK} decisions`);
  const deletion = await bulkDelete(db, svc, tokens.large, large, await idsWithResidue(db, large, BULK_SETS.delete));

  await outboxDrained(db);
  // Statements per request: the service again, traced.
  otlp = await startOtlpReceiver();
  log(`restarting decision with tracing on (spans to ${otlp.url}) to count statements per request`);
  await stopChild(decision, 10_000);
  ({ child: decision, base: svc } = await startService('decision (traced)', 'dist/apps/decision/src/main.js', {
    ...env,
    ...otlp.env,
    OTEL_TRACES_SAMPLER: 'parentbased_always_on',
    OTEL_SERVICE_NAME: SERVICE_NAME,
  }));
  const probe = await probeStatements(otlp, db, svc, tokens.large, large, (variant, size) => targetOf(variant, size, 'service', svc), (variant, size) => {
    if (variant === 'get') return decisionById(getId, tenants[size].tenantId);
    const q = plainToInstance(SearchDecisionsDto, Object.fromEntries(new URLSearchParams(query(variant, size))));
    return listSql(decisionList(tenants[size].tenantId, q));
  });
  // The search again after the bulk changes (2,000 copies inserted, 2,000 decisions deleted; autovacuum has not come by).
  await outboxDrained(db);
  const searchAfter = await searchPlan(db, searchStatement);

  const failures = report(opts, runs, matches, duplicate, deletion, probe, { before: searchBefore, after: searchAfter });
  failUnlessAll200([...warmups, ...runs], (r) => `${r.variant} ${SIZE_LABEL[r.size]} ${r.impl}#${r.round}`);
  if (failures.length) {
    log(`FAILED: ${failures.join('; ')}`);
    process.exitCode = 1;
  }
}

/**
 * Whether a traced statement is `expected`: its text, or the form a read takes when it sets the
 * connection's tenant in the same round trip (the settings, then the statement with its values
 * written in; Db.query).
 */
function sameStatement(traced: string, expected: Sql): boolean {
  const settings = /^SELECT set_config\('app\.tenant_id'[^;]*; /.exec(traced);
  if (!settings) return traced.trim() === expected.text.trim();
  return traced.slice(settings[0].length).trim() === withLiterals(expected, (t) => Client.prototype.escapeLiteral.call(null, t))?.trim();
}

async function probeStatements(
  receiver: OtlpReceiver,
  db: Client,
  svc: string,
  headers: Record<string, string>,
  tenantId: string,
  serviceTarget: (variant: Variant, size: Size) => Target<Key>,
  bareSql: (variant: Variant, size: Size) => Sql,
): Promise<StatementProbe> {
  const reads: Record<string, ReadStatements> = {};
  for (const m of MEASURED) {
    const t = serviceTarget(m.variant, m.size);
    const counts: number[] = [];
    let sameAsBare = true;
    const labels = new Set<string>();
    for (let n = 0; n < PROBE_REPEAT; n++) {
      const trace = newTrace();
      const res = await call('GET', t.url, { ...t.headers, traceparent: trace.header });
      if (res.status !== 200) throw new Error(`probe ${m.variant} ${m.size}: answered ${res.status}`);
      const { request } = await statementsOf(receiver, trace);
      counts.push(request.length);
      for (const s of request) labels.add(statementLabel(s));
      if (request.length !== 1 || !sameStatement(request[0], bareSql(m.variant, m.size))) sameAsBare = false;
    }
    reads[`${m.variant}/${m.size}`] = { counts, sameAsBare, labels: [...labels] };
  }

  // A bulk delete of other ids, traced.
  let trace = newTrace();
  const deletion = await bulkDelete(db, svc, headers, tenantId, await idsWithResidue(db, tenantId, BULK_SETS.probeDelete), trace.header);
  const deleted = await statementsOf(receiver, trace);
  await outboxDrained(db);

  // A bulk duplicate of other ids, traced: the request, then the job (its consumer span in the same trace).
  trace = newTrace();
  const duplicate = await bulkDuplicate(db, svc, headers, tenantId, await idsWithResidue(db, tenantId, BULK_SETS.probeDuplicate), trace.header);
  const jobSpan = await until(
    () => receiver.spans.find((s) => s.traceId === trace.traceId && s.service === SERVICE_NAME && s.kind === OTLP_KIND.consumer && s.name.includes('job.decision.bulk-duplicate')),
    'the bulk duplicate job span',
    SPAN_TIMEOUT_MS,
  );
  const duplicated = await statementsOf(receiver, trace);
  // The job's own statements: below its consumer span, not below a publish (producer) span of what it set off.
  const byId = new Map(receiver.spans.filter((x) => x.traceId === trace.traceId).map((x) => [x.spanId, x]));
  const inJob = (s: ReceivedSpan) => {
    for (let p = s.parentSpanId ? byId.get(s.parentSpanId) : undefined; p; p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined) {
      if (p === jobSpan) return true;
      if (p.kind === OTLP_KIND.producer || p.kind === OTLP_KIND.consumer) return false;
    }
    return false;
  };
  const jobSpans = duplicated.later.filter(inJob);
  const jobStatements = jobSpans.map(statementOf);

  // One job poll, traced.
  trace = newTrace();
  const poll = await call('GET', `${svc}/decision/v1/jobs/${duplicate.jobId}`, { ...headers, traceparent: trace.header });
  if (poll.status !== 200) throw new Error(`probe job poll: answered ${poll.status}`);
  const polled = await statementsOf(receiver, trace);

  return {
    reads,
    jobPoll: polled.request.length,
    bulkDelete: {
      total: deleted.request.length,
      decisionUpdates: deleted.request.filter((s) => /^\s*UPDATE decision\.decisions\b/i.test(s)).length,
      statements: tally(deleted.request),
      ms: deletion.ms,
      deleteCount: deletion.deleteCount,
      later: deleted.later.length,
    },
    bulkDuplicate: {
      request: duplicated.request.length,
      job: jobStatements.length,
      perBatch: round2(jobStatements.length / Math.ceil(BULK / 100)),
      statements: tally(jobStatements, jobSpans.map((x) => x.ms)),
      endToEndMs: duplicate.endToEndMs,
      copies: duplicate.copies,
    },
  };
}

/** The search statement's execution, best of 3 (EXPLAIN ANALYZE), whether its plan reads the whole table, and the search index's GIN pending list. */
interface SearchPlan {
  ms: number;
  seqScan: boolean;
  /** Pages waiting in the GIN pending list of decisions_search (null without pgstattuple). */
  ginPendingPages: number | null;
}

async function searchPlan(db: Client, statement: Sql): Promise<SearchPlan> {
  let ms = Infinity;
  let seqScan = false;
  for (let n = 0; n < 3; n++) {
    const lines = (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE) ${statement.text}`, statement.values as unknown[])).rows.map((r) => r['QUERY PLAN']);
    ms = Math.min(ms, Number(lines.find((l) => l.startsWith('Execution Time'))?.replace(/[^\d.]/g, '')));
    seqScan = lines.some((l) => /Seq Scan on decisions\b/.test(l));
  }
  const pending = await db
    .query<{ pending_pages: number }>(`SELECT pending_pages FROM pgstatginindex('decision.decisions_search')`)
    .then((r) => r.rows[0].pending_pages)
    .catch(() => null);
  return { ms: round2(ms), seqScan, ginPendingPages: pending };
}

/** EXPLAIN (ANALYZE, BUFFERS) of the read statements at 100,000 decisions, to stderr. */
async function explain(db: Client, tenantId: string, getId: string, queryOf: (v: ListVariant) => SearchDecisionsDto): Promise<void> {
  const show = async (title: string, text: string, values: unknown[]) => {
    const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
    process.stderr.write(`\n--- EXPLAIN ANALYZE: ${title}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
  };
  const get = decisionById(getId, tenantId);
  await show('get', get.text, get.values as unknown[]);
  for (const v of LIST_VARIANTS) {
    const statement: Sql = listSql(decisionList(tenantId, queryOf(v)));
    await show(`${v} (100,000 decisions)`, statement.text, statement.values as unknown[]);
  }
}

function report(
  opts: Options,
  runs: Run<Key>[],
  matches: Record<string, number>,
  duplicate: DuplicateResult,
  deletion: DeleteResult,
  probe: StatementProbe,
  search: { before: SearchPlan; after: SearchPlan },
): string[] {
  const top = (variant: Variant, size: Size, impl: Impl) => best(runs, { variant, size, impl });
  const bests = new Set(MEASURED.flatMap((m) => [top(m.variant, m.size, 'service'), top(m.variant, m.size, 'bare')]));
  const ratio = (variant: Variant, size: Size = 'large') => top(variant, size, 'service').rps / top(variant, size, 'bare').rps;
  const p95Ratio = (variant: ListVariant, impl: Impl = 'service') => top(variant, 'large', impl).p95 / top(variant, 'small', impl).p95;
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const atLeast = (r: number, target: number) => `target >= ${target}, ${met(r >= target)}`;
  const key = (variant: Variant, size: Size) => `${variant}/${size}`;
  const readsOk = Object.values(probe.reads).every((r) => r.counts.every((c) => c === 1) && r.sameAsBare);
  const failures: string[] = [];
  if (duplicate.status !== 'COMPLETED' || duplicate.copies !== BULK || duplicate.succeeded !== BULK)
    failures.push(`bulk duplicate: job ${duplicate.status}, ${duplicate.succeeded} succeeded, ${duplicate.copies} copies (expected ${BULK})`);
  if (probe.bulkDuplicate.copies !== BULK) failures.push(`traced bulk duplicate: ${probe.bulkDuplicate.copies} copies (expected ${BULK})`);
  if (deletion.deleteCount !== BULK || deletion.deleted !== BULK) failures.push(`bulk delete: answered ${deletion.deleteCount}, ${deletion.deleted} deleted (expected ${BULK})`);
  if (probe.bulkDelete.deleteCount !== BULK) failures.push(`traced bulk delete: answered ${probe.bulkDelete.deleteCount} (expected ${BULK})`);

  const lines = [
    `decision decisions: service (NestJS, token + caller caches warm, envelope) vs bare (Fastify + pg, same SQL) — ${runsNote(opts)} (*)`,
    `  get      GET /decision/v1/decisions/{id} (3 groups, 3 authorities, 2 documents)`,
    ...LIST_VARIANTS.map((v) => `  ${v.padEnd(8)} GET /decision/v1/decisions?${v === 'section' ? 'sectionIds={Finance}&sortBy=decisionDisplayId&sortOrder=desc&limit=20' : v === 'search' ? `search=${opts.term}&sortBy=name&limit=20` : 'status=PUBLISHED&sortBy=name&limit=20'} — matches ${matches[key(v, 'small')]} of 1,000 / ${matches[key(v, 'large')]} of 100,000`),
    '',
    ...runsTable(
      runs,
      [
        { title: 'target', width: 8, of: (r) => r.variant },
        { title: 'size', width: 5, of: (r) => SIZE_LABEL[r.size] },
        { title: 'impl', width: 7, of: (r) => r.impl },
      ],
      bests,
    ),
    '',
    `get-by-id: service/bare ${ratio('get').toFixed(2)} (${top('get', 'large', 'service').rps} / ${top('get', 'large', 'bare').rps} req/s; ${atLeast(ratio('get'), TARGETS.get)})`,
    ...LIST_VARIANTS.map(
      (v) =>
        `${`${v}:`.padEnd(10)} service/bare ${ratio(v).toFixed(2)} at 100,000 (${top(v, 'large', 'service').rps} / ${top(v, 'large', 'bare').rps} req/s; ${atLeast(ratio(v), TARGETS.list)}), ` +
        `${ratio(v, 'small').toFixed(2)} at 1,000`,
    ),
    ...LIST_VARIANTS.map(
      (v) =>
        `${`${v} p95:`.padEnd(14)} service ${top(v, 'small', 'service').p95.toFixed(2)} ms at 1,000, ${top(v, 'large', 'service').p95.toFixed(2)} ms at 100,000: ` +
        `ratio ${p95Ratio(v).toFixed(2)} (target <= ${TARGETS.p95Ratio}, ${met(p95Ratio(v) <= TARGETS.p95Ratio)}); bare ${top(v, 'small', 'bare').p95.toFixed(2)} / ${top(v, 'large', 'bare').p95.toFixed(2)} ms, ratio ${p95Ratio(v, 'bare').toFixed(2)}`,
    ),
    '',
    `statements per request (the traced decision service, ${PROBE_REPEAT} requests each; target: 1, the bare handler's text): ${met(readsOk)}`,
    ...MEASURED.map((m) => {
      const r = probe.reads[key(m.variant, m.size)];
      return `  ${m.variant.padEnd(8)} ${SIZE_LABEL[m.size].padEnd(5)} ${r.counts.join(', ')} (${r.labels.join(', ') || 'none'}); the bare handler's statement: ${r.sameAsBare ? 'yes' : 'NO'}`;
    }),
    `  job poll GET /decision/v1/jobs/{id}: ${probe.jobPoll}`,
    '',
    `bulk duplicate of ${BULK}: ${Math.round(duplicate.endToEndMs)} ms from the PATCH to COMPLETED seen (accepted in ${Math.round(duplicate.acceptMs)} ms, the job's own createdAt -> finishedAt ${duplicate.jobMs} ms of which ${duplicate.queuedMs} ms before it started, ` +
      `${duplicate.polls} polls); target <= ${TARGETS.duplicateMs} ms, ${met(duplicate.endToEndMs <= TARGETS.duplicateMs)}; job ${duplicate.status}, ${duplicate.copies} copies in the database`,
    `  traced run (other sources): ${Math.round(probe.bulkDuplicate.endToEndMs)} ms, ${probe.bulkDuplicate.copies} copies; ${probe.bulkDuplicate.request} statements in the request, ` +
      `${probe.bulkDuplicate.job} in the job (${probe.bulkDuplicate.perBatch} per batch of 100): ${tallyText(probe.bulkDuplicate.statements)}`,
    `bulk delete of ${BULK}: ${Math.round(deletion.ms)} ms (deleteCount ${deletion.deleteCount}, ${deletion.deleted} deleted in the database)`,
    `  statements of the request (traced run, other ids, ${Math.round(probe.bulkDelete.ms)} ms): ${probe.bulkDelete.total} — ${tallyText(probe.bulkDelete.statements)}; ` +
      `the decisions UPDATE: ${probe.bulkDelete.decisionUpdates} statement (${met(probe.bulkDelete.decisionUpdates === 1)}); ${probe.bulkDelete.later} more by the outbox relay afterwards`,
    '',
    `search statement at 100,000 (EXPLAIN ANALYZE, best of 3): ${search.before.ms.toFixed(2)} ms after VACUUM (${search.before.seqScan ? 'a Seq Scan on decisions' : 'no Seq Scan'}` +
      `${search.before.ginPendingPages === null ? '' : `, GIN pending list ${search.before.ginPendingPages} pages`}), ${search.after.ms.toFixed(2)} ms after the bulk changes (${2 * BULK} copies, ${2 * BULK} deleted) ` +
      `(${search.after.seqScan ? 'a Seq Scan on decisions' : 'no Seq Scan'}${search.after.ginPendingPages === null ? '' : `, GIN pending list ${search.after.ginPendingPages} pages`})`,
  ];
  const pair = (variant: Variant, size: Size) => versus(runs, { variant, size }).pair;
  printReport(lines, {
    bench: 'decisions',
    connections: opts.connections,
    durationSec: opts.duration,
    decisions: SIZES,
    get: { path: '/decision/v1/decisions/{id}', ...pair('get', 'large'), ratio: round2(ratio('get')), target: TARGETS.get, met: ratio('get') >= TARGETS.get },
    lists: Object.fromEntries(
      LIST_VARIANTS.map((v) => [
        v,
        {
          matches: { small: matches[key(v, 'small')], large: matches[key(v, 'large')] },
          large: pair(v, 'large'),
          small: pair(v, 'small'),
          ratio: round2(ratio(v)),
          ratioSmall: round2(ratio(v, 'small')),
          target: TARGETS.list,
          met: ratio(v) >= TARGETS.list,
          p95Ratio: round2(p95Ratio(v)),
          p95RatioBare: round2(p95Ratio(v, 'bare')),
          p95Target: TARGETS.p95Ratio,
          p95Met: p95Ratio(v) <= TARGETS.p95Ratio,
        },
      ]),
    ),
    statements: { reads: probe.reads, readsOneStatement: readsOk, jobPoll: probe.jobPoll, bulkDelete: probe.bulkDelete, bulkDuplicate: probe.bulkDuplicate },
    bulkDuplicate: { ...duplicate, endToEndMs: Math.round(duplicate.endToEndMs), acceptMs: Math.round(duplicate.acceptMs), target: TARGETS.duplicateMs, met: duplicate.endToEndMs <= TARGETS.duplicateMs },
    bulkDelete: { ...deletion, ms: Math.round(deletion.ms) },
    searchPlan: search,
    runs,
  });
  return failures;
}

serviceBench<Options, BareConfig>({
  name: 'decisions',
  service: 'decision',
  usage: 'npm run bench -- decisions [--duration <s>] [--connections <n>] [--warmup <s>] [--term <search>] [--keep] [--explain]',
  defaults: { term: 'supplier', explain: false },
  options: { flags: ['explain'], texts: { term: [3, 100] } },
  appUrl: APP_URL,
  bare: { routes: bareRoutes },
  main,
  after: async () => otlp?.close(),
});
