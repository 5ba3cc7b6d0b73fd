/**
 * npm run bench -- authority [--duration 10] [--connections 16] [--warmup 3] [--size 1000000] [--keep] [--reuse]
 *
 * What the authority check costs at size, against the statement it runs. In a scratch database
 * (ddm_bench_authority, dropped at the end unless --keep; --reuse measures again on the kept one) one tenant gets --size delegations (default
 * 1,000,000), set-based: chains of eight (a root and seven redelegations, depth 8) over 1,000
 * decisions and 10,000 people, each person holding one position; the last link of a chain goes to
 * its person (SPECIFIC_PERSONNEL), to the person in their position (PERSONNEL_IN_POSITION) or to the
 * position (POSITION_ONLY), in turn; one chain in ten has a suspended link. Each delegation has two
 * revisions, made by the service's own view (DELEGATION_VIEW): one from two years ago until six months
 * ago, the current one since. The built auth and decision services run as child processes (NATS
 * namespace "benchauthority"); a BARE handler, plain Fastify + a pg pool of 10 with no auth, no
 * validation and no envelope, runs in a worker thread and serves the very same statements for one
 * check, answering their rows: the chains (CHECKS_AT_SQL) and their links' snapshots (LINKS_SQL,
 * which the service reads only for revisions it has not read before).
 *
 * Measured in one run, alternating, twice, the better run of each counting:
 *   check       POST /decision/v1/authority/check at depth 8, now             (target: service/bare >= 0.7)
 *   check-a-year-ago  the same check as of a year ago (the older revisions)   (target: its p95 <= 1.2 × now's)
 * Then one request at a time (latency, not throughput):
 *   check at depth 8 over 500 different people (a third of each recipient type) (target p95 <= 5 ms, p99 <= 20 ms)
 *   check-batch of 1,000 different checks, 20 times                            (target p95 <= 150 ms)
 *   holders of a decision held by all 10,000 people (a root and a redelegation to each), the first page
 *   of 20, 50 times                                                            (target p95 <= 50 ms)
 *
 * Prints a table, the ratios, the p95s, whether each target is met, and one JSON line. A missed target
 * is reported, not an error (a loaded machine misses them). Exits 1 if a response was not a 200, an
 * answer was not the one the seed implies, or the service and the bare handler disagree on the chain.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Client, Pool } from 'pg';
import { SESSION_OPTIONS } from '@ddm/platform';
import { CHECKS_AT_SQL, LINKS_SQL } from '../../apps/decision/src/authority/authority.sql';
import { DELEGATION_VIEW, VIEW_JOINS } from '../../apps/decision/src/core/delegation.sql';
import { measureTrailCost, TRAIL_TARGET, TrailCost, trailLines } from './trail-cost';
import { BenchContext, bearer, call, failUnlessAll200, Impl, log, measureRounds, pct, printReport, round2, Run, secondsSince, seedCaller, seedTenantWithRoles, serviceAndBare, serviceBench, ServiceBenchOptions, summary, versus, versusTable, warmUp } from './lib';

const TARGETS = { check: 0.7, checkP95Ms: 5, checkP99Ms: 20, batchP95Ms: 150, holdersP95Ms: 50, yearAgoOverNow: 1.2 } as const;
const USERS = 10_000;
const DECISIONS = 1_000;
const DEPTH = 8;
const LATENCY = { checks: 500, batches: 20, batchSize: 1000, holderPages: 50, holdersPageSize: 20 } as const;
/** The decision with a holder in each person: a root to person 0 and a redelegation to every person (display id 10000 + DECISIONS). */
const HOLDERS_DECISION = `'decision' || ${DECISIONS}`;
const CALLER_EMAIL = 'admin@authority.bench.test';
/** A made-up id from a text, shaped as a version-4 UUID (as validation wants). */
const uuidOf = (text: string) => `overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid`;

type Variant = 'check' | 'yearAgo';
const VARIANTS: Variant[] = ['check', 'yearAgo'];
interface Options extends ServiceBenchOptions {
  size: number;
  /** Only the audit trail's cost on a bulk write (trail-cost.ts), no seed. */
  trail: boolean;
}
/** The bulk write whose trail cost is measured. */
const TRAIL_ROWS = 100_000;
interface BareConfig {
  tenantId: string;
}
interface Ask {
  decisionId: string;
  userId: string;
  at?: string;
}

