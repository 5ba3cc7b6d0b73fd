import { randomUUID } from 'node:crypto';
import { expectErrorBody, publishEvent, startHarness, until } from '@ddm/testing';
import { actionsApp, ActionsHarness } from './fixtures/actions-app';

const PATH = '/actions/v1/actions';

interface ActionRow {
  id: string;
  system_kind: string;
  status_key: string;
  owner_id: string | null;
  due_date: Date | null;
  action_name: string;
  assignees: string[];
}

/**
 * Attestation actions (e2e: the decision area's attestation events, published as its relay would):
 * a requested event opens one Attestation action per (campaign, delegation) for the holders, due at
 * the campaign's due date; a holder answering it completes it and publishes
 * evt.actions.attestation.responded for the decision area; an answer recorded there completes it,
 * the due date passing cancels it.
 */
describe('attestation actions (e2e)', () => {
  let h: ActionsHarness;
  let owner: string, holder: string, other: string;

  const actionsOf = (causeKey: string) =>
    h.db.query<ActionRow>(
      `SELECT a.id, a.system_kind, a.status_key, a.owner_id, a.due_date, a.action_name,
              ARRAY(SELECT aa.assignee_id FROM actions.action_assignees aa WHERE aa.action_id = a.id ORDER BY aa.position)::text[] AS assignees
         FROM actions.actions a WHERE a.tenant_id = $1 AND a.cause_key = $2`,
      [h.demo.id, causeKey],
    );
  const item = (holderUserIds: string[], dueDate = new Date(Date.now() + 3_600_000).toISOString()) => ({
    tenantId: h.demo.id,
    campaignId: randomUUID(),
    campaignName: 'Q3 review',
    delegationId: randomUUID(),
    delegationDisplayId: '10021',
    decisionId: randomUUID(),
    recipientType: 'SPECIFIC_PERSONNEL',
    recipientUserId: holderUserIds[0] ?? null,
    recipientPositionId: null,
    issuerUserId: owner,
    requestedById: owner,
    dueDate,
  });
  const causeOf = (e: { campaignId: string; delegationId: string }) => `attestation:${e.campaignId}:${e.delegationId}`;
  const opened = async (e: ReturnType<typeof item>) => (await until(async () => (await actionsOf(causeOf(e)))[0], `the Attestation action of ${e.delegationId}`, 15_000)) as ActionRow;
  const answer = (actionId: string, body: object, token: string) => h.svc.http.post(`${PATH}/${actionId}/attestation-response`, { token, body });
  const outboxed = (subject: string, actionId: string) =>
    h.db.query<{ payload: Record<string, unknown> }>(`SELECT payload FROM actions.outbox WHERE subject = $1 AND payload->>'actionId' = $2`, [subject, actionId]);

  beforeAll(async () => {
    h = await startHarness(actionsApp);
    owner = h.users.get('admin@demo.test')!;
    holder = h.users.get('user@demo.test')!;
    other = h.users.get('auditor@demo.test')!;
  });
  afterAll(() => h?.close());

  it('a requested event opens one Attestation action for the holders, owned by the campaign opener, due at its due date, however often it arrives', async () => {
    const e = item([holder]);
    await publishEvent(h.svc, 'evt.decision.attestation.requested', { ...e, holderUserIds: [holder] });
    await publishEvent(h.svc, 'evt.decision.attestation.requested', { ...e, holderUserIds: [holder] });
    const action = await opened(e);
    // A later marker proves the duplicate was taken too (one consumer, in order).
    const marker = item([holder]);
    await publishEvent(h.svc, 'evt.decision.attestation.requested', { ...marker, holderUserIds: [holder] });
    await opened(marker);
    expect(await actionsOf(causeOf(e))).toEqual([
      { id: action.id, system_kind: 'ATTESTATION', status_key: 'TODO', owner_id: owner, due_date: new Date(e.dueDate), action_name: 'Attest delegation 10021 (Q3 review)', assignees: [holder] },
    ]);
    const view = await h.svc.http.get(`${PATH}/${action.id}`, { token: h.tokens.user });
    expect(view.body.data).toMatchObject({ isSystemGenerated: true, delegationId: e.delegationId, decisionId: e.decisionId, ownerId: owner, dueDate: e.dueDate, actionType: { type: 'REVIEW' } });
  });

  it('its holder answers it: the action is Completed and evt.actions.attestation.responded carries the answer; a non-assignee is a 403, a second answer a 409', async () => {
    const e = item([holder]);
    await publishEvent(h.svc, 'evt.decision.attestation.requested', { ...e, holderUserIds: [holder] });
    const action = await opened(e);
    // Completing it like any other action would leave the campaign without an answer.
    expectErrorBody(await h.svc.http.patch(`${PATH}/${action.id}/assignee/status`, { token: h.tokens.user, body: { status: 'Completed' } }), 409);
    expectErrorBody(await answer(action.id, { outcome: 'CONFIRMED' }, h.tokens.auditor), 403);
    expectErrorBody(await answer(action.id, { outcome: 'MAYBE' }, h.tokens.user), 400);
    expectErrorBody(await answer(action.id, { outcome: 'CONFIRMED', comment: 'x'.repeat(2001) }, h.tokens.user), 400);

    const res = await answer(action.id, { outcome: 'DISPUTED', comment: '  Not mine any more  ' }, h.tokens.user);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Attestation answered successfully');
    expect(res.body.data).toMatchObject({ id: action.id, status: { actionStatusName: 'Completed' } });
    expect(res.body.data.assignees[0]).toMatchObject({ actionStatusName: 'Completed', actionTakenDate: expect.any(String) });
    const [responded] = await outboxed('evt.actions.attestation.responded', action.id);
    expect(responded.payload).toEqual({
      tenantId: h.demo.id, actionId: action.id, campaignId: e.campaignId, delegationId: e.delegationId, outcome: 'DISPUTED', comment: 'Not mine any more',
      respondedById: holder, respondedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    const completed = await h.db.query(`SELECT 1 FROM actions.outbox WHERE subject = 'evt.actions.action.completed' AND payload->'action'->>'id' = $1`, [action.id]);
    expect(completed).toHaveLength(1);
    expectErrorBody(await answer(action.id, { outcome: 'CONFIRMED' }, h.tokens.user), 409);
    expect(await outboxed('evt.actions.attestation.responded', action.id)).toHaveLength(1);
  });

  it('only an open Attestation action before its due date takes an answer', async () => {
    const late = item([holder], new Date(Date.now() - 60_000).toISOString());
    await publishEvent(h.svc, 'evt.decision.attestation.requested', { ...late, holderUserIds: [holder] });
    const action = await opened(late);
    expectErrorBody(await answer(action.id, { outcome: 'CONFIRMED' }, h.tokens.user), 409);
    const manual = await h.svc.http.post(PATH, { token: h.tokens.admin, body: { actionName: 'Not an attestation', assigneeIds: [holder] } });
    expect(manual.status).toBe(200);
    expectErrorBody(await answer(manual.body.data.id, { outcome: 'CONFIRMED' }, h.tokens.user), 409);
    expectErrorBody(await answer(randomUUID(), { outcome: 'CONFIRMED' }, h.tokens.user), 404);
    expect(await outboxed('evt.actions.attestation.responded', action.id)).toHaveLength(0);
  });

  it('an answer recorded in the decision area completes the action, the due date passing cancels it; nobody holding it opens none', async () => {
    const answered = item([holder, other]);
    const overdue = item([holder]);
    const nobody = item([]);
    for (const e of [answered, overdue, nobody]) await publishEvent(h.svc, 'evt.decision.attestation.requested', { ...e, holderUserIds: e === nobody ? [] : e === answered ? [holder, other] : [holder] });
    expect((await opened(answered)).assignees).toEqual([holder, other]);
    await opened(overdue);

    await publishEvent(h.svc, 'evt.decision.attestation.responded', { ...answered, outcome: 'CONFIRMED', comment: null, respondedById: other, respondedAt: new Date().toISOString() });
    await publishEvent(h.svc, 'evt.decision.attestation.overdue', { ...overdue, suspended: true, notifyUserIds: [owner, holder] });
    await until(async () => (await actionsOf(causeOf(answered)))[0].status_key === 'COMPLETED', 'the answered attestation completed', 15_000);
    await until(async () => (await actionsOf(causeOf(overdue)))[0].status_key === 'CANCELED', 'the overdue attestation canceled', 15_000);
    // The events were taken in order: by now the one nobody holds was taken too, and opened nothing.
    expect(await actionsOf(causeOf(nobody))).toEqual([]);
    const done = await actionsOf(causeOf(answered));
    expectErrorBody(await answer(done[0].id, { outcome: 'DISPUTED' }, h.tokens.user), 409);
  });

  it('a delegation that ends cancels its open Attestation action', async () => {
    const e = item([holder]);
    await publishEvent(h.svc, 'evt.decision.attestation.requested', { ...e, holderUserIds: [holder] });
    await opened(e);
    await publishEvent(h.svc, 'evt.decision.delegation.revoked', {
      tenantId: h.demo.id, delegationId: e.delegationId, decisionId: e.decisionId, pathways: [], groupIds: [], issuerType: 'ROOT_AUTHORITY', issuerUserId: owner,
      issuerPositionId: null, recipientType: 'SPECIFIC_PERSONNEL', recipientUserId: holder, recipientPositionId: null, status: 'REVOKED', version: 2,
    });
    await until(async () => (await actionsOf(causeOf(e)))[0].status_key === 'CANCELED', 'the attestation of the revoked delegation canceled', 15_000);
  });
});
