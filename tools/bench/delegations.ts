/**
 * npm run bench -- delegations [--duration 10] [--connections 16] [--warmup 3] [--size 1000000] [--keep]
 *
 * What the decision service costs over the SQL it runs for delegations, at size, and how fast its
 * rules answer. In a scratch database (ddm_bench_delegations, dropped at the end unless --keep) one
 * tenant gets --size delegations (default 1,000,000), set-based (generate_series): a tenth of them
 * root delegations of 1,000 decisions to 5,000 people, the rest redelegations by the root's holder
 * to another person (statuses mostly ISSUED, some ACCEPTED, SUSPENDED, REVOKED, EXPIRED), each with
 * an approval limit; plus a tree of fan-out 10 three levels below its root (1,111 delegations) and a
 * root held by the caller to hand on. The built auth and decision services run as child processes
 * (NATS namespace "benchdelegations"); a BARE handler, plain Fastify + a pg pool of 10 with no auth
 * and no envelope, runs in a worker thread and serves the very same statements (DELEGATION_BY_ID_SQL,
 * delegationList through listSql), mapped by the same toDelegationView.
 *
 * Measured in one run, service and bare alternating, twice, the better run of each counting:
 *   get   GET /decision/v1/delegations/{id}                                  (target: service/bare >= 0.6)
 *   list  GET /decision/v1/delegations?status=ISSUED&limit=20 (display id order) (target >= 0.8)
 *   search  GET /decision/v1/delegations?status=ISSUED&search=spending 777&limit=20: one decision's
 *         name (its ~1,000 delegations), through the search's function under row-level security (>= 0.8)
 * Then, one request at a time (latency, not throughput):
 *   cascading  PATCH /decision/v1/delegations/check-cascading-updates over the 1,111 tree, narrowing the
 *              root so that half of it breaks (555 descendants answered)            (target p95 <= 100 ms)
 *   issue      POST /decision/v1/delegations: a redelegation of the caller's root, ISSUED, the rules checked
 *
 * Prints a table, the ratios, the p95s, whether each target is met, and one JSON line. A missed
 * target is reported, not an error (a loaded machine misses them). Exits 1 if a response was not a
 * 200 or the service and the bare handler disagree. Children, worker, database and streams are
 * removed in every case.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { plainToInstance } from 'class-transformer';
import type { FastifyInstance } from 'fastify';
import { Client, Pool, PoolClient } from 'pg';
import { Caller, DEFAULT_ROLES } from '@ddm/contracts';
import { listSql, pageRows } from '@ddm/platform';
import { DelegationRow } from '../../apps/decision/src/core/delegation.types';
import { DELEGATION_BY_ID_SQL } from '../../apps/decision/src/core/delegation.sql';
import { delegationList } from '../../apps/decision/src/delegations/delegation.sql';
import { selectDelegationFields, toDelegationView } from '../../apps/decision/src/core/delegation.view';
import { SearchDelegationsDto } from '../../apps/decision/src/delegations/dto/search-delegations.dto';
import { Answer, Ask, BenchContext, bearer, call, checkSame, failUnlessAll200, Impl, log, measureRounds, pageOf, pct, printReport, round2, Run, secondsSince, seedCaller, seedTenantWithRoles, serviceAndBare, serviceBench, ServiceBenchOptions, uuidV7, versus, versusTable, warmUp } from './lib';

const APP_URL = 'http://localhost:8080';
const TARGETS = { get: 0.6, list: 0.8, search: 0.8, cascadingP95Ms: 100 } as const;
const USERS = 5_000;
const DECISIONS = 1_000;
/** Sequential requests of the latency measurements. */
const LATENCY_REQUESTS = { cascading: 100, issue: 200 } as const;
const REQUEST_TIMEOUT_MS = 30_000;

type Variant = 'get' | 'list' | 'search';
const VARIANTS: Variant[] = ['get', 'list', 'search'];
interface Options extends ServiceBenchOptions {
  size: number;
}
interface BareConfig {
  tenantId: string;
  callerUserId: string;
}

// ---------------------------------------------------------------------------------------------
// The bare handler: the service's statements and mapping, without auth, validation pipe or envelope.
// ---------------------------------------------------------------------------------------------