// ---------------------------------------------------------------------------------------------
// The bare handler: the service's statement for one check, its rows as they come.
// ---------------------------------------------------------------------------------------------

function bareRoutes(app: FastifyInstance, pool: Pool, { tenantId }: BareConfig): void {
  app.post<{ Body: Ask }>('/bare/check', async (req) => {
    const at = req.body.at ?? new Date().toISOString();
    const { rows } = await pool.query<{ revision: string | null }>(CHECKS_AT_SQL, [tenantId, [req.body.decisionId], [at], [req.body.userId], [null]]);
    const links = await pool.query(LINKS_SQL, [tenantId, rows.flatMap((r) => (r.revision ? [r.revision] : []))]);
    return { rows, links: links.rows };
  });
}

// ---------------------------------------------------------------------------------------------
// Seed (set-based SQL).
// ---------------------------------------------------------------------------------------------

interface Seeded {
  tenantId: string;
  callerSub: string;
  /** Checks whose chain is whole (no suspended link): the holder at depth 8, its decision, the type. */
  held: { ask: Ask; recipientType: string }[];
  /** The decision every one of the 10,000 people holds (one redelegation each). */
  holdersDecisionId: string;
  /** How long the seed took (null: an earlier run's seed, reused). */
  seconds: number | null;
}

