import { Db } from '@ddm/platform';
import { allTenants, createTestDatabase, createTestNamespace, runSeed, startTestService, testEnv, TestService, until } from '@ddm/testing';
import { MatrixModule } from '../src/matrix.module';
import { matrixDataSource } from '../src/data-source';

describe('the matrix seed (npm run seed, SEED_AREAS=matrix): the decision area’s real events reach the matrix projection', () => {
  let svc: TestService;
  let seeded: ReturnType<typeof runSeed>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const ns = createTestNamespace();
    seeded = runSeed(testEnv(database, ns, { DB_POOL_SIZE: '3' }), ['matrix']);
    // Twice: nothing is made again.
    seeded = runSeed(testEnv(database, ns, { DB_POOL_SIZE: '3' }), ['matrix']);
    svc = await startTestService(MatrixModule, { area: 'matrix', dataSource: matrixDataSource }, { db: database, ns });
  }, 240_000);
  afterAll(() => svc?.close());

  it('gives Demo Co 5 matrices (Finance by position, board-level by group, a role matrix, a draft, an archived one), two shared, one with saved views', async () => {
    const demo = seeded.tenants.find((t) => t.name === 'Demo Co')! as (typeof seeded.tenants)[number] & { matrix: { matrices: number } };
    expect(demo.matrix.matrices).toBe(5);
    const db = allTenants(svc.app.get(Db));
    const rows = await db.query<{ matrix_name: string; status_name: string; sharing_type: string; positions: number; groups: number; role_matrix: boolean; views: number }>(
      `SELECT matrix_name, status_name, sharing_type, cardinality(position_ids) AS positions, cardinality(group_ids) AS groups, role_matrix,
              (SELECT count(*)::int FROM matrix.user_views v WHERE v.matrix_id = m.id) AS views
         FROM matrix.matrices m WHERE tenant_id = $1 AND NOT is_deleted ORDER BY matrix_display_id`,
      [demo.id],
    );
    expect(rows).toEqual([
      { matrix_name: 'Finance Authority Matrix', status_name: 'Active', sharing_type: 'SHARED', positions: 5, groups: 0, role_matrix: false, views: 2 },
      { matrix_name: 'Board-Level Matrix', status_name: 'Active', sharing_type: 'SHARED', positions: 0, groups: 3, role_matrix: false, views: 0 },
      { matrix_name: 'Decision Role Matrix', status_name: 'Active', sharing_type: 'PRIVATE', positions: 0, groups: 0, role_matrix: true, views: 0 },
      { matrix_name: 'Commercial Matrix (draft)', status_name: 'Draft', sharing_type: 'PRIVATE', positions: 0, groups: 0, role_matrix: false, views: 0 },
      { matrix_name: 'FY2025 Matrix (archived)', status_name: 'Archived', sharing_type: 'PRIVATE', positions: 0, groups: 0, role_matrix: false, views: 0 },
    ]);
    const other = seeded.tenants.find((t) => t.name === 'Other Co')! as unknown as { matrix: { matrices: number } };
    expect(other.matrix.matrices).toBe(0);

    // The decision area's delegation events (with their limits) reached the matrix projection.
    const held = await until(async () => {
      const [r] = await db.query<{ n: number; with_limits: number }>(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE jsonb_array_length(authorities) > 0)::int AS with_limits FROM matrix.delegation_projection WHERE tenant_id = $1`,
        [demo.id],
      );
      return r.n > 0 && r;
    }, 'the seeded delegations in the matrix projection', 60_000);
    expect(held.with_limits).toBeGreaterThan(0);
  });
});