function bareRoutes(app: FastifyInstance, pool: Pool, { tenantId, callerUserId }: BareConfig): void {
  const keys = new Set(DEFAULT_ROLES.find((r) => r.key === 'SYSTEM_ADMIN')!.keys);
  const caller: Caller = { userId: callerUserId, tenantId, email: '', name: '', roleIds: [], keys, claims: {} as Caller['claims'] };
  // The search's function reads the request's tenant from app.tenant_id, as the service's Db sets it: one tenant here, set once per connection.
  const tenantSet = new WeakSet<PoolClient>();
  app.get<{ Params: { id: string } }>('/bare/delegations/:id', async (req, reply) => {
    const { rows } = await pool.query<DelegationRow>(DELEGATION_BY_ID_SQL, [req.params.id, tenantId]);
    if (!rows.length || rows[0].view.status === 'DELETED') return reply.code(404).send({ message: 'not found' });
    return toDelegationView(rows[0].view, caller, APP_URL, true);
  });
  app.get<{ Querystring: Record<string, string> }>('/bare/delegations', async (req) => {
    const q = plainToInstance(SearchDelegationsDto, { ...req.query });
    const { text, values } = listSql(delegationList(tenantId, caller.userId, q));
    const client = await pool.connect();
    let rows: (DelegationRow & { total: number; ord: unknown })[];
    try {
      if (!tenantSet.has(client)) {
        await client.query(`SELECT set_config('app.tenant_id', $1, false)`, [tenantId]);
        tenantSet.add(client);
      }
      rows = (await client.query<DelegationRow & { total: number; ord: unknown }>(text, values as unknown[])).rows;
    } finally {
      client.release();
    }
    const { items, total } = pageRows(rows, (r: DelegationRow) => selectDelegationFields(toDelegationView(r.view, caller, APP_URL), q.select));
    return { page: q.page, limit: q.limit, total, data: items };
  });
}

// ---------------------------------------------------------------------------------------------
// Seed (set-based SQL).
// ---------------------------------------------------------------------------------------------

const authority = (typeId: string, value: string, redelegable: boolean) => ({
  authorityTypeId: typeId,
  authorityTypeOrder: 1,
  authorityLimit: 'Primary',
  authorityLimitValueType: 'Currency',
  authorityLimitOperator: '<=',
  authorityLimitValue: value,
  authorityLimitValueUnit: 'USD',
  redelegable,
  redelegationLimitValue: null,
  redelegationLimitValueUnit: null,
  isLimitOverridden: false,
});

interface Seeded {
  tenantId: string;
  callerUserId: string;
  callerSub: string;
  approvalTypeId: string;
  /** A decision all the hand-ons below belong to. */
  decisionId: string;
  /** The root of the 1,111-delegation tree. */
  treeRootId: string;
  /** A root delegation the caller holds (SPECIFIC_PERSONNEL, Matrix, redelegable). */
  heldId: string;
  /** A delegation of the bulk, for the get. */
  getId: string;
  users: string[];
}

