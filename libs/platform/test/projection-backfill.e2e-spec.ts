import { randomUUID } from 'node:crypto';
import { DocumentPayload } from '@ddm/contracts';
import { until } from '@ddm/testing';
import { JSONCodec } from 'nats';
import { createLogger } from '../src/logger';
import { CROSS_TENANT_ROLE } from '../src/tenancy';
import { ProjectionSpec, backfillProjection, projectionConsumers } from '../src/projection';
import { SnapshotSource, snapshotSources } from '../src/snapshot';
import { WidgetsPlatform, startWidgetsPlatform } from './fixtures/widgets';

const log = createLogger('platform-test', process.env.TEST_LOG ?? 'silent');
const TENANTS = ['0190a000-0000-7000-8000-0000000000b1', '0190a000-0000-7000-8000-0000000000b2'];
const SUBJECT = 'evt.document.document.updated' as const;

const payload = (tenantId: string, id: string, name: string, version: number): { tenantId: string; document: DocumentPayload } => ({
  tenantId,
  document: {
    id, documentDisplayId: '10000', documentName: name, documentDescription: null, documentUrl: null, documentTypeName: null, documentIcon: null,
    documentFileType: null, documentStatus: 'PUBLISHED', documentSharingType: 'TENANT', ownerId: null, isDeleted: false, version,
  },
});

/** The owning area's side: every tenant's rows of doc_source, in id order, as the updated event carries them. */
const SOURCE: SnapshotSource<typeof SUBJECT> = {
  name: 'document.test-docs',
  subject: SUBJECT,
  page: async (q, after, limit) =>
    (await q.query<{ id: string; tenant_id: string; name: string; version: string }>(
      `SELECT id, tenant_id, name, version FROM platform_test.doc_source WHERE $1::uuid IS NULL OR id > $1::uuid ORDER BY id LIMIT $2`,
      [after, limit],
    )).map((r) => ({ id: r.id, payload: payload(r.tenant_id, r.id, r.name, Number(r.version)) })),
};

/** The other area's projection of it, backfilled from SOURCE. */
const PROJECTION: ProjectionSpec<typeof SUBJECT> = {
  name: 'test-doc-projection',
  subjects: [SUBJECT],
  table: 'platform_test.doc_projection',
  key: 'id',
  row: ({ payload: { tenantId, document } }) => ({ id: document.id, tenantId, version: document.version, values: { name: document.documentName } }),
  backfill: { source: SOURCE.name, subject: SUBJECT },
};

/**
 * Projection backfill (real Postgres and NATS): the stream has lost its first events (purged, as
 * retention does after 7 days), so a projection that starts now asks the owning area for every
 * record's current state, page by page across tenants, and applies it beside the live events (the
 * newest version wins whichever arrives first); done once, recorded.
 */
