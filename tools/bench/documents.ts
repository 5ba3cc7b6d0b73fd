/**
 * npm run bench -- documents [--duration 10] [--connections 16] [--warmup 3] [--large 100000] [--small 1000] [--keep]
 *
 * What the document service's visibility-checked list costs over the SQL it runs. In a scratch
 * database (ddm_bench_documents, dropped at the end unless --keep) two tenants get `--small` and
 * `--large` documents (set-based SQL, their audience written by the service's own statements), a
 * third of them RESTRICTED: a tenth of those shared with the caller's group (a child of the group
 * they are shared with, so the hierarchy is walked), the others with another group. Another user
 * created and last changed them all (a creator is in a restricted document's audience). The
 * caller is a Global User (no key that sees everything). The built
 * auth and document services run as child processes (NATS namespace "benchdocuments"); a BARE
 * handler, plain Fastify + a pg pool of 10 with no auth and no envelope, runs in a worker thread
 * and serves the very same statements (the audience, then the list, imported from
 * apps/document/src/documents/document.sql.ts), mapped by the same toDocumentView.
 *
 * Measured in one run, service and bare alternating, twice, the better run of each counting:
 *   list   GET /document/v1/documents?documentSharingType=RESTRICTED&sortBy=lastUpdatedOn&sortOrder=desc&limit=20 (large tenant)
 *   small  the same list in the small tenant
 * The restricted documents the caller sees are a tenth of the restricted ones. Prints the ratio
 * service/bare of requests per second (target >= 0.8), the list's p95 at large over small
 * (target <= 1.5), and the throughput of a 20 MiB file uploaded (POST /document/v1/files,
 * multipart, streamed) and downloaded (MB/s), the best of three each.
 */
import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import type { FastifyInstance } from 'fastify';
import { Client, Pool } from 'pg';
import { pageRows } from '@ddm/platform';
import { AUDIENCE_SQL, DocumentRow, INSERT_AUDIENCE_SQL, documentList } from '../../apps/document/src/documents/document.sql';
import { ListDocumentsQuery } from '../../apps/document/src/documents/dto/list-documents.query';
import { toDocumentView } from '../../apps/document/src/documents/dto/document.response';
import { Ask, BenchContext, bearer, checkSame, failUnlessAll200, Impl, kindAndImpl, log, measureRounds, pageOf, printReport, round2, Run, runsNote, runsTable, secondsSince, seedCaller, seedTenantWithRoles, serviceAndBare, serviceBench, ServiceBenchOptions, versus, warmUp } from './lib';

const LIST_QUERY = 'documentSharingType=RESTRICTED&sortBy=lastUpdatedOn&sortOrder=desc&limit=20';
const TARGETS = { list: 0.8, p95Growth: 1.5 } as const;
const APP_URL = 'http://localhost:8080';
const FILE_BYTES = 20 * 1024 * 1024;

type Kind = 'list' | 'small';
const KINDS: Kind[] = ['list', 'small'];
interface Options extends ServiceBenchOptions {
  large: number;
  small: number;
}

// ---------------------------------------------------------------------------------------------
// The bare handler (worker thread): same SQL, same mapping, no auth, no envelope.
// ---------------------------------------------------------------------------------------------

function bareRoutes(app: FastifyInstance, pool: Pool): void {
  app.get<{ Querystring: Record<string, string> }>('/bare/documents', async (req) => {
    const { tenantId, userId, ...query } = req.query;
    const q = plainToInstance(ListDocumentsQuery, query);
    const { rows: [me] } = await pool.query<{ position_ids: string[]; group_ids: string[] }>(AUDIENCE_SQL, [tenantId, userId]);
    const audience = { tenantId, userId, positionIds: me?.position_ids ?? [], groupIds: me?.group_ids ?? [], all: false };
    const statement = documentList(tenantId, audience, q);
    const { rows } = await pool.query(statement.text, statement.values as unknown[]);
    const caller = { userId, keys: new Set<string>(['view:decisions', 'create:actions']) };
    const { items, total } = pageRows(rows as (DocumentRow & { total: number; ord: unknown })[], (r) => toDocumentView(r.view, caller, audience.positionIds, APP_URL, r.is_favourite ?? false));
    return { page: q.page, limit: q.limit, total, data: items };
  });
}