async function seed(db: Client, size: number): Promise<Seeded> {
  const { tenantId, roleIds } = await seedTenantWithRoles(db, 'Bench delegations');
  const email = 'admin@delegations.bench.test';
  const caller = await seedCaller(db, tenantId, roleIds.SYSTEM_ADMIN, email);
  const approvalTypeId = randomUUID();
  await db.query(`INSERT INTO decision.authority_type_projection (id, tenant_id, authority_type, authority_type_icon, authority_type_order, status, version) VALUES ($1, $2, 'Approval', 'check', 1, 'ACTIVE', 1)`, [
    approvalTypeId,
    tenantId,
  ]);
  // People: the caller and USERS - 1 others, each reporting to the one 10 before it (a reporting line for Direct Line and Down-Line).
  const users = [caller.userId, ...Array.from({ length: USERS - 1 }, () => randomUUID())];
  await db.query(
    `INSERT INTO decision.user_projection (tenant_id, id, email, name, display_name, status, version, manager_id)
     SELECT $1::uuid, x.id, 'user' || x.n || '@delegations.bench.test', 'Person ' || x.n, 'Person ' || x.n, 'ACTIVE', 1, CASE WHEN x.n > 10 THEN ($2::uuid[])[x.n - 10] END
       FROM unnest($2::uuid[]) WITH ORDINALITY AS x(id, n)`,
    [tenantId, users],
  );
  // Decisions: PUBLISHED, delegable, every pathway, a limit of 10,000,000 USD.
  await db.query(
    `INSERT INTO decision.decisions (id, tenant_id, decision_display_id, name, description, status, delegable, delegation_pathway, version, created_by, updated_by)
     SELECT gen_random_uuid(), $1::uuid, (9999 + i)::text, 'Approve spending ' || i, 'Spending of the group', 'PUBLISHED', true, ARRAY['Matrix', 'Direct Line', 'Functional', 'Down-Line'], 1, $2::uuid, $2::uuid
       FROM generate_series(1, $3::int) AS i`,
    [tenantId, caller.userId, DECISIONS],
  );
  await db.query(
    `INSERT INTO decision.decision_authorities (id, tenant_id, decision_id, authority_type_id, authority_type_order, authority_limit, value_type, operator, value_text, value_number, unit, position)
     SELECT gen_random_uuid(), $1::uuid, d.id, $2::uuid, 1, 'Primary', 'Currency', '<=', '10000000', 10000000, 'USD', 1 FROM decision.decisions d WHERE d.tenant_id = $1`,
    [tenantId, approvalTypeId],
  );
  await db.query(`INSERT INTO decision.display_id_counters (tenant_id, kind, last_value) VALUES ($1, 'decision', $2)`, [tenantId, 9999 + DECISIONS]);
  const [{ id: decisionId }] = (await db.query<{ id: string }>(`SELECT id FROM decision.decisions WHERE tenant_id = $1 AND decision_display_id = '10000'`, [tenantId])).rows;

  // The bulk: roots i = 1..size/10 (display id 9999 + i), redelegations i > size/10 under root 1 + i % roots, by its holder.
  const roots = Math.max(1, Math.floor(size / 10));
  const statusOf = (i: string) => `CASE WHEN ${i} % 50 = 0 THEN 'REVOKED' WHEN ${i} % 50 = 1 THEN 'SUSPENDED' WHEN ${i} % 50 = 2 THEN 'EXPIRED' WHEN ${i} % 5 = 3 THEN 'ACCEPTED' ELSE 'ISSUED' END`;
  const started = Date.now();
  await db.query(
    `INSERT INTO decision.delegations (id, tenant_id, delegation_display_id, decision_id, depth, issuer_type, issuer_user_id, recipient_type, recipient_user_id, status,
                                       effective_date, is_no_expiration, issued_date, accepted_date, delegation_pathway, delegation_authorities, created_on, created_by, updated_on, updated_by)
     SELECT ${uuidV7('x.created')}, $1::uuid, (9999 + x.i)::text, (SELECT id FROM decision.decisions WHERE tenant_id = $1 AND decision_display_id = (9999 + 1 + x.i % $5::int)::text),
            0, 'ROOT_AUTHORITY', $2::uuid, 'SPECIFIC_PERSONNEL', ($3::uuid[])[1 + x.i % $6::int], ${statusOf('x.i')}, x.created, true, x.created,
            CASE WHEN x.i % 5 = 3 THEN x.created END, ARRAY['Matrix', 'Direct Line', 'Down-Line'], jsonb_build_array($4::jsonb), x.created, $2::uuid, x.created, $2::uuid
       FROM (SELECT i, now() - (($7::int - i)::float8 / $7::int) * interval '730 days' AS created FROM generate_series(1, $7::int) AS i) x`,
    [tenantId, caller.userId, users, JSON.stringify(authority(approvalTypeId, '1000000', true)), DECISIONS, USERS, roots],
  );
  await db.query(
    `INSERT INTO decision.delegations (id, tenant_id, delegation_display_id, decision_id, parent_delegation_id, depth, issuer_type, issuer_user_id, recipient_type, recipient_user_id,
                                       status, effective_date, is_no_expiration, issued_date, accepted_date, delegation_pathway, delegation_authorities, created_on, created_by, updated_on, updated_by)
     SELECT ${uuidV7('x.created')}, $1::uuid, (9999 + x.i)::text, p.decision_id, p.id, 1, 'SPECIFIC_PERSONNEL', p.recipient_user_id, 'SPECIFIC_PERSONNEL',
            ($2::uuid[])[1 + (x.i * 7) % $4::int], ${statusOf('x.i')}, x.created, true, x.created, CASE WHEN x.i % 5 = 3 THEN x.created END, ARRAY['Matrix'],
            jsonb_build_array(jsonb_set($3::jsonb, '{authorityLimitValue}', to_jsonb(((1 + x.i % 999) * 1000)::text))), x.created, p.recipient_user_id, x.created, p.recipient_user_id
       FROM (SELECT i, now() - (($5::int - i)::float8 / $5::int) * interval '700 days' AS created FROM generate_series($6::int + 1, $5::int) AS i) x
       JOIN decision.delegations p ON p.tenant_id = $1 AND p.delegation_display_id = (9999 + 1 + x.i % $6::int)::text`,
    [tenantId, users, JSON.stringify(authority(approvalTypeId, '0', false)), USERS, size, roots],
  );
  log(`${size.toLocaleString('en')} delegations (${roots.toLocaleString('en')} roots) seeded in ${secondsSince(started)} s`);

  // The 1,111 tree (fan-out 10, three levels below its root): all held by the caller, so the check needs no other person.
  const tree: { id: string; parent: string | null; depth: number; value: number }[] = [];
  const add = (parent: string | null, depth: number, value: number) => {
    const row = { id: randomUUID(), parent, depth, value };
    tree.push(row);
    return row;
  };
  const top = add(null, 0, 10_000);
  for (let a = 0; a < 10; a++) {
    const child = add(top.id, 1, 1000 * (a + 1));
    for (let b = 0; b < 10; b++) {
      const grand = add(child.id, 2, child.value - b);
      for (let c = 0; c < 10; c++) add(grand.id, 3, grand.value - c);
    }
  }
  const held = add(null, 0, 10_000_000);
  await db.query(
    `INSERT INTO decision.delegations (id, tenant_id, delegation_display_id, decision_id, parent_delegation_id, depth, issuer_type, issuer_user_id, recipient_type, recipient_user_id,
                                       status, effective_date, is_no_expiration, issued_date, delegation_pathway, delegation_authorities, created_by, updated_by)
     SELECT x.id, $1::uuid, ($2::bigint + x.n)::text, $3::uuid, x.parent, x.depth, CASE WHEN x.parent IS NULL THEN 'ROOT_AUTHORITY' ELSE 'SPECIFIC_PERSONNEL' END, $4::uuid, 'SPECIFIC_PERSONNEL', $4::uuid,
            'ISSUED', now() - interval '1 day', true, now(), ARRAY['Matrix'], jsonb_build_array(jsonb_set($5::jsonb, '{authorityLimitValue}', to_jsonb(x.value::text))), $4::uuid, $4::uuid
       FROM unnest($6::uuid[], $7::uuid[], $8::int[], $9::bigint[]) WITH ORDINALITY AS x(id, parent, depth, value, n)`,
    [tenantId, 9999 + size, decisionId, caller.userId, JSON.stringify(authority(approvalTypeId, '0', true)), tree.map((t) => t.id), tree.map((t) => t.parent), tree.map((t) => t.depth), tree.map((t) => t.value)],
  );
  await db.query(`INSERT INTO decision.display_id_counters (tenant_id, kind, last_value) VALUES ($1, 'delegation', $2)`, [tenantId, 9999 + size + tree.length]);
  const getNumber = roots + Math.floor((size - roots) / 2) + 4; // a redelegation, ISSUED (i % 5 = 4)
  const [{ id: getId }] = (await db.query<{ id: string }>(`SELECT id FROM decision.delegations WHERE tenant_id = $1 AND delegation_display_id = $2`, [tenantId, String(9999 + getNumber)])).rows;
  return { tenantId, callerUserId: caller.userId, callerSub: caller.sub, approvalTypeId, decisionId, treeRootId: top.id, heldId: held.id, getId, users };
}

