/**
 * npm run bench -- matrix [--duration 10] [--connections 16] [--warmup 3] [--matrices 50000] [--decisions 1000] [--positions 200] [--delegations 200000] [--keep]
 *
 * What the matrix service costs over the SQL it runs, and how fast its grid answers. In a scratch
 * database (ddm_bench_matrix, dropped at the end unless --keep), set-based SQL gives one tenant
 * `--matrices` matrices and another a grid of `--decisions` published decisions × `--positions`
 * positions over `--delegations` delegations (each with one limit, held for the last two years,
 * a tenth of them suspended six months ago, so `?at=` a year ago reads other history rows than now).
 * The built auth and matrix services run as child processes (NATS namespace "benchmatrix"); a BARE
 * handler, plain Fastify + a pg pool of 10 with no auth and no envelope, runs in a worker thread
 * and serves the very same search statement (apps/matrix/src/matrices/matrix.sql.ts), mapped by
 * the same toMatrixView. The callers are System Admins (they see every matrix).
 *
 * Measured in one run, service and bare alternating, twice, the better run of each counting:
 *   search  POST /matrix/v1/matrix/global-search { matrixStatusName: Active, sortBy: matrixName, limit: 20 }
 * then the service alone, asking as browsers do (Accept-Encoding: gzip, deflate, br):
 *   grid    GET /matrix/v1/matrix/{id}/grid?limit=50 (first page: 50 decisions × 200 positions)
 *   gridAt  the same a year ago (?at=)
 *   gridRaw the grid now for a client that takes no compression (for reference)
 * The same page is asked for over and over: after the first request the service serves the page it
 * kept (until the tenant's grids change).
 * Prints the search ratio service/bare of requests per second (target >= 0.8) and the grid's p95
 * now and a year ago (target <= 50 ms). After each grid measurement (warm-up too) it waits until the
 * service has answered the grid requests still in flight, so they do not run into the next search run.
 */
import 'reflect-metadata';
import { request as httpRequest } from 'node:http';
import { plainToInstance } from 'class-transformer';
import type { FastifyInstance } from 'fastify';
import { Client, Pool } from 'pg';
import { ALL_PERMISSION_KEYS } from '@ddm/contracts';
import { listSql, pageRows } from '@ddm/platform';
import { MatrixRow, toMatrixView } from '../../apps/matrix/src/matrices/dto/matrix.response';
import { MatrixSearchDto } from '../../apps/matrix/src/matrices/dto/search.dto';
import { matrixSearch } from '../../apps/matrix/src/matrices/matrix.sql';
import { Ask, BenchContext, bearer, best, checkSame, failUnlessAll200, Impl, kindAndImpl, log, measureRounds, pageOf, printReport, REQUEST_TIMEOUT_MS, round2, Run, runsNote, runsTable, secondsSince, seedCaller, seedTenantWithRoles, serviceBench, ServiceBenchOptions, summary, Target, versus, warmUp } from './lib';

const SEARCH = { matrixStatusName: 'Active', sortBy: 'matrixName', sortOrder: 'asc', limit: 20 } as const;
const TARGETS = { search: 0.8, gridP95Ms: 50 } as const;
const APP_URL = 'http://localhost:8080';
/** What a browser sends (Chrome, Firefox). */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br';

type Key = { kind: 'search' | 'grid' | 'gridAt' | 'gridRaw'; impl: Impl };
interface Options extends ServiceBenchOptions {
  matrices: number;
  decisions: number;
  positions: number;
  delegations: number;
}

// ---------------------------------------------------------------------------------------------
// The bare handler (worker thread): same SQL, same mapping, no auth, no envelope.
// ---------------------------------------------------------------------------------------------