// ---------------------------------------------------------------------------------------------
// Seed (set-based SQL).
// ---------------------------------------------------------------------------------------------

interface SeededTenant {
  tenantId: string;
  userId: string;
  callerSub: string;
  /** Restricted documents the caller sees. */
  visibleRestricted: number;
}

/**
 * `count` documents of the tenant ("Document <n>", created over two years); every third RESTRICTED,
 * shared with group A when (n / 3) % 10 = 0 (a tenth of the restricted ones), else with group B;
 * created and last changed by another user. The caller is a member of A's child group, so their
 * audience walks the hierarchy.
 */
async function seedTenant(db: Client, name: string, count: number): Promise<SeededTenant> {
  const { tenantId, roleIds } = await seedTenantWithRoles(db, name);
  const caller = await seedCaller(db, tenantId, roleIds.GLOBAL_USER, `user@${name.toLowerCase().replace(/\s+/g, '-')}.bench.test`);
  const [a, b, child] = [0, 1, 2].map(() => crypto.randomUUID());
  await db.query(
    `INSERT INTO document.group_projection (id, tenant_id, group_name, status, parent_group_ids)
     VALUES ($2, $1, 'Group A', 'ACTIVE', '{}'), ($3, $1, 'Group B', 'ACTIVE', '{}'), ($4, $1, 'Group A child', 'ACTIVE', ARRAY[$2]::uuid[])`,
    [tenantId, a, b, child],
  );
  const author = crypto.randomUUID();
  await db.query(
    `INSERT INTO document.user_projection (tenant_id, id, email, name, status, group_ids)
     VALUES ($1, $2, $3, 'Bench User', 'ACTIVE', ARRAY[$4]::uuid[]), ($1, $5, $6, 'Bench Author', 'ACTIVE', '{}')`,
    [tenantId, caller.userId, `user@${tenantId}.bench.test`, child, author, `author@${tenantId}.bench.test`],
  );
  await db.query(
    `INSERT INTO document.documents (id, tenant_id, document_display_id, document_name, document_description, document_status, document_sharing_type,
                                     document_upload_type, document_url, owner_id, oversight_id, created_on, updated_on, created_by, updated_by, revision_count)
     SELECT gen_random_uuid(), $1, (9999 + x.i)::text, 'Document ' || x.i, 'Bench document ' || x.i, CASE WHEN x.i % 4 = 0 THEN 'DRAFT' ELSE 'PUBLISHED' END,
            CASE WHEN x.i % 3 = 0 THEN 'RESTRICTED' ELSE 'TENANT' END, 'LINKED', 'https://intranet.example.com/' || x.i || '.pdf', gen_random_uuid(), gen_random_uuid(),
            x.created, least(now(), x.created + (x.i % 30) * interval '1 day'), $3, $3, 1
       FROM (SELECT i, now() - (($2::int - i)::float8 / $2::int) * interval '730 days' AS created FROM generate_series(1, $2::int) AS i) x`,
    [tenantId, count, author],
  );
  await db.query(
    `INSERT INTO document.document_sharing_groups (id, tenant_id, document_id, group_id, position)
     SELECT gen_random_uuid(), $1, d.id, CASE WHEN ((d.document_display_id::int - 9999) / 3) % 10 = 0 THEN $2::uuid ELSE $3::uuid END, 1
       FROM document.documents d WHERE d.tenant_id = $1 AND d.document_sharing_type = 'RESTRICTED'`,
    [tenantId, a, b],
  );
  const [{ ids }] = (await db.query<{ ids: string[] }>(`SELECT array_agg(id) AS ids FROM document.documents WHERE tenant_id = $1`, [tenantId])).rows;
  await db.query(INSERT_AUDIENCE_SQL, [tenantId, ids]);
  await db.query(`INSERT INTO document.display_id_counters (tenant_id, kind, last_value) VALUES ($1, 'document', $2)`, [tenantId, 9999 + count]);
  const [{ n }] = (
    await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM document.document_sharing_groups WHERE tenant_id = $1 AND group_id = $2`, [tenantId, a])
  ).rows;
  return { tenantId, userId: caller.userId, callerSub: caller.sub, visibleRestricted: n };
}

/** A 20 MiB file of the caller's (the uploader reads it back), written as the PostgreSQL store keeps it (1 MiB chunks). */
async function seedFile(db: Client, t: SeededTenant): Promise<string> {
  const id = crypto.randomUUID();
  await db.query(`INSERT INTO document.files (id, tenant_id, name, media_type, size, storage, complete, created_by) VALUES ($1, $2, 'bench.pdf', 'application/pdf', $3, 'postgres', true, $4)`, [
    id,
    t.tenantId,
    FILE_BYTES,
    t.userId,
  ]);
  await db.query(`INSERT INTO document.file_chunks (file_id, tenant_id, seq, data) SELECT $1, $2, s, convert_to(repeat(chr(65 + s % 26), 1048576), 'SQL_ASCII') FROM generate_series(0, 19) AS s`, [
    id,
    t.tenantId,
  ]);
  return id;
}

// ---------------------------------------------------------------------------------------------
// Main.
// ---------------------------------------------------------------------------------------------

async function main({ opts, db, svc, startBare }: BenchContext<Options, object>): Promise<void> {
  const sizes: Record<Kind, number> = { list: opts.large, small: opts.small };
  const tenants = {} as Record<Kind, SeededTenant>;
  for (const kind of ['small', 'list'] as const) {
    const started = Date.now();
    tenants[kind] = await seedTenant(db, `Bench ${kind}`, sizes[kind]);
    log(`${kind} tenant: ${sizes[kind].toLocaleString('en')} documents seeded in ${secondsSince(started)} s`);
  }
  const fileId = await seedFile(db, tenants.list);
  // The caller may not upload (a Global User holds no create:documents): a Global Authority Manager of a tenant of their own does.
  const uploads = await seedTenantWithRoles(db, 'Bench uploads');
  const uploader = await seedCaller(db, uploads.tenantId, uploads.roleIds.GLOBAL_AUTHORITY_MANAGER, 'uploader@bench-uploads.bench.test');
  await db.query('VACUUM (ANALYZE)');

  const bare = await startBare({});
  const sides = {} as Record<Kind, { service: Ask; bare: Ask }>;
  for (const kind of KINDS) {
    sides[kind] = {
      service: { url: `${svc}/document/v1/documents?${LIST_QUERY}`, headers: bearer(tenants[kind].callerSub) },
      bare: { url: `${bare}/bare/documents?${LIST_QUERY}&tenantId=${tenants[kind].tenantId}&userId=${tenants[kind].userId}`, headers: {} },
    };
  }
  const matches = {} as Record<Kind, number>;
  for (const kind of KINDS) {
    matches[kind] = ((await checkSame(kind, sides[kind].service, sides[kind].bare, pageOf)) as { total: number }).total;
    // The list must answer what the seed meant (a tenth of the restricted ones), or the sizes compared are not the ones described.
    if (matches[kind] !== tenants[kind].visibleRestricted) throw new Error(`${kind}: the caller sees ${matches[kind]} restricted documents, the seed shared ${tenants[kind].visibleRestricted} with them`);
  }
  log(`service and bare answer the same page; the caller sees ${matches.list} of ${Math.floor(sizes.list / 3)} restricted documents (large), ${matches.small} of ${Math.floor(sizes.small / 3)} (small)`);

  const targets = serviceAndBare(KINDS, (kind) => sides[kind]);
  const warmups = await warmUp(targets, opts);
  const runs = await measureRounds(targets, opts);

  // Upload throughput: a 20 MiB file sent as multipart/form-data, three times, the best counting.
  let uploadMBs = 0;
  // A PDF by its bytes (the service detects the type from the content): the header, then filler.
  const bytes = Buffer.alloc(FILE_BYTES, 'A');
  bytes.write('%PDF-1.7\n', 0, 'latin1');
  const content = new Blob([bytes], { type: 'application/pdf' });
  for (let i = 0; i < 3; i++) {
    const form = new FormData();
    form.append('file', content, 'bench-upload.pdf');
    const started = process.hrtime.bigint();
    const res = await fetch(`${svc}/document/v1/files`, { method: 'POST', headers: bearer(uploader.sub), body: form });
    const body = (await res.json()) as { data?: { size?: number } };
    if (res.status !== 200 || body.data?.size !== FILE_BYTES) throw new Error(`upload answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    uploadMBs = Math.max(uploadMBs, round2(FILE_BYTES / 1e6 / seconds));
  }

  // Download throughput: the 20 MiB file streamed back, three times, the best counting.
  let downloadMBs = 0;
  for (let i = 0; i < 3; i++) {
    const started = process.hrtime.bigint();
    const res = await fetch(`${svc}/document/v1/files/${fileId}/content`, { headers: sides.list.service.headers });
    const bytes = (await res.arrayBuffer()).byteLength;
    if (res.status !== 200 || bytes !== FILE_BYTES) throw new Error(`download answered ${res.status} with ${bytes} bytes`);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    downloadMBs = Math.max(downloadMBs, round2(FILE_BYTES / 1e6 / seconds));
  }

  report(opts, sizes, runs, matches, uploadMBs, downloadMBs);
  failUnlessAll200([...warmups, ...runs], (r) => `${r.kind} ${r.impl}#${r.round}`);
}