async function seed(db: Client, size: number): Promise<Seeded> {
  const { tenantId, roleIds } = await seedTenantWithRoles(db, 'Bench authority');
  const caller = await seedCaller(db, tenantId, roleIds.SYSTEM_ADMIN, CALLER_EMAIL);
  const typeId = randomUUID();
  await db.query(`INSERT INTO decision.authority_type_projection (id, tenant_id, authority_type, authority_type_icon, authority_type_order, status, version) VALUES ($1, $2, 'Approval', 'check', 1, 'ACTIVE', 1)`, [
    typeId,
    tenantId,
  ]);
  const started = Date.now();
  // People and their positions (person n holds position n since three years ago).
  await db.query(
    `INSERT INTO decision.user_projection (tenant_id, id, email, name, display_name, status, version)
     SELECT $1::uuid, ${uuidOf(`'user' || n`)}, 'user' || n || '@authority.bench.test', 'Person ' || n, 'Person ' || n, 'ACTIVE', 1 FROM generate_series(0, $2::int - 1) n`,
    [tenantId, USERS],
  );
  await db.query(
    `INSERT INTO decision.position_projection (id, tenant_id, position_name, status, version) SELECT ${uuidOf(`'position' || n`)}, $1::uuid, 'Position ' || n, 'ACTIVE', 1 FROM generate_series(0, $2::int - 1) n`,
    [tenantId, USERS],
  );
  await db.query(
    `INSERT INTO decision.position_holding_history (tenant_id, user_id, position_id, valid_from) SELECT $1::uuid, ${uuidOf(`'user' || n`)}, ${uuidOf(`'position' || n`)}, now() - interval '3 years' FROM generate_series(0, $2::int - 1) n`,
    [tenantId, USERS],
  );
  // Decisions, published three years ago, a limit of 100,000,000 USD; the last one (no chains) is the holders' decision.
  await db.query(
    `INSERT INTO decision.decisions (id, tenant_id, decision_display_id, name, description, status, delegable, delegation_pathway, version, created_by, updated_by, created_on, updated_on)
     SELECT ${uuidOf(`'decision' || i`)}, $1::uuid, (10000 + i)::text, 'Approve spending ' || i, '', 'PUBLISHED', true, ARRAY['Matrix'], 1, $2::uuid, $2::uuid, now() - interval '3 years', now() - interval '3 years'
       FROM generate_series(0, $3::int) AS i`,
    [tenantId, caller.userId, DECISIONS],
  );
  await db.query(
    `INSERT INTO decision.decision_authorities (id, tenant_id, decision_id, authority_type_id, authority_type_order, authority_limit, value_type, operator, value_text, value_number, unit, position)
     SELECT gen_random_uuid(), $1::uuid, d.id, $2::uuid, 1, 'Primary', 'Currency', '<=', '100000000', 100000000, 'USD', 1 FROM decision.decisions d WHERE d.tenant_id = $1`,
    [tenantId, typeId],
  );
  await db.query(
    `INSERT INTO decision.decision_revisions (id, tenant_id, decision_id, revision_date, revised_by, change, snapshot)
     SELECT gen_random_uuid(), d.tenant_id, d.id, d.updated_on, $2::uuid, 'created',
            jsonb_build_object('id', d.id, 'decisionDisplayId', d.decision_display_id, 'name', d.name, 'status', d.status, 'isDeleted', false,
                               'decisionAuthorities', jsonb_build_array(jsonb_build_object('authorityTypeId', $3::uuid, 'authorityLimitValueType', 'Currency', 'authorityLimitValue', '100000000')))
       FROM decision.decisions d WHERE d.tenant_id = $1`,
    [tenantId, caller.userId, typeId],
  );
  // Delegations: delegation i is link j = i % 8 of chain k = i / 8 (decision k % 1,000), its parent i - 1; link j's
  // recipient is person hash(i) % 10,000 (the last link by the chain's recipient type), its limit 10,000,000 - j × 1,000,000.
  const n = (expr: string) => `(abs(hashtext('p' || (${expr}))) % ${USERS})`;
  const person = (expr: string) => `${uuidOf(`'user' || ${n(expr)}`)}`;
  await db.query(
    `INSERT INTO decision.delegations (id, tenant_id, delegation_display_id, decision_id, parent_delegation_id, depth, issuer_type, issuer_user_id, recipient_type, recipient_user_id,
                                       recipient_position_id, status, effective_date, is_no_expiration, issued_date, delegation_pathway, delegation_authorities, created_on, created_by, updated_on, updated_by)
     SELECT ${uuidOf(`'delegation' || x.i`)}, $1::uuid, (100000 + x.i)::text, ${uuidOf(`'decision' || (x.k % $3::int)`)},
            CASE WHEN x.j > 0 THEN ${uuidOf(`'delegation' || (x.i - 1)`)} END, x.j,
            CASE WHEN x.j = 0 THEN 'ROOT_AUTHORITY' ELSE 'SPECIFIC_PERSONNEL' END, CASE WHEN x.j = 0 THEN $2::uuid ELSE ${person('x.i - 1')} END,
            x.type, CASE WHEN x.type = 'POSITION_ONLY' THEN NULL ELSE ${person('x.i')} END,
            CASE WHEN x.type = 'SPECIFIC_PERSONNEL' THEN NULL ELSE ${uuidOf(`'position' || ${n('x.i')}`)} END,
            CASE WHEN x.k % 10 = 9 AND x.j = 3 THEN 'SUSPENDED' ELSE 'ISSUED' END, now() - interval '2 years', true, now() - interval '2 years', ARRAY['Matrix'],
            jsonb_build_array(jsonb_build_object('authorityTypeId', $4::uuid, 'authorityTypeOrder', 1, 'authorityLimit', 'Primary', 'authorityLimitValueType', 'Currency',
              'authorityLimitOperator', '<=', 'authorityLimitValue', (10000000 - x.j * 1000000)::text, 'authorityLimitValueUnit', 'USD', 'redelegable', x.j < ${DEPTH - 1},
              'redelegationLimitValue', NULL, 'redelegationLimitValueUnit', NULL, 'isLimitOverridden', false)),
            now() - interval '2 years', $2::uuid, now() - interval '6 months', $2::uuid
       FROM (SELECT i, i / ${DEPTH} AS k, i % ${DEPTH} AS j,
                    CASE WHEN i % ${DEPTH} < ${DEPTH - 1} THEN 'SPECIFIC_PERSONNEL' ELSE (ARRAY['SPECIFIC_PERSONNEL', 'PERSONNEL_IN_POSITION', 'POSITION_ONLY'])[1 + (i / ${DEPTH}) % 3] END AS type
               FROM generate_series(0, $5::int - 1) AS i) x`,
    [tenantId, caller.userId, DECISIONS, typeId, size],
  );
  // The holders' decision: a root to person 0, redelegable, and from them a redelegation to each of the 10,000 people
  // (person n's limit 1,000 × (1 + n % 1,000) USD, so the order by limit is a real sort).
  await db.query(
    `INSERT INTO decision.delegations (id, tenant_id, delegation_display_id, decision_id, parent_delegation_id, depth, issuer_type, issuer_user_id, recipient_type, recipient_user_id,
                                       status, effective_date, is_no_expiration, issued_date, delegation_pathway, delegation_authorities, created_on, created_by, updated_on, updated_by)
     SELECT ${uuidOf(`'holding' || n`)}, $1::uuid, ($3::int + 100001 + n)::text, ${uuidOf(HOLDERS_DECISION)},
            CASE WHEN n >= 0 THEN ${uuidOf(`'holding' || -1`)} END, CASE WHEN n >= 0 THEN 1 ELSE 0 END,
            CASE WHEN n >= 0 THEN 'SPECIFIC_PERSONNEL' ELSE 'ROOT_AUTHORITY' END, CASE WHEN n >= 0 THEN ${uuidOf(`'user' || 0`)} ELSE $2::uuid END,
            'SPECIFIC_PERSONNEL', ${uuidOf(`'user' || greatest(n, 0)`)}, 'ISSUED', now() - interval '2 years', true, now() - interval '2 years', ARRAY['Matrix'],
            jsonb_build_array(jsonb_build_object('authorityTypeId', $4::uuid, 'authorityTypeOrder', 1, 'authorityLimit', 'Primary', 'authorityLimitValueType', 'Currency',
              'authorityLimitOperator', '<=', 'authorityLimitValue', (CASE WHEN n >= 0 THEN 1000 * (1 + n % 1000) ELSE 10000000 END)::text, 'authorityLimitValueUnit', 'USD',
              'redelegable', n < 0, 'redelegationLimitValue', NULL, 'redelegationLimitValueUnit', NULL, 'isLimitOverridden', false)),
            now() - interval '2 years', $2::uuid, now() - interval '6 months', $2::uuid
       FROM generate_series(-1, $5::int - 1) AS n`,
    [tenantId, caller.userId, size, typeId, USERS],
  );
  log(`${size.toLocaleString('en')} delegations and ${(USERS + 1).toLocaleString('en')} of the holders' decision seeded in ${secondsSince(started)} s`);
  // Two revisions each, by the service's own view: the first from two years ago until six months ago, the current one since.
  await db.query(
    `INSERT INTO decision.delegation_revisions (id, tenant_id, delegation_id, revision_id, revision_date, valid_to, revised_by, change, snapshot)
     SELECT gen_random_uuid(), g.tenant_id, g.id, 2, now() - interval '6 months', NULL, $2::uuid, 'updated', ${DELEGATION_VIEW} || '{"conditions": [], "roles": []}'::jsonb
       FROM decision.delegations g ${VIEW_JOINS} WHERE g.tenant_id = $1`,
    [tenantId, caller.userId],
  );
  await db.query(
    `INSERT INTO decision.delegation_revisions (id, tenant_id, delegation_id, revision_id, revision_date, valid_to, revised_by, change, snapshot)
     SELECT gen_random_uuid(), r.tenant_id, r.delegation_id, 1, now() - interval '2 years', r.revision_date, r.revised_by, 'created', r.snapshot
       FROM decision.delegation_revisions r WHERE r.tenant_id = $1 AND r.revision_id = 2`,
    [tenantId],
  );
  await db.query(`INSERT INTO decision.display_id_counters (tenant_id, kind, last_value) VALUES ($1, 'delegation', $2)`, [tenantId, 100000 + size + USERS + 1]);
  log(`${(2 * size).toLocaleString('en')} revisions written in ${secondsSince(started)} s from the start`);

  const seconds = Number(secondsSince(started));
  await db.query('VACUUM (ANALYZE)');
  return { ...(await readSeed(db)), seconds };
}

