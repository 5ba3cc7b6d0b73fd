import { randomUUID } from 'node:crypto';
import { DelegationEvent } from '@ddm/contracts';
import { applyProjection } from '@ddm/platform';
import { DELEGATIONS } from '../src/consumers/delegation.projection';
import { delegation, publishEvent } from './fixtures/events';
import { NATS_URL, startHarness, until } from '@ddm/testing';
import { connect } from 'nats';
import { settingsApp, SettingsHarness } from './fixtures/settings-app';

const CONSUMER = 'settings-decision-delegations';
const code = () => randomUUID().replace(/-/g, '').slice(0, 6);

describe('delegation projection: evt.decision.delegation.* feed counts and filters (e2e, real Postgres and NATS)', () => {
  let h: SettingsHarness;
  let p1: string; // recipient
  let p2: string; // issuer
  let p3: string; // another recipient
  let g1: string;
  let g2: string;
  const c1 = randomUUID();
  const u1 = randomUUID();
  let d1: DelegationEvent;
  let d2: DelegationEvent;

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => h.db.query<T>(text, params);
  const processed = async () => Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM settings.processed_messages WHERE consumer = $1`, [CONSUMER]))[0].n);

  /** Publishes events (each a new message) and waits until the consumer has applied all of them. */
  async function publish(...events: [string, object][]): Promise<void> {
    const before = await processed();
    for (const [verb, payload] of events) await publishEvent(h.svc, `evt.decision.delegation.${verb}`, payload);
    await until(async () => (await processed()) >= before + events.length, `${events.length} delegation event(s) applied`);
  }

  const position = async (id: string) => {
    const res = await h.svc.http.get(`/settings/v1/positions/${id}`, { token: h.tokens.admin });
    expect(res.status).toBe(200);
    return { received: res.body.data.delegationsReceived as number, issued: res.body.data.delegationsIssued as number };
  };
  const group = async (id: string) => {
    const res = await h.svc.http.get(`/settings/v1/groups/${id}`, { token: h.tokens.admin });
    expect(res.status).toBe(200);
    return { delegations: res.body.data.delegationsCount as number, decisions: res.body.data.decisionsCount as number };
  };
  /** Names of the positions the list answers for these filters. */
  const matching = async (qs: string) => {
    const res = await h.svc.http.get(`/settings/v1/positions?${qs}&select=id&limit=100`, { token: h.tokens.admin });
    expect(res.status).toBe(200);
    return (res.body.data.data as { id: string }[]).map((p) => p.id).sort();
  };

  beforeAll(async () => {
    h = await startHarness(settingsApp);
    const type = randomUUID();
    [g1, g2] = [randomUUID(), randomUUID()];
    await sql(`INSERT INTO settings.group_types (id, tenant_id, group_type_name) VALUES ($1, $2, 'Projection Units')`, [type, h.demo.id]);
    await sql(
      `INSERT INTO settings.groups (id, tenant_id, group_code, tenant_group_type_id, group_name) VALUES ($1, $3, $5, $4, 'G One'), ($2, $3, $6, $4, 'G Two')`,
      [g1, g2, h.demo.id, type, code(), code()],
    );
    const make = async (positionName: string) => {
      const res = await h.svc.http.post('/settings/v1/positions', { token: h.tokens.admin, body: { positionName, groupIds: [g1] } });
      expect(res.status).toBe(200);
      return res.body.data.id as string;
    };
    p1 = await make('Recipient One');
    p2 = await make('Issuer Two');
    p3 = await make('Recipient Three');
    d1 = delegation(h.demo.id, {
      decisionId: c1,
      issuerType: 'POSITION_ONLY',
      issuerPositionId: p2,
      recipientType: 'PERSONNEL_IN_POSITION',
      recipientPositionId: p1,
      pathways: ['Matrix'],
      groupIds: [g1],
    });
    d2 = delegation(h.demo.id, {
      decisionId: c1,
      issuerType: 'ROOT_AUTHORITY',
      issuerUserId: u1,
      recipientType: 'SPECIFIC_PERSONNEL',
      recipientPositionId: p3,
      recipientUserId: randomUUID(),
      pathways: ['Functional', 'Down-Line'],
      groupIds: [g1, g2],
    });
  });
  afterAll(() => h?.close());

  it('before any event: no counts, no delegation filter matches', async () => {
    expect(await position(p1)).toEqual({ received: 0, issued: 0 });
    expect(await group(g1)).toEqual({ delegations: 0, decisions: 0 });
    expect(await matching('delegationIssuerType=POSITION_ONLY')).toEqual([]);
  });

  it('issued: counts on positions (received/issued) and groups (delegations/decisions), and every delegation filter', async () => {
    await publish(['issued', d1], ['issued', d2]);
    expect(await position(p1)).toEqual({ received: 1, issued: 0 });
    expect(await position(p2)).toEqual({ received: 0, issued: 1 });
    expect(await position(p3)).toEqual({ received: 1, issued: 0 });
    expect(await group(g1)).toEqual({ delegations: 2, decisions: 1 }); // both name g1, one decision
    expect(await group(g2)).toEqual({ delegations: 1, decisions: 1 });

    expect(await matching('delegationIssuerType=POSITION_ONLY')).toEqual([p1]);
    expect(await matching('delegationIssuerType=ROOT_AUTHORITY')).toEqual([p3]);
    expect(await matching('delegationIssuerType=SPECIFIC_PERSONNEL')).toEqual([]);
    expect(await matching(`delegationIssuerUserId=${u1}`)).toEqual([p3]);
    expect(await matching(`delegationIssuerPositionId=${p2}`)).toEqual([p1]);
    expect(await matching('delegationPathway=Matrix')).toEqual([p1]);
    expect(await matching('delegationPathway=Down-Line,Matrix')).toEqual([p1, p3].sort());
    expect(await matching('delegationRecipientType=PERSONNEL_IN_POSITION')).toEqual([p1]);
    expect(await matching('delegationRecipientType=SPECIFIC_PERSONNEL')).toEqual([p3]);
    expect(await matching('delegationIssuerType=ROOT_AUTHORITY&delegationPathway=Matrix')).toEqual([]); // not on one delegation
    expect(await matching('delegationIssuerType=ROOT_AUTHORITY&delegationPathway=Functional')).toEqual([p3]);
  });

  it('a redelivered event changes nothing more: same payload under a new Nats-Msg-Id, the same id again, and the handler re-run', async () => {
    const before = await processed();
    await publish(['issued', d1], ['updated', d2]);
    expect(await processed()).toBe(before + 2); // both were applied (new message ids) ...
    expect(await position(p1)).toEqual({ received: 1, issued: 0 }); // ... and changed nothing
    expect(await position(p2)).toEqual({ received: 0, issued: 1 });
    expect(await group(g1)).toEqual({ delegations: 2, decisions: 1 });

    // The same message id again: the stream drops the duplicate, the consumer never sees it.
    const first = await publishEvent(h.svc, 'evt.decision.delegation.issued', d1);
    await until(async () => (await processed()) === before + 3, 'the first copy applied');
    expect((await publishEvent(h.svc, 'evt.decision.delegation.issued', d1, first.msgID)).duplicate).toBe(true);
    // An already processed message id is recorded, so the consumer would skip it; and applying it again is harmless.
    expect(await sql(`SELECT 1 FROM settings.processed_messages WHERE consumer = $1 AND message_id = $2`, [CONSUMER, first.msgID])).toHaveLength(1);
    await h.db.transaction(async (tx) => {
      await applyProjection(tx, DELEGATIONS, { subject: 'evt.decision.delegation.issued', payload: d1 });
      await applyProjection(tx, DELEGATIONS, { subject: 'evt.decision.delegation.issued', payload: d1 });
    });
    // Applying directly sends no message: the processed count is as it was.
    expect(await processed()).toBe(before + 3);
    expect(await position(p1)).toEqual({ received: 1, issued: 0 });
    expect(await group(g1)).toEqual({ delegations: 2, decisions: 1 });
    expect(await sql(`SELECT count(*)::int AS n FROM settings.delegation_projection`)).toEqual([{ n: 2 }]);
  });

  it('updated: the delegation moves to its new recipient, pathways and groups', async () => {
    d1 = { ...d1, recipientPositionId: p3, pathways: ['Direct Line'], groupIds: [g2] };
    await publish(['updated', d1]);
    expect(await position(p1)).toEqual({ received: 0, issued: 0 });
    expect(await position(p3)).toEqual({ received: 2, issued: 0 });
    expect(await position(p2)).toEqual({ received: 0, issued: 1 });
    expect(await group(g1)).toEqual({ delegations: 1, decisions: 1 });
    expect(await group(g2)).toEqual({ delegations: 2, decisions: 1 });
    expect(await matching('delegationPathway=Matrix')).toEqual([]);
    expect(await matching('delegationPathway=Direct%20Line')).toEqual([p3]);
    expect(await matching(`delegationIssuerPositionId=${p2}`)).toEqual([p3]);
  });

  it('with versions, an older event arriving after a newer one changes nothing (redelivery out of order)', async () => {
    const d = delegation(h.demo.id, { decisionId: randomUUID(), issuerType: 'ROOT_AUTHORITY', recipientType: 'POSITION_ONLY', recipientPositionId: p1, pathways: ['Functional'], groupIds: [] });
    const before = await position(p1);
    await publish(['issued', { ...d, version: 1 }], ['updated', { ...d, version: 3, recipientPositionId: p2 }]);
    expect(await position(p2)).toMatchObject({ received: 1 });
    // Version 2 arrives late: the projection keeps version 3.
    await publish(['updated', { ...d, version: 2, recipientPositionId: p1 }]);
    expect(await position(p2)).toMatchObject({ received: 1 });
    expect(await position(p1)).toEqual(before);
    const [row] = await sql<{ version: string; recipient_position_id: string }>(`SELECT version, recipient_position_id FROM settings.delegation_projection WHERE delegation_id = $1`, [d.delegationId]);
    expect(row).toEqual({ version: '3', recipient_position_id: p2 });
    // A revocation counts whatever its version; the version never goes back.
    await publish(['revoked', { ...d, version: 2 }]);
    expect(await position(p2)).toMatchObject({ received: 0 });
    expect((await sql<{ version: string }>(`SELECT version FROM settings.delegation_projection WHERE delegation_id = $1`, [d.delegationId]))[0].version).toBe('3');
  });

  it('revoked stops counting and stops matching; a later issued/updated does not bring it back', async () => {
    await publish(['revoked', d2]);
    expect(await position(p3)).toEqual({ received: 1, issued: 0 });
    expect(await group(g1)).toEqual({ delegations: 0, decisions: 0 });
    expect(await group(g2)).toEqual({ delegations: 1, decisions: 1 });
    expect(await matching('delegationIssuerType=ROOT_AUTHORITY')).toEqual([]);
    expect(await matching(`delegationIssuerUserId=${u1}`)).toEqual([]);

    await publish(['issued', d2], ['updated', { ...d2, pathways: ['Matrix'] }], ['revoked', d2]);
    expect(await position(p3)).toEqual({ received: 1, issued: 0 });
    expect(await group(g1)).toEqual({ delegations: 0, decisions: 0 });
    expect(await matching('delegationIssuerType=ROOT_AUTHORITY')).toEqual([]);
    const [row] = await sql<{ revoked_on: Date | null; pathways: string[] }>(`SELECT revoked_on, pathways FROM settings.delegation_projection WHERE delegation_id = $1`, [
      d2.delegationId,
    ]);
    expect(row.revoked_on).not.toBeNull();

    // A revocation of a delegation never seen is kept: the issue arriving late does not count it.
    const late = delegation(h.demo.id, { recipientPositionId: p1, issuerPositionId: p2 });
    await publish(['revoked', late], ['issued', late]);
    expect(await position(p1)).toEqual({ received: 0, issued: 0 });
    expect(await position(p2)).toEqual({ received: 0, issued: 1 });
  });

  it("an event naming another tenant's existing delegation id changes nothing; another tenant's delegations never count here", async () => {
    const hijack = { ...d1, tenantId: h.other.id, recipientPositionId: p1, issuerPositionId: p1, groupIds: [g1] };
    await publish(['updated', hijack], ['revoked', hijack]);
    expect(await position(p1)).toEqual({ received: 0, issued: 0 });
    expect(await position(p3)).toEqual({ received: 1, issued: 0 });
    expect(await group(g2)).toEqual({ delegations: 1, decisions: 1 });
    const [row] = await sql<{ tenant_id: string; revoked_on: Date | null }>(`SELECT tenant_id, revoked_on FROM settings.delegation_projection WHERE delegation_id = $1`, [
      d1.delegationId,
    ]);
    expect(row).toEqual({ tenant_id: h.demo.id, revoked_on: null });

    // A new delegation of Other Co naming Demo Co's position and group: stored under Other Co, counted nowhere here.
    await publish(['issued', delegation(h.other.id, { issuerType: 'ROOT_AUTHORITY', recipientPositionId: p1, issuerPositionId: p2, groupIds: [g1] })]);
    expect(await position(p1)).toEqual({ received: 0, issued: 0 });
    expect(await position(p2)).toEqual({ received: 0, issued: 1 });
    expect(await group(g1)).toEqual({ delegations: 0, decisions: 0 });
    expect(await matching('delegationIssuerType=ROOT_AUTHORITY')).toEqual([]);
  });

  it('input is read defensively: ids that are not UUIDs become null, arrays are bounded', async () => {
    const odd = delegation(h.demo.id, {
      issuerType: 'SPECIFIC_PERSONNEL',
      issuerUserId: 'bob' as never,
      recipientPositionId: p1,
      pathways: [...Array.from({ length: 80 }, (_, i) => `Path ${i}`), 'x'.repeat(500)],
      groupIds: ['not-a-group', g1] as never,
    });
    await publish(['issued', odd]);
    const [row] = await sql<{ issuer_user_id: string | null; pathways: string[]; group_ids: string[] }>(
      `SELECT issuer_user_id, pathways, group_ids FROM settings.delegation_projection WHERE delegation_id = $1`,
      [odd.delegationId],
    );
    expect(row.issuer_user_id).toBeNull();
    expect(row.pathways).toHaveLength(50);
    expect(row.group_ids).toEqual([g1]);
    expect(await position(p1)).toEqual({ received: 1, issued: 0 });
    expect(await group(g1)).toEqual({ delegations: 1, decisions: 1 });
    expect(await matching('delegationIssuerType=SPECIFIC_PERSONNEL&delegationPathway=Path%207')).toEqual([p1]);
  });

  it('redelivered for real: with its consumer lost, the restarted service gets every event of the stream again and changes nothing', async () => {
    const snapshot = async () => ({
      positions: [await position(p1), await position(p2), await position(p3)],
      groups: [await group(g1), await group(g2)],
      rows: await sql(`SELECT * FROM settings.delegation_projection ORDER BY delegation_id`),
      processed: await processed(),
    });
    const before = await snapshot();
    const stream = h.svc.ns.subjects.eventsStream;
    const durable = h.svc.ns.subjects.durable(CONSUMER);
    const nc = await connect({ servers: NATS_URL });
    try {
      const jsm = await nc.jetstreamManager();
      await h.svc.app.close();
      await jsm.consumers.delete(stream, durable);
      await h.restart();
      // The new consumer starts from the beginning of the stream: every delegation event is delivered again, and acknowledged.
      await until(async () => {
        const info = await jsm.consumers.info(stream, durable);
        return info.delivered.consumer_seq > 0 && info.num_pending === 0 && info.num_ack_pending === 0 && info;
      }, 'every event delivered again and acknowledged', 10_000);
    } finally {
      await nc.close();
    }
    expect(await snapshot()).toEqual(before);
  });
});