function bareRoutes(app: FastifyInstance, pool: Pool): void {
  const keys = new Set<string>(ALL_PERMISSION_KEYS);
  app.post<{ Querystring: { tenantId: string; userId: string }; Body: Record<string, unknown> }>('/bare/search', async (req) => {
    const { tenantId, userId } = req.query;
    const q = plainToInstance(MatrixSearchDto, req.body);
    const statement = listSql(matrixSearch({ tenantId, userId, groupIds: [], all: true }, q));
    const { rows } = await pool.query(statement.text, statement.values as unknown[]);
    const { items, total } = pageRows(rows as (MatrixRow & { total: number; ord: unknown })[], (r) => toMatrixView(r, { userId, keys }, { appUrl: APP_URL, shareUrl: `${APP_URL}/matrix/v1/shared` }));
    return { page: q.page, limit: q.limit, total, data: items };
  });
}

// ---------------------------------------------------------------------------------------------
// Seed (set-based SQL).
// ---------------------------------------------------------------------------------------------

interface Caller {
  tenantId: string;
  userId: string;
  sub: string;
}

async function seedCallerOf(db: Client, name: string): Promise<Caller> {
  const { tenantId, roleIds } = await seedTenantWithRoles(db, name);
  const email = `admin@${name.toLowerCase().replace(/\s+/g, '-')}.bench.test`;
  const caller = await seedCaller(db, tenantId, roleIds.SYSTEM_ADMIN, email);
  await db.query(`INSERT INTO matrix.user_projection (tenant_id, id, email, name, status) VALUES ($1, $2, $3, 'Bench Admin', 'ACTIVE')`, [tenantId, caller.userId, email]);
  return { tenantId, userId: caller.userId, sub: caller.sub };
}

/** `count` matrices ("Matrix <n>", created over two years), a third Draft or Archived, a fifth shared. */
async function seedMatrices(db: Client, c: Caller, count: number): Promise<void> {
  await db.query(
    `INSERT INTO matrix.matrices (id, tenant_id, matrix_display_id, matrix_name, matrix_description, status_name, owner_id, sharing_id, sharing_type,
                                  shared_user_ids, created_on, updated_on, created_by, updated_by)
     SELECT gen_random_uuid(), $1, (9999 + x.i)::text, 'Matrix ' || x.i, 'Bench matrix ' || x.i,
            CASE x.i % 6 WHEN 0 THEN 'Draft' WHEN 1 THEN 'Archived' ELSE 'Active' END, $3, gen_random_uuid(),
            CASE WHEN x.i % 5 = 0 THEN 'SHARED' ELSE 'PRIVATE' END, CASE WHEN x.i % 5 = 0 THEN ARRAY[$3]::uuid[] ELSE '{}' END,
            x.created, least(now(), x.created + (x.i % 30) * interval '1 day'), $3, $3
       FROM (SELECT i, now() - (($2::int - i)::float8 / $2::int) * interval '730 days' AS created FROM generate_series(1, $2::int) AS i) x`,
    [c.tenantId, count, c.userId],
  );
  await db.query(`INSERT INTO matrix.display_id_counters (tenant_id, kind, last_value) VALUES ($1, 'matrix', $2)`, [c.tenantId, 9999 + count]);
}

/**
 * The grid's tenant: positions, published decisions in 10 sections and 50 categories, delegations
 * spread over them (one Approval limit each), their history and the decisions' (held two years; a
 * tenth of the delegations suspended six months ago), and a matrix over every position and every published decision. Answers its id.
 */
