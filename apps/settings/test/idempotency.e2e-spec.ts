import { randomUUID } from 'node:crypto';
import { Client, Pool } from 'pg';
import { IdempotencySweep, requestFingerprint } from '@ddm/platform';
import { expectErrorBody, HttpResult, startHarness, startTestService, TestService, until } from '@ddm/testing';
import { settingsDataSource } from '../src/data-source';
import { SettingsModule } from '../src/settings.module';
import { settingsApp, SettingsHarness } from './fixtures/settings-app';

const P = '/settings/v1/positions';
const BULK = `${P}/bulk-status-update`;

/**
 * Idempotency-Key (libs/platform/src/idempotency.ts) on a real service: two replicas of settings
 * on one database, the auth service resolving callers. Each test uses its own keys and names.
 */
describe('Idempotency-Key on POST and bulk PATCH (e2e, two replicas on one database)', () => {
  let h: SettingsHarness;
  let replica: TestService;
  // The spec's own checks and set-ups (a trigger included) as the schema's owner.
  let owner: Pool;
  const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await owner.query(text, params)).rows as T[];
  const post = (svc: TestService, body: unknown, key?: string, token = h.tokens.admin) =>
    svc.http.post(P, { token, body, headers: key === undefined ? {} : { 'idempotency-key': key } });
  const bulk = (svc: TestService, body: unknown, key: string) => svc.http.patch(BULK, { token: h.tokens.admin, body, headers: { 'idempotency-key': key } });
  const livePositions = async (name: string) =>
    Number((await sql<{ n: number }>(`SELECT count(*)::int AS n FROM settings.positions WHERE position_name = $1 AND NOT is_deleted`, [name]))[0].n);
  const keyRow = async (key: string) => (await sql<{ state: string; caller_id: string; tenant_id: string }>(`SELECT state, caller_id, tenant_id FROM settings.idempotency_keys WHERE key = $1`, [key]))[0];
  const outboxCount = async (subject: string) => Number((await sql<{ n: number }>(`SELECT count(*)::int AS n FROM settings.outbox WHERE subject = $1`, [subject]))[0].n);

  function expectReplayOf(retry: HttpResult, first: HttpResult) {
    expect(retry.status).toBe(first.status);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
  }

  beforeAll(async () => {
    h = await startHarness(settingsApp);
    // A second replica of the same service on the same database and namespace.
    replica = await startTestService(SettingsModule, { area: 'settings', dataSource: settingsDataSource }, { db: h.svc.db, ns: h.svc.ns });
    owner = new Pool({ connectionString: h.svc.db.url, max: 2 });
  });
  afterAll(async () => {
    await owner?.end();
    await replica?.app.close();
    await h?.close();
  });

  it('a retry with the same key and body (keys in another order, on the other replica) answers the same status and body; the handler ran once', async () => {
    const key = randomUUID();
    const createdBefore = await outboxCount('evt.settings.position.created');
    const first = await post(h.svc, { positionName: 'Idem Once', status: 'ACTIVE', externalId: 'X-1' }, key);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ positionName: 'Idem Once' });
    const retry = await post(replica, { externalId: 'X-1', status: 'ACTIVE', positionName: 'Idem Once' }, key);
    expectReplayOf(retry, first);
    expectReplayOf(await post(h.svc, { positionName: 'Idem Once', status: 'ACTIVE', externalId: 'X-1' }, key), first);
    expect(await livePositions('Idem Once')).toBe(1);
    expect(await outboxCount('evt.settings.position.created')).toBe(createdBefore + 1);
    expect(await keyRow(key)).toMatchObject({ state: 'done', tenant_id: h.demo.id });
  });

  it('without the header nothing changes: the same request runs twice (the second finds the name taken)', async () => {
    expect((await post(h.svc, { positionName: 'Idem Plain' })).status).toBe(200);
    const again = await post(replica, { positionName: 'Idem Plain' });
    expectErrorBody(again, 409);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });

  it('the same key with another body is a 422 in the house error body, and nothing runs', async () => {
    const key = randomUUID();
    expect((await post(h.svc, { positionName: 'Idem First' }, key)).status).toBe(200);
    const other = await post(replica, { positionName: 'Idem Second' }, key);
    expectErrorBody(other, 422, P);
    expect(other.body).toMatchObject({ error: 'Unprocessable Entity', message: expect.stringMatching(/Idempotency-Key was used with another request/) });
    // Another path with the same key is another request too.
    expectErrorBody(await bulk(h.svc, { ids: [randomUUID()], status: 'ACTIVE' }, key), 422, BULK);
    expect(await livePositions('Idem Second')).toBe(0);
  });

  it('keys belong to a tenant and a caller: another tenant\'s admin with the same key runs their own request', async () => {
    const key = randomUUID();
    const mine = await post(h.svc, { positionName: 'Idem Mine' }, key);
    const theirs = await post(replica, { positionName: 'Idem Mine' }, key, h.tokens.otherAdmin);
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.data.tenantId).toBe(h.other.id);
    expect(await livePositions('Idem Mine')).toBe(2);
  });

  it('a malformed key is a 400 naming the header', async () => {
    for (const key of ['', 'has space', 'x'.repeat(256), 'tab\tkey']) {
      const res = await post(h.svc, { positionName: 'Idem Bad Key' }, key);
      expectErrorBody(res, 400);
      expect(res.body.errors).toEqual([{ field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }]);
    }
    expect((await post(h.svc, { positionName: 'Idem Long Key' }, `k${'~'.repeat(254)}`)).status).toBe(200);
    expect(await livePositions('Idem Bad Key')).toBe(0);
  });

  it('a 4xx answer is stored and replayed: the retry does not run again even once it would succeed', async () => {
    expect((await post(h.svc, { positionName: 'Idem Taken' })).status).toBe(200);
    const key = randomUUID();
    const first = await post(h.svc, { positionName: 'Idem Taken' }, key);
    expectErrorBody(first, 409);
    await sql(`UPDATE settings.positions SET is_deleted = true, deleted_on = now() WHERE position_name = 'Idem Taken'`);
    const retry = await post(replica, { positionName: 'Idem Taken' }, key);
    expectReplayOf(retry, first);
    expect(await livePositions('Idem Taken')).toBe(0);
  });

  it('a 5xx answer is not stored: the claim is released and a retry runs again', async () => {
    await sql(`CREATE FUNCTION settings.idem_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
    await sql(`CREATE TRIGGER idem_test_fail BEFORE INSERT ON settings.positions FOR EACH ROW WHEN (NEW.position_name = 'Idem Boom') EXECUTE FUNCTION settings.idem_test_fail()`);
    const key = randomUUID();
    try {
      expectErrorBody(await post(h.svc, { positionName: 'Idem Boom' }, key), 500);
      expect(await keyRow(key)).toBeUndefined();
    } finally {
      await sql(`DROP TRIGGER idem_test_fail ON settings.positions`);
      await sql(`DROP FUNCTION settings.idem_test_fail()`);
    }
    const retry = await post(replica, { positionName: 'Idem Boom' }, key);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await livePositions('Idem Boom')).toBe(1);
  });

  it('two concurrent requests with one key: one runs, the other gets 409 with Retry-After until it finishes, then the replay', async () => {
    const key = randomUUID();
    const body = { positionName: 'Idem Concurrent' };
    // Hold the first request inside its handler: its INSERT waits for this lock.
    const blocker = new Client({ connectionString: h.svc.db.url });
    await blocker.connect();
    let first: Promise<HttpResult> | undefined;
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE settings.positions IN SHARE MODE');
      first = post(h.svc, body, key);
      await until(async () => (await keyRow(key))?.state === 'in_progress', 'the first request to claim the key');
      const second = await post(replica, body, key);
      expectErrorBody(second, 409, P);
      expect(second.body.message).toMatch(/still in progress/);
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
      // Even while it runs, the key with another body is a 422.
      expectErrorBody(await post(replica, { positionName: 'Idem Concurrent Other' }, key), 422);
    } finally {
      await blocker.query('COMMIT').catch(() => undefined);
      await blocker.end();
    }
    const done = await first!;
    expect(done.status).toBe(200);
    expectReplayOf(await post(replica, body, key), done);
    expect(await livePositions('Idem Concurrent')).toBe(1);
    expect(await livePositions('Idem Concurrent Other')).toBe(0);
  });

  it('a claim left by a process that died is taken over once stale (a live one is a 409)', async () => {
    const key = randomUUID();
    const body = { positionName: 'Idem Orphan' };
    const [{ caller_id }] = await sql<{ caller_id: string }>(`SELECT caller_id FROM settings.idempotency_keys WHERE tenant_id = $1 LIMIT 1`, [h.demo.id]);
    const fingerprint = requestFingerprint({ method: 'POST', url: P, headers: { 'content-type': 'application/json' }, body });
    await sql(
      `INSERT INTO settings.idempotency_keys (tenant_id, caller_id, key, fingerprint, state, claim_id, claimed_at, expires_at)
       VALUES ($1, $2, $3, $4, 'in_progress', gen_random_uuid(), now(), now() + interval '1 day')`,
      [h.demo.id, caller_id, key, fingerprint],
    );
    expectErrorBody(await post(h.svc, body, key), 409);
    await sql(`UPDATE settings.idempotency_keys SET claimed_at = now() - interval '61 seconds' WHERE key = $1`, [key]);
    const taken = await post(replica, body, key);
    expect(taken.status).toBe(200);
    expectReplayOf(await post(h.svc, body, key), taken);
    expect(await livePositions('Idem Orphan')).toBe(1);
  });

  it('a bulk PATCH with a key runs once: the retry replays and changes nothing again', async () => {
    const a = (await post(h.svc, { positionName: 'Idem Bulk A' })).body.data;
    const b = (await post(h.svc, { positionName: 'Idem Bulk B' })).body.data;
    const key = randomUUID();
    const updatedBefore = await outboxCount('evt.settings.position.updated');
    const first = await bulk(h.svc, { ids: [a.id, b.id], status: 'INACTIVE' }, key);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ total: 2, successful: 2, failed: 0 });
    expect(await outboxCount('evt.settings.position.updated')).toBe(updatedBefore + 2);
    // Changed back meanwhile: a second run would set it INACTIVE again.
    await sql(`UPDATE settings.positions SET status = 'ACTIVE' WHERE id = $1`, [a.id]);
    expectReplayOf(await bulk(replica, { status: 'INACTIVE', ids: [a.id, b.id] }, key), first);
    expect((await sql<{ status: string }>(`SELECT status FROM settings.positions WHERE id = $1`, [a.id]))[0].status).toBe('ACTIVE');
    expect(await outboxCount('evt.settings.position.updated')).toBe(updatedBefore + 2);
  });

  it('other operations ignore the header: a PATCH that is not bulk runs every time', async () => {
    const a = (await post(h.svc, { positionName: 'Idem Patch' })).body.data;
    const key = randomUUID();
    for (const name of ['Idem Patch 2', 'Idem Patch 3']) {
      const res = await h.svc.http.patch(`${P}/${a.id}`, { token: h.tokens.admin, body: { positionName: name }, headers: { 'idempotency-key': key } });
      expect(res.status).toBe(200);
      expect(res.body.data.positionName).toBe(name);
    }
    expect(await keyRow(key)).toBeUndefined();
  });

  it('expired keys are deleted by the sweep, after which the key runs a request again', async () => {
    const key = randomUUID();
    const first = await post(h.svc, { positionName: 'Idem Expiring' }, key);
    expect(first.status).toBe(200);
    await sql(`UPDATE settings.idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1`, [key]);
    expect(await replica.app.get(IdempotencySweep).sweep()).toBeGreaterThanOrEqual(1);
    expect(await keyRow(key)).toBeUndefined();
    const again = await post(replica, { positionName: 'Idem Expiring' }, key);
    expectErrorBody(again, 409); // ran again: the name is taken by the first run
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });
});