// ---------------------------------------------------------------------------------------------
// Requests.
// ---------------------------------------------------------------------------------------------

/** `n` requests one after the other; their latencies in ms (sorted) and every status seen. */
async function latencies(n: number, request: (k: number) => Promise<Answer>, ok: number): Promise<{ sorted: number[]; bad: string[]; last: Answer['body'] }> {
  const times: number[] = [];
  const bad: string[] = [];
  let last: Answer['body'] = {};
  for (let k = 0; k < n; k++) {
    const r = await request(k);
    times.push(r.ms);
    last = r.body;
    if (r.status !== ok) bad.push(`${r.status}: ${JSON.stringify(r.body).slice(0, 200)}`);
  }
  return { sorted: times.sort((a, b) => a - b), bad, last };
}

// ---------------------------------------------------------------------------------------------
// Main.
// ---------------------------------------------------------------------------------------------

async function main({ opts, db, svc, startBare }: BenchContext<Options, BareConfig>): Promise<void> {
  const s = await seed(db, opts.size);
  await db.query('VACUUM (ANALYZE)');
  const bare = await startBare({ tenantId: s.tenantId, callerUserId: s.callerUserId });
  const headers = bearer(s.callerSub);
  const LIST_QUERY = 'status=ISSUED&limit=20';
  const SEARCH_QUERY = `status=ISSUED&search=${encodeURIComponent('spending 777')}&limit=20`;
  const sides: Record<Variant, { service: Ask; bare: Ask }> = {
    get: { service: { url: `${svc}/decision/v1/delegations/${s.getId}`, headers }, bare: { url: `${bare}/bare/delegations/${s.getId}`, headers: {} } },
    list: { service: { url: `${svc}/decision/v1/delegations?${LIST_QUERY}`, headers }, bare: { url: `${bare}/bare/delegations?${LIST_QUERY}`, headers: {} } },
    search: { service: { url: `${svc}/decision/v1/delegations?${SEARCH_QUERY}`, headers }, bare: { url: `${bare}/bare/delegations?${SEARCH_QUERY}`, headers: {} } },
  };
  // The service's answer also says how fresh it is (consistentAsOf); the bare handler has no view of that.
  await checkSame('get', sides.get.service, sides.get.bare, (x) => ({ ...(x as object), consistentAsOf: undefined }), REQUEST_TIMEOUT_MS);
  const listPage = (await checkSame('list', sides.list.service, sides.list.bare, pageOf, REQUEST_TIMEOUT_MS)) as { total: number };
  const searchPage = (await checkSame('search', sides.search.service, sides.search.bare, pageOf, REQUEST_TIMEOUT_MS)) as { total: number };
  log(`service and bare answer the same data; the list matches ${listPage.total.toLocaleString('en')} delegations, the search ${searchPage.total.toLocaleString('en')}`);
  if (searchPage.total < 100) throw new Error(`the search matches ${searchPage.total} delegations: the seed has changed (expected one decision's)`);

  const targets = serviceAndBare(VARIANTS, (variant) => sides[variant]);
  const warmups = await warmUp(targets, opts);
  const runs = await measureRounds(targets, opts);

  // The cascading check over the 1,111 tree: the root narrowed to 5,500 breaks children 6..10 and everything below them.
  log(`check-cascading-updates over the 1,111-delegation tree, ${LATENCY_REQUESTS.cascading} requests one at a time`);
  const narrowed = [{ ...authority(s.approvalTypeId, '5500', true) }];
  const cascading = await latencies(
    LATENCY_REQUESTS.cascading,
    () => call('PATCH', `${svc}/decision/v1/delegations/check-cascading-updates`, headers, { parentDelegationId: s.treeRootId, updatedDelegationAuthorities: narrowed }),
    200,
  );
  const answered = (cascading.last.data as { numberOfChildDelegationsInvalidated?: number } | undefined)?.numberOfChildDelegationsInvalidated;
  if (answered !== 555) cascading.bad.push(`the check answered ${answered} invalidated descendants, not 555`);

  // Issuing a redelegation of the caller's root to someone along Matrix, the rules checked (one transaction, revision and event each).
  log(`issuing ${LATENCY_REQUESTS.issue} redelegations one at a time`);
  const issue = await latencies(
    LATENCY_REQUESTS.issue,
    (k) =>
      call('POST', `${svc}/decision/v1/delegations`, headers, {
        decisionId: s.decisionId,
        parentDelegationId: s.heldId,
        status: 'ISSUED',
        recipientType: 'SPECIFIC_PERSONNEL',
        delegationRecipients: [{ recipientUserId: s.users[1 + (k % (s.users.length - 1))] }],
        delegationPathway: ['Matrix'],
        isNoExpiration: true,
        delegationAuthorities: [{ ...authority(s.approvalTypeId, String(1000 + k), false) }],
      }),
    200,
  );

  const failures = report(opts, runs, { cascading, issue }, listPage.total);
  failUnlessAll200([...warmups, ...runs], (r) => `${r.kind} ${r.impl}#${r.round}`);
  if (cascading.bad.length || issue.bad.length) {
    log(`FAILED: ${[...cascading.bad.slice(0, 3), ...issue.bad.slice(0, 3)].join('; ')}`);
    process.exitCode = 1;
  }
  if (failures.length) log(`targets missed: ${failures.join('; ')}`);
}