/** What the measures need of the seed, read back (from a seed just made, or one a run kept: --reuse). */
async function readSeed(db: Client): Promise<Seeded> {
  const [caller] = (await db.query<{ sub: string; tenant_id: string }>(`SELECT idp_user_id AS sub, active_tenant_id AS tenant_id FROM auth.users WHERE email = $1`, [CALLER_EMAIL])).rows;
  if (!caller) throw new Error('the database holds no authority seed');
  const tenantId = caller.tenant_id;
  // Holders of whole chains (k % 10 != 9) at depth 8 who hold nothing else of that decision (so the answer is that chain): their
  // person (the position's holder for POSITION_ONLY) and decision, the recipient types in turn.
  const { rows } = await db.query<{ decision_id: string; user_id: string; recipient_type: string }>(
    `WITH mine AS (
       SELECT g.id, g.decision_id, g.recipient_type, g.depth, g.delegation_display_id, coalesce(g.recipient_user_id, h.user_id) AS user_id
         FROM decision.delegations g
         LEFT JOIN decision.position_holding_history h ON g.recipient_type = 'POSITION_ONLY' AND h.tenant_id = g.tenant_id AND h.position_id = g.recipient_position_id
        WHERE g.tenant_id = $1),
     once AS (SELECT decision_id, user_id FROM mine GROUP BY 1, 2 HAVING count(*) = 1),
     picked AS (
       SELECT m.decision_id, m.user_id, m.recipient_type, row_number() OVER (PARTITION BY m.recipient_type ORDER BY m.delegation_display_id) AS r
         FROM mine m JOIN once o USING (decision_id, user_id)
        WHERE m.depth = ${DEPTH - 1} AND (m.delegation_display_id::bigint - 100000) / ${DEPTH} % 10 <> 9)
     SELECT decision_id, user_id, recipient_type FROM picked WHERE r <= $2 ORDER BY r, recipient_type`,
    [tenantId, Math.ceil(Math.max(LATENCY.checks, LATENCY.batchSize) / 3)],
  );
  const held = rows.map((r) => ({ ask: { decisionId: r.decision_id, userId: r.user_id }, recipientType: r.recipient_type }));
  log(`${held.length.toLocaleString('en')} holders of whole chains picked`);
  const [{ id: holdersDecisionId }] = (await db.query<{ id: string }>(`SELECT ${uuidOf(HOLDERS_DECISION)} AS id`)).rows;
  return { tenantId, callerSub: caller.sub, held, holdersDecisionId, seconds: null };
}

