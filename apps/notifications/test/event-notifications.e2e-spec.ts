import { randomUUID } from 'node:crypto';
import { ActionAssignedEvent, DocumentOversightEvent, JobCompletedEvent } from '@ddm/contracts';
import { delegationEvent, publishEvent, startHarness, until } from '@ddm/testing';
import { notificationsApp, NotificationsHarness } from './fixtures/notifications-app';

interface Made {
  user_id: string;
  template_key: string;
  title: string;
  action_url: string;
  entity_type: string;
  entity_id: string;
}

describe('notifications from the other areas’ events (e2e, published events, each twice)', () => {
  let h: NotificationsHarness;
  let issuer: string;
  let recipient: string;
  let third: string;
  let stranger: string;

  const made = (entityId: string) =>
    h.db.query<Made>(`SELECT user_id, template_key, title, action_url, entity_type, entity_id FROM notifications.notifications WHERE entity_id = $1 ORDER BY template_key, user_id`, [entityId]);
  const processed = async (consumer: string) =>
    Number((await h.db.query<{ n: string }>(`SELECT count(*) AS n FROM notifications.processed_messages WHERE consumer = $1`, [consumer]))[0].n);

  /** Publishes the event twice (two messages, as a producer retrying would), waits until both are processed, answers what the entity got. */
  async function twice(consumer: string, subject: string, payload: object, entityId: string): Promise<Made[]> {
    const before = await processed(consumer);
    await publishEvent(h.svc, subject, payload);
    await publishEvent(h.svc, subject, payload);
    await until(async () => (await processed(consumer)) >= before + 2, `${subject} processed twice`);
    return made(entityId);
  }

  beforeAll(async () => {
    h = await startHarness(notificationsApp);
    issuer = h.user('manager@demo.test').id;
    recipient = h.user('user@demo.test').id;
    third = h.user('auditor@demo.test').id;
    stranger = h.user('admin@other.test').id;
  });
  afterAll(() => h?.close());

  it('a delegation issued tells its recipient, once, linking to the delegation', async () => {
    const e = delegationEvent(h.demo.id, { issuerUserId: issuer, recipientUserId: recipient, delegationDisplayId: '10042', version: 1, status: 'ACTIVE' });
    const rows = await twice('notifications-delegations', 'evt.decision.delegation.issued', e, e.delegationId);
    expect(rows).toEqual([
      { user_id: recipient, template_key: 'DELEGATION_ISSUED', title: 'Delegation 10042 issued to you', action_url: `http://localhost:8080/delegations/${e.delegationId}`, entity_type: 'delegation', entity_id: e.delegationId },
    ]);
  });

  it('POSITION_ONLY: whoever holds the position now is told; a person of another tenant never', async () => {
    const positionId = randomUUID();
    const holder = randomUUID();
    const user = (id: string, tenantId: string, email: string) => ({
      tenantId,
      user: { id, email, name: 'Holder', displayName: null, profileImageUrl: null, mobilePhone: null, status: 'ACTIVE', positions: [{ id: positionId, positionName: 'CFO', autoProvisioned: false }] },
    });
    await publishEvent(h.svc, 'evt.auth.user.created', user(holder, h.demo.id, 'holder@demo.test'));
    // The same position id claimed in another tenant's event: never a recipient of Demo Co's delegation.
    await publishEvent(h.svc, 'evt.auth.user.created', user(stranger, h.other.id, 'admin@other.test'));
    await until(async () => (await h.db.query(`SELECT 1 FROM notifications.user_projection WHERE id = $1 AND $2 = ANY(position_ids)`, [holder, positionId])).length > 0, 'the holder projected');
    const e = delegationEvent(h.demo.id, { issuerUserId: issuer, recipientType: 'POSITION_ONLY', recipientPositionId: positionId, version: 1 });
    const rows = await twice('notifications-delegations', 'evt.decision.delegation.issued', e, e.delegationId);
    expect(rows.map((r) => [r.user_id, r.template_key])).toEqual([[holder, 'DELEGATION_ISSUED']]);
    // A person named who is not a member of the event's tenant gets nothing either.
    const other = delegationEvent(h.demo.id, { issuerUserId: issuer, recipientUserId: stranger, version: 1 });
    expect(await twice('notifications-delegations', 'evt.decision.delegation.issued', other, other.delegationId)).toEqual([]);

    // The holder leaves the position and a successor takes it: the next delegation to it tells the successor only.
    const successor = randomUUID();
    await publishEvent(h.svc, 'evt.auth.user.updated', { ...user(holder, h.demo.id, 'holder@demo.test'), user: { ...user(holder, h.demo.id, 'holder@demo.test').user, positions: [] } });
    await publishEvent(h.svc, 'evt.auth.user.created', user(successor, h.demo.id, 'successor@demo.test'));
    await until(
      async () => (await h.db.query<{ user_id: string }>(`SELECT user_id FROM notifications.position_holder_projection WHERE position_id = $1 AND tenant_id = $2`, [positionId, h.demo.id])).map((r) => r.user_id).join() === successor,
      'the position handed over',
    );
    const next = delegationEvent(h.demo.id, { issuerUserId: issuer, recipientType: 'POSITION_ONLY', recipientPositionId: positionId, version: 1 });
    const told = await twice('notifications-delegations', 'evt.decision.delegation.issued', next, next.delegationId);
    expect(told.map((r) => [r.user_id, r.template_key])).toEqual([[successor, 'DELEGATION_ISSUED']]);
  });

  it('pending acceptance -> recipient; accepted and rejected -> issuer; revoked, suspended, invalidated -> both; pending approval -> none', async () => {
    const base = delegationEvent(h.demo.id, { issuerUserId: issuer, recipientUserId: recipient, delegationDisplayId: '10050', notifyUserIds: [issuer, recipient] });
    const cases: [string, object, [string, string][]][] = [
      ['evt.decision.delegation.pending', { pendingStage: 'ACCEPTANCE', version: 1 }, [[recipient, 'DELEGATION_PENDING_ACCEPTANCE']]],
      ['evt.decision.delegation.pending', { pendingStage: 'APPROVAL', version: 2, notifyUserIds: [issuer, recipient, third] }, []],
      ['evt.decision.delegation.accepted', { version: 3 }, [[issuer, 'DELEGATION_ACCEPTED']]],
      ['evt.decision.delegation.rejected', { version: 4 }, [[issuer, 'DELEGATION_REJECTED']]],
      ['evt.decision.delegation.suspended', { version: 5 }, [[issuer, 'DELEGATION_SUSPENDED'], [recipient, 'DELEGATION_SUSPENDED']]],
      ['evt.decision.delegation.invalidated', { version: 6 }, [[issuer, 'DELEGATION_INVALIDATED'], [recipient, 'DELEGATION_INVALIDATED']]],
      ['evt.decision.delegation.revoked', { version: 7, status: 'REVOKED' }, [[issuer, 'DELEGATION_REVOKED'], [recipient, 'DELEGATION_REVOKED']]],
    ];
    for (const [subject, extra, expected] of cases) {
      const e = { ...base, delegationId: randomUUID(), ...extra };
      const rows = await twice('notifications-delegations', subject, e, e.delegationId);
      expect([subject, rows.map((r) => [r.user_id, r.template_key]).sort()]).toEqual([subject, [...expected].sort()]);
    }
  });

  it('an action assigned -> each new assignee; overdue -> owner and assignees', async () => {
    const action = {
      id: randomUUID(),
      actionId: '10007',
      actionName: 'Sign the <contract>',
      ownerId: issuer,
      assigneeIds: [recipient, third],
      actionStatusId: randomUUID(),
      statusKey: 'TODO',
      dueDate: '2026-01-31',
      isSystemGenerated: false,
      systemKind: null,
      decisionId: null,
      delegationId: null,
      documentId: null,
      isDeleted: false,
      version: 2,
    };
    const assigned: ActionAssignedEvent = { tenantId: h.demo.id, action, changedBy: issuer, newAssigneeIds: [third] };
    let rows = await twice('notifications-actions', 'evt.actions.action.assigned', assigned, action.id);
    expect(rows.map((r) => [r.user_id, r.template_key])).toEqual([[third, 'ACTION_ASSIGNED']]);
    expect(rows[0].title).toBe('New action 10007: Sign the <contract>');
    expect(rows[0].action_url).toBe(`http://localhost:8080/actions/${action.id}`);
    rows = await twice('notifications-actions', 'evt.actions.action.overdue', { tenantId: h.demo.id, action: { ...action, statusKey: 'OVERDUE', version: 3 }, changedBy: null }, action.id);
    expect(rows.filter((r) => r.template_key === 'ACTION_OVERDUE').map((r) => r.user_id).sort()).toEqual([issuer, recipient, third].sort());
    const [message] = await h.db.query<{ message: string }>(`SELECT message FROM notifications.notifications WHERE entity_id = $1 AND template_key = 'ACTION_OVERDUE' LIMIT 1`, [action.id]);
    expect(message.message).toContain('Sign the &lt;contract&gt;');
  });

  it('a document review or approval requested -> the reviewers or approvers, once per request', async () => {
    const documentId = randomUUID();
    const e = (cycleId: string, assigneeUserIds: string[]): DocumentOversightEvent => ({
      tenantId: h.demo.id,
      documentId,
      documentDisplayId: '10003',
      documentName: 'Travel policy',
      cycleId,
      ownerId: issuer,
      assigneeUserIds,
      actedById: null,
      comment: null,
      status: 'REVIEW_PENDING',
    });
    let rows = await twice('notifications-documents', 'evt.document.oversight.review-requested', e(randomUUID(), [recipient]), documentId);
    expect(rows.map((r) => [r.user_id, r.template_key, r.title])).toEqual([[recipient, 'DOCUMENT_REVIEW_REQUESTED', 'Review requested: Travel policy']]);
    rows = await twice('notifications-documents', 'evt.document.oversight.approval-requested', { ...e(randomUUID(), [third]), status: 'APPROVAL_PENDING' }, documentId);
    expect(rows.map((r) => [r.user_id, r.template_key])).toEqual([
      [third, 'DOCUMENT_APPROVAL_REQUESTED'],
      [recipient, 'DOCUMENT_REVIEW_REQUESTED'],
    ]);
    // A new review cycle is a new request: told again.
    rows = await twice('notifications-documents', 'evt.document.oversight.review-requested', e(randomUUID(), [recipient]), documentId);
    expect(rows.filter((r) => r.template_key === 'DOCUMENT_REVIEW_REQUESTED').length).toBe(2);
  });

  it('a bulk job completed -> its requester; without a requester nobody', async () => {
    const job: JobCompletedEvent = { tenantId: h.demo.id, jobId: randomUUID(), kind: 'bulk-duplicate', status: 'COMPLETED_WITH_ERRORS', total: 10, succeeded: 8, failed: 2, requestedBy: issuer };
    const rows = await twice('notifications-jobs', 'evt.decision.job.completed', job, job.jobId);
    expect(rows.map((r) => [r.user_id, r.template_key, r.title])).toEqual([[issuer, 'JOB_COMPLETED', 'Your bulk-duplicate job ended: COMPLETED_WITH_ERRORS']]);
    const anonymous = { ...job, jobId: randomUUID(), requestedBy: null };
    expect(await twice('notifications-jobs', 'evt.decision.job.completed', anonymous, anonymous.jobId)).toEqual([]);
  });

  it('publishes evt.notifications.notification.created for each notification made from an event', async () => {
    const e = delegationEvent(h.demo.id, { issuerUserId: issuer, recipientUserId: recipient, version: 9 });
    const [row] = await twice('notifications-delegations', 'evt.decision.delegation.issued', e, e.delegationId);
    const events = await h.db.query<{ payload: any }>(`SELECT payload FROM notifications.outbox WHERE subject = 'evt.notifications.notification.created' AND payload->'notification'->>'entityId' = $1`, [e.delegationId]);
    expect(events.map((x) => x.payload.notification.userId)).toEqual([row.user_id]);
  });
});