function report(opts: Options, sizes: Record<Kind, number>, runs: Run<{ kind: Kind; impl: Impl }>[], matches: Record<Kind, number>, uploadMBs: number, downloadMBs: number): void {
  const [list, small] = KINDS.map((kind) => versus(runs, { kind }));
  const bests = new Set([list.service, list.bare, small.service, small.bare]);
  const growth = list.service.p95 / small.service.p95;
  printReport(
    [
      `documents list (RESTRICTED, as a Global User who sees a tenth of them): service (NestJS, caches warm, envelope) vs bare (Fastify + pg, same SQL) — ${runsNote(opts)} (*)`,
      `  list  GET /document/v1/documents?${LIST_QUERY}, ${sizes.list.toLocaleString('en')} documents`,
      `  small the same list, ${sizes.small.toLocaleString('en')} documents`,
      '',
      ...runsTable(runs, kindAndImpl(6), bests),
      '',
      `list: service/bare ${list.ratio.toFixed(2)} (${list.service.rps} / ${list.bare.rps} req/s; target >= ${TARGETS.list}, ${list.ratio >= TARGETS.list ? 'met' : 'NOT met'})`,
      `list p95 (service): ${small.service.p95.toFixed(2)} ms at ${sizes.small.toLocaleString('en')}, ${list.service.p95.toFixed(2)} ms at ${sizes.list.toLocaleString('en')}: ` +
        `${growth.toFixed(2)}x (target <= ${TARGETS.p95Growth}, ${growth <= TARGETS.p95Growth ? 'met' : 'NOT met'}); the caller sees ${matches.small} and ${matches.list} restricted documents`,
      `a 20 MiB file: upload ${uploadMBs} MB/s, download ${downloadMBs} MB/s`,
    ],
    {
      bench: 'documents',
      connections: opts.connections,
      durationSec: opts.duration,
      documents: sizes,
      list: { path: `/document/v1/documents?${LIST_QUERY}`, matches: matches.list, ...list.pair, ratio: round2(list.ratio), target: TARGETS.list, met: list.ratio >= TARGETS.list },
      listSmall: { matches: matches.small, ...small.pair },
      p95Growth: { ratio: round2(growth), target: TARGETS.p95Growth, met: growth <= TARGETS.p95Growth },
      uploadMBs,
      downloadMBs,
      runs,
    },
  );
}

serviceBench<Options>({
  name: 'documents',
  service: 'document',
  usage: 'npm run bench -- documents [--duration <s>] [--connections <n>] [--warmup <s>] [--large <n>] [--small <n>] [--keep]',
  defaults: { large: 100_000, small: 1_000 },
  options: { counts: { large: [30, 1_000_000], small: [30, 1_000_000] } },
  appUrl: APP_URL,
  bare: { routes: bareRoutes },
  main,
});