// ---------------------------------------------------------------------------------------------
// Checks.
// ---------------------------------------------------------------------------------------------

interface CheckAnswer {
  allowed: boolean;
  chain: { delegationId: string }[];
  heldVia: string | null;
  limit: { value: string } | null;
}

/** The answer the seed implies for a whole chain: allowed, eight links, held via the chain's type, the holder's limit 3,000,000. */
function wrongAnswer(answer: CheckAnswer, recipientType: string): string | null {
  if (!answer.allowed || answer.chain.length !== DEPTH || answer.heldVia !== recipientType || answer.limit?.value !== String(10_000_000 - (DEPTH - 1) * 1_000_000)) {
    return `unexpected answer for a ${recipientType} chain: ${JSON.stringify(answer).slice(0, 300)}`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Main.
// ---------------------------------------------------------------------------------------------

async function main({ opts, db, svc, startBare, reused }: BenchContext<Options, BareConfig>): Promise<void> {
  log(`the audit trail's cost on a bulk insert and update of ${TRAIL_ROWS.toLocaleString('en')} delegations`);
  const trail = await measureTrailCost(db, TRAIL_ROWS);
  if (opts.trail) {
    const missed = [trail.insert, trail.update].some((t) => t.ratio > TRAIL_TARGET);
    printReport(['', ...trailLines(trail)], { bench: 'authority', trail, met: !missed });
    if (missed) log(`targets missed: the trail costs more than ${TRAIL_TARGET}x`);
    return;
  }
  const s = reused ? await readSeed(db) : await seed(db, opts.size);
  const bare = await startBare({ tenantId: s.tenantId });
  const headers = bearer(s.callerSub);
  const CHECK = `${svc}/decision/v1/authority/check`;
  const value = { value: '2500000', unit: 'USD' };
  const yearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString();

  // Service and bare must agree on the chain (the bare's rows of the holder, root first), now and a year ago.
  const probe = s.held[0];
  const bad: string[] = [];
  for (const at of [undefined, yearAgo]) {
    const sv = await call('POST', CHECK, headers, { ...probe.ask, ...value, ...(at ? { at } : {}) });
    const bv = await call('POST', `${bare}/bare/check`, {}, { ...probe.ask, ...(at ? { at } : {}) });
    if (sv.status !== 200 || bv.status !== 200) throw new Error(`check: the service answered ${sv.status} ${JSON.stringify(sv.body).slice(0, 300)}, the bare handler ${bv.status}`);
    const answer = sv.body.data as CheckAnswer;
    const wrong = wrongAnswer(answer, probe.recipientType);
    if (wrong) bad.push(wrong);
    const bareChain = (bv.body.rows as { delegation_id: string | null; up: number }[])
      .filter((r) => r.delegation_id)
      .sort((x, y) => y.up - x.up)
      .map((r) => r.delegation_id!);
    if (bareChain.join() !== answer.chain.map((l) => l.delegationId).join()) bad.push(`service and bare disagree on the chain: ${answer.chain.map((l) => l.delegationId).join()} vs ${bareChain.join()}`);
  }
  log('service and bare agree on the depth-8 chain, now and a year ago');

  const targets = serviceAndBare(VARIANTS, (variant) => {
    const at = variant === 'yearAgo' ? { at: yearAgo } : {};
    return {
      service: { url: CHECK, headers, request: { method: 'POST', body: { ...probe.ask, ...value, ...at } } },
      bare: { url: `${bare}/bare/check`, headers: {}, request: { method: 'POST', body: { ...probe.ask, ...at } } },
    };
  });
  const warmups = await warmUp(targets, opts);
  const runs = await measureRounds(targets, opts);

  // One at a time: 500 different holders (each recipient type in turn), now.
  log(`${LATENCY.checks} checks at depth 8 one at a time`);
  const single: number[] = [];
  for (let k = 0; k < LATENCY.checks; k++) {
    const h = s.held[k % s.held.length];
    const r = await call('POST', CHECK, headers, { ...h.ask, ...value });
    single.push(r.ms);
    const wrong = r.status === 200 ? wrongAnswer(r.body.data as CheckAnswer, h.recipientType) : `${r.status}: ${JSON.stringify(r.body).slice(0, 200)}`;
    if (wrong) bad.push(wrong);
  }
  log(`${LATENCY.batches} check-batch requests of ${LATENCY.batchSize} different checks one at a time`);
  const batch: number[] = [];
  const checks = Array.from({ length: LATENCY.batchSize }, (_, k) => ({ ...s.held[k % s.held.length].ask, ...value }));
  for (let b = 0; b < LATENCY.batches; b++) {
    const r = await call('POST', `${svc}/decision/v1/authority/check-batch`, headers, { checks });
    batch.push(r.ms);
    if (r.status !== 200) bad.push(`check-batch ${r.status}: ${JSON.stringify(r.body).slice(0, 200)}`);
    else {
      const results = (r.body.data as { results: CheckAnswer[] }).results;
      const wrong = results.map((x, k) => wrongAnswer(x, s.held[k % s.held.length].recipientType)).find((w) => w !== null);
      if (results.length !== LATENCY.batchSize || wrong) bad.push(wrong ?? `check-batch answered ${results.length} results`);
    }
  }

  log(`${LATENCY.holderPages} first pages of the holders of a decision with ${USERS.toLocaleString('en')} holders, one at a time`);
  const holders: number[] = [];
  for (let k = 0; k < LATENCY.holderPages; k++) {
    const r = await call('GET', `${svc}/decision/v1/authority/holders?decisionId=${s.holdersDecisionId}&limit=${LATENCY.holdersPageSize}`, headers);
    holders.push(r.ms);
    const page = r.body?.data as { total: number; data: { authorities: { limit: { value: string } | null }[] }[] } | undefined;
    // Person 0 holds the root (10,000,000); then the people of the highest redelegation limit (1,000,000).
    const limits = page?.data.map((h) => h.authorities[0]?.limit?.value);
    if (r.status !== 200 || page!.total !== USERS || limits![0] !== '10000000' || limits![1] !== '1000000' || page!.data.length !== LATENCY.holdersPageSize) {
      bad.push(`holders: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    }
  }

  const failures = report(opts, runs, single.sort((a, b) => a - b), batch.sort((a, b) => a - b), holders.sort((a, b) => a - b), s.seconds, trail);
  failUnlessAll200([...warmups, ...runs], (r) => `${r.kind} ${r.impl}#${r.round}`);
  if (bad.length) {
    log(`FAILED: ${bad.slice(0, 5).join('; ')}`);
    process.exitCode = 1;
  }
  if (failures.length) log(`targets missed: ${failures.join('; ')}`);
}

function report(opts: Options, runs: Run<{ kind: Variant; impl: Impl }>[], single: number[], batch: number[], holders: number[], seedSeconds: number | null, trail: TrailCost): string[] {
  const [check, yearAgo] = VARIANTS.map((kind) => versus(runs, { kind }));
  const ratio = { check: round2(check.ratio), yearAgo: round2(yearAgo.ratio) };
  const yearOverNow = round2(yearAgo.service.p95 / check.service.p95);
  const failures: string[] = [];
  if (ratio.check < TARGETS.check) failures.push(`check ratio ${ratio.check} < ${TARGETS.check}`);
  if (yearOverNow > TARGETS.yearAgoOverNow) failures.push(`a year ago / now ${yearOverNow} > ${TARGETS.yearAgoOverNow}`);
  if (pct(single, 95) > TARGETS.checkP95Ms) failures.push(`check p95 ${pct(single, 95)} ms > ${TARGETS.checkP95Ms} ms`);
  if (pct(single, 99) > TARGETS.checkP99Ms) failures.push(`check p99 ${pct(single, 99)} ms > ${TARGETS.checkP99Ms} ms`);
  if (pct(holders, 95) > TARGETS.holdersP95Ms) failures.push(`holders first page p95 ${pct(holders, 95)} ms > ${TARGETS.holdersP95Ms} ms`);
  if (pct(batch, 95) > TARGETS.batchP95Ms) failures.push(`check-batch p95 ${pct(batch, 95)} ms > ${TARGETS.batchP95Ms} ms`);
  for (const kind of ['insert', 'update'] as const) if (trail[kind].ratio > TRAIL_TARGET) failures.push(`trail on/off ${kind} ${trail[kind].ratio} > ${TRAIL_TARGET}`);
  printReport(
    [
      '',
      `authority: ${opts.size.toLocaleString('en')} delegations in chains of ${DEPTH}; ${opts.connections} connections, ${opts.duration} s per run, better of two`,
      ...versusTable(10, [
        { name: 'check', ...check, ratio: ratio.check, target: `>=${TARGETS.check}` },
        { name: 'yearAgo', ...yearAgo, ratio: ratio.yearAgo, target: '' },
      ]),
      `a year ago / now (service p95 under load): ${yearOverNow} (target <= ${TARGETS.yearAgoOverNow})`,
      `check one at a time (500 holders, depth 8): p50 ${pct(single, 50)} ms, p95 ${pct(single, 95)} ms (target <= ${TARGETS.checkP95Ms}), p99 ${pct(single, 99)} ms (target <= ${TARGETS.checkP99Ms}), max ${pct(single, 100)} ms`,
      `check-batch of ${LATENCY.batchSize}: p50 ${pct(batch, 50)} ms, p95 ${pct(batch, 95)} ms (target <= ${TARGETS.batchP95Ms}), max ${pct(batch, 100)} ms`,
      `holders of a decision with ${USERS.toLocaleString('en')} holders, first page of ${LATENCY.holdersPageSize}: p50 ${pct(holders, 50)} ms, p95 ${pct(holders, 95)} ms (target <= ${TARGETS.holdersP95Ms}), max ${pct(holders, 100)} ms`,
      seedSeconds === null ? 'seed: reused' : `seed: ${opts.size.toLocaleString('en')} delegations and their revisions in ${seedSeconds} s (trail on)`,
      ...trailLines(trail),
    ],
    {
      bench: 'authority',
      size: opts.size,
      check: { ratio: ratio.check, target: TARGETS.check, service: summary(check.service), bare: summary(check.bare) },
      yearAgo: { ratio: ratio.yearAgo, overNow: yearOverNow, target: TARGETS.yearAgoOverNow, service: summary(yearAgo.service), bare: summary(yearAgo.bare) },
      single: { p50: pct(single, 50), p95: pct(single, 95), p99: pct(single, 99), max: pct(single, 100), target: TARGETS.checkP95Ms, targetP99: TARGETS.checkP99Ms },
      batch: { p50: pct(batch, 50), p95: pct(batch, 95), max: pct(batch, 100), target: TARGETS.batchP95Ms },
      holders: { p50: pct(holders, 50), p95: pct(holders, 95), max: pct(holders, 100), target: TARGETS.holdersP95Ms },
      seedSeconds,
      trail,
      met: failures.length === 0,
    },
  );
  return failures;
}

serviceBench<Options, BareConfig>({
  name: 'authority',
  service: 'decision',
  usage: 'npm run bench -- authority [--duration <s>] [--connections <n>] [--warmup <s>] [--size <n>] [--keep] [--reuse] [--trail]',
  defaults: { size: 1_000_000, trail: false },
  options: { counts: { size: [80_000, 5_000_000] }, flags: ['trail'] },
  bare: { routes: bareRoutes, pool: { options: SESSION_OPTIONS } },
  reusable: true,
  main,
});