async function seedGrid(db: Client, c: Caller, o: Options): Promise<string> {
  const t = c.tenantId;
  const approval = crypto.randomUUID();
  await db.query(`INSERT INTO matrix.authority_type_projection (id, tenant_id, authority_type) VALUES ($1, $2, 'Approval')`, [approval, t]);
  await db.query(`INSERT INTO matrix.section_projection (id, tenant_id, section_name) SELECT gen_random_uuid(), $1, 'Section ' || i FROM generate_series(1, 10) i`, [t]);
  await db.query(
    `INSERT INTO matrix.category_projection (id, tenant_id, category_name, section_id)
     SELECT gen_random_uuid(), $1, 'Category ' || i, (SELECT id FROM matrix.section_projection WHERE tenant_id = $1 AND section_name = 'Section ' || (1 + i % 10))
       FROM generate_series(1, 50) i`,
    [t],
  );
  await db.query(`INSERT INTO matrix.position_projection (id, tenant_id, position_name, status) SELECT gen_random_uuid(), $1, 'Position ' || i, 'ACTIVE' FROM generate_series(1, $2::int) i`, [t, o.positions]);
  await db.query(
    `INSERT INTO matrix.decision_projection (id, tenant_id, decision_display_id, name, status, section_id, category_id, authorities)
     SELECT gen_random_uuid(), $1, (9999 + i)::text, 'Decision ' || i, 'PUBLISHED', c.section_id, c.id,
            jsonb_build_array(jsonb_build_object('authorityTypeId', $3::text, 'authorityTypeOrder', 1, 'authorityLimit', 'Primary', 'authorityLimitValueType', 'Currency',
              'authorityLimitOperator', '<', 'authorityLimitValue', (1000000 + i)::text, 'authorityLimitValueUnit', 'USD'))
       FROM generate_series(1, $2::int) i
       JOIN LATERAL (SELECT id, section_id FROM matrix.category_projection WHERE tenant_id = $1 AND category_name = 'Category ' || (1 + i % 50)) c ON true`,
    [t, o.decisions, approval],
  );
  await db.query(
    `INSERT INTO matrix.decision_history (id, tenant_id, decision_display_id, name, status, section_id, category_id, authorities, is_deleted, valid_from)
     SELECT id, tenant_id, decision_display_id, name, status, section_id, category_id, authorities, is_deleted, now() - interval '730 days'
       FROM matrix.decision_projection WHERE tenant_id = $1`,
    [t],
  );
  await db.query(
    `WITH d AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM matrix.decision_projection WHERE tenant_id = $1),
          p AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM matrix.position_projection WHERE tenant_id = $1)
     INSERT INTO matrix.delegation_projection (delegation_id, tenant_id, decision_id, delegation_display_id, status, recipient_type, recipient_position_id,
                                               pathways, authorities, version)
     SELECT gen_random_uuid(), $1, d.id, (9999 + i)::text, CASE WHEN i % 10 = 0 THEN 'SUSPENDED' ELSE 'ISSUED' END, 'POSITION_ONLY', p.id, ARRAY['Direct Line'],
            jsonb_build_array(jsonb_build_object('authorityTypeId', $5::text, 'authorityTypeOrder', 1, 'authorityLimit', 'Primary', 'authorityLimitValueType', 'Currency',
              'authorityLimitOperator', '<', 'authorityLimitValue', (1000 * (1 + i % 900))::text, 'authorityLimitValueUnit', 'USD')),
            CASE WHEN i % 10 = 0 THEN 2 ELSE 1 END
       FROM generate_series(0, $2::int - 1) i
       JOIN d ON d.n = i % $3::int
       JOIN p ON p.n = (i / $3::int) % $4::int`,
    [t, o.delegations, o.decisions, o.positions, approval],
  );
  await db.query(
    `INSERT INTO matrix.decision_delegation_counts (decision_id, tenant_id, delegations, suspended, pending)
     SELECT decision_id, $1, count(*), count(*) FILTER (WHERE status = 'SUSPENDED'), count(*) FILTER (WHERE status = 'PENDING')
       FROM matrix.delegation_projection WHERE tenant_id = $1 GROUP BY decision_id`,
    [t],
  );
  const copy = `delegation_id, tenant_id, decision_id, delegation_display_id, recipient_type, recipient_user_id, recipient_position_id, group_ids, pathways, authorities, is_invalid`;
  await db.query(
    `INSERT INTO matrix.delegation_history (${copy}, status, ended, valid_from, valid_to)
     SELECT ${copy}, 'ISSUED', false, now() - interval '730 days', CASE WHEN status = 'SUSPENDED' THEN now() - interval '180 days' END
       FROM matrix.delegation_projection WHERE tenant_id = $1`,
    [t],
  );
  await db.query(
    `INSERT INTO matrix.delegation_history (${copy}, status, ended, valid_from)
     SELECT ${copy}, 'SUSPENDED', false, now() - interval '180 days' FROM matrix.delegation_projection WHERE tenant_id = $1 AND status = 'SUSPENDED'`,
    [t],
  );
  const id = crypto.randomUUID();
  await db.query(
    `INSERT INTO matrix.matrices (id, tenant_id, matrix_display_id, matrix_name, status_name, owner_id, sharing_id, sharing_type, position_ids, formatting)
     VALUES ($1, $2, '10000', 'Bench grid', 'Active', $3, gen_random_uuid(), 'PRIVATE',
             (SELECT array_agg(id ORDER BY position_name) FROM matrix.position_projection WHERE tenant_id = $2), '{"valueAbbrevations": "Abbreviated"}')`,
    [id, t, c.userId],
  );
  return id;
}

