import { Db } from '@ddm/platform';
import { allTenants, createTestDatabase, createTestNamespace, runSeed, startTestService, testEnv, TestService, until } from '@ddm/testing';
import { DocumentModule } from '../src/document.module';
import { documentDataSource } from '../src/data-source';

describe('the document seed (npm run seed, every area)', () => {
  let svc: TestService;
  let seeded: ReturnType<typeof runSeed>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const ns = createTestNamespace();
    seeded = runSeed(testEnv(database, ns, { DB_POOL_SIZE: '3' }));
    // Twice: nothing is made again.
    seeded = runSeed(testEnv(database, ns, { DB_POOL_SIZE: '3' }));
    svc = await startTestService(DocumentModule, { area: 'document', dataSource: documentDataSource }, { db: database, ns });
  }, 180_000);
  afterAll(() => svc?.close());

  it('gives Demo Co 15 documents, some restricted, one in review, the delegation-of-authority policy linked to the Finance decisions', async () => {
    const demo = seeded.tenants.find((t) => t.name === 'Demo Co')! as (typeof seeded.tenants)[number] & { document: { documents: number; doaPolicyId: string } };
    expect(demo.document.documents).toBe(15);
    const db = allTenants(svc.app.get(Db));
    const [row] = await db.query<{ all: number; restricted: number; in_review: number }>(
      `SELECT count(*)::int AS all, count(*) FILTER (WHERE document_sharing_type = 'RESTRICTED')::int AS restricted,
              count(*) FILTER (WHERE review_status = 'REVIEW_PENDING')::int AS in_review
         FROM document.documents WHERE tenant_id = $1 AND NOT is_deleted`,
      [demo.id],
    );
    expect(row).toEqual({ all: 15, restricted: 6, in_review: 1 });
    const [resolutions] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM document.documents WHERE tenant_id = $1 AND document_name LIKE 'Board Resolution%'`, [demo.id]);
    expect(resolutions.n).toBe(2);
    // The decision area's events reach the document area: the policy counts the Finance decisions that link it (once each, though the seed ran twice).
    const linked = await until(async () => {
      const [r] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM document.decision_projection WHERE tenant_id = $1 AND document_ids @> ARRAY[$2::uuid] AND NOT is_deleted`, [
        demo.id,
        demo.document.doaPolicyId,
      ]);
      return r.n >= 11 && r.n;
    }, 'the Finance decisions linking the policy in the document projection', 60_000);
    expect(linked).toBe(11);
    const [policy] = await db.query<{ document_name: string; document_status: string }>(`SELECT document_name, document_status FROM document.documents WHERE id = $1`, [demo.document.doaPolicyId]);
    expect(policy).toEqual({ document_name: 'Delegation of Authority Policy', document_status: 'PUBLISHED' });
    const other = seeded.tenants.find((t) => t.name === 'Other Co')! as unknown as { document: { documents: number } };
    expect(other.document.documents).toBe(0);
  });
});
