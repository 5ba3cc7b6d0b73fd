import { RunningProcess, TestDatabase, TestNamespace, createTestDatabase, createTestNamespace, spawnBuilt, testEnv, until } from '@ddm/testing';

describe('graceful shutdown (built service process)', () => {
  let dbx: TestDatabase;
  let ns: TestNamespace;
  let proc: RunningProcess;

  beforeAll(async () => {
    dbx = await createTestDatabase();
    ns = createTestNamespace();
    proc = await spawnBuilt('libs/platform/test/fixtures/slow-service.js', testEnv(dbx, ns, { LOG_LEVEL: 'warn' }));
  });

  afterAll(async () => {
    await proc?.stop('SIGKILL');
    await dbx?.drop();
    await ns?.cleanup();
  });

  it('lets every in-flight request finish on SIGTERM, refuses new ones, and exits 0', async () => {
    const inflight = Array.from({ length: 20 }, () => fetch(`${proc.url}/decision/v1/slow`).then(async (r) => ({ status: r.status, body: (await r.json()) as { data: { finished: boolean } } })));
    await until(async () => ((await (await fetch(`${proc.url}/decision/v1/slow/inflight`)).json()) as { data: { inflight: number } }).data.inflight === 20, 'the 20 requests to be in flight');
    const exit = proc.stop('SIGTERM');
    // The signal was taken: readiness says so (or the listener is already closed).
    await until(
      () => fetch(`${proc.url}/health/ready`).then(async (r) => r.status === 503 && ((await r.json()) as { status: string }).status === 'shutting-down', () => true),
      'the service to take the SIGTERM',
    );
    const late = await fetch(`${proc.url}/decision/v1/slow`).then(
      async (r) => ({ status: r.status, body: (await r.json().catch(() => null)) as { statusCode: number; message: string } | null }),
      () => 'refused' as const,
    );
    const results = await Promise.all(inflight);
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(results.every((r) => r.body.data.finished === true)).toBe(true);
    // A new request is either refused (listener closed) or answered 503 in our error body.
    if (late !== 'refused') {
      expect(late.status).toBe(503);
      expect(late.body).toMatchObject({ statusCode: 503, message: expect.stringMatching(/shutting down/) });
    }
    expect(await exit).toBe(0);
  });
});