describe('projection backfill from the owning area (e2e)', () => {
  let p: WidgetsPlatform;
  const ids: string[] = Array.from({ length: 450 }, () => randomUUID()).sort();
  const tenantOf = (id: string) => TENANTS[(ids.indexOf(id) + 1) % 2];
  const responder = () => new (snapshotSources(SOURCE))(p.db, p.nats, log);
  let serving: ReturnType<typeof responder>;
  let consumers: InstanceType<ReturnType<typeof projectionConsumers>> | undefined;
  let unversioned: InstanceType<ReturnType<typeof projectionConsumers>> | undefined;

  beforeAll(async () => {
    p = await startWidgetsPlatform('projection-backfill-test', 4, log);
    // As a service's migrations grant it (grantAppRole): the explicit cross-tenant path reads and writes the schema.
    await p.ds.query(`GRANT USAGE ON SCHEMA platform_test TO ${CROSS_TENANT_ROLE}; GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA platform_test TO ${CROSS_TENANT_ROLE}`);
    // 450 records of two tenants at version 3: more than two pages of SNAPSHOT_PAGE_ITEMS.
    await p.ds.query(
      `INSERT INTO platform_test.doc_source (id, tenant_id, name, version) SELECT x.id, ($2::uuid[])[1 + (x.n % 2)], 'doc ' || x.n, 3 FROM unnest($1::uuid[]) WITH ORDINALITY AS x(id, n)`,
      [ids, TENANTS],
    );
    // Events published long ago, now gone from the stream.
    const codec = JSONCodec<object>();
    for (const id of ids.slice(0, 5)) await p.nats.js.publish(p.ns.subjects.wire(SUBJECT), codec.encode(payload(TENANTS[0], id, 'aged out', 1)));
    await p.nats.jsm.streams.purge(p.ns.subjects.eventsStream);
    serving = responder();
    await serving.onApplicationBootstrap();
  });

  afterAll(async () => {
    await consumers?.beforeApplicationShutdown();
    await unversioned?.beforeApplicationShutdown();
    await serving?.beforeApplicationShutdown();
    await p?.close();
  });

  const projected = async (table = 'doc_projection') => {
    const rows = await p.db.acrossTenants('the spec reads the projection', () =>
      p.db.query<{ id: string; tenant_id: string; name: string; version: string }>(`SELECT id, tenant_id, name, version FROM platform_test.${table}`),
    );
    return new Map(rows.map((r) => [r.id, { tenantId: r.tenant_id, name: r.name, version: Number(r.version) }]));
  };

  it('a new projection learns every record the stream no longer holds, once; a live event newer than the snapshot wins, an older one does not', async () => {
    const codec = JSONCodec<object>();
    // Live events meanwhile: one newer than the snapshot's version, one older.
    const [newer, older] = [ids[7], ids[300]];
    await p.nats.js.publish(p.ns.subjects.wire(SUBJECT), codec.encode(payload(tenantOf(newer), newer, 'renamed later', 5)));
    await p.nats.js.publish(p.ns.subjects.wire(SUBJECT), codec.encode(payload(tenantOf(older), older, 'stale event', 2)));

    consumers = new (projectionConsumers(PROJECTION))(p.consumers, p.db, p.nats, log);
    await consumers.onApplicationBootstrap();
    const done = await until(
      async () => (await p.db.query<{ rows: string }>(`SELECT rows FROM platform_test.projection_backfills WHERE projection = $1`, [PROJECTION.name]))[0],
      'the backfill to be recorded',
      30_000,
    );
    expect(Number(done.rows)).toBe(450);
    await until(async () => (await projected()).get(newer)?.version === 5, 'the newer live event applied', 10_000);

    const rows = await projected();
    expect(rows.size).toBe(450);
    ids.forEach((id, i) => {
      const expected = id === newer ? { name: 'renamed later', version: 5 } : { name: `doc ${i + 1}`, version: 3 };
      expect(rows.get(id)).toEqual({ tenantId: TENANTS[(i + 1) % 2], ...expected });
    });
    // Recorded: the next start does not ask again (it answers at once, without asking).
    expect(await backfillProjection(p.db, p.nats, log, { ...PROJECTION, backfill: PROJECTION.backfill! }, new AbortController().signal)).toBeNull();
  });

  it('rows without a version: the snapshot writes only what the table lacks, so a live event is never overwritten by the older snapshot', async () => {
    await p.nats.jsm.streams.purge(p.ns.subjects.eventsStream);
    const live = ids[9];
    await p.nats.js.publish(p.ns.subjects.wire(SUBJECT), JSONCodec<object>().encode(payload(tenantOf(live), live, 'renamed meanwhile', 4)));
    // The snapshot is read before the live event and answered after it is applied: the order in which a blind overwrite would lose the event.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const gated: SnapshotSource<typeof SUBJECT> = { ...SOURCE, name: 'document.test-docs-gated', page: async (q, after, limit) => {
      const page = await SOURCE.page(q, after, limit);
      await gate;
      return page;
    } };
    const gatedServing = new (snapshotSources(gated))(p.db, p.nats, log);
    await gatedServing.onApplicationBootstrap();
    const spec: ProjectionSpec<typeof SUBJECT> = {
      ...PROJECTION,
      name: 'test-doc-projection-unversioned',
      table: 'platform_test.doc_projection_unversioned',
      row: (m) => ({ ...PROJECTION.row(m), version: null }),
      backfill: { source: gated.name, subject: SUBJECT },
    };
    unversioned = new (projectionConsumers(spec))(p.consumers, p.db, p.nats, log);
    await unversioned.onApplicationBootstrap();
    await until(async () => (await projected('doc_projection_unversioned')).get(live)?.name === 'renamed meanwhile', 'the live event applied', 10_000);
    open();
    await until(async () => (await p.db.query(`SELECT 1 FROM platform_test.projection_backfills WHERE projection = $1`, [spec.name])).length > 0, 'the backfill to be recorded', 30_000);
    await gatedServing.beforeApplicationShutdown();
    const rows = await projected('doc_projection_unversioned');
    expect(rows.size).toBe(450);
    ids.forEach((id, i) => expect(rows.get(id)).toEqual({ tenantId: tenantOf(id), name: id === live ? 'renamed meanwhile' : `doc ${i + 1}`, version: 0 }));
  });
});
