/**
 * CallerResolver against the real NATS server: the cache, its invalidation by
 * `auth.caller.changed`, and its failures. The auth service is played by a plain subscriber.
 */
import { randomUUID } from 'node:crypto';
import { JSONCodec, Msg, MsgHdrs, NatsConnection, Subscription, connect } from 'nats';
import { CallerChangedEvent, CallerResolveReply, CallerResolveRequest, CallerResolver, CallerResolverOptions, Subjects } from '../src';
import { NATS_URL, TestNamespace, createTestNamespace, until } from '@ddm/testing';

const codec = JSONCodec();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


interface TestUser {
  sub: string;
  userId: string;
  tenantId: string;
  request: CallerResolveRequest;
}

describe('CallerResolver (e2e, real NATS)', () => {
  let ns: TestNamespace;
  let resolverNc: NatsConnection;
  let authNc: NatsConnection;
  let publisherNc: NatsConnection;
  let responder: Subscription;

  // The fake auth service: answers from `answers` (read when the request arrives), counts requests per sub.
  const answers = new Map<string, CallerResolveReply>();
  const requests = new Map<string, number>();
  const headersOf = new Map<string, MsgHdrs | undefined>();
  /** One-shot gates: the next request of that sub waits for the promise before it is answered. */
  const gates = new Map<string, Promise<void>>();

  const asked = (sub: string) => requests.get(sub) ?? 0;

  async function answer(msg: Msg): Promise<void> {
    const req = codec.decode(msg.data) as CallerResolveRequest;
    requests.set(req.sub, asked(req.sub) + 1);
    headersOf.set(req.sub, msg.headers);
    const reply = answers.get(req.sub) ?? { found: false, reason: `No user for ${req.sub}` };
    const gate = gates.get(req.sub);
    if (gate) {
      gates.delete(req.sub);
      await gate;
    }
    msg.respond(codec.encode(reply));
  }

  function gate(sub: string): () => void {
    let release!: () => void;
    gates.set(sub, new Promise<void>((r) => (release = r)));
    return release;
  }

  function newUser(keys: string[], tenantId = randomUUID()): TestUser {
    const sub = `idp|${randomUUID()}`;
    const userId = randomUUID();
    setKeys({ sub, userId, tenantId }, keys);
    return { sub, userId, tenantId, request: { sub, email: `${userId}@test`, tenantId } };
  }

  function setKeys(u: Pick<TestUser, 'sub' | 'userId' | 'tenantId'>, keys: string[]): void {
    answers.set(u.sub, { found: true, userId: u.userId, email: `${u.userId}@test`, name: 'Test User', tenantId: u.tenantId, member: true, roleIds: [], keys });
  }

  const started: CallerResolver[] = [];

  async function newResolver(options: CallerResolverOptions = { ttlMs: 60_000 }, subjects: Subjects = ns.subjects) {
    const resolver = new CallerResolver(resolverNc, subjects, options);
    const invalidations = jest.spyOn(resolver, 'invalidate');
    await resolver.start();
    started.push(resolver);
    /** Publishes the event (as the auth service would) and waits until this resolver has taken it. */
    const deliver = async (event: CallerChangedEvent | Uint8Array) => {
      const before = invalidations.mock.calls.length;
      publisherNc.publish(subjects.callerChanged, event instanceof Uint8Array ? event : codec.encode(event));
      await publisherNc.flush();
      await until(() => invalidations.mock.calls.length > before, `the resolver to take ${subjects.callerChanged}`);
    };
    return { resolver, deliver };
  }

  beforeAll(async () => {
    ns = createTestNamespace();
    [resolverNc, authNc, publisherNc] = await Promise.all([0, 1, 2].map((i) => connect({ servers: NATS_URL, name: `caller-resolver-spec-${i}` })));
    responder = authNc.subscribe(ns.subjects.callerResolve, {
      callback: (err, msg) => {
        if (!err) void answer(msg);
      },
    });
    await authNc.flush();
  });

  afterEach(() => {
    for (const r of started.splice(0)) r.stop();
  });

  afterAll(async () => {
    responder?.unsubscribe();
    await Promise.all([resolverNc, authNc, publisherNc].map((nc) => nc?.close()));
    await ns?.cleanup();
  });

  it('asks the auth service once and answers a second resolve within the TTL from the cache', async () => {
    const { resolver } = await newResolver();
    const u = newUser(['view:decisions']);
    const first = await resolver.resolve(u.request, 'req-1');
    expect(first).toEqual({ found: true, userId: u.userId, email: `${u.userId}@test`, name: 'Test User', tenantId: u.tenantId, member: true, roleIds: [], keys: ['view:decisions'] });
    expect(asked(u.sub)).toBe(1);
    await expect(resolver.resolve(u.request, 'req-2')).resolves.toEqual(first);
    expect(asked(u.sub)).toBe(1);
  });

  it('sends the request id as the x-request-id header', async () => {
    const { resolver } = await newResolver();
    const u = newUser([]);
    await resolver.resolve(u.request, 'req-abc');
    expect(headersOf.get(u.sub)?.get('x-request-id')).toBe('req-abc');
  });

  it('caches per tenant: the same user in another tenant is asked for separately', async () => {
    const { resolver } = await newResolver();
    const u = newUser(['view:decisions']);
    await resolver.resolve(u.request);
    await resolver.resolve({ ...u.request, tenantId: null });
    expect(asked(u.sub)).toBe(2);
  });

  it.each([
    ['the userId', (u: TestUser): CallerChangedEvent => ({ userIds: [randomUUID(), u.userId] })],
    ['the sub', (u: TestUser): CallerChangedEvent => ({ subs: [u.sub] })],
    ['the tenant', (u: TestUser): CallerChangedEvent => ({ tenantId: u.tenantId })],
  ])('an auth.caller.changed naming %s makes the very next resolve ask again and see the new keys', async (_what, eventFor) => {
    const { resolver, deliver } = await newResolver();
    const u = newUser(['view:decisions', 'edit:decisions']);
    await expect(resolver.resolve(u.request)).resolves.toMatchObject({ keys: ['view:decisions', 'edit:decisions'] });
    setKeys(u, ['view:decisions']);
    await deliver(eventFor(u));
    await expect(resolver.resolve(u.request)).resolves.toMatchObject({ keys: ['view:decisions'] });
    expect(asked(u.sub)).toBe(2);
  });

  it('an event naming another user, sub or tenant keeps the entry', async () => {
    const { resolver, deliver } = await newResolver();
    const u = newUser(['view:decisions', 'edit:decisions']);
    await resolver.resolve(u.request);
    setKeys(u, []);
    await deliver({ userIds: [randomUUID()] });
    await deliver({ subs: [`idp|${randomUUID()}`] });
    await deliver({ tenantId: randomUUID() });
    await expect(resolver.resolve(u.request)).resolves.toMatchObject({ keys: ['view:decisions', 'edit:decisions'] });
    expect(asked(u.sub)).toBe(1);
  });

  it('an event naming one user drops that user only', async () => {
    const { resolver, deliver } = await newResolver();
    const tenantId = randomUUID();
    const a = newUser(['view:decisions'], tenantId);
    const b = newUser(['view:decisions'], tenantId);
    await resolver.resolve(a.request);
    await resolver.resolve(b.request);
    await deliver({ userIds: [a.userId] });
    await resolver.resolve(a.request);
    await resolver.resolve(b.request);
    expect([asked(a.sub), asked(b.sub)]).toEqual([2, 1]);
  });

  it('an empty event drops every cached caller', async () => {
    const { resolver, deliver } = await newResolver();
    const a = newUser(['view:decisions']);
    const b = newUser(['create:actions']);
    await resolver.resolve(a.request);
    await resolver.resolve(b.request);
    await deliver({});
    await resolver.resolve(a.request);
    await resolver.resolve(b.request);
    expect([asked(a.sub), asked(b.sub)]).toEqual([2, 2]);
  });

  it('an event with empty lists drops every cached caller too', async () => {
    const { resolver, deliver } = await newResolver();
    const a = newUser(['view:decisions']);
    await resolver.resolve(a.request);
    await deliver({ userIds: [], subs: [] });
    await resolver.resolve(a.request);
    expect(asked(a.sub)).toBe(2);
  });

  it('a payload that is not JSON drops every cached caller (safe side)', async () => {
    const { resolver, deliver } = await newResolver();
    const a = newUser(['view:decisions']);
    await resolver.resolve(a.request);
    await deliver(new TextEncoder().encode('not json {'));
    await resolver.resolve(a.request);
    expect(asked(a.sub)).toBe(2);
  });

  it('asks again once the TTL has passed', async () => {
    const { resolver } = await newResolver({ ttlMs: 300 });
    const u = newUser(['view:decisions']);
    await resolver.resolve(u.request);
    await resolver.resolve(u.request);
    expect(asked(u.sub)).toBe(1);
    setKeys(u, ['view:decisions', 'create:actions']);
    await sleep(400);
    await expect(resolver.resolve(u.request)).resolves.toMatchObject({ keys: ['view:decisions', 'create:actions'] });
    expect(asked(u.sub)).toBe(2);
  });

  it('concurrent resolves of the same caller share one request', async () => {
    const { resolver } = await newResolver();
    const u = newUser(['view:decisions']);
    const release = gate(u.sub);
    const pending = Array.from({ length: 5 }, () => resolver.resolve(u.request));
    await until(() => asked(u.sub) === 1, 'the first request to arrive');
    release();
    const replies = await Promise.all(pending);
    for (const r of replies) expect(r).toMatchObject({ found: true, userId: u.userId, keys: ['view:decisions'] });
    expect(asked(u.sub)).toBe(1);
    await resolver.resolve(u.request);
    expect(asked(u.sub)).toBe(1);
  });

  it('does not cache an answer that was in flight while an invalidation arrived', async () => {
    const { resolver, deliver } = await newResolver();
    const u = newUser(['view:decisions', 'edit:decisions']);
    const release = gate(u.sub);
    const inFlight = resolver.resolve(u.request);
    await until(() => asked(u.sub) === 1, 'the request to reach the auth service');
    // The auth service read the old keys; the change commits and is announced before its answer arrives.
    setKeys(u, ['view:decisions']);
    await deliver({ userIds: [u.userId] });
    release();
    await expect(inFlight).resolves.toMatchObject({ keys: ['view:decisions', 'edit:decisions'] });
    await expect(resolver.resolve(u.request)).resolves.toMatchObject({ keys: ['view:decisions'] });
    expect(asked(u.sub)).toBe(2);
  });

  it('a resolve that starts after an invalidation does not join an answer that was in flight before it', async () => {
    const { resolver, deliver } = await newResolver();
    const u = newUser(['view:decisions', 'edit:decisions']);
    const release = gate(u.sub);
    const early = resolver.resolve(u.request);
    await until(() => asked(u.sub) === 1, 'the request to reach the auth service');
    setKeys(u, ['view:decisions']);
    await deliver({ userIds: [u.userId] });
    const late = resolver.resolve(u.request);
    try {
      await until(() => asked(u.sub) === 2, 'the late resolve to ask again instead of joining the answer in flight', 1_000);
    } finally {
      release();
    }
    await expect(late).resolves.toMatchObject({ keys: ['view:decisions'] });
    await expect(early).resolves.toMatchObject({ keys: ['view:decisions', 'edit:decisions'] });
    expect(asked(u.sub)).toBe(2);
    // The late answer is the one cached; the early one finishing does not disturb it.
    await expect(resolver.resolve(u.request)).resolves.toMatchObject({ keys: ['view:decisions'] });
    expect(asked(u.sub)).toBe(2);
  });

  it('rejects when the auth service answers unavailable, and does not cache it', async () => {
    const { resolver } = await newResolver();
    const u = newUser([]);
    answers.set(u.sub, { found: false, reason: 'database is down', unavailable: true });
    await expect(resolver.resolve(u.request)).rejects.toThrow(/database is down/);
    await expect(resolver.resolve(u.request)).rejects.toThrow(/database is down/);
    expect(asked(u.sub)).toBe(2);
    setKeys(u, ['view:decisions']);
    await expect(resolver.resolve(u.request)).resolves.toMatchObject({ found: true, keys: ['view:decisions'] });
    expect(asked(u.sub)).toBe(3);
  });

  it('keeps the last answer past its TTL while auth cannot answer (an outage), and asks again each time', async () => {
    const { resolver } = await newResolver({ ttlMs: 300 });
    const u = newUser(['view:decisions']);
    await resolver.resolve(u.request);
    answers.set(u.sub, { found: false, reason: 'database is down', unavailable: true });
    await sleep(400);
    await expect(resolver.resolve(u.request)).resolves.toMatchObject({ found: true, userId: u.userId, keys: ['view:decisions'] });
    await expect(resolver.resolve(u.request)).resolves.toMatchObject({ found: true, keys: ['view:decisions'] });
    expect(asked(u.sub)).toBe(3);
    setKeys(u, ['view:decisions', 'create:actions']);
    await expect(resolver.resolve(u.request)).resolves.toMatchObject({ keys: ['view:decisions', 'create:actions'] });
  });

  it('never keeps an expired answer past an invalidation, even one naming someone else', async () => {
    const { resolver, deliver } = await newResolver({ ttlMs: 300 });
    const u = newUser(['view:decisions']);
    await resolver.resolve(u.request);
    answers.set(u.sub, { found: false, reason: 'database is down', unavailable: true });
    await sleep(400);
    await deliver({ userIds: [randomUUID()] });
    await expect(resolver.resolve(u.request)).rejects.toThrow(/database is down/);
  });

  it('caches a definite not-found answer until an event names its tenant', async () => {
    const { resolver, deliver } = await newResolver();
    const u = newUser([]);
    answers.delete(u.sub);
    await expect(resolver.resolve(u.request)).resolves.toEqual({ found: false, reason: `No user for ${u.sub}` });
    await resolver.resolve(u.request);
    expect(asked(u.sub)).toBe(1);
    setKeys(u, ['view:decisions']);
    await deliver({ tenantId: u.tenantId });
    await expect(resolver.resolve(u.request)).resolves.toMatchObject({ found: true, keys: ['view:decisions'] });
    expect(asked(u.sub)).toBe(2);
  });

  it('rejects quickly when no auth service listens, and asks again next time', async () => {
    const lonely = new Subjects(`${ns.namespace}nobody`);
    const { resolver } = await newResolver({ ttlMs: 60_000, timeoutMs: 500 }, lonely);
    const u = newUser(['view:decisions']);
    const t0 = Date.now();
    await expect(resolver.resolve(u.request)).rejects.toThrow();
    expect(Date.now() - t0).toBeLessThan(1_500);
    await expect(resolver.resolve(u.request)).rejects.toThrow();
    expect(asked(u.sub)).toBe(0);
  });

  it('rejects after timeoutMs when the auth service does not answer', async () => {
    const silent = new Subjects(`${ns.namespace}silent`);
    const deaf = authNc.subscribe(silent.callerResolve, { callback: () => undefined });
    await authNc.flush();
    try {
      const { resolver } = await newResolver({ ttlMs: 60_000, timeoutMs: 300 }, silent);
      const u = newUser([]);
      const t0 = Date.now();
      await expect(resolver.resolve(u.request)).rejects.toThrow(/timeout/i);
      const elapsed = Date.now() - t0;
      expect(elapsed).toBeGreaterThanOrEqual(250);
      expect(elapsed).toBeLessThan(2_000);
    } finally {
      deaf.unsubscribe();
    }
  });

  it('stops taking invalidations after stop()', async () => {
    const { resolver } = await newResolver();
    const u = newUser(['view:decisions']);
    await resolver.resolve(u.request);
    resolver.stop();
    const probe = await newResolver();
    // The probe proves the event went out; the stopped resolver still answers from its cache.
    await probe.deliver({});
    await resolver.resolve(u.request);
    expect(asked(u.sub)).toBe(1);
  });
});
