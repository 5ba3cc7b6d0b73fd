import { HEADERS } from '@ddm/contracts';
import { changeTime, parseConsistencyToken } from '@ddm/platform';
import { HttpClient, HttpResult, NATS_URL, TestSystem, expectErrorBody, startTestSystem, tokenFor, until } from '@ddm/testing';
import { connect } from 'nats';
import { Client } from 'pg';

const CHECK = '/decision/v1/authority/check';
const DELEGATIONS = '/decision/v1/delegations';
const TOKEN = 'x-consistency-token';
/** The decision area's bound (CONSISTENCY_WAIT_MS, its default). */
const WAIT_MS = 5_000;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

interface Check {
  allowed: boolean;
  reasons: string[];
  consistentAsOf: string;
}

/**
 * Consistency tokens through the gateway, with auth, settings and the decision area as separate
 * processes: a change of a person's manager in auth reaches the decision area by an event, and the
 * token the write answers makes the very next check reflect it (no waiting in the spec, no polling);
 * held back, the check answers 503 within the bound rather than a stale answer, and the change once
 * it is applied. The seeded Direct Line 10002 (manager@demo.test to staff01@demo.test) holds only
 * while the manager is staff01's.
 */
describe('system: a write answers a consistency token, and a read sent it reflects the write', () => {
  let system: TestSystem;
  let http: HttpClient;
  const admin = tokenFor('admin@demo.test');
  let users: Map<string, string>;
  const user = (name: string) => users.get(`${name}@demo.test`)!;
  /** The decision of 10002, and 10002. */
  let decisionId: string;
  let direct: { id: string; delegationDisplayId: string };

  /** PATCH staff01's manager; answers the write's token. */
  const setManager = async (managerId: string) => {
    const res = await http.patch(`/auth/v1/user/update-entities/${user('staff01')}`, { token: admin, body: { managerId } });
    expect(res.status).toBe(200);
    const token = res.headers.get(TOKEN);
    expect(token).toMatch(/^ct1\.[A-Za-z0-9_-]+$/);
    return token!;
  };
  const check = (how: { header?: string; body?: string } = {}) =>
    http.post(CHECK, {
      token: admin,
      headers: how.header ? { [TOKEN]: how.header } : {},
      body: { userId: user('staff01'), decisionId, value: '1', unit: 'USD', ...(how.body ? { consistency: { atLeastAsFresh: how.body } } : {}) },
    });
  /** What the check must answer while `issuer` is staff01's manager. */
  const expectReflects = (res: HttpResult, managerIsIssuer: boolean) => {
    expect(res.status).toBe(200);
    const answer = res.body.data as Check;
    expect(answer.consistentAsOf).toMatch(ISO);
    if (managerIsIssuer) expect(answer).toMatchObject({ allowed: true, reasons: [] });
    else {
      expect(answer.allowed).toBe(false);
      expect(answer.reasons.join(' ')).toContain(direct.delegationDisplayId);
    }
    return answer;
  };

  /** When auth's event of `userId` of the change reached the stream (once it has). */
  const streamTimeOf = (changeId: string, userId: string) =>
    until(
      async () => {
        const nc = await connect({ servers: NATS_URL });
        try {
          const jsm = await nc.jetstreamManager();
          const subjects = system.ns.subjects;
          const { state } = await jsm.streams.info(subjects.eventsStream);
          for (let seq = state.last_seq; seq >= state.first_seq; seq--) {
            const m = await jsm.streams.getMessage(subjects.eventsStream, { seq });
            if (m.header?.get(HEADERS.changeId) !== changeId || m.subject !== subjects.wire('evt.auth.user.updated')) continue;
            if (m.json<{ user: { id: string } }>().user.id === userId) return m.time.getTime();
          }
          return undefined;
        } finally {
          await nc.close();
        }
      },
      "auth's event of the change in the stream",
      10_000,
    );

  beforeAll(async () => {
    system = await startTestSystem({ areas: ['auth', 'settings', 'decision'] });
    http = system.http;
    users = new Map(system.seeded.tenants.find((t) => t.name === 'Demo Co')!.users.map((u) => [u.email, u.id]));
    const res = await http.get(`${DELEGATIONS}?limit=100&recipientUserIds=${user('staff01')}&status=ISSUED,ACCEPTED`, { token: admin });
    expect(res.status).toBe(200);
    const theirs = (res.body.data.data as { id: string; delegationDisplayId: string; decisionId: string; parentDelegationId: string | null; delegationPathway: string[] }[])
      .filter((d) => d.delegationPathway.join() === 'Direct Line' && d.parentDelegationId !== null)
      .sort((a, b) => Number(a.delegationDisplayId) - Number(b.delegationDisplayId));
    direct = theirs[0];
    expect(direct.delegationDisplayId).toBe('10002');
    decisionId = theirs[0].decisionId;
    expectReflects(await check(), true);
  }, 180_000);

  afterAll(async () => {
    await system?.close();
  });

  it('50 times in a row: staff01 given another manager, and the check sent the write\'s token at once reflects it every time', async () => {
    let last = '';
    for (let i = 0; i < 50; i++) {
      const toManager = i % 2 === 1;
      const token = await setManager(user(toManager ? 'manager' : 'admin'));
      // The header and the body field, in turns.
      const answer = expectReflects(await check(i % 4 < 2 ? { header: token } : { body: token }), toManager);
      // The instant only ever moves forward.
      expect(answer.consistentAsOf >= last).toBe(true);
      last = answer.consistentAsOf;
    }
  }, 120_000);

  it('the other reads that take a token: a delegation, holders, "my authority", the delegations list', async () => {
    const token = await setManager(user('admin'));
    const one = await http.get(`${DELEGATIONS}/${direct.id}`, { token: admin, headers: { [TOKEN]: token } });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: direct.id, isInvalid: true, invalidFields: ['Pathway'], consistentAsOf: expect.stringMatching(ISO) });
    const holders = await http.get(`/decision/v1/authority/holders?decisionId=${decisionId}&limit=100`, { token: admin, headers: { [TOKEN]: token } });
    expect(holders.status).toBe(200);
    expect(Object.keys(holders.body.data)).toEqual(['page', 'limit', 'total', 'consistentAsOf', 'data']);
    expect(holders.body.data.consistentAsOf).toMatch(ISO);
    expect(holders.body.data.data.some((h: { userId: string | null }) => h.userId === user('staff01'))).toBe(false);
    const mine = await http.get(`/decision/v1/authority/decisions?userId=${user('staff01')}&limit=100`, { token: admin, headers: { [TOKEN]: token } });
    expect(mine.status).toBe(200);
    expect(mine.body.data.consistentAsOf).toMatch(ISO);
    expect(mine.body.data.data.some((d: { decisionId: string }) => d.decisionId === decisionId)).toBe(false);

    const back = await setManager(user('manager'));
    const listed = await http.get(`${DELEGATIONS}?limit=100&recipientUserIds=${user('staff01')}&status=ISSUED,ACCEPTED`, { token: admin, headers: { [TOKEN]: back } });
    expect(listed.status).toBe(200);
    expect(listed.body.data.data.find((d: { id: string }) => d.id === direct.id)).toMatchObject({ isInvalid: false });
    const mended = await http.get(`/decision/v1/authority/decisions?userId=${user('staff01')}&limit=100`, { token: admin, headers: { [TOKEN]: back } });
    expect(mended.body.data.data.some((d: { decisionId: string }) => d.decisionId === decisionId)).toBe(true);
  }, 60_000);

  it('the decision area held back (its copy of staff01 locked): 503 with Retry-After within the bound, never the stale answer; released, the same check answers the change', async () => {
    const pg = new Client({ connectionString: system.db.url });
    await pg.connect();
    let locked = false;
    try {
      await pg.query('BEGIN');
      locked = true;
      // The projection's upsert of staff01 (the consumer applying auth's event) waits on this lock.
      expect((await pg.query(`SELECT id FROM decision.user_projection WHERE id = $1 FOR UPDATE`, [user('staff01')])).rowCount).toBe(1);
      const token = await setManager(user('admin'));
      const began = Date.now();
      const held = await check({ header: token });
      const took = Date.now() - began;
      expectErrorBody(held, 503);
      expect(held.headers.get('retry-after')).toBe('1');
      expect(held.body.message).toMatch(/consistency token/);
      expect(took).toBeGreaterThanOrEqual(WAIT_MS);
      expect(took).toBeLessThan(WAIT_MS + 3_000);

      // Not asked to wait, a read answers what the decision area has (the manager still the issuer there), and says how fresh that is:
      // once asked of JetStream again with the event held, never as late as the held event's arrival in the stream.
      const [{ changeId }] = parseConsistencyToken(token, TOKEN);
      const heldAt = await streamTimeOf(changeId, user('staff01'));
      const asOf = await until(
        async () => {
          const answer = expectReflects(await check(), true);
          return Date.parse(answer.consistentAsOf) >= changeTime(changeId) && answer.consistentAsOf;
        },
        'consistentAsOf to be asked again while the event is held',
        10_000,
      );
      expect(Date.parse(asOf)).toBeLessThanOrEqual(heldAt);
      expect(Date.parse(expectReflects(await check(), true).consistentAsOf)).toBeLessThanOrEqual(heldAt);

      await pg.query('ROLLBACK');
      locked = false;
      expectReflects(await check({ header: token }), false);
    } finally {
      if (locked) await pg.query('ROLLBACK');
      await pg.end();
    }
    expectReflects(await check({ body: await setManager(user('manager')) }), true);
  }, 60_000);

  it('a malformed token is a 400 naming the header or the field', async () => {
    const header = await check({ header: 'not-a-token' });
    expectErrorBody(header, 400);
    expect(header.body.errors).toEqual([{ field: TOKEN, message: expect.any(String) }]);
    const body = await check({ body: `ct1.${Buffer.from('[{"changeId":"nope","counts":{}}]').toString('base64url')}` });
    expectErrorBody(body, 400);
    expect(body.body.errors).toEqual([{ field: 'consistency.atLeastAsFresh', message: expect.any(String) }]);
    const onGet = await http.get(`/decision/v1/authority/holders?decisionId=${decisionId}`, { token: admin, headers: { [TOKEN]: 'ct1.' } });
    expectErrorBody(onGet, 400);
    expect(onGet.body.errors[0].field).toBe(TOKEN);
  });

  it('a token of a write whose events the decision area does not follow (a settings document type, its own decision) answers at once', async () => {
    const made = await http.post('/settings/v1/document-types', { token: admin, body: { documentTypeName: 'Consistency spec guideline' } });
    expect(made.status).toBe(200);
    const settingsToken = made.headers.get(TOKEN)!;
    expect(settingsToken).toMatch(/^ct1\./);
    const decision = await http.post('/decision/v1/decisions', { token: admin, body: { name: 'Consistency spec decision', status: 'DRAFT' } });
    expect(decision.status).toBe(200);
    const decisionToken = decision.headers.get(TOKEN)!;
    expect(decisionToken).toMatch(/^ct1\./);
    for (const token of [settingsToken, decisionToken]) {
      const began = Date.now();
      expectReflects(await check({ header: token }), true);
      expect(Date.now() - began).toBeLessThan(WAIT_MS);
    }
    // A read answers no token; nor does a refused write.
    expect((await check()).headers.get(TOKEN)).toBeNull();
    const refused = await http.post('/settings/v1/document-types', { token: admin, body: { documentTypeName: 'Consistency spec guideline' } });
    expect(refused.status).toBe(409);
    expect(refused.headers.get(TOKEN)).toBeNull();
  });

  it("an idempotent retry is answered the first request's token", async () => {
    const send = () => http.post('/settings/v1/document-types', { token: admin, headers: { 'idempotency-key': 'consistency-spec-1' }, body: { documentTypeName: 'Consistency spec charter' } });
    const first = await send();
    expect(first.status).toBe(200);
    const retry = await send();
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get(TOKEN)).toMatch(/^ct1\./);
    expect(retry.headers.get(TOKEN)).toBe(first.headers.get(TOKEN));
  });
});
