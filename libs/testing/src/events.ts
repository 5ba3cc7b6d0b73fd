import { randomUUID } from 'node:crypto';
import { DelegationEvent } from '@ddm/contracts';
import { NatsClient } from '@ddm/platform';
import { JSONCodec } from 'nats';
import type { TestService } from './service';

const codec = JSONCodec<object>();

/**
 * Publishes an event of another area into the test's namespace, as that area's outbox relay
 * would: a fresh Nats-Msg-Id unless one is given (the same payload published twice is then two
 * messages). `duplicate`: the stream dropped it, having seen that Nats-Msg-Id already.
 */
export async function publishEvent(svc: TestService, subject: string, payload: object, msgID: string = randomUUID()): Promise<{ msgID: string; duplicate: boolean }> {
  const ack = await svc.app.get(NatsClient).js.publish(svc.ns.subjects.wire(subject), codec.encode(payload), { msgID });
  return { msgID, duplicate: ack.duplicate };
}

/**
 * The one way a spec waits: polls until `probe` answers something truthy (a projection caught up,
 * a message arrived), or fails after `timeoutMs` naming what it waited for. Never sleep instead.
 */
export async function until<T>(probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, what: string, timeoutMs = 5_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Makes a request that names a record another area has just created (a group or position made in
 * settings, named in an auth write) until the area asked knows it: while it answers 404 (its copy
 * of the other area's records has not caught up), asked again every 50 ms up to `timeoutMs`. Waits
 * on the thing itself (the area accepting the name); any other answer is returned as it is.
 */
export async function onceKnown<T extends { status: number }>(request: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  return until(async () => {
    const res = await request();
    return res.status === 404 ? undefined : res;
  }, 'the record named to be known where it is named', timeoutMs);
}

/**
 * Resolves once the clock has moved past `instant` (ISO or epoch ms): a write made after this is
 * later than that instant by at least a millisecond, so "as of `instant`" cannot include it. Waits
 * on the clock itself (a turn of the event loop at a time), never a guessed duration.
 */
export async function pastInstant(instant: string | number): Promise<void> {
  const t = typeof instant === 'number' ? instant : Date.parse(instant);
  while (Date.now() <= t) await new Promise((resolve) => setImmediate(resolve));
}

/** A delegation event of the decision area (evt.decision.delegation.*), with fresh ids unless given. */
export function delegationEvent(tenantId: string, overrides: Partial<DelegationEvent> = {}): DelegationEvent {
  return {
    tenantId,
    delegationId: randomUUID(),
    decisionId: randomUUID(),
    issuerType: 'SPECIFIC_PERSONNEL',
    issuerUserId: null,
    issuerPositionId: null,
    recipientType: 'SPECIFIC_PERSONNEL',
    recipientUserId: null,
    recipientPositionId: null,
    pathways: ['Direct Line'],
    groupIds: [],
    ...overrides,
  };
}

/**
 * Every item an area's snapshot source answers (`sync.<source>`, page by page, as a projection's
 * backfill asks for them), and the pages' sizes.
 */
export async function snapshotOf<T = Record<string, unknown>>(svc: TestService, source: string): Promise<{ items: T[]; pages: number[] }> {
  const nats = svc.app.get(NatsClient);
  const items: T[] = [];
  const pages: number[] = [];
  let after: string | null = null;
  do {
    const reply = await nats.nc.request(nats.subjects.wire(`sync.${source}`), codec.encode({ after }), { timeout: 5_000 });
    const page = JSONCodec<{ items: T[]; next: string | null }>().decode(reply.data);
    items.push(...page.items);
    pages.push(page.items.length);
    after = page.next;
  } while (after !== null);
  return { items, pages };
}