function report(opts: Options, runs: Run<{ kind: Variant; impl: Impl }>[], latency: { cascading: { sorted: number[] }; issue: { sorted: number[] } }, listTotal: number): string[] {
  const [get, list, search] = VARIANTS.map((kind) => versus(runs, { kind }));
  const ratio = { get: round2(get.ratio), list: round2(list.ratio), search: round2(search.ratio) };
  const c = latency.cascading.sorted;
  const i = latency.issue.sorted;
  const failures: string[] = [];
  if (ratio.get < TARGETS.get) failures.push(`get ratio ${ratio.get} < ${TARGETS.get}`);
  if (ratio.list < TARGETS.list) failures.push(`list ratio ${ratio.list} < ${TARGETS.list}`);
  if (ratio.search < TARGETS.search) failures.push(`search ratio ${ratio.search} < ${TARGETS.search}`);
  if (pct(c, 95) > TARGETS.cascadingP95Ms) failures.push(`cascading p95 ${pct(c, 95)} ms > ${TARGETS.cascadingP95Ms} ms`);
  printReport(
    [
      '',
      `delegations: ${opts.size.toLocaleString('en')} in one tenant (the list matches ${listTotal.toLocaleString('en')}); ${opts.connections} connections, ${opts.duration} s per run, better of two`,
      ...versusTable(8, [
        { name: 'get', ...get, ratio: ratio.get, target: `>=${TARGETS.get}` },
        { name: 'list', ...list, ratio: ratio.list, target: `>=${TARGETS.list}` },
        { name: 'search', ...search, ratio: ratio.search, target: `>=${TARGETS.search}` },
      ]),
      `cascading check (1,111 tree, 555 answered): p50 ${pct(c, 50)} ms, p95 ${pct(c, 95)} ms (target <= ${TARGETS.cascadingP95Ms}), max ${pct(c, 100)} ms`,
      `issue a redelegation (rules checked): p50 ${pct(i, 50)} ms, p95 ${pct(i, 95)} ms, max ${pct(i, 100)} ms`,
    ],
    {
      bench: 'delegations',
      size: opts.size,
      get: { ratio: ratio.get, target: TARGETS.get, ...get.pair },
      list: { ratio: ratio.list, target: TARGETS.list, ...list.pair },
      search: { ratio: ratio.search, target: TARGETS.search, ...search.pair },
      cascading: { p50: pct(c, 50), p95: pct(c, 95), max: pct(c, 100), target: TARGETS.cascadingP95Ms },
      issue: { p50: pct(i, 50), p95: pct(i, 95), max: pct(i, 100) },
      met: failures.length === 0,
    },
  );
  return failures;
}

serviceBench<Options, BareConfig>({
  name: 'delegations',
  service: 'decision',
  usage: 'npm run bench -- delegations [--duration <s>] [--connections <n>] [--warmup <s>] [--size <n>] [--keep]',
  defaults: { size: 1_000_000 },
  options: { counts: { size: [2_000, 5_000_000] } },
  appUrl: APP_URL,
  bare: { routes: bareRoutes },
  main,
});