// ---------------------------------------------------------------------------------------------
// Main.
// ---------------------------------------------------------------------------------------------

/** The bytes of one answer as they travel (fetch would inflate them), with their Content-Encoding. */
function sentBytes(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      let n = 0;
      res.on('data', (c: Buffer) => (n += c.length));
      res.on('end', () => resolve(`${(n / 1e6).toFixed(2)} MB, content-encoding ${res.headers['content-encoding'] ?? 'none'}`));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Waits until the service has worked off the grid requests still in flight when a measurement ends
 * (autocannon closes its sockets, the service still answers what it took): one more request, answered
 * once it has shared the process with them, then one alone. Otherwise they are served during the
 * next measurement (the search's) and count against it.
 */
async function settle(url: string, headers: Record<string, string>): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(4 * REQUEST_TIMEOUT_MS) });
    await res.arrayBuffer();
  }
}

async function main({ opts, db, svc, startBare }: BenchContext<Options, object>): Promise<void> {
  let started = Date.now();
  const searcher = await seedCallerOf(db, 'Bench Search');
  await seedMatrices(db, searcher, opts.matrices);
  log(`search tenant: ${opts.matrices.toLocaleString('en')} matrices seeded in ${secondsSince(started)} s`);
  started = Date.now();
  const gridCaller = await seedCallerOf(db, 'Bench Grid');
  const gridId = await seedGrid(db, gridCaller, opts);
  log(`grid tenant: ${opts.decisions} decisions × ${opts.positions} positions, ${opts.delegations.toLocaleString('en')} delegations seeded in ${secondsSince(started)} s`);
  await db.query('VACUUM (ANALYZE)');

  const bare = await startBare({});
  const request = { method: 'POST' as const, body: SEARCH };
  const searchService: Ask = { url: `${svc}/matrix/v1/matrix/global-search`, headers: bearer(searcher.sub), request };
  const searchBare: Ask = { url: `${bare}/bare/search?tenantId=${searcher.tenantId}&userId=${searcher.userId}`, headers: {}, request };
  const page = (await checkSame('search', searchService, searchBare, pageOf)) as { total: number };
  log(`service and bare answer the same search page (${page.total} matching matrices)`);
  const yearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString();
  const gridUrl = `${svc}/matrix/v1/matrix/${gridId}/grid?limit=50`;
  const gridAtUrl = `${gridUrl}&at=${encodeURIComponent(yearAgo)}`;
  const gridHeaders = { ...bearer(gridCaller.sub), 'accept-encoding': BROWSER_ACCEPT_ENCODING };
  for (const u of [gridUrl, gridAtUrl]) {
    const res = await fetch(u, { headers: bearer(gridCaller.sub) });
    const text = await res.text();
    const body = JSON.parse(text) as { data: { rows: { cells: { delegations: unknown[] }[] }[]; columns: unknown[] } };
    if (res.status !== 200) throw new Error(`grid answered ${res.status}`);
    const held = body.data.rows.reduce((n, r) => n + r.cells.reduce((m, c) => m + c.delegations.length, 0), 0);
    log(`grid${u === gridAtUrl ? ' a year ago' : ''}: ${body.data.rows.length} rows × ${body.data.columns.length} columns, ${held} delegations in the page (${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB)`);
    log(`  as sent to a browser: ${await sentBytes(u, gridHeaders)}`);
  }

  // The search, service and bare; then the grid on the service alone, each measurement followed by settle (only the grid now is warmed up).
  const grid = (kind: 'grid' | 'gridAt' | 'gridRaw', url: string, headers: Record<string, string>): Target<Key> => ({
    key: { kind, impl: 'service' },
    label: kind,
    url,
    headers,
    warmup: kind === 'grid',
    after: () => settle(url, headers),
  });
  const targets: Target<Key>[] = [
    { ...searchService, key: { kind: 'search', impl: 'service' } },
    { ...searchBare, key: { kind: 'search', impl: 'bare' } },
    grid('grid', gridUrl, gridHeaders),
    grid('gridAt', gridAtUrl, gridHeaders),
    grid('gridRaw', gridUrl, bearer(gridCaller.sub)),
  ];
  await warmUp(targets, opts);
  const runs = await measureRounds(targets, opts);
  report(opts, runs);
  failUnlessAll200(runs, (r) => `${r.kind} ${r.impl}#${r.round}`);
}

function report(opts: Options, runs: Run<Key>[]): void {
  const search = versus(runs, { kind: 'search' });
  const [grid, gridAt, gridRaw] = (['grid', 'gridAt', 'gridRaw'] as const).map((kind) => best(runs, { kind, impl: 'service' }));
  const bests = new Set([search.service, search.bare, grid, gridAt, gridRaw]);
  printReport(
    [
      `matrix: ${runsNote(opts)} (*)`,
      `  search  POST /matrix/v1/matrix/global-search ${JSON.stringify(SEARCH)}, ${opts.matrices.toLocaleString('en')} matrices: service vs bare (Fastify + pg, same SQL)`,
      `  grid    GET /matrix/v1/matrix/{id}/grid?limit=50: ${opts.decisions} decisions × ${opts.positions} positions, ${opts.delegations.toLocaleString('en')} delegations`,
      `  gridAt  the same grid ?at= a year ago`,
      `  (both with Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}, as browsers send)`,
      `  gridRaw the grid now without compression (for reference): p95 ${gridRaw.p95.toFixed(2)} ms`,
      '',
      ...runsTable(runs, kindAndImpl(7), bests),
      '',
      `search: service/bare ${search.ratio.toFixed(2)} (${search.service.rps} / ${search.bare.rps} req/s; target >= ${TARGETS.search}, ${search.ratio >= TARGETS.search ? 'met' : 'NOT met'})`,
      `grid first page p95: ${grid.p95.toFixed(2)} ms now, ${gridAt.p95.toFixed(2)} ms a year ago (target <= ${TARGETS.gridP95Ms} ms: ${grid.p95 <= TARGETS.gridP95Ms && gridAt.p95 <= TARGETS.gridP95Ms ? 'met' : 'NOT met'})`,
    ],
    {
      bench: 'matrix',
      connections: opts.connections,
      durationSec: opts.duration,
      sizes: { matrices: opts.matrices, decisions: opts.decisions, positions: opts.positions, delegations: opts.delegations },
      search: { ...search.pair, ratio: round2(search.ratio), target: TARGETS.search, met: search.ratio >= TARGETS.search },
      grid: {
        acceptEncoding: BROWSER_ACCEPT_ENCODING,
        now: summary(grid),
        yearAgo: summary(gridAt),
        uncompressed: summary(gridRaw),
        targetP95Ms: TARGETS.gridP95Ms,
      },
      runs,
    },
  );
}

const SIZE_RANGE: [number, number] = [10, 2_000_000];

serviceBench<Options>({
  name: 'matrix',
  service: 'matrix',
  usage: 'npm run bench -- matrix [--duration <s>] [--connections <n>] [--warmup <s>] [--matrices <n>] [--decisions <n>] [--positions <n>] [--delegations <n>] [--keep]',
  defaults: { matrices: 50_000, decisions: 1_000, positions: 200, delegations: 200_000 },
  options: { counts: { matrices: SIZE_RANGE, decisions: SIZE_RANGE, positions: SIZE_RANGE, delegations: SIZE_RANGE } },
  appUrl: APP_URL,
  bare: { routes: bareRoutes },
  main,
});
